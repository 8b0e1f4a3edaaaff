package analysis_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emobench/emobench/analysis"
)

// challenger23 is the launch temperature (°F) and whether any O-ring was
// damaged (Fail > 0) on the 23 shuttle flights before Challenger, from
// Dalal, Fowlkes & Hoadley (1989, JASA 84:945–957, Table 1), as in R's
// alr4::Challeng.
var challenger23 = struct {
	temp []float64
	fail []int
}{
	temp: []float64{53, 57, 58, 63, 66, 67, 67, 67, 68, 69, 70, 70, 70, 70, 72, 73, 75, 75, 76, 76, 78, 79, 81},
	fail: []int{1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0},
}

// challenger24 is the 24-launch version printed in Montgomery & Runger,
// Applied Statistics and Probability for Engineers (3rd ed., 2003, §S11-9).
var challenger24 = struct {
	temp []float64
	fail []int
}{
	temp: []float64{53, 56, 57, 63, 66, 67, 67, 67, 68, 69, 70, 70, 70, 70, 72, 73, 75, 75, 76, 76, 78, 79, 80, 81},
	fail: []int{1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0},
}

func logitDesign(xs []float64, ys []int) ([][]float64, []bool) {
	x := make([][]float64, len(xs))
	y := make([]bool, len(ys))
	for i := range xs {
		x[i] = []float64{xs[i]}
		y[i] = ys[i] == 1
	}
	return x, y
}

func TestLogisticFit(t *testing.T) {
	tests := []struct {
		name               string
		temp               []float64
		fail               []int
		coef, se, z, p     [2]float64
		deviance, nullDev  float64
		coefTol, seTol, zp float64
	}{
		{
			// R: summary(glm(Fail > 0 ~ Temp, family = binomial, data =
			// alr4::Challeng)), printed in the BYU-Idaho Statistics Notebook,
			// "Challenger logistic regression" example. Null deviance by
			// hand: −2[7 ln(7/23) + 16 ln(16/23)] = 28.267.
			name: "challenger 23 flights (R glm)", temp: challenger23.temp, fail: challenger23.fail,
			coef: [2]float64{15.0429, -0.2322}, se: [2]float64{7.3786, 0.1082},
			z: [2]float64{2.039, -2.145}, p: [2]float64{0.0415, 0.0320},
			deviance: 20.315, nullDev: 28.267,
			coefTol: 5e-5, seTol: 5e-5, zp: 5e-4,
		},
		{
			// Minitab in Montgomery & Runger (2003, §S11-9): constant 10.875
			// (SE 5.703), temperature −0.17132 (SE 0.08344), z 1.91 and −2.05
			// (Minitab prints |z|), p 0.057 and 0.040; R glm gives the same
			// with null deviance 28.975 and residual deviance 23.03
			// (Memorial University ST4590 notes, "Logistic regression for
			// binary responses").
			name: "challenger 24 launches (Minitab, R)", temp: challenger24.temp, fail: challenger24.fail,
			coef: [2]float64{10.875, -0.17132}, se: [2]float64{5.703, 0.08344},
			z: [2]float64{1.907, -2.053}, p: [2]float64{0.057, 0.040},
			deviance: 23.03, nullDev: 28.975,
			coefTol: 5e-4, seTol: 5e-4, zp: 5e-3,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, y := logitDesign(tt.temp, tt.fail)
			m, err := analysis.LogisticFit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			if !m.Converged {
				t.Fatalf("Converged = false after %d iterations", m.Iterations)
			}
			for j := range 2 {
				if got, want := m.Coef[j], tt.coef[j]; math.Abs(got-want) > tt.coefTol*math.Max(1, math.Abs(want)) {
					t.Errorf("Coef[%d] = %.5f, want %.5f", j, got, want)
				}
				if got, want := m.SE[j], tt.se[j]; math.Abs(got-want) > tt.seTol*math.Max(1, want) {
					t.Errorf("SE[%d] = %.5f, want %.5f", j, got, want)
				}
				if got, want := m.Z[j], tt.z[j]; math.Abs(got-want) > tt.zp {
					t.Errorf("Z[%d] = %.4f, want %.4f", j, got, want)
				}
				if got, want := m.P[j], tt.p[j]; math.Abs(got-want) > tt.zp {
					t.Errorf("P[%d] = %.4f, want %.4f", j, got, want)
				}
				// 95% Wald interval by its definition.
				lo, hi := m.Coef[j]-1.959963985*m.SE[j], m.Coef[j]+1.959963985*m.SE[j]
				if math.Abs(m.CI[j].Lo-lo) > 1e-6 || math.Abs(m.CI[j].Hi-hi) > 1e-6 || m.CI[j].Level != 0.95 {
					t.Errorf("CI[%d] = %v, want [%v, %v] at 0.95", j, m.CI[j], lo, hi)
				}
			}
			if got, want := m.Deviance, tt.deviance; math.Abs(got-want) > 5e-3 {
				t.Errorf("Deviance = %.4f, want %.4f", got, want)
			}
			if got, want := m.NullDeviance, tt.nullDev; math.Abs(got-want) > 5e-4 {
				t.Errorf("NullDeviance = %.4f, want %.4f", got, want)
			}
			if got, want := m.N, len(y); got != want {
				t.Errorf("N = %v, want %v", got, want)
			}
		})
	}
}

func TestLogisticFit_ErrSeparation(t *testing.T) {
	tests := map[string][][]float64{
		"complete":       {{1}, {2}, {3}, {4}, {5}, {6}},
		"quasi-complete": {{1}, {2}, {3}, {3}, {4}, {5}},
	}
	y := []bool{false, false, false, true, true, true}
	for name, x := range tests {
		m, err := analysis.LogisticFit(x, y)
		if !errors.Is(err, analysis.ErrSeparation) {
			t.Errorf("%s: err = %v, want ErrSeparation", name, err)
		}
		if len(m.Coef) != 2 {
			t.Errorf("%s: Coef = %v, want the last iterate", name, m.Coef)
		}
	}
}

func TestLogisticFit_ErrSingular(t *testing.T) {
	y := []bool{false, true, false, true}
	tests := map[string][][]float64{
		"empty":            nil,
		"fewer rows":       {{1, 2}, {2, 3}},
		"constant column":  {{1}, {1}, {1}, {1}},
		"zero column":      {{0, 1}, {0, 2}, {0, 3}, {0, 5}},
		"collinear":        {{1, 2}, {2, 4}, {3, 6}, {5, 10}},
		"affine collinear": {{1, 3}, {2, 5}, {3, 7}, {5, 11}},
	}
	for name, x := range tests {
		yy := y
		if len(x) < len(y) {
			yy = y[:len(x)]
		}
		if _, err := analysis.LogisticFit(x, yy); !errors.Is(err, analysis.ErrSingular) {
			t.Errorf("%s: err = %v, want ErrSingular", name, err)
		}
	}
}

func TestLogisticFit_NonFinite(t *testing.T) {
	x := [][]float64{{1}, {math.NaN()}, {3}}
	if _, err := analysis.LogisticFit(x, []bool{true, false, true}); err == nil {
		t.Fatal("err = nil, want an error naming row 1")
	}
}

func TestLogisticFit_PanicsOnLengthMismatch(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	analysis.LogisticFit([][]float64{{1}, {2}}, []bool{true})
}

// simulateBalance draws n shares uniformly on [0, 1] and outcomes from
// logit P(pass) = b0 + b1·s + b2·s², seeded.
func simulateBalance(n int, b0, b1, b2 float64, seed uint64) ([]float64, []bool) {
	rng := rand.New(rand.NewPCG(seed, 0))
	shares := make([]float64, n)
	passed := make([]bool, n)
	for i := range shares {
		s := rng.Float64()
		shares[i] = s
		passed[i] = rng.Float64() < 1/(1+math.Exp(-(b0+b1*s+b2*s*s)))
	}
	return shares, passed
}

func TestBalanceRegression(t *testing.T) {
	tests := []struct {
		name         string
		b0, b1, b2   float64
		wantInterior bool
		vertex       float64 // true vertex −b1/(2·b2)
		vertexTol    float64
	}{
		// A middle balance wins: true vertex 0.5, P(pass) 0.5 there and
		// 0.12 at either end.
		{name: "interior", b0: -2, b1: 8, b2: -8, wantInterior: true, vertex: 0.5, vertexTol: 0.05},
		// Off-centre optimum at 0.7.
		{name: "off-centre", b0: -3, b1: 14, b2: -10, wantInterior: true, vertex: 0.7, vertexTol: 0.07},
		// Monotone: more tools, more success; no interior optimum.
		{name: "monotone", b0: -2, b1: 3, b2: 0, wantInterior: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shares, passed := simulateBalance(4000, tt.b0, tt.b1, tt.b2, 7)
			shares = append(shares, math.NaN()) // dropped
			passed = append(passed, true)
			fit, err := analysis.BalanceRegression(shares, passed)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := fit.N, 4000; got != want {
				t.Fatalf("N = %v, want %v", got, want)
			}
			if got, want := fit.Interior, tt.wantInterior; got != want {
				t.Fatalf("Interior = %v, want %v (coef %v, vertex %v)", got, want, fit.Model.Coef, fit.Vertex)
			}
			if tt.wantInterior {
				if math.Abs(fit.Vertex-tt.vertex) > tt.vertexTol {
					t.Errorf("Vertex = %.3f, want %.3f ± %.2f", fit.Vertex, tt.vertex, tt.vertexTol)
				}
				if p := fit.Model.P[2]; p > 1e-6 {
					t.Errorf("curvature p = %g, want < 1e-6", p)
				}
			}
			// The true coefficients lie within 4 SE of the estimates.
			for j, b := range []float64{tt.b0, tt.b1, tt.b2} {
				if d := math.Abs(fit.Model.Coef[j] - b); d > 4*fit.Model.SE[j] {
					t.Errorf("Coef[%d] = %.3f ± %.3f, true %v", j, fit.Model.Coef[j], fit.Model.SE[j], b)
				}
			}
		})
	}
}

func TestBalanceRegression_Empty(t *testing.T) {
	fit, err := analysis.BalanceRegression(nil, nil)
	if !errors.Is(err, analysis.ErrSingular) {
		t.Fatalf("err = %v, want ErrSingular", err)
	}
	if fit.Interior || !math.IsNaN(fit.Vertex) || fit.N != 0 {
		t.Fatalf("fit = %+v, want N 0, NaN vertex, not interior", fit)
	}
	// Two distinct shares cannot identify a quadratic.
	if _, err := analysis.BalanceRegression([]float64{0, 0, 1, 1}, []bool{true, false, true, false}); !errors.Is(err, analysis.ErrSingular) {
		t.Fatalf("two shares: err = %v, want ErrSingular", err)
	}
}

func TestCorrelation(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		x, y []float64
		want float64
	}{
		// By hand: Σdxdy = 6, Σdx² = 10, Σdy² = 6, r = 6/√60.
		{"pearson", []float64{1, 2, 3, 4, 5}, []float64{2, 4, 5, 4, 5}, 6 / math.Sqrt(60)},
		// Point-biserial by hand: (M1 − M0)/s_n · √(pq) = 0.4/√0.05 · 0.5.
		{"point-biserial", []float64{0.2, 0.4, 0.6, 0.8}, []float64{0, 0, 1, 1}, 0.4 / math.Sqrt(0.05) * 0.5},
		// NaN pairs are dropped, leaving the "pearson" case.
		{"nan dropped", []float64{1, 2, nan, 3, 4, 5, 9}, []float64{2, 4, 7, 5, 4, 5, nan}, 6 / math.Sqrt(60)},
		{"perfect negative", []float64{1, 2, 3}, []float64{3, 2, 1}, -1},
		{"constant", []float64{1, 2, 3}, []float64{4, 4, 4}, nan},
		{"one pair", []float64{1, nan}, []float64{2, 3}, nan},
		{"empty", nil, nil, nan},
	}
	for _, tt := range tests {
		got := analysis.Correlation(tt.x, tt.y)
		if math.IsNaN(tt.want) {
			if !math.IsNaN(got) {
				t.Errorf("%s: Correlation = %v, want NaN", tt.name, got)
			}
			continue
		}
		if math.Abs(got-tt.want) > tol {
			t.Errorf("%s: Correlation = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func ExampleLogisticFit() {
	// Challenger: O-ring damage on temperature, 23 flights (Dalal,
	// Fowlkes & Hoadley 1989).
	x, y := logitDesign(challenger23.temp, challenger23.fail)
	m, err := analysis.LogisticFit(x, y)
	if err != nil {
		panic(err)
	}
	for j, name := range []string{"(Intercept)", "temp"} {
		fmt.Printf("%-12s %8.4f %7.4f %6.3f %.4f\n", name, m.Coef[j], m.SE[j], m.Z[j], m.P[j])
	}
	fmt.Printf("deviance %.3f on %d df\n", m.Deviance, m.N-2)
	// Output:
	// (Intercept)   15.0429  7.3786  2.039 0.0415
	// temp          -0.2322  0.1082 -2.145 0.0320
	// deviance 20.315 on 21 df
}

func ExampleBalanceRegression() {
	// 100 trajectories at each share 0, 0.1, …, 1, of which passed the
	// expected count under logit P = −2 + 8s − 8s² (a peak at 0.5).
	var shares []float64
	var passed []bool
	for i := 0; i <= 10; i++ {
		s := float64(i) / 10
		k := int(math.Round(100 / (1 + math.Exp(-(-2 + 8*s - 8*s*s)))))
		for j := 0; j < 100; j++ {
			shares = append(shares, s)
			passed = append(passed, j < k)
		}
	}
	fit, err := analysis.BalanceRegression(shares, passed)
	if err != nil {
		panic(err)
	}
	fmt.Printf("b2 = %.2f, vertex = %.3f, interior = %v\n", fit.Model.Coef[2], fit.Vertex, fit.Interior)
	// Output:
	// b2 = -7.94, vertex = 0.500, interior = true
}

func ExampleCorrelation() {
	shares := []float64{0.2, 0.4, 0.6, 0.8, math.NaN()}
	abandoned := []float64{0, 0, 1, 1, 1} // point-biserial; the NaN share is dropped
	fmt.Printf("%.4f\n", analysis.Correlation(shares, abandoned))
	// Output:
	// 0.8944
}

// A finite MLE can have extreme fitted logits: here the two trajectories at
// share 0 fail and the quadratic pushes their logit far below −30, yet the
// fit converges to finite coefficients (the middle of the share range
// wins). Seen on the demo data; R's glm fits it with only a warning.
func TestBalanceRegression_ExtremeButFinite(t *testing.T) {
	var shares []float64
	var passed []bool
	add := func(share float64, pass, fail int) {
		for i := 0; i < pass; i++ {
			shares, passed = append(shares, share), append(passed, true)
		}
		for i := 0; i < fail; i++ {
			shares, passed = append(shares, share), append(passed, false)
		}
	}
	add(0, 0, 2)
	add(0.5, 9, 11)
	add(0.6, 30, 5)
	add(0.667, 60, 3)
	add(0.8, 80, 10)
	add(1, 2, 98)
	fit, err := analysis.BalanceRegression(shares, passed)
	if err != nil {
		t.Fatalf("BalanceRegression: %v, want a fit", err)
	}
	if !fit.Interior || fit.Vertex < 0.5 || fit.Vertex > 0.8 {
		t.Fatalf("vertex %.3f interior %v, want a middle optimum", fit.Vertex, fit.Interior)
	}
}

// MiddleWinsP by hand: the covariance is the inverse of XᵀWX at the
// printed coefficients (a 3×3 inverse by cofactors), and the p-value the
// larger of the one-sided Wald p-values of b1 > 0 and b1 + 2·b2 < 0.
func TestBalanceRegression_MiddleWinsP(t *testing.T) {
	// Success peaks near share 0.5, but only 24 trajectories: not significant.
	weak := struct {
		shares []float64
		passed []bool
	}{}
	for i, s := range []float64{0, 0.25, 0.5, 0.75, 1, 0, 0.25, 0.5, 0.75, 1, 0.5, 0.25, 0, 0.25, 0.5, 0.75, 1, 0, 0.25, 0.5, 0.75, 1, 0.5, 0.75} {
		weak.shares = append(weak.shares, s)
		weak.passed = append(weak.passed, (s > 0.1 && s < 0.9 && i%2 == 0) || i%5 == 0)
	}
	// The expected counts under logit P = −2 + 8s − 8s², 100 per share.
	var strongShares []float64
	var strongPassed []bool
	for i := 0; i <= 10; i++ {
		s := float64(i) / 10
		k := int(math.Round(100 / (1 + math.Exp(-(-2 + 8*s - 8*s*s)))))
		for j := 0; j < 100; j++ {
			strongShares, strongPassed = append(strongShares, s), append(strongPassed, j < k)
		}
	}
	// Monotone: success rises with the share.
	var monoShares []float64
	var monoPassed []bool
	for i := 0; i <= 10; i++ {
		s := float64(i) / 10
		for j := 0; j < 10; j++ {
			monoShares, monoPassed = append(monoShares, s), append(monoPassed, j < i)
		}
	}
	tests := []struct {
		name       string
		shares     []float64
		passed     []bool
		lo, hi     float64 // where MiddleWinsP must fall
		interior   bool
		wantSignif bool
	}{
		{"weak", weak.shares, weak.passed, 0.05, 1, true, false},
		{"strong", strongShares, strongPassed, 0, 1e-6, true, true},
		{"monotone", monoShares, monoPassed, 0.5, 1, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fit, err := analysis.BalanceRegression(tt.shares, tt.passed)
			if err != nil {
				t.Fatal(err)
			}
			b := fit.Model.Coef
			var info [3][3]float64
			for _, s := range tt.shares {
				p := 1 / (1 + math.Exp(-(b[0] + b[1]*s + b[2]*s*s)))
				x := [3]float64{1, s, s * s}
				for i := range 3 {
					for j := range 3 {
						info[i][j] += p * (1 - p) * x[i] * x[j]
					}
				}
			}
			cov := inverse3(info)
			for i := range 3 {
				for j := range 3 {
					if d := math.Abs(fit.Model.Cov[i][j] - cov[i][j]); d > 1e-6*math.Max(1, math.Abs(cov[i][j])) {
						t.Errorf("Cov[%d][%d] = %v, want %v", i, j, fit.Model.Cov[i][j], cov[i][j])
					}
				}
			}
			phi := func(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
			rises := 1 - phi(b[1]/math.Sqrt(cov[1][1]))
			falls := phi((b[1] + 2*b[2]) / math.Sqrt(cov[1][1]+4*cov[1][2]+4*cov[2][2]))
			want := math.Max(rises, falls)
			if got := fit.MiddleWinsP; math.Abs(got-want) > 1e-9 {
				t.Errorf("MiddleWinsP = %v, want %v", got, want)
			}
			if got := fit.MiddleWinsP; got < tt.lo || got > tt.hi {
				t.Errorf("MiddleWinsP = %v, want in [%v, %v]", got, tt.lo, tt.hi)
			}
			if fit.Interior != tt.interior {
				t.Errorf("Interior = %v, want %v (vertex %v)", fit.Interior, tt.interior, fit.Vertex)
			}
			if got := fit.MiddleWinsP < 0.05; got != tt.wantSignif {
				t.Errorf("significant = %v, want %v (p %v)", got, tt.wantSignif, fit.MiddleWinsP)
			}
		})
	}
	if fit, _ := analysis.BalanceRegression(nil, nil); !math.IsNaN(fit.MiddleWinsP) {
		t.Errorf("no fit: MiddleWinsP = %v, want NaN", fit.MiddleWinsP)
	}
}

// inverse3 inverts a 3×3 matrix by cofactors.
func inverse3(m [3][3]float64) [3][3]float64 {
	var c [3][3]float64
	for i := range 3 {
		for j := range 3 {
			r0, r1 := (i+1)%3, (i+2)%3
			c0, c1 := (j+1)%3, (j+2)%3
			c[j][i] = m[r0][c0]*m[r1][c1] - m[r0][c1]*m[r1][c0] // cyclic indices carry the sign
		}
	}
	det := m[0][0]*c[0][0] + m[0][1]*c[1][0] + m[0][2]*c[2][0]
	for i := range 3 {
		for j := range 3 {
			c[i][j] /= det
		}
	}
	return c
}

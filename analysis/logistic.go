package analysis

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// MethodWald is the Wald interval estimate ∓ z·SE, as stored in CI.Method.
const MethodWald = "wald"

// Errors returned by LogisticFit and BalanceRegression.
var (
	// ErrSeparation means the outcomes are (quasi-)completely separated by
	// the predictors, so the maximum-likelihood estimate does not exist
	// (Albert & Anderson 1984): coefficients diverge and fitted
	// probabilities reach 0 or 1.
	ErrSeparation = errors.New("logistic: separation: the maximum-likelihood estimate does not exist")
	// ErrNotConverged means IRLS did not meet its tolerance within
	// LogisticMaxIter iterations without showing separation.
	ErrNotConverged = errors.New("logistic: not converged")
	// ErrSingular means the design matrix (with its intercept column) does
	// not have full column rank: too few observations, a constant or
	// all-zero predictor, or collinear predictors.
	ErrSingular = errors.New("logistic: singular design")
)

// LogisticMaxIter is the iteration cap of LogisticFit, and LogisticTol its
// convergence tolerance on the relative change of the deviance,
// |D_t − D_{t−1}| / (|D_t| + 0.1), the criterion of R's glm.fit (whose
// default tolerance is 1e-8).
const (
	LogisticMaxIter = 50
	LogisticTol     = 1e-10
)

// LogisticModel is a fitted binary logistic regression
//
//	logit P(y=1 | x) = β₀ + β₁x₁ + … + β_p x_p
//
// Every slice has p+1 elements; index 0 is the intercept and index j ≥ 1 the
// coefficient of column j−1 of the caller's x.
type LogisticModel struct {
	Coef []float64 // β̂, the maximum-likelihood estimate
	// SE is the standard error sqrt(diag(I(β̂)⁻¹)), I = XᵀWX the Fisher
	// information with W = diag(p̂ᵢ(1−p̂ᵢ)).
	SE []float64
	// Cov is the estimated covariance of β̂, I(β̂)⁻¹, row by row; SE is the
	// square root of its diagonal.
	Cov [][]float64
	Z   []float64 // Wald z = β̂ / SE
	P   []float64 // two-sided Wald p-value 2·(1 − Φ(|z|))
	// CI is the 95% Wald interval β̂ ∓ Φ⁻¹(0.975)·SE (Method MethodWald).
	CI           []CI
	N            int     // observations
	LogLik       float64 // Σ yᵢ log p̂ᵢ + (1−yᵢ) log(1−p̂ᵢ)
	Deviance     float64 // residual deviance −2·LogLik
	NullDeviance float64 // deviance of the intercept-only model
	Iterations   int     // IRLS iterations run
	Converged    bool    // whether the deviance met LogisticTol
}

// Predict returns the fitted probability 1 / (1 + exp(−β̂·(1, x))) for
// one row of predictors. It panics if len(x) != len(m.Coef)−1.
func (m LogisticModel) Predict(x []float64) float64 {
	if len(x) != len(m.Coef)-1 {
		panic("analysis: LogisticModel.Predict: wrong number of predictors")
	}
	eta := m.Coef[0]
	for j, v := range x {
		eta += m.Coef[j+1] * v
	}
	return 1 / (1 + math.Exp(-eta))
}

// LogisticFit fits logit P(yᵢ) = β₀ + xᵢ·β by maximum likelihood with
// iteratively reweighted least squares (Newton–Raphson, which for the
// canonical logit link equals Fisher scoring; McCullagh & Nelder 1989,
// §4.4), with step halving when the deviance increases:
//
//	β ← β + (XᵀWX)⁻¹ Xᵀ(y − p),  W = diag(p(1−p))
//
// An intercept column of ones is prepended to x; x[i] holds observation
// i's predictors and must not include the intercept. Standard errors come
// from the inverse Fisher information at β̂, with Wald z, p-values and 95%
// intervals, as R's summary.glm reports them.
//
// It returns an error wrapping ErrSingular when the design is rank
// deficient (including fewer observations than coefficients, or no
// observations), ErrSeparation when the predictors separate the outcomes
// (the information matrix becomes singular during the iterations, or some
// fitted linear predictor exceeds 30 in magnitude, i.e. a fitted
// probability within 1e-13 of 0 or 1, while the fit does not converge, its
// deviance reaches 0, or a further Newton step would still move it), ErrNotConverged when LogisticMaxIter
// is reached otherwise, and a plain error for a non-finite predictor. With
// ErrSeparation and ErrNotConverged the model of the last iterate is
// returned too, with Converged telling whether the deviance settled.
//
// LogisticFit panics if len(x) != len(y) or the rows of x differ in
// length; both are caller bugs.
func LogisticFit(x [][]float64, y []bool) (LogisticModel, error) {
	if len(x) != len(y) {
		panic("analysis: LogisticFit: len(x) != len(y)")
	}
	n := len(x)
	if n == 0 {
		return LogisticModel{}, fmt.Errorf("%w: no observations", ErrSingular)
	}
	k := len(x[0]) + 1
	X := mat.NewDense(n, k, nil)
	yv := make([]float64, n)
	for i, row := range x {
		if len(row) != k-1 {
			panic("analysis: LogisticFit: rows of x differ in length")
		}
		X.Set(i, 0, 1)
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return LogisticModel{}, fmt.Errorf("logistic: row %d column %d is %v", i, j, v)
			}
			X.Set(i, j+1, v)
		}
		if y[i] {
			yv[i] = 1
		}
	}
	if n < k {
		return LogisticModel{}, fmt.Errorf("%w: %d observations for %d coefficients", ErrSingular, n, k)
	}

	f := &irls{X: X, y: yv, n: n, k: k}
	m := LogisticModel{N: n}
	beta := make([]float64, k)
	dev := f.deviance(beta)
	m.NullDeviance = nullDeviance(yv)
	var sepErr error
	for it := 1; it <= LogisticMaxIter; it++ {
		m.Iterations = it
		info, score := f.infoScore(beta)
		if it == 1 {
			if err := checkRank(info); err != nil {
				return LogisticModel{}, err
			}
		}
		var chol mat.Cholesky
		if !chol.Factorize(info) {
			sepErr = ErrSeparation
			break
		}
		var step mat.VecDense
		if err := chol.SolveVecTo(&step, score); err != nil {
			sepErr = ErrSeparation
			break
		}
		// Step halving: Newton's step on the concave log-likelihood is an
		// ascent direction, so a short enough step lowers the deviance.
		next := make([]float64, k)
		newDev := math.Inf(1)
		for h := 0; h < 30; h++ {
			scale := math.Ldexp(1, -h)
			for j := range next {
				next[j] = beta[j] + scale*step.AtVec(j)
			}
			if newDev = f.deviance(next); newDev <= dev || math.Abs(newDev-dev) <= LogisticTol*(math.Abs(newDev)+0.1) {
				break
			}
		}
		beta = next
		conv := math.Abs(newDev-dev)/(math.Abs(newDev)+0.1) < LogisticTol
		dev = newDev
		if conv {
			m.Converged = true
			break
		}
	}
	m.Coef = beta
	m.Deviance = dev
	m.LogLik = -dev / 2
	// A converged fit with extreme fitted logits is still the MLE (R's glm
	// only warns); separation shows as a deviance driven to 0, or as no
	// convergence with diverging logits.
	if sepErr == nil && f.maxAbsEta(beta) > 30 && (!m.Converged || dev < 1e-6 || f.stillMoving(beta)) {
		sepErr = ErrSeparation
	}
	if sepErr == nil && !m.Converged {
		sepErr = ErrNotConverged
	}
	if err := f.inference(&m); err != nil && sepErr == nil {
		sepErr = ErrSeparation
	}
	if sepErr != nil {
		return m, fmt.Errorf("%w (after %d iterations)", sepErr, m.Iterations)
	}
	return m, nil
}

// stillMoving reports whether a Newton step from beta would still move a
// coefficient noticeably: at a finite MLE the step is ~0, while under
// (quasi-)separation the deviance flattens but the coefficients keep
// running off to infinity.
func (f *irls) stillMoving(beta []float64) bool {
	info, score := f.infoScore(beta)
	var chol mat.Cholesky
	if !chol.Factorize(info) {
		return true
	}
	var step mat.VecDense
	if err := chol.SolveVecTo(&step, score); err != nil {
		return true
	}
	for j := range beta {
		if math.Abs(step.AtVec(j)) > 1e-3*(1+math.Abs(beta[j])) {
			return true
		}
	}
	return false
}

// irls holds a logistic regression's design and response.
type irls struct {
	X    *mat.Dense
	y    []float64
	n, k int
}

func (f *irls) eta(beta []float64, i int) float64 {
	e := 0.0
	for j := 0; j < f.k; j++ {
		e += f.X.At(i, j) * beta[j]
	}
	return e
}

func (f *irls) maxAbsEta(beta []float64) float64 {
	m := 0.0
	for i := 0; i < f.n; i++ {
		m = max(m, math.Abs(f.eta(beta, i)))
	}
	return m
}

// deviance is −2 Σ [yᵢ log pᵢ + (1−yᵢ) log(1−pᵢ)], computed from η with
// log p = −log(1+e^{−η}) so it stays finite for large |η|.
func (f *irls) deviance(beta []float64) float64 {
	d := 0.0
	for i := 0; i < f.n; i++ {
		e := f.eta(beta, i)
		if f.y[i] == 1 {
			d += softplus(-e)
		} else {
			d += softplus(e)
		}
	}
	return 2 * d
}

// softplus is log(1 + e^x) without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// infoScore returns the Fisher information XᵀWX and the score Xᵀ(y − p).
func (f *irls) infoScore(beta []float64) (*mat.SymDense, *mat.VecDense) {
	info := mat.NewSymDense(f.k, nil)
	score := mat.NewVecDense(f.k, nil)
	for i := 0; i < f.n; i++ {
		p := 1 / (1 + math.Exp(-f.eta(beta, i)))
		w := p * (1 - p)
		r := f.y[i] - p
		for a := 0; a < f.k; a++ {
			xa := f.X.At(i, a)
			score.SetVec(a, score.AtVec(a)+xa*r)
			for b := a; b < f.k; b++ {
				info.SetSym(a, b, info.At(a, b)+w*xa*f.X.At(i, b))
			}
		}
	}
	return info, score
}

// checkRank reports ErrSingular when the information matrix at the start
// (uniform weights, so proportional to XᵀX) is singular or, after scaling
// to unit diagonal so column units do not matter, has a condition number
// above 1e12.
func checkRank(info *mat.SymDense) error {
	k := info.SymmetricDim()
	d := make([]float64, k)
	for j := range d {
		if info.At(j, j) <= 0 {
			return fmt.Errorf("%w: column %d is all zeros", ErrSingular, j)
		}
		d[j] = 1 / math.Sqrt(info.At(j, j))
	}
	s := mat.NewSymDense(k, nil)
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			s.SetSym(a, b, info.At(a, b)*d[a]*d[b])
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(s) || chol.Cond() > 1e12 {
		return fmt.Errorf("%w: predictors are collinear or constant", ErrSingular)
	}
	return nil
}

// inference fills SE, Z, P and the Wald intervals from the inverse
// information at m.Coef.
func (f *irls) inference(m *LogisticModel) error {
	info, _ := f.infoScore(m.Coef)
	var chol mat.Cholesky
	var cov mat.SymDense
	if !chol.Factorize(info) {
		return ErrSeparation
	}
	if err := chol.InverseTo(&cov); err != nil {
		return err
	}
	z975 := distuv.UnitNormal.Quantile(0.975)
	m.SE = make([]float64, f.k)
	m.Cov = make([][]float64, f.k)
	for a := range m.Cov {
		m.Cov[a] = make([]float64, f.k)
		for b := range m.Cov[a] {
			m.Cov[a][b] = cov.At(a, b)
		}
	}
	m.Z = make([]float64, f.k)
	m.P = make([]float64, f.k)
	m.CI = make([]CI, f.k)
	for j := range m.SE {
		se := math.Sqrt(cov.At(j, j))
		m.SE[j] = se
		m.Z[j] = m.Coef[j] / se
		m.P[j] = 2 * distuv.UnitNormal.Survival(math.Abs(m.Z[j]))
		m.CI[j] = CI{Lo: m.Coef[j] - z975*se, Hi: m.Coef[j] + z975*se, Level: 0.95, Method: MethodWald}
	}
	return nil
}

// nullDeviance is the deviance of the intercept-only model, −2 Σ log of
// the overall rate's likelihood (0 when every outcome is the same).
func nullDeviance(y []float64) float64 {
	s := 0.0
	for _, v := range y {
		s += v
	}
	n := float64(len(y))
	p := s / n
	d := 0.0
	if s > 0 {
		d -= 2 * s * math.Log(p)
	}
	if s < n {
		d -= 2 * (n - s) * math.Log(1-p)
	}
	return d
}

// BalanceFit is the quadratic logistic regression of success on the
// tool-call share: does a middle balance win?
type BalanceFit struct {
	// Model is logit P(pass) = b0 + b1·share + b2·share²; Coef is
	// [b0, b1, b2] and Model.P[2] tests the curvature b2.
	Model LogisticModel
	N     int // trajectories used: those with a share in [0, 1]
	// Vertex is the share at which the fitted logit peaks (b2 < 0) or
	// bottoms out (b2 > 0): −b1 / (2·b2). NaN when b2 = 0.
	Vertex float64
	// Interior is b2 < 0 and 0 < Vertex < 1: the fitted success probability
	// is highest at a mixed share, not at all-tools or all-follow-ups. It
	// is the point estimate's shape only; MiddleWinsP says how sure.
	Interior bool
	// MiddleWinsP is the p-value of "a middle balance wins" (an interior
	// maximum), from the Wald statistics of the fit. The maximum is
	// interior exactly when the fitted logit rises at share 0 and falls at
	// share 1: b1 > 0 and b1 + 2·b2 < 0 (these imply b2 < 0). The null
	// hypothesis is that one of them fails, tested by intersection-union
	// (Berger & Hsu 1996): MiddleWinsP = max(p₀, p₁) with the one-sided
	// Wald p-values p₀ = 1 − Φ(b1 / SE(b1)) and
	// p₁ = Φ((b1 + 2·b2) / SE(b1 + 2·b2)),
	// SE(b1 + 2·b2) = sqrt(V₁₁ + 4V₁₂ + 4V₂₂) from Model.Cov. A level-α
	// test rejects when MiddleWinsP < α. NaN when there is no fit.
	MiddleWinsP float64
}

// middleWinsP is BalanceFit.MiddleWinsP of a fitted quadratic model.
func middleWinsP(m LogisticModel) float64 {
	if len(m.Coef) != 3 || len(m.Cov) != 3 {
		return math.NaN()
	}
	b1, b2, v := m.Coef[1], m.Coef[2], m.Cov
	rises := distuv.UnitNormal.Survival(b1 / math.Sqrt(v[1][1]))
	falls := distuv.UnitNormal.CDF((b1 + 2*b2) / math.Sqrt(v[1][1]+4*v[1][2]+4*v[2][2]))
	return math.Max(rises, falls)
}

// BalanceRegression fits success ~ share + share² by LogisticFit, where
// shares[i] is trajectory i's tool-call share (TrajectoryBalance) and
// passed[i] its outcome, and reports the vertex −b1/(2·b2), whether it
// is an interior maximum, and that claim's p-value (MiddleWinsP). Shares that are NaN or outside [0, 1] are
// dropped. Errors are LogisticFit's (ErrSingular when fewer than three
// distinct shares remain, ErrSeparation, ErrNotConverged); with
// ErrSeparation and ErrNotConverged the fit of the last iterate is
// returned too.
//
// BalanceRegression panics if len(shares) != len(passed), a caller bug.
func BalanceRegression(shares []float64, passed []bool) (BalanceFit, error) {
	if len(shares) != len(passed) {
		panic("analysis: BalanceRegression: len(shares) != len(passed)")
	}
	var x [][]float64
	var y []bool
	for i, s := range shares {
		if math.IsNaN(s) || s < 0 || s > 1 {
			continue
		}
		x = append(x, []float64{s, s * s})
		y = append(y, passed[i])
	}
	m, err := LogisticFit(x, y)
	fit := BalanceFit{Model: m, N: len(x), Vertex: math.NaN(), MiddleWinsP: math.NaN()}
	if len(m.Coef) == 3 {
		if b1, b2 := m.Coef[1], m.Coef[2]; b2 != 0 {
			fit.Vertex = -b1 / (2 * b2)
			fit.Interior = b2 < 0 && fit.Vertex > 0 && fit.Vertex < 1
		}
	}
	if err != nil {
		return fit, fmt.Errorf("balance regression: %w", err)
	}
	fit.MiddleWinsP = middleWinsP(m)
	return fit, nil
}

// Correlation is Pearson's product-moment correlation of x and y
// (gonum stat.Correlation),
//
//	r = Σ(xᵢ−x̄)(yᵢ−ȳ) / sqrt(Σ(xᵢ−x̄)² Σ(yᵢ−ȳ)²),
//
// over the pairs where both values are finite. With y a 0/1 indicator
// (abandoned or not) it is the point-biserial correlation. It returns NaN
// when fewer than two pairs remain or either variable is constant.
//
// Correlation panics if len(x) != len(y), a caller bug.
func Correlation(x, y []float64) float64 {
	if len(x) != len(y) {
		panic("analysis: Correlation: len(x) != len(y)")
	}
	var xs, ys []float64
	for i := range x {
		if isFinite(x[i]) && isFinite(y[i]) {
			xs = append(xs, x[i])
			ys = append(ys, y[i])
		}
	}
	if len(xs) < 2 {
		return math.NaN()
	}
	r := stat.Correlation(xs, ys, nil)
	if math.IsInf(r, 0) {
		return math.NaN()
	}
	return r
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Verdict is the verdict on a middle balance: "yes (p = 0.0123)" when
// MiddleWinsP < 0.05, else "not significant (p = 0.4100)".
func (f BalanceFit) Verdict() string {
	if f.MiddleWinsP < 0.05 {
		return fmt.Sprintf("yes (p = %.4f)", f.MiddleWinsP)
	}
	return fmt.Sprintf("not significant (p = %.4f)", f.MiddleWinsP)
}

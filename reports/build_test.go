package reports

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
)

// buildData is a small Data with one row of every section: two units, one
// with four trials per task and one with one trial.
func buildData() Data {
	nan := math.NaN()
	return Data{
		Title: "t",
		Runs: []RunSummary{
			{Run: emobench.Run{ID: 1, Name: "a", AgentModel: "gpt", Domain: "retail"}, Pass1: 0.5},
			{Run: emobench.Run{ID: 2, Name: "b", AgentModel: "qwen", Domain: "airline"}, Pass1: 0.25},
		},
		Units:     map[int64]string{1: "a", 2: "b"},
		Bootstrap: analysis.BootstrapOptions{Resamples: 2000, Level: 0.95, Seed: 1, Method: analysis.MethodPercentile},
		Commands:  Commands{PassK: "emobench stats passk --ci pm", Gap: "emobench stats gap", Generalization: "emobench stats generalization --part matrix"},
		PassK: []analysis.PassKRow{
			{RunID: 1, K: 1, PassHatK: 0.5, Tasks: 4},
			{RunID: 1, K: 4, PassHatK: 0.25, Tasks: 4},
			{RunID: 2, K: 1, PassHatK: 0.25, Tasks: 8},
		},
		PassKCI: []analysis.CI{{Lo: 0.2, Hi: 0.8}, {Lo: 0.1, Hi: 0.4}}, // none for the third row
		Gaps: []analysis.GapRow{
			{RunID: 1, K: 4, Pass1: 0.5, PassK: 0.25, Tasks1: 4, TasksK: 4},
			{RunID: 2, K: 1, Pass1: 0.25, PassK: 0.25, Tasks1: 8, TasksK: 8}, // one trial: no gap bar
		},
		FamilyPass1: []analysis.PassKRow{
			{RunID: 1, K: 1, Group: []string{"anger"}, PassHatK: 0.5, Tasks: 2},
			{RunID: 1, K: 1, Group: []string{""}, PassHatK: 1, Tasks: 2}, // no profile: not in the heatmap
		},
		Emotions: []analysis.EmotionDelta{
			{Group: "gpt / u / retail", WithRuns: []int64{1}, WithoutRuns: []int64{3, 4}, Dimension: "all", K: 1, Pairs: 4, With: 0.5, Without: 0.25},
			{Group: "gpt / u / retail", WithRuns: []int64{1}, WithoutRuns: []int64{3, 4}, Dimension: "politeness", Value: "", K: 1, Pairs: 4, Delta: 0.25, CI: analysis.CI{Lo: -0.1, Hi: 0.6}, PHolm: 0.01},
		},
		Abandonment: []UnitRates{{Unit: 2, Rates: []analysis.AbandonmentRate{{Group: []string{""}, N: 8, Abandoned: 2, Rate: 0.25, CI: analysis.CI{Lo: 0.07, Hi: 0.59}}}}},
		Balance: []UnitBalance{
			{Unit: 1, Bins: []analysis.ShareBin{{Lo: 0, Hi: 0.5, N: 3, Rate: nan, NotEvaluated: true}}, Evaluated: false, Command: "emobench stats balance --run 1"},
			{Unit: 2, Evaluated: true, FitErr: errors.New("separation"), Command: "emobench stats balance --run 2"},
		},
		Matrix: analysis.PassMatrix{Domains: []string{"retail"}, Models: []string{"gpt"}, Pass1: [][]float64{{0.5}}, Tasks: [][]int{{4}}, NotEvaluated: [][]bool{{false}}},
		Published: []PublishedResult{
			{Domain: "retail", Model: "Big", Modality: "voice", SourceFile: "dir/sub.json", K: 1, PassHatK: 0.8},
			{Domain: "telecom", Model: "Other", SourceFile: "x.json", K: 1, PassHatK: 0.7}, // no run of yours there
		},
	}
}

func TestBuild(t *testing.T) {
	t.Parallel()
	in := Build(buildData())

	t.Run("PassK", func(t *testing.T) {
		if got, want := in.PassK.Title, "pass^k by run"; got != want {
			t.Errorf("title %q, want %q", got, want)
		}
		if got, want := len(in.PassK.Curves), 2; got != want {
			t.Fatalf("%d curves, want %d", got, want)
		}
		a := in.PassK.Curves[0]
		if got, want := a.Points[1], (PassKPoint{K: 4, Value: 0.25, CI: Interval{0.1, 0.4}, Tasks: 4}); got != want {
			t.Errorf("run a at k=4: %+v, want %+v", got, want)
		}
		if ci := in.PassK.Curves[1].Points[0].CI; hasCI(ci) {
			t.Errorf("row with no interval got %+v, want none", ci)
		}
		if !strings.HasPrefix(in.PassK.Caption, "Bands and whiskers: 95% percentile bootstrap over tasks (2,000 resamples, seed 1).") {
			t.Errorf("caption %q does not name the bootstrap", in.PassK.Caption)
		}
	})
	t.Run("Gap", func(t *testing.T) {
		want := []GapBar{{Run: "a", Pass1: 0.5, PassK: 0.25, K: 4, Tasks: 4, Tasks1: 4}}
		if diff := cmp.Diff(want, in.Gaps.Bars); diff != "" {
			t.Errorf("gap bars (-want +got):\n%s", diff)
		}
	})
	t.Run("FamilyHeatmap", func(t *testing.T) {
		h := in.FamilyHeatmap
		if got, want := [2][]string{h.Rows, h.Cols}, [2][]string{{"a"}, {"anger"}}; !cmp.Equal(got, want) {
			t.Errorf("rows, cols = %q, want %q", got, want)
		}
		if got, want := h.Values[0][0], 0.5; got != want {
			t.Errorf("cell = %v, want %v", got, want)
		}
	})
	t.Run("Emotions", func(t *testing.T) {
		want := []ConditionPair{{Label: "gpt / u / retail (runs 1 vs 3,4)", With: 0.5, Without: 0.25, Pairs: 4}}
		if diff := cmp.Diff(want, in.ConditionPairs); diff != "" {
			t.Errorf("pairs (-want +got):\n%s", diff)
		}
		if got, want := len(in.Deltas), 1; got != want {
			t.Fatalf("%d Δ charts, want %d (politeness only)", got, want)
		}
		if got, want := in.Deltas[0].Bars[0].Label, "-"; got != want {
			t.Errorf("Δ label %q, want %q (one comparison: the value only)", got, want)
		}
		if got, want := in.Deltas[0].Bars[0].P, 0.01; got != want {
			t.Errorf("Δ p = %v, want the Holm-adjusted %v", got, want)
		}
	})
	t.Run("Abandonment", func(t *testing.T) {
		want := []RateBar{{Label: "b: -", Rate: 0.25, CI: Interval{0.07, 0.59}, N: 8}}
		if diff := cmp.Diff(want, in.Abandonment.Bars); diff != "" {
			t.Errorf("bars (-want +got):\n%s", diff)
		}
	})
	t.Run("Balance", func(t *testing.T) {
		if got, want := len(in.Balance), 2; got != want {
			t.Fatalf("%d balance charts, want %d", got, want)
		}
		for i, want := range []string{"No logistic fit: no trajectory is evaluated.", "No logistic fit: separation."} {
			if !strings.Contains(in.Balance[i].Caption, want) {
				t.Errorf("balance %d caption %q lacks %q", i, in.Balance[i].Caption, want)
			}
		}
		if !strings.Contains(in.Balance[0].Caption, "share 0.0–0.5") {
			t.Errorf("caption %q does not name the unevaluated bin", in.Balance[0].Caption)
		}
		if got, want := in.Balance[1].Title, "Success vs balance: b"; got != want {
			t.Errorf("title %q, want %q", got, want)
		}
	})
	t.Run("Published", func(t *testing.T) {
		want := []PublishedRow{
			{Domain: "retail", Model: "gpt", Source: "your run 1 (a)", K: 1, PassHatK: 0.5, Yours: true},
			{Domain: "retail", Model: "Big (voice)", Source: "sub.json", K: 1, PassHatK: 0.8},
		}
		if diff := cmp.Diff(want, in.Published); diff != "" {
			t.Errorf("published (-want +got):\n%s", diff)
		}
	})
	t.Run("Pooled", func(t *testing.T) {
		d := buildData()
		d.Pooled, d.Units = true, map[int64]string{1: "gpt / retail (runs 1,5)", 2: "b"}
		in := Build(d)
		if got, want := in.PassK.Title, "pass^k by pool"; got != want {
			t.Errorf("title %q, want %q", got, want)
		}
		if got, want := runLabeler(in)(1), "gpt / retail (runs 1,5)"; got != want {
			t.Errorf("series label %q, want the pool's %q", got, want)
		}
	})
}

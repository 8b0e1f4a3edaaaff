package ingest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
)

func readSubmission(tb testing.TB, path string) ([]emobench.PublishedResult, error) {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	return ingest.Submission(f)
}

func ptr(v float64) *float64 { return &v }

func TestSubmission_OK(t *testing.T) {
	t.Parallel()
	got, err := readSubmission(t, filepath.Join("testdata", "submission", "full.json"))
	if err != nil {
		t.Fatal(err)
	}
	base := emobench.PublishedResult{Model: "Model-X", Organization: "OrgX", UserSimulator: "gpt-4.1-2025-04-14", Date: "2025-11-01",
		Modality: "voice", SubmissionType: "standard"}
	row := func(domain string, k int, pct float64, cost *float64) emobench.PublishedResult {
		r := base
		r.Domain, r.K, r.PassHatK, r.Cost = domain, k, pct/100, cost
		return r
	}
	// Domains in file order, k ascending; telecom (null) and banking (no pass value) give nothing.
	want := []emobench.PublishedResult{
		row("retail", 1, 75.5, ptr(1.5)), row("retail", 2, 66, ptr(1.5)), row("retail", 3, 60, ptr(1.5)), row("retail", 4, 55.25, ptr(1.5)),
		row("airline", 1, 100, nil), row("airline", 2, 50, nil),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("results (-want +got):\n%s", diff)
	}
}

func TestSubmission_BOMAndFallbacks(t *testing.T) {
	t.Parallel()
	got, err := readSubmission(t, filepath.Join("testdata", "submission", "bom-org-fallback.json"))
	if err != nil {
		t.Fatal(err)
	}
	// pass_1 0.5 is the only value and at most 1: a fraction, kept.
	want := []emobench.PublishedResult{{Model: "M", Organization: "S", Domain: "retail", K: 1, PassHatK: 0.5, Date: "2026-07-21"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("results (-want +got):\n%s", diff)
	}
}

func TestSubmission_ErrBadInput(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"array.json":         "top level is an array, want a leaderboard submission object",
		"no-model.json":      "missing model_name",
		"model-number.json":  "model_name is a number, want a string",
		"no-results.json":    "missing results",
		"results-array.json": "results is an array, want an object of domains",
		"over-100.json":      "results.retail.pass_1 is 175, want a percentage between 0 and 100",
		"pass-string.json":   `results.retail.pass_1 is a string ("75"), want a number (percent)`,
		"pass-zero.json":     `results.retail.pass_0: "0" is not a k of 1 or more`,
		"domain-number.json": "results.retail is a number, want an object",
		"domain-twice.json":  `results: domain "retail" appears twice`,
		"trailing.json":      "trailing data after the submission",
		"truncated.json":     "truncated file",
		"empty.json":         "empty file",
	}
	for file, want := range tests {
		t.Run(file, func(t *testing.T) {
			got, err := readSubmission(t, filepath.Join("testdata", "submission", "bad", file))
			if err == nil || !strings.Contains(err.Error(), want) || got != nil {
				t.Fatalf("got %v, err %v; want an error with %q", got, err, want)
			}
		})
	}
}

// A submission whose pass values are all at most 1 already holds
// fractions: they are kept as written, with a note, never divided by 100.
func TestSubmission_FractionsKept(t *testing.T) {
	t.Parallel()
	in := `{"model_name": "m", "results": {"retail": {"pass_1": 0.62, "pass_2": 0.5, "cost": "1.5"}, "airline": {"pass_1": 1}}}`
	var notes []string
	got, err := ingest.SubmissionWithNotes(strings.NewReader(in), func(n string) { notes = append(notes, n) })
	if err != nil {
		t.Fatal(err)
	}
	var passes []float64
	for _, r := range got {
		passes = append(passes, r.PassHatK)
	}
	if diff := cmp.Diff([]float64{0.62, 0.5, 1}, passes); diff != "" {
		t.Errorf("pass_hat_k (-want +got):\n%s", diff)
	}
	if got[0].Cost == nil || *got[0].Cost != 1.5 {
		t.Errorf("retail cost = %v, want 1.5 from the string", got[0].Cost)
	}
	want := []string{
		`results.retail.cost is the string "1.5": read as 1.5`,
		"every pass_k is at most 1 (largest 1): read as 0–1 fractions, not percentages",
	}
	if diff := cmp.Diff(want, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	// One value above 1 makes the file a percent file, with no note.
	notes = nil
	got, err = ingest.SubmissionWithNotes(strings.NewReader(`{"model_name": "m", "results": {"retail": {"pass_1": 62, "pass_2": 0.5}}}`),
		func(n string) { notes = append(notes, n) })
	if err != nil {
		t.Fatal(err)
	}
	if got[0].PassHatK != 0.62 || got[1].PassHatK != 0.005 || notes != nil {
		t.Errorf("percent file: %v, %v; notes %v", got[0].PassHatK, got[1].PassHatK, notes)
	}
	// A domain all at most 1 beside a percent domain is read as percent, and said.
	notes = nil
	got, err = ingest.SubmissionWithNotes(strings.NewReader(`{"model_name": "m", "results": {"retail": {"pass_1": 0.75}, "airline": {"pass_1": 50}}}`),
		func(n string) { notes = append(notes, n) })
	if err != nil {
		t.Fatal(err)
	}
	wantMixed := []string{"read as percentages (the largest pass_k is 50), but every pass_k of retail is at most 1: if those were fractions, fix the file"}
	if got[0].PassHatK != 0.0075 || got[1].PassHatK != 0.5 || !cmp.Equal(notes, wantMixed) {
		t.Errorf("mixed file: %v, %v; notes %q, want %q", got[0].PassHatK, got[1].PassHatK, notes, wantMixed)
	}
}

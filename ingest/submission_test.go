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
	got, err := readSubmission(t, filepath.Join("testdata", "submission", "bom-org-fallback.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := []emobench.PublishedResult{{Model: "M", Organization: "S", Domain: "retail", K: 1, PassHatK: 0.005, Date: "2026-07-21"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("results (-want +got):\n%s", diff)
	}
}

func TestSubmission_ErrBadInput(t *testing.T) {
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

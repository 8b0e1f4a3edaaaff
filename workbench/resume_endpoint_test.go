package workbench_test

import (
	"context"
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/workbench"
)

// --resume --base-url NEW holds for that session only: the run's config
// keeps the endpoint it was recorded with, and a note says so.
func TestResumeRun_EndpointIsForThisSession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := openRunTestDB(t)
	var lines, notes []string
	opts := recordingOptions(&lines, &notes)
	plans := planOracleRuns(t, "moved", emobench.ConditionWithoutEmotions)
	plans[0].Spec.BaseURL = "http://old-host:8000/v1"
	plans[0].Run.Config = plans[0].Spec.Encode()
	if err := workbench.StartRuns(ctx, store, plans, nil, opts); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		endpoint string
		notes    []string
	}{
		{"http://new-host:9000/v1", []string{"--base-url http://new-host:9000/v1 is for this session only: run 1 keeps http://old-host:8000/v1 in its config, " +
			"for a later --resume without --base-url (a role given its own endpoint keeps it)"}},
		{"http://old-host:8000/v1", nil}, // the recorded endpoint: nothing to say
	} {
		notes = nil
		if err := workbench.ResumeRun(ctx, store, "moved", workbench.ResumeLLM{BaseURL: &tt.endpoint}, opts); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(notes, tt.notes) {
			t.Errorf("resume --base-url %s: notes %q, want %q", tt.endpoint, notes, tt.notes)
		}
		_, spec, err := workbench.ResumeSpec(ctx, store, "moved")
		if err != nil {
			t.Fatal(err)
		}
		if spec.BaseURL != "http://old-host:8000/v1" {
			t.Errorf("after resume --base-url %s the config has base_url %q, want the recorded http://old-host:8000/v1", tt.endpoint, spec.BaseURL)
		}
	}
}

package workbench_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/workbench"
)

// openRunTestDB opens a fresh database under t.TempDir().
func openRunTestDB(t *testing.T) *db.DB {
	t.Helper()
	store, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// planOracleRuns plans oracle-against-scripted runs of the first two
// retail test tasks, one trial each, for conditions.
func planOracleRuns(t *testing.T, name string, conditions ...emobench.Condition) []sim.PlannedRun {
	t.Helper()
	retail, err := all.Find("retail")
	if err != nil {
		t.Fatal(err)
	}
	plans, err := sim.Plan(sim.RunOptions{
		Domains: []sim.Domain{retail}, Conditions: conditions, Agent: "oracle", User: "scripted",
		Trials: 1, Tasks: "2", Split: emobench.SplitTest, MaxSteps: sim.DefaultMaxSteps,
		MaxErrors: sim.DefaultMaxErrors, Name: name, Now: fixedClock,
	})
	if err != nil {
		t.Fatal(err)
	}
	return plans
}

func fixedClock() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// recordingOptions are execute options whose lines and notes go to lines
// and notes, with a clock that does not move.
func recordingOptions(lines, notes *[]string) workbench.ExecuteOptions {
	return workbench.ExecuteOptions{
		Concurrency: 2, Command: "workbench test", Now: fixedClock,
		Print: func(line string) { *lines = append(*lines, line) },
		Note:  func(note string) { *notes = append(*notes, note) },
	}
}

func TestStartRuns_OK(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := openRunTestDB(t)
	var lines, notes []string
	plans := planOracleRuns(t, "oracle-run", emobench.ConditionWithoutEmotions)
	if err := workbench.StartRuns(ctx, store, plans, nil, recordingOptions(&lines, &notes)); err != nil {
		t.Fatal(err)
	}
	// The oracle passes every task (DESIGN.md: offline validity agents).
	want := []string{
		"run 1 (oracle-run): 2 episodes to run (0 already stored)",
		"run 1 (oracle-run): 2 episodes in 0.0s; pass rate 1.000, 0 abandoned (user_unsatisfied), 0 errors",
	}
	if !slices.Equal(lines, want) {
		t.Fatalf("lines = %q, want %q", lines, want)
	}
	if len(notes) != 0 {
		t.Fatalf("notes = %q, want none", notes)
	}

	// Resuming a complete run runs nothing.
	lines = nil
	run, spec, err := workbench.ResumeSpec(ctx, store, "oracle-run")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := run.ID, int64(1); got != want {
		t.Fatalf("resumed run id = %d, want %d", got, want)
	}
	tally, err := workbench.ExecuteRun(ctx, store, run.ID, run.Name, spec, recordingOptions(&lines, &notes))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tally.Done, 0; got != want {
		t.Fatalf("resumed episodes = %d, want %d", got, want)
	}
	if want := []string{"run 1 (oracle-run): 0 episodes to run (2 already stored)"}; !slices.Equal(lines, want) {
		t.Fatalf("resume lines = %q, want %q", lines, want)
	}
}

func TestStartRuns_Tags(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := openRunTestDB(t)
	var lines, notes []string
	opts := recordingOptions(&lines, &notes)
	if err := workbench.StartRuns(ctx, store, planOracleRuns(t, "base", emobench.ConditionWithoutEmotions), nil, opts); err != nil {
		t.Fatal(err)
	}
	tags := &workbench.RunTags{TrainDomains: []string{"airline"}, BaseRun: "base"}
	if err := workbench.StartRuns(ctx, store, planOracleRuns(t, "tuned", emobench.ConditionWithoutEmotions), tags, opts); err != nil {
		t.Fatal(err)
	}
	stored, err := store.ListRunTags(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(stored, func(r db.RunTags) bool { return r.Name == "tuned" })
	if i < 0 {
		t.Fatalf("no tags of run tuned in %+v", stored)
	}
	if got := stored[i]; got.BaseRunID != 1 || !slices.Equal(got.TrainDomains, []string{"airline"}) {
		t.Fatalf("tuned run's tags = base %d, train %q; want base 1, train [airline]", got.BaseRunID, got.TrainDomains)
	}
}

func TestStartRuns_ErrSameName(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := openRunTestDB(t)
	var lines, notes []string
	plans := planOracleRuns(t, "twice", emobench.ConditionWithoutEmotions)
	if err := workbench.StartRuns(ctx, store, plans, nil, recordingOptions(&lines, &notes)); err != nil {
		t.Fatal(err)
	}
	err := workbench.StartRuns(ctx, store, plans, nil, recordingOptions(&lines, &notes))
	if !errors.Is(err, emobench.ErrRequest) {
		t.Fatalf("second run of the same name: err = %v, want an EREQUEST error", err)
	}
}

func TestStartRuns_ErrBaseRunNotFound(t *testing.T) {
	t.Parallel()
	store := openRunTestDB(t)
	var lines, notes []string
	tags := &workbench.RunTags{BaseRun: "no-such-run"}
	err := workbench.StartRuns(context.Background(), store, planOracleRuns(t, "tuned", emobench.ConditionWithoutEmotions), tags, recordingOptions(&lines, &notes))
	var missing *db.RunNotFoundError
	if !errors.As(err, &missing) || errors.Is(err, emobench.ErrRequest) {
		t.Fatalf("err = %v, want a *db.RunNotFoundError that is no EREQUEST error", err)
	}
}

func TestStartRuns_ErrInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := openRunTestDB(t)
	var lines, notes []string
	opts := recordingOptions(&lines, &notes)
	opts.Print = func(line string) { // Ctrl-C once the first run has planned its episodes
		lines = append(lines, line)
		cancel()
	}
	plans := planOracleRuns(t, "stopped", emobench.ConditionWithEmotions, emobench.ConditionWithoutEmotions)
	err := workbench.StartRuns(ctx, store, plans, nil, opts)
	var stopped *workbench.InterruptedError
	if !errors.As(err, &stopped) {
		t.Fatalf("err = %v, want an *InterruptedError", err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "interrupted: ") || !strings.HasSuffix(msg, " of run 1 stored; continue with `emobench run --resume 1`; "+
		"1 more runs (other domains or conditions) are stored but not started: continue them with `emobench run --resume 2` (stopped-retail-without-emotions)") {
		t.Fatalf("err = %q, want the episodes stored, --resume 1 and the --resume of the run not started", msg)
	}
	if len(lines) != 1 {
		t.Fatalf("lines = %q, want only the first run's plan", lines)
	}
	// Both conditions resumed are still the pair one command started
	// (stats emotions compares them without --pair).
	for _, ref := range []string{"1", "2"} {
		if err := workbench.ResumeRun(context.Background(), store, ref, workbench.ResumeLLM{}, recordingOptions(&lines, &notes)); err != nil {
			t.Fatalf("resume %s: %v", ref, err)
		}
	}
	_, with, _ := workbench.ResumeSpec(context.Background(), store, "1")
	_, without, _ := workbench.ResumeSpec(context.Background(), store, "2")
	if with.Pair == "" || with.Pair != without.Pair || with.Condition == without.Condition {
		t.Fatalf("runs 1 and 2: pair %q (%s) and %q (%s), want one pair of both conditions", with.Pair, with.Condition, without.Pair, without.Condition)
	}
}

func TestResumeSpec_ErrNotFound(t *testing.T) {
	t.Parallel()
	store := openRunTestDB(t)
	_, _, err := workbench.ResumeSpec(context.Background(), store, "7")
	var missing *db.RunNotFoundError
	if !errors.As(err, &missing) {
		t.Fatalf("err = %v, want a *db.RunNotFoundError", err)
	}
}

// oracleRequest asks for oracle-against-scripted runs of the first two
// test tasks of domains.
func oracleRequest(domains ...string) workbench.PlanRequest {
	return workbench.PlanRequest{
		Domains: domains, Condition: "both", Concurrency: 1,
		Options: sim.RunOptions{
			Agent: "oracle", User: "scripted", Trials: 1, Tasks: "2", Split: emobench.SplitTest,
			MaxSteps: sim.DefaultMaxSteps, MaxErrors: sim.DefaultMaxErrors, Now: fixedClock,
		},
	}
}

func TestPlanRuns_OK(t *testing.T) {
	t.Parallel()
	plans, err := workbench.PlanRuns(oracleRequest("airline", "retail"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range plans {
		got = append(got, p.Spec.Domain+"/"+p.Spec.Condition)
	}
	// Domains in the order given, then with- before without-emotions.
	want := []string{"airline/with-emotions", "airline/without-emotions", "retail/with-emotions", "retail/without-emotions"}
	if !slices.Equal(got, want) {
		t.Fatalf("plans = %q, want %q", got, want)
	}
}

func TestPlanRuns_ErrSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		edit func(*workbench.PlanRequest)
		want string
	}{
		{func(r *workbench.PlanRequest) { r.Options.BaseURL = "http://u:secret@host/v1" }, "base-url holds a credential"},
		{func(r *workbench.PlanRequest) { r.Domains = nil }, "run needs a domain (one of "},
		{func(r *workbench.PlanRequest) { r.Condition = "calm" }, `condition "calm" is not one of`},
		{func(r *workbench.PlanRequest) { r.Concurrency = 0 }, "concurrency 0: need 1 to 1024"},
		{func(r *workbench.PlanRequest) { r.Concurrency = 1000000 }, "concurrency 1000000: need 1 to 1024"},
		{func(r *workbench.PlanRequest) { r.Domains = []string{"nosuch"} }, "nosuch"},
		{func(r *workbench.PlanRequest) { r.Options.Trials = 0 }, "trials 0: need at least 1"},
		// The first check that fails is the one told.
		{func(r *workbench.PlanRequest) { r.Domains, r.Concurrency = nil, 0 }, "run needs a domain"},
	} {
		r := oracleRequest("retail")
		tc.edit(&r)
		_, err := workbench.PlanRuns(r)
		if !errors.Is(err, emobench.ErrRequest) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want an EREQUEST error with %q", r, err, tc.want)
		}
	}
}

func TestCheckEndpoint(t *testing.T) {
	t.Parallel()
	if err := workbench.CheckEndpoint("base-url", "http://localhost:8000/v1"); err != nil {
		t.Fatalf("plain endpoint: %v", err)
	}
	err := workbench.CheckEndpoint("agent-base-url", "https://host/v1?api_key=sk-abcdefghijklmnopqrstuvwx")
	if !errors.Is(err, emobench.ErrRequest) || !strings.HasPrefix(err.Error(), "agent-base-url holds a credential") {
		t.Fatalf("endpoint with a key parameter: err = %v, want an EREQUEST error naming --agent-base-url", err)
	}
}

func TestResumeRun_Endpoint(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := openRunTestDB(t)
	var lines, notes []string
	opts := recordingOptions(&lines, &notes)
	if err := workbench.StartRuns(ctx, store, planOracleRuns(t, "r", emobench.ConditionWithoutEmotions), nil, opts); err != nil {
		t.Fatal(err)
	}
	secret := "http://user:hunter2@host/v1"
	err := workbench.ResumeRun(ctx, store, "r", workbench.ResumeLLM{BaseURL: &secret}, opts)
	if !errors.Is(err, emobench.ErrRequest) || !strings.HasPrefix(err.Error(), "base-url holds a credential") {
		t.Fatalf("resume with a password in the endpoint: err = %v, want an EREQUEST error", err)
	}
	lines = nil
	plain := "http://host/v1"
	if err := workbench.ResumeRun(ctx, store, "r", workbench.ResumeLLM{BaseURL: &plain}, opts); err != nil {
		t.Fatal(err)
	}
	if want := []string{"run 1 (r): 0 episodes to run (2 already stored)"}; !slices.Equal(lines, want) {
		t.Fatalf("resume lines = %q, want %q", lines, want)
	}
}

func TestExecuteRun_Progress(t *testing.T) {
	t.Parallel()
	store := openRunTestDB(t)
	var lines, notes []string
	var bar bytes.Buffer
	opts := recordingOptions(&lines, &notes)
	opts.Progress = &bar
	if err := workbench.StartRuns(context.Background(), store, planOracleRuns(t, "p", emobench.ConditionWithoutEmotions), nil, opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(bar.String(), "episodes") {
		t.Fatalf("progress bar wrote %q, want an episode count", bar.String())
	}
}

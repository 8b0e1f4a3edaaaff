package sim_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// toyDomainN has n test tasks toy-test-000… and two train tasks.
func toyDomainN(n int) toyDomain {
	var tasks []emobench.TaskSpec
	for i := range n {
		t := toyTask(angrySkeptic)
		t.ID = fmt.Sprintf("toy-test-%03d", i)
		tasks = append(tasks, t)
	}
	for i := range 2 {
		t := toyTask(angrySkeptic)
		t.ID, t.Split = fmt.Sprintf("toy-train-%03d", i), emobench.SplitTrain
		tasks = append(tasks, t)
	}
	return toyDomain{tasks: tasks}
}

func TestSelectTasks(t *testing.T) {
	t.Parallel()
	dom := toyDomainN(4)
	tests := []struct {
		split emobench.Split
		spec  string
		want  []string
	}{
		{emobench.SplitTest, "", []string{"toy-test-000", "toy-test-001", "toy-test-002", "toy-test-003"}},
		{emobench.SplitTest, "2", []string{"toy-test-000", "toy-test-001"}},
		{emobench.SplitTest, "99", []string{"toy-test-000", "toy-test-001", "toy-test-002", "toy-test-003"}},
		// Ids keep the order given; ids of other domains are skipped.
		{emobench.SplitTest, "toy-test-003, retail-test-000,toy-test-001", []string{"toy-test-003", "toy-test-001"}},
		{emobench.SplitTrain, "", []string{"toy-train-000", "toy-train-001"}},
		{emobench.SplitTrain, "toy-test-000", nil},
	}
	for _, tt := range tests {
		got, err := sim.SelectTasks(dom, tt.split, tt.spec)
		if err != nil {
			t.Fatalf("SelectTasks(%s, %q): %v", tt.split, tt.spec, err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("SelectTasks(%s, %q) = %v, want %v", tt.split, tt.spec, got, tt.want)
		}
	}
}

func TestSelectTasks_ErrInvalid(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		dom  toyDomain
		spec string
		want string
	}{
		{toyDomainN(2), "0", "tasks 0: need at least 1"},
		{toyDomain{}, "", "domain toy has no test tasks"},
	} {
		_, err := sim.SelectTasks(tt.dom, emobench.SplitTest, tt.spec)
		if emobench.ErrorCode(err) != emobench.EINVALID || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("SelectTasks(%q) = %v, want EINVALID %q", tt.spec, err, tt.want)
		}
	}
}

func TestParseShard(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in            string
		shard, shards int
	}{{"", 0, 1}, {"0/4", 0, 4}, {"3/4", 3, 4}, {"0/1", 0, 1}} {
		i, n, err := sim.ParseShard(tt.in)
		if err != nil || i != tt.shard || n != tt.shards {
			t.Errorf("ParseShard(%q) = %d, %d, %v; want %d, %d", tt.in, i, n, err, tt.shard, tt.shards)
		}
	}
	for _, bad := range []string{"4/4", "-1/4", "1/0", "1", "a/b", "1/2/3"} {
		if _, _, err := sim.ParseShard(bad); emobench.ErrorCode(err) != emobench.EINVALID {
			t.Errorf("ParseShard(%q) = %v, want an EINVALID error", bad, err)
		}
	}
}

// TestInShard_Partition: every pair is in exactly one shard, and no shard
// of 4 over 200 pairs is empty.
func TestInShard_Partition(t *testing.T) {
	t.Parallel()
	const shards = 4
	sizes := make([]int, shards)
	for task := range 50 {
		for trial := range 4 {
			n := 0
			for s := range shards {
				if sim.InShard(fmt.Sprintf("t-%d", task), trial, s, shards) {
					n++
					sizes[s]++
				}
			}
			if n != 1 {
				t.Fatalf("pair (t-%d, %d) is in %d shards", task, trial, n)
			}
		}
	}
	for s, n := range sizes {
		if n == 0 {
			t.Errorf("shard %d of %d is empty (sizes %v)", s, shards, sizes)
		}
	}
}

func jobKeys(jobs []sim.Job) []string {
	var out []string
	for _, j := range jobs {
		out = append(out, fmt.Sprintf("%s/%d", j.Task.ID, j.Trial))
	}
	return out
}

// TestMissingJobs_Resume: stored pairs are skipped, the rest come trial by
// trial in the spec's task order.
func TestMissingJobs_Resume(t *testing.T) {
	t.Parallel()
	dom := toyDomainN(3)
	spec := emobench.RunSpec{Domain: "toy", Trials: 2, Tasks: []string{"toy-test-002", "toy-test-000"}}
	stored := func(task string, trial int) bool { return task == "toy-test-002" && trial == 0 }
	jobs, err := sim.MissingJobs(dom, spec, stored)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"toy-test-000/0", "toy-test-002/1", "toy-test-000/1"}
	if got := jobKeys(jobs); !slices.Equal(got, want) {
		t.Errorf("MissingJobs = %v, want %v", got, want)
	}
	all, err := sim.MissingJobs(dom, spec, nil)
	if err != nil || len(all) != 4 {
		t.Errorf("MissingJobs with nothing stored = %v, %v; want 4 jobs", jobKeys(all), err)
	}
}

// TestMissingJobs_Shards: the shards' jobs together are the run's jobs,
// each once.
func TestMissingJobs_Shards(t *testing.T) {
	t.Parallel()
	dom := toyDomainN(10)
	ids, _ := sim.SelectTasks(dom, emobench.SplitTest, "")
	spec := emobench.RunSpec{Domain: "toy", Trials: 3, Tasks: ids}
	whole, err := sim.MissingJobs(dom, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	var union []string
	for s := range 3 {
		spec.Shard = fmt.Sprintf("%d/3", s)
		jobs, err := sim.MissingJobs(dom, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		union = append(union, jobKeys(jobs)...)
	}
	got, want := slices.Sorted(slices.Values(union)), slices.Sorted(slices.Values(jobKeys(whole)))
	if !slices.Equal(got, want) {
		t.Errorf("shards' jobs %v\nwant %v", got, want)
	}
}

func TestMissingJobs_ErrTaskGone(t *testing.T) {
	t.Parallel()
	spec := emobench.RunSpec{Domain: "toy", Trials: 1, Tasks: []string{"toy-test-009"}}
	if _, err := sim.MissingJobs(toyDomainN(1), spec, nil); err == nil || !strings.Contains(err.Error(), `no task "toy-test-009" any more`) {
		t.Fatalf("err = %v, want one naming the missing task", err)
	}
}

func TestPlan(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.FixedZone("CET", 3600))
	opts := sim.RunOptions{
		Domains: []sim.Domain{toyDomainN(3)}, Conditions: []emobench.Condition{emobench.ConditionWithEmotions, emobench.ConditionWithoutEmotions},
		Agent: "noisy:0.3", User: "scripted", Trials: 2, Tasks: "2", Split: emobench.SplitTest, Seed: 5,
		MaxSteps: 30, MaxErrors: 5, Now: func() time.Time { return at },
	}
	plans, err := sim.Plan(opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) != 2 {
		t.Fatalf("%d runs, want one per condition", len(plans))
	}
	r, s := plans[1].Run, plans[1].Spec
	if r.Name != "noisy:0.3-toy-without-emotions" || r.SourceFormat != emobench.SourceNative || r.AgentModel != "noisy:0.3" ||
		r.AgentStrategy != "noisy" || r.UserStrategy != "scripted" || r.Condition != emobench.ConditionWithoutEmotions {
		t.Errorf("run = %+v", r)
	}
	if !r.CreatedAt.Equal(at) || r.CreatedAt.Location() != time.UTC {
		t.Errorf("CreatedAt = %v, want %v in UTC", r.CreatedAt, at)
	}
	if !slices.Equal(s.Tasks, []string{"toy-test-000", "toy-test-001"}) || s.Seed != 5 || s.Trials != 2 {
		t.Errorf("spec = %+v", s)
	}
	if got, want := string(r.Config), string(s.Encode()); got != want {
		t.Errorf("config %s, want the spec %s", got, want)
	}

	opts.Name = "mine"
	plans, _ = sim.Plan(opts)
	if plans[0].Run.Name != "mine-toy-with-emotions" {
		t.Errorf("name of one of several runs = %q", plans[0].Run.Name)
	}
	opts.Conditions = opts.Conditions[:1]
	plans, _ = sim.Plan(opts)
	if plans[0].Run.Name != "mine" {
		t.Errorf("name of the only run = %q", plans[0].Run.Name)
	}
}

func TestPlan_ErrInvalid(t *testing.T) {
	t.Parallel()
	base := sim.RunOptions{
		Domains: []sim.Domain{toyDomainN(2)}, Conditions: []emobench.Condition{emobench.ConditionWithEmotions},
		Agent: "oracle", User: "scripted", Trials: 1, Split: emobench.SplitTest, MaxSteps: 30, MaxErrors: 5,
	}
	for _, tt := range []struct {
		edit func(*sim.RunOptions)
		want string
	}{
		{func(o *sim.RunOptions) { o.Trials = 0 }, "trials 0: need at least 1"},
		{func(o *sim.RunOptions) { o.MaxErrors = -1 }, "max-errors -1"},
		{func(o *sim.RunOptions) { o.Split = "dev" }, `split "dev" is not test or train`},
		{func(o *sim.RunOptions) { o.Shard = "2/2" }, `shard "2/2"`},
		{func(o *sim.RunOptions) { o.Tasks = "toy-test-001,nope" }, `tasks: no test task "nope" in domains toy`},
		{func(o *sim.RunOptions) { o.Agent = "noisy:2" }, "the noise rate must be a number in [0, 1]"},
		{func(o *sim.RunOptions) { o.Agent = "noisy:NaN" }, "the noise rate must be a number in [0, 1]"},
		{func(o *sim.RunOptions) { o.Agent = "gpt" }, `agent "gpt" is not llm:MODEL, oracle or noisy:RATE`},
		{func(o *sim.RunOptions) { o.User = "llm:" }, "llm: needs a model name"},
		{func(o *sim.RunOptions) { o.User = "llm:m" }, "needs OPENAI_API_KEY"},
	} {
		opts := base
		tt.edit(&opts)
		_, err := sim.Plan(opts)
		if emobench.ErrorCode(err) != emobench.EINVALID || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Plan = %v, want EINVALID %q", err, tt.want)
		}
	}
}

func TestTally(t *testing.T) {
	t.Parallel()
	var tally sim.Tally
	one := 1.0
	for _, traj := range []emobench.Trajectory{
		{Reward: &one, Evaluated: true, TerminationReason: emobench.TerminationUserStop},
		{TerminationReason: emobench.TerminationUserUnsatisfied},
		{TerminationReason: emobench.TerminationError, Error: "first"},
		{TerminationReason: emobench.TerminationError, Error: "second"},
	} {
		tally.Add(&traj)
	}
	want := sim.Tally{Done: 4, Passed: 1, Abandoned: 1, Errors: 2, FirstError: "first"}
	if tally != want {
		t.Errorf("tally = %+v, want %+v", tally, want)
	}
	if got := tally.PassRate(); got != 0.25 {
		t.Errorf("pass rate = %v, want 1/4", got)
	}
}

// TestExecute_FailFast: with one episode in flight, the fifth episode in
// a row that ends in error stops the run.
func TestExecute_FailFast(t *testing.T) {
	t.Parallel()
	dom := toyDomainN(8)
	ids, _ := sim.SelectTasks(dom, emobench.SplitTest, "")
	spec := emobench.RunSpec{Domain: "toy", Trials: 1, Tasks: ids, MaxSteps: 30, MaxErrors: 5}
	jobs, _ := sim.MissingJobs(dom, spec, nil)
	stored := 0
	tally, err := sim.Execute(context.Background(), sim.Execution{Domain: dom, Spec: spec, Agent: failingAgent{}, User: sim.ScriptedUser{}, Concurrency: 1},
		jobs, func(context.Context, *emobench.Trajectory) error { stored++; return nil })
	var failed *sim.AllFailedError
	if !errors.As(err, &failed) || failed.Episodes != 1+sim.FailFastErrors {
		t.Fatalf("err = %v, want AllFailedError after %d episodes", err, 1+sim.FailFastErrors)
	}
	if stored != 5 || tally.Errors != 5 {
		t.Errorf("%d stored, tally %+v; want 5 errors stored", stored, tally)
	}
}

// TestExecute_SinkErrorNamesPair: a trajectory the sink cannot store
// stops the run with an error naming its task and trial (#20 item 3).
func TestExecute_SinkErrorNamesPair(t *testing.T) {
	t.Parallel()
	dom := toyDomainN(1)
	spec := emobench.RunSpec{Domain: "toy", Trials: 1, Tasks: []string{"toy-test-000"}, MaxSteps: 30, MaxErrors: 5}
	jobs, _ := sim.MissingJobs(dom, spec, nil)
	_, err := sim.Execute(context.Background(), sim.Execution{Domain: dom, Spec: spec, Agent: sim.Oracle{}, User: sim.ScriptedUser{}, Concurrency: 1},
		jobs, func(context.Context, *emobench.Trajectory) error { return errors.New("CHECK constraint failed") })
	if got, want := fmt.Sprint(err), "task toy-test-000, trial 0: CHECK constraint failed"; got != want {
		t.Errorf("err = %q, want %q", got, want)
	}
}

// TestExecute_CircuitBreaker: after an episode that did not end in error,
// MaxConsecutiveErrors episodes in a row that did stop the run, each
// stored (#20 item 19).
func TestExecute_CircuitBreaker(t *testing.T) {
	t.Parallel()
	dom := toyDomainN(8)
	ids, _ := sim.SelectTasks(dom, emobench.SplitTest, "")
	spec := emobench.RunSpec{Domain: "toy", Trials: 1, Tasks: ids, MaxSteps: 30, MaxErrors: 5}
	jobs, _ := sim.MissingJobs(dom, spec, nil)
	stored := 0
	// The oracle on the first task, then an endpoint that fails.
	x := sim.Execution{Domain: dom, Spec: spec, Agent: deadAfter{ok: jobs[0].Task.ID}, User: sim.ScriptedUser{}, Concurrency: 1, MaxConsecutiveErrors: 3}
	tally, err := sim.Execute(context.Background(), x, jobs, func(context.Context, *emobench.Trajectory) error { stored++; return nil })
	var inARow *sim.ConsecutiveErrorsError
	if !errors.As(err, &inARow) || inARow.Episodes != 3 {
		t.Fatalf("err = %v, want ConsecutiveErrorsError after 3 episodes", err)
	}
	if stored != 4 || tally.Errors != 3 {
		t.Errorf("%d stored, tally %+v; want 1 + 3 errors stored", stored, tally)
	}
}

// deadAfter is the oracle on task ok and failingAgent on the others.
type deadAfter struct{ ok string }

func (a deadAfter) Next(ctx context.Context, ep *sim.Episode) (emobench.Message, error) {
	if ep.Task.ID == a.ok {
		return sim.Oracle{}.Next(ctx, ep)
	}
	return failingAgent{}.Next(ctx, ep)
}

// TestExecute_Oracle: every job is run once and handed to the sink.
func TestExecute_Oracle(t *testing.T) {
	t.Parallel()
	dom := toyDomainN(3)
	spec := emobench.RunSpec{Domain: "toy", Condition: string(emobench.ConditionWithEmotions), Trials: 2,
		Tasks: []string{"toy-test-000", "toy-test-001", "toy-test-002"}, MaxSteps: 30, MaxErrors: 5}
	jobs, _ := sim.MissingJobs(dom, spec, nil)
	var seen []string
	var progress []int
	x := sim.Execution{Domain: dom, Spec: spec, Agent: sim.Oracle{}, User: sim.ScriptedUser{}, Concurrency: 2,
		OnEpisode: func(t sim.Tally) { progress = append(progress, t.Done) }}
	tally, err := sim.Execute(context.Background(), x, jobs, func(_ context.Context, traj *emobench.Trajectory) error {
		seen = append(seen, fmt.Sprintf("%s/%d", traj.Task.Key, traj.Trial))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if tally.Done != 6 || tally.Passed != 6 || !slices.Equal(progress, []int{1, 2, 3, 4, 5, 6}) {
		t.Errorf("tally %+v, progress %v; want 6 passed, counted one by one", tally, progress)
	}
	if got, want := slices.Sorted(slices.Values(seen)), slices.Sorted(slices.Values(jobKeys(jobs))); !slices.Equal(got, want) {
		t.Errorf("sink saw %v, want %v", got, want)
	}
}

func TestResumeSpec(t *testing.T) {
	t.Parallel()
	spec := emobench.RunSpec{Domain: "toy", Trials: 2, Tasks: []string{"toy-test-000"}, Shard: "1/2", UserAbandon: string(sim.AbandonWithEmotions)}
	run := sim.NewRun(spec, time.Unix(0, 0))
	run.ID = 4
	got, err := sim.ResumeSpec(run)
	if err != nil || !got.SameRun(spec) || got.Shard != "1/2" {
		t.Fatalf("ResumeSpec = %+v, %v; want the recorded spec", got, err)
	}
	for _, tt := range []struct {
		edit func(*emobench.Run)
		code string
		want string
	}{
		{func(r *emobench.Run) { r.SourceFormat = "taubench" }, emobench.EINVALID, "run 4 (toy-toy-) was ingested from a file"},
		{func(r *emobench.Run) { r.Config = []byte(`{"trials":"2"}`) }, "", "run 4 (toy-toy-): run config"},
	} {
		r := run
		r.Name = "toy-toy-"
		tt.edit(&r)
		if _, err := sim.ResumeSpec(r); err == nil || emobench.ErrorCode(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ResumeSpec = %v, want code %q and %q", err, tt.code, tt.want)
		}
	}
}

// A run recorded before user_abandon existed let the user abandon under
// both conditions; resuming it keeps that, while a new plan records the
// default it resolved.
func TestResumeSpec_UserAbandonOfOlderRuns(t *testing.T) {
	t.Parallel()
	old := sim.NewRun(emobench.RunSpec{Domain: "toy", Trials: 1}, time.Unix(0, 0))
	old.SourceFormat = emobench.SourceNative
	got, err := sim.ResumeSpec(old)
	if err != nil || got.UserAbandon != string(sim.AbandonAlways) {
		t.Errorf("ResumeSpec of a config without user_abandon = %q, %v; want %q", got.UserAbandon, err, sim.AbandonAlways)
	}
	recorded := sim.NewRun(emobench.RunSpec{Domain: "toy", Trials: 1, UserAbandon: string(sim.AbandonNever)}, time.Unix(0, 0))
	if got, err := sim.ResumeSpec(recorded); err != nil || got.UserAbandon != string(sim.AbandonNever) {
		t.Errorf("ResumeSpec of a recorded never = %q, %v", got.UserAbandon, err)
	}
}

func TestParseConditions(t *testing.T) {
	t.Parallel()
	both, err := sim.ParseConditions("both")
	if err != nil || !slices.Equal(both, []emobench.Condition{emobench.ConditionWithEmotions, emobench.ConditionWithoutEmotions}) {
		t.Errorf("both = %v, %v", both, err)
	}
	one, err := sim.ParseConditions("without-emotions")
	if err != nil || !slices.Equal(one, []emobench.Condition{emobench.ConditionWithoutEmotions}) {
		t.Errorf("without-emotions = %v, %v", one, err)
	}
	if _, err := sim.ParseConditions("none"); emobench.ErrorCode(err) != emobench.EINVALID {
		t.Errorf("none: %v, want EINVALID (a run has emotions or not)", err)
	}
}

func TestSpecEpisodeTimeout(t *testing.T) {
	for _, tt := range []struct {
		recorded string
		want     time.Duration
		ok       bool
	}{{"", 0, true}, {"none", -1, true}, {"20m0s", 20 * time.Minute, true}, {"0s", 0, false}, {"soon", 0, false}} {
		got, err := sim.SpecEpisodeTimeout(emobench.RunSpec{EpisodeTimeout: tt.recorded})
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("SpecEpisodeTimeout(%q) = %v, %v; want %v, ok %v", tt.recorded, got, err, tt.want, tt.ok)
		}
	}
	if got, want := sim.FormatEpisodeTimeout(0), "10m0s"; got != want {
		t.Errorf("FormatEpisodeTimeout(0) = %q, want %q", got, want)
	}
}

package workbench

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/redact"
	"github.com/emobench/emobench/sim"
)

// ExecuteOptions is how ExecuteRun carries out a run's episodes. The run
// command copies its flags here; nil callbacks are skipped.
type ExecuteOptions struct {
	// LLM configures llm: participants (key, timeout, price table).
	LLM sim.LLMOptions
	// EpisodeTimeout bounds one episode's wall-clock time
	// (sim.Execution.EpisodeTimeout: 0 the default, negative none).
	EpisodeTimeout time.Duration
	// Concurrency is the number of episodes in flight; 1 when < 1.
	Concurrency int
	// Command names this process in the run's lock, as a second process
	// trying the run is told (e.g. "emobench run --resume 3").
	Command string
	// Progress, when not nil, receives an episode progress bar (a
	// terminal's stderr).
	Progress io.Writer
	// Print receives the lines that say what a run does: the episodes to
	// run, then its tally (for stdout, without newline).
	Print func(line string)
	// Note receives notes, such as a stale lock taken over.
	Note func(note string)
	// Now is the clock for the elapsed time and the demo runs' creation
	// time; nil means time.Now.
	Now func() time.Time
	// Tasks, when not nil, are the tasks run instead of the domain's own
	// (a Tracer tasks file, as PlanRequest.Tasks).
	Tasks []emobench.TaskSpec
	// SealKeyFile is the file of the key that seals the configs of new
	// llm: runs and verifies them on resume (origin.go, LoadSealKey:
	// made on first use); "" for none, when no config is sealed and the
	// resume of an llm: run takes its endpoints from the command line.
	SealKeyFile string
	// MachineKey, when not nil, is that key instead of SealKeyFile's
	// (tests: another machine).
	MachineKey []byte
	// MaxConsecutiveErrors stops a run when that many episodes in a row
	// end in error (sim.Execution.MaxConsecutiveErrors: 0 the default,
	// negative never).
	MaxConsecutiveErrors int
}

func (o ExecuteOptions) print(format string, args ...any) {
	if o.Print != nil {
		o.Print(fmt.Sprintf(format, args...))
	}
}

func (o ExecuteOptions) note(format string, args ...any) {
	if o.Note != nil {
		o.Note(fmt.Sprintf(format, args...))
	}
}

func (o ExecuteOptions) now() time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

// requestf is an error in what the caller asked (a setting's value, a run
// that cannot be resumed, contradictory options), not in stored data or
// the environment: an emobench.EREQUEST error.
func requestf(format string, args ...any) error {
	return emobench.Errorf(emobench.EREQUEST, format, args...)
}

// settingf is an EREQUEST error about the value of the setting named
// setting ("concurrency", "tasks-file"), worded as emobench.Settingf
// words it; a front end names its flag or field.
func settingf(setting, format string, args ...any) error {
	return emobench.Settingf(emobench.EREQUEST, setting, format, args...)
}

// InterruptedError is a run stopped by ctx (Ctrl-C): its message says how
// many episodes were stored and how to continue.
type InterruptedError struct{ Msg string }

func (e *InterruptedError) Error() string { return e.Msg }

// ResumableError is a run that stopped with episodes to run again (its
// endpoint failing, episodes in error): a resume of Run continues it.
type ResumableError struct {
	Run int64
	Err error
}

func (e *ResumableError) Error() string { return e.Err.Error() }
func (e *ResumableError) Unwrap() error { return e.Err }

// RunTags are the tags of a tuned agent's runs (see stats generalization).
type RunTags struct {
	// TrainDomains are the domains the agent was trained on, each element
	// possibly a comma-separated list; nil for none.
	TrainDomains []string
	BaseRun      string // run id or name of its base model; "" for none
}

// NewRunTags are the tags a run command was given: trainDomains and
// baseRun, each nil when not given; nil when neither was. Train domains
// given empty are kept as an empty (not nil) list, so that they are
// refused.
func NewRunTags(trainDomains *[]string, baseRun *string) *RunTags {
	if trainDomains == nil && baseRun == nil {
		return nil
	}
	tags := &RunTags{}
	if trainDomains != nil {
		tags.TrainDomains = append([]string{}, *trainDomains...)
	}
	if baseRun != nil {
		tags.BaseRun = *baseRun
	}
	return tags
}

// PlanRequest is what the run command asks for: new runs of Options on
// the named Domains, under the conditions Condition names, Concurrency
// episodes at a time.
type PlanRequest struct {
	Domains     []string // domain names, in run order, each once
	Condition   string   // with-emotions, without-emotions or both (sim.ParseConditions)
	Concurrency int      // episodes in flight, ≥ 1
	// Options are the runs' settings; PlanRuns sets Domains and Conditions.
	Options sim.RunOptions
	// Tasks, when not nil, replace the domains' own tasks (tracer collect
	// --tasks FILE): each domain offers those of its name.
	Tasks []emobench.TaskSpec
}

// PlanRuns checks r and plans one run per (domain, condition) (sim.Plan).
// Its checks, in order: an endpoint with a credential (CheckEndpoint), a
// price file that cannot be read (CheckPriceFile), no domain, a bad
// condition, a concurrency below 1, an unknown domain, then sim.Plan's;
// each is an EREQUEST error.
func PlanRuns(r PlanRequest) ([]sim.PlannedRun, error) {
	opts := r.Options
	endpoints := map[string]string{"base-url": opts.BaseURL, "agent-base-url": opts.AgentLLM.BaseURL, "user-base-url": opts.UserLLM.BaseURL, "judge-base-url": opts.JudgeLLM.BaseURL}
	for _, flag := range []string{"base-url", "agent-base-url", "user-base-url", "judge-base-url"} {
		if err := CheckEndpoint(flag, endpoints[flag]); err != nil {
			return nil, err
		}
	}
	if err := CheckPriceFile(opts.LLM.PriceFile); err != nil {
		return nil, err
	}
	if len(r.Domains) == 0 {
		return nil, requestf("run needs a domain (one of %s) or a run to resume", strings.Join(all.Names(), ", "))
	}
	var err error
	if opts.Conditions, err = sim.ParseConditions(r.Condition); err != nil {
		return nil, emobench.AsRequest(err)
	}
	if r.Concurrency < 1 || r.Concurrency > MaxConcurrency {
		return nil, settingf("concurrency", "%d: need 1 to %d", r.Concurrency, MaxConcurrency)
	}
	opts.Domains = nil
	for _, name := range r.Domains {
		dom, err := all.Find(name)
		if err != nil {
			return nil, requestf("%v", err)
		}
		opts.Domains = append(opts.Domains, withTasks(dom, r.Tasks))
	}
	plans, err := sim.Plan(opts)
	return plans, emobench.AsRequest(err)
}

// CheckEndpoint refuses, with an EREQUEST error naming flag, an LLM
// endpoint u that carries a credential (a password or a key parameter):
// the endpoint is stored with the run for --resume, and the key would be
// too.
func CheckEndpoint(flag, u string) error {
	if redact.Text(u) != u {
		return settingf(flag, "holds a credential (a password or a key parameter): give the endpoint alone and the key in OPENAI_API_KEY")
	}
	return nil
}

// CheckPriceFile refuses, with an EREQUEST error naming it, a price file
// (--price-file) that cannot be read or is not a price table
// (sim.LoadPriceTable), whatever the agents: one that only llm: roles
// read would otherwise pass unnoticed with offline ones. "" is none.
func CheckPriceFile(path string) error {
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return settingf("price-file", "%s: %v", path, err)
	}
	defer f.Close()
	if _, err := sim.LoadPriceTable(f); err != nil {
		return settingf("price-file", "%s: %v", path, err)
	}
	return nil
}

// MaxConcurrency is the most episodes a run keeps in flight: each is a
// goroutine, an environment and, for llm: participants, connections to the
// endpoint; a million of them exhausted memory.
const MaxConcurrency = 1024

// StartRuns checks that no stored run has the name of a planned run and
// that tags (nil: no tags) are sound (checkTags), then creates every
// planned run with its tags (each in one transaction) and executes them in
// order (ExecuteRun): a check that fails stores nothing, and a run that
// stops leaves the later ones stored and not started, its error naming
// the --resume of each. The config of a run
// with an llm: participant is sealed with this machine's key (OriginSeal),
// which a later --resume verifies. Errors: a name clash
// or a bad setting is an EREQUEST error; an unknown or ambiguous base run
// is db's error (as runs tag's); a run interrupted before the last is an
// *InterruptedError that names the runs not started.
func StartRuns(ctx context.Context, store *db.DB, plans []sim.PlannedRun, tags *RunTags, opts ExecuteOptions) error {
	for _, p := range plans {
		if err := store.CheckNewRunName(ctx, p.Run.Name); err != nil {
			return emobench.AsRequest(err)
		}
	}
	trainDomains, base, err := checkTags(ctx, store, tags)
	if err != nil {
		return err
	}
	plans = PairPlans(plans, rand.Text())
	key, keyErr := opts.sealKey()
	// Every run is stored before the first starts, so that an interrupt
	// or a stop leaves each of them to --resume, each with the pair id
	// that stats emotions pairs its conditions by.
	ids := make([]int64, len(plans))
	for i := range plans {
		p := &plans[i]
		if keyErr == nil {
			p.Spec.OriginSeal = originSeal(key, p.Spec)
		} else if usesLLM(p.Spec) {
			opts.note("run %s is not sealed (%v): its --resume will take the endpoint from --base-url", p.Run.Name, keyErr)
		}
		p.Run.Config = p.Spec.Encode()
		if ids[i], err = store.CreateTaggedRun(ctx, p.Run, trainDomains, base); err != nil {
			return err
		}
	}
	for i, p := range plans {
		if _, err := ExecuteRun(ctx, store, ids[i], p.Run.Name, p.Spec, opts); err != nil {
			if i == len(plans)-1 {
				return err
			}
			var later []string
			for j := i + 1; j < len(plans); j++ {
				later = append(later, fmt.Sprintf("`emobench run --resume %d` (%s)", ids[j], plans[j].Run.Name))
			}
			more := fmt.Sprintf("%v; %d more runs (other domains or conditions) are stored but not started: continue them with %s",
				err, len(later), strings.Join(later, ", "))
			var stopped *InterruptedError
			if errors.As(err, &stopped) {
				return &InterruptedError{more}
			}
			return &runsLeftError{msg: more, err: err}
		}
	}
	return nil
}

// runsLeftError is an error of one run of StartRuns that left later runs
// not started: its message names them; it unwraps to the run's error.
type runsLeftError struct {
	msg string
	err error
}

func (e *runsLeftError) Error() string { return e.msg }
func (e *runsLeftError) Unwrap() error { return e.err }

// PairPlans returns plans, copied, with pair recorded in every run's
// config (emobench.RunSpec.Pair): the with- and without-emotions runs
// one command starts are the pairs stats emotions compares.
func PairPlans(plans []sim.PlannedRun, pair string) []sim.PlannedRun {
	out := slices.Clone(plans)
	for i := range out {
		out[i].Spec.Pair = pair
		out[i].Run.Config = out[i].Spec.Encode()
	}
	return out
}

// checkTags returns the train domains (trimmed, each once; nil for none)
// and the base run's id (0 for none) that tags give, refusing as a
// EREQUEST error train domains that are all blank or that name neither a
// domain of emobench nor one of a stored run (a typo), and returning db's
// error for a base run that is unknown or ambiguous. nil tags are none.
func checkTags(ctx context.Context, store *db.DB, tags *RunTags) ([]string, int64, error) {
	if tags == nil {
		return nil, 0, nil
	}
	var trainDomains []string
	if tags.TrainDomains != nil {
		if trainDomains = UniqueInOrder(SplitList(tags.TrainDomains)); len(trainDomains) == 0 {
			return nil, 0, settingf("train-domains", "is empty: give the domains, e.g. retail,airline")
		}
		known := map[string]bool{}
		for _, d := range all.Names() {
			known[d] = true
		}
		runs, err := store.ListRunSummaries(ctx)
		if err != nil {
			return nil, 0, err
		}
		for _, r := range runs {
			known[r.Domain] = true
		}
		for _, d := range trainDomains {
			if !known[d] {
				return nil, 0, settingf("train-domains", ": no domain %q (domains: %s, and those of stored runs)", d, strings.Join(all.Names(), ", "))
			}
		}
	}
	var base int64
	if tags.BaseRun != "" {
		var err error
		if base, err = store.ResolveRun(ctx, tags.BaseRun); err != nil {
			return nil, 0, emobench.Settingf(emobench.ErrorCode(err), "base-run", ": %w", err)
		}
	}
	return trainDomains, base, nil
}

// ResumeSpec returns the run ref (an id or a name) names and the settings
// it was recorded with, to run its missing pairs with ExecuteRun. Errors:
// *db.RunNotFoundError; a run ingested from a file is an EREQUEST error
// (there is nothing to resume).
func ResumeSpec(ctx context.Context, store *db.DB, ref string) (emobench.Run, emobench.RunSpec, error) {
	id, err := store.ResolveRun(ctx, ref)
	if err != nil {
		return emobench.Run{}, emobench.RunSpec{}, err
	}
	run, err := store.FindRun(ctx, id)
	if err != nil {
		return run, emobench.RunSpec{}, err
	}
	spec, err := sim.ResumeSpec(run)
	return run, spec, emobench.AsRequest(err)
}

// ResumeRun runs the (task, trial) pairs that run ref (an id or a name) is
// missing, with its recorded settings (ResumeSpec) and ExecuteRun; llm
// gives the LLM endpoints and key variables of this session (sessionLLM):
// a native run's --base-url replaces the recorded endpoint (it may move
// between sessions) for this session only, with a note (the run's config
// keeps its endpoint: it is part of the settings shards merge by); a run
// that is not native takes them from llm, or is refused. An endpoint
// carrying a credential is refused, as is, first, a price file that
// cannot be read (CheckPriceFile).
func ResumeRun(ctx context.Context, store *db.DB, ref string, llm ResumeLLM, opts ExecuteOptions) error {
	if err := CheckPriceFile(opts.LLM.PriceFile); err != nil {
		return err
	}
	run, spec, err := ResumeSpec(ctx, store, ref)
	if err != nil {
		return err
	}
	if err := sessionLLM(ctx, store, run, &spec, llm, opts); err != nil {
		return err
	}
	_, err = ExecuteRun(ctx, store, run.ID, run.Name, spec, opts)
	return err
}

// ExecuteRun runs the (task, trial) pairs of run id (named name) that are
// not stored yet, with spec's settings, committing each trajectory (its
// credentials redacted) as it finishes. It holds the run's lock meanwhile,
// so that a second process running it is refused. It returns the tally of
// the episodes run. Errors: participants that cannot be built or tasks the
// domain lacks are an EREQUEST error; ctx ending is an *InterruptedError;
// episodes that all fail (sim.AllFailedError) or that fail many in a row
// (sim.ConsecutiveErrorsError) stop the run, and any failed episode is an
// error, each saying how to continue with --resume.
func ExecuteRun(ctx context.Context, store *db.DB, id int64, name string, spec emobench.RunSpec, opts ExecuteOptions) (sim.Tally, error) {
	dom, err := all.Find(spec.Domain)
	if err != nil {
		return sim.Tally{}, err
	}
	if opts.Tasks == nil && spec.TaskSet != "" {
		if opts.Tasks, err = collectedTasks(ctx, store, id, spec); err != nil {
			return sim.Tally{}, err
		}
	}
	dom = withTasks(dom, opts.Tasks)
	if opts.LLM.Note == nil && opts.Note != nil {
		var mu sync.Mutex // the clients note from the episodes' goroutines
		opts.LLM.Note = func(n string) { mu.Lock(); defer mu.Unlock(); opts.Note(n) }
	}
	agent, user, err := sim.NewParticipants(spec, opts.LLM)
	if err != nil {
		return sim.Tally{}, emobench.AsRequest(err)
	}
	judge, err := sim.NewJudge(spec, opts.LLM)
	if err != nil {
		return sim.Tally{}, emobench.AsRequest(err)
	}
	for _, n := range sim.KeyNotes(spec, opts.LLM) {
		opts.note("%s", n)
	}
	stale, unlock, err := store.LockRunHere(ctx, id, opts.Command)
	if err != nil {
		return sim.Tally{}, err
	}
	defer unlock()
	if stale != nil {
		opts.note("run %d was held by process %d (%s), which is no longer running: taking it over", id, stale.PID, stale.Command)
	}
	have, err := store.ListFinishedPairs(ctx, id)
	if err != nil {
		return sim.Tally{}, err
	}
	jobs, err := sim.MissingJobs(dom, spec, func(task string, trial int) bool { return have[db.Pair{TaskKey: task, Trial: trial}] })
	if err != nil {
		return sim.Tally{}, emobench.AsRequest(err)
	}
	opts.print("run %d (%s): %d episodes to run (%d already stored)", id, name, len(jobs), len(have))
	if len(jobs) == 0 {
		return sim.Tally{}, nil
	}
	if n := judgedTasks(jobs); judge != nil && n == 0 {
		opts.note("--judge %s: no task to run has NL assertions (nl_assertions), so nothing is judged", spec.Judge)
	}
	var bar *sim.Progress // nil shows nothing
	if opts.Progress != nil {
		bar = sim.NewProgress(opts.Progress, len(jobs))
	}
	start := opts.now()
	x := sim.Execution{Domain: dom, Spec: spec, Agent: agent, User: user, Judge: judge, Concurrency: opts.Concurrency, OnEpisode: bar.Show,
		EpisodeTimeout: opts.EpisodeTimeout, MaxConsecutiveErrors: opts.MaxConsecutiveErrors}
	// The sink commits even when the run is being interrupted (the episode
	// is done), unless it is still waiting for another writer.
	var stored atomic.Int64
	tally, err := sim.Execute(ctx, x, jobs, runSink(store, id, &stored))
	bar.Finish()
	var allFailed *sim.AllFailedError
	var inARow *sim.ConsecutiveErrorsError
	switch {
	case errors.Is(err, context.Canceled):
		// What the sink committed: an interrupt between a commit and the
		// sink's return leaves the tally one short.
		return tally, &InterruptedError{fmt.Sprintf("interrupted: %d episodes of run %d stored; continue with `emobench run --resume %d`", stored.Load(), id, id)}
	case errors.As(err, &allFailed):
		return tally, &ResumableError{id, fmt.Errorf("stopped: %v; check the endpoint, model name and key, then resume run %d", err, id)}
	case errors.As(err, &inARow):
		return tally, &ResumableError{id, fmt.Errorf("stopped: %v: the endpoint may be down; %d episodes of run %d stored, %d of them in error, which a resume runs again; check the endpoint, then resume run %d",
			err, tally.Done, id, tally.Errors, id)}
	case err != nil:
		return tally, fmt.Errorf("run %d: %w", id, err)
	}
	opts.print("run %d (%s): %d episodes in %.1fs; pass rate %.3f, %d abandoned (user_unsatisfied), %d errors",
		id, name, tally.Done, opts.now().Sub(start).Seconds(), tally.PassRate(), tally.Abandoned, tally.Errors)
	if tally.Errors > 0 {
		return tally, &ResumableError{id, fmt.Errorf("run %d: %d of %d episodes ended in error (first: %s); fix the cause and resume run %d to retry them",
			id, tally.Errors, tally.Done, tally.FirstError, id)}
	}
	return tally, nil
}

// judgedTasks counts the distinct tasks of jobs that have NL assertions,
// which a judge decides.
func judgedTasks(jobs []sim.Job) int {
	seen := map[*emobench.TaskSpec]bool{}
	for _, j := range jobs {
		if j.Task != nil && len(j.Task.NLAssertions) > 0 {
			seen[j.Task] = true
		}
	}
	return len(seen)
}

// runSink stores each finished trajectory of run id and counts in stored
// the trajectories it committed. It commits even when the run is being
// interrupted (the episode is done), unless it is still waiting for
// another writer.
func runSink(store *db.DB, id int64, stored *atomic.Int64) sim.Sink {
	return func(ctx context.Context, traj *emobench.Trajectory) error {
		ingest.RedactTrajectory(traj) // credentials a model or tool echoed, as ingest redacts a file's
		if err := store.AppendTrajectory(ctx, id, traj); err != nil {
			return err
		}
		stored.Add(1)
		return storeDependence(ctx, store, id, traj)
	}
}

// SimulateDemo runs the demo's offline simulators (sim.DemoPlans) on every
// domain; runs finished by an earlier demo are found by name and left as
// they are. Errors are ExecuteRun's.
func SimulateDemo(ctx context.Context, store *db.DB, opts ExecuteOptions) error {
	var doms []sim.Domain
	for _, domain := range all.Names() {
		dom, err := all.Find(domain)
		if err != nil {
			return err
		}
		doms = append(doms, dom)
	}
	plans, err := sim.DemoPlans(doms, opts.now)
	if err != nil {
		return err
	}
	plans = PairPlans(plans, "demo")
	for _, p := range plans {
		id, err := store.FindOrCreateRun(ctx, p.Run)
		if err != nil {
			return err
		}
		if _, err := ExecuteRun(ctx, store, id, p.Run.Name, p.Spec, opts); err != nil {
			return err
		}
	}
	return nil
}

// DemoTitle is the title of the demo's report.
const DemoTitle = "emobench demo report (synthetic fixtures and offline simulators)"

// Demo is the demo command: it ingests the result files fsys holds under
// taubench/ into the database at dbPath (made when missing; files
// ingested by an earlier demo are skipped), runs the offline simulators
// into it (SimulateDemo, with x), and writes the report of every run to
// out (WriteReport). Each ingested file's result goes to ingested, in
// order; the notes of building the report to x.Note. Errors are those of
// the first step that fails.
func Demo(ctx context.Context, fsys fs.FS, dbPath, out string, x ExecuteOptions, ingested func(Ingested)) error {
	store, err := db.Open(ctx, dbPath)
	if err != nil {
		return err
	}
	defer store.Close()
	names, err := fs.Glob(fsys, "taubench/*.json")
	if err != nil {
		return err
	}
	x.print("ingesting %d synthetic fixture files into %s", len(names), dbPath)
	opts := IngestOptions{Hints: ingest.Hints{OnDuplicate: string(db.DuplicateRefuse)}, OnDuplicate: db.DuplicateRefuse}
	for _, name := range names {
		res, err := IngestFS(ctx, store, fsys, name, "fixtures/"+name, opts)
		if err != nil {
			return err
		}
		ingested(res)
	}
	if err := SimulateDemo(ctx, store, x); err != nil {
		return err
	}
	s, err := Select(ctx, store, nil, false)
	if err != nil {
		return err
	}
	rep, notes, err := ReportOptions{Title: DemoTitle, Bootstrap: DefaultBootstrap}.Build(ctx, store, s)
	for _, n := range notes {
		x.note("%s", n)
	}
	if err != nil {
		return err
	}
	return WriteReport(ctx, out, rep.Input)
}

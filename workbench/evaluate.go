package workbench

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/sim"
)

// EvaluateRequest is what `emobench evaluate` asks: score the transcripts
// of the file at Path against Domain's tasks.
type EvaluateRequest struct {
	// Path is a τ²-bench Results file, a bare list of its simulations or a
	// run directory; a τ-bench result file (records with traj); or
	// emobench's transcript JSON (show --format json, export --format
	// jsonl).
	Path   string
	Domain string
	// Split is the split whose tasks the records' task ids name: test
	// (also when "") or train.
	Split emobench.Split
	// Task, when not "", is the task every record is scored against,
	// whatever task id it names (any split).
	Task string
	// Judge decides the tasks' NL assertions; nil leaves them not checked,
	// as `run` without --judge does.
	Judge sim.Judge
	// Preset is the protocol preset whose scoring applies (the reward of
	// an abandoned episode, sim.Protocol.UnsatisfiedReward); "" is
	// emobench's.
	Preset string
}

// Evaluation is a file's transcripts scored (EvaluateFile).
type Evaluation struct {
	Path   string // as given
	Format string // the source format: ingest's names, or ingest.FormatTranscript
	SHA256 string // hex sha256 of the file (of every file of a run directory)
	// Run is the run the source describes (models, condition), for
	// StoreEvaluation.
	Run     emobench.Run
	Domain  string
	Split   emobench.Split
	Task    string // EvaluateRequest.Task
	Judge   string // the judge's model; "" without one
	Preset  string // the protocol preset that scored it
	Records []EvaluatedRecord
}

// EvaluatedRecord is one record of the file, scored: what `evaluate
// --format json` prints of it.
type EvaluatedRecord struct {
	Record int    `json:"record"`  // its index in the file, from 0
	TaskID string `json:"task_id"` // the task it was scored against
	// Reward is the evaluator's reward: 1 or 0, sim.UnsatisfiedReward for
	// an abandoned episode; null when a check of the reward basis could
	// not be judged (an NL assertion without a judge).
	Reward *float64 `json:"reward"`
	// RecordedReward is the reward the file stored; null when none.
	RecordedReward *float64         `json:"recorded_reward"`
	Termination    string           `json:"termination_reason"`
	Checks         []EvaluatedCheck `json:"checks"`
	// ToolCalls is the number of tool calls replayed.
	ToolCalls int `json:"tool_calls"`
	// ToolResultMismatches counts the tool calls whose replayed result
	// differs from the recorded one (Mismatches lists them).
	ToolResultMismatches int                      `json:"tool_result_mismatches"`
	Mismatches           []sim.ToolResultMismatch `json:"-"`
	// Trajectory is the record scored: the task's stored form, the
	// recorded messages and termination, the new reward and reward_info.
	Trajectory *emobench.Trajectory `json:"-"`
}

// EvaluatedCheck is one check of a record's evaluation.
type EvaluatedCheck struct {
	Name   string `json:"name"`   // the check kind: DB, ACTION, FORBIDDEN, COMMUNICATE, REFUSAL, NL_ASSERTION, …
	Passed *bool  `json:"passed"` // null when not checked (an NL assertion without a judge)
	Detail string `json:"detail"` // what it checked: an action, an output, an assertion
}

// Agreement counts the records whose file stored a reward and, of those,
// the ones whose pass or fail (reward 1 ± 1e-6) the evaluation agrees with.
func (ev *Evaluation) Agreement() (withRecorded, agree int) {
	for _, r := range ev.Records {
		if r.RecordedReward == nil {
			continue
		}
		withRecorded++
		if passes(r.RecordedReward) == passes(r.Reward) {
			agree++
		}
	}
	return withRecorded, agree
}

func passes(r *float64) bool {
	return r != nil && *r >= 1-emobench.PassTolerance && *r <= 1+emobench.PassTolerance
}

// EvaluateFile scores every record of req.Path as `run` scores an episode:
// the record's tool calls are replayed in order on a fresh environment of
// the domain (sim.ReplayTranscript), each result compared with the
// recorded one, and the evaluator (sim.Evaluator, with req.Judge) judges
// the recorded messages and termination reason with the replay's final
// state. The task is the record's task id in req.Domain's req.Split, or
// req.Task. The reward of an abandoned episode is req.Preset's. Errors: an
// unknown domain, split, preset or --task is an EREQUEST error;
// a file that cannot be read or is not transcripts, a record whose task
// the split lacks or whose tool calls the domain cannot run, is an error
// naming the file and the record; no Domain is an EREQUEST error. Nothing
// is written.
func EvaluateFile(ctx context.Context, req EvaluateRequest) (*Evaluation, error) {
	if req.Domain == "" {
		return nil, settingf("domain", "is needed: one of %s", strings.Join(all.Names(), ", "))
	}
	dom, err := all.Find(req.Domain)
	if err != nil {
		return nil, settingf("domain", ": %v", err)
	}
	split := req.Split
	if split == "" {
		split = emobench.SplitTest
	}
	if split != emobench.SplitTest && split != emobench.SplitTrain {
		return nil, settingf("split", "%q: want test or train", split)
	}
	byID := map[string]*emobench.TaskSpec{}
	var fixed *emobench.TaskSpec
	tasks := dom.Tasks()
	for i := range tasks {
		t := &tasks[i]
		if t.Split == split {
			byID[t.ID] = t
		}
		if req.Task != "" && t.ID == req.Task {
			fixed = t
		}
	}
	if req.Task != "" && fixed == nil {
		return nil, settingf("task", "%q: %s has no such task (see `emobench domains show %s`)", req.Task, req.Domain, req.Domain)
	}
	preset, err := sim.LookupPreset(req.Preset)
	if err != nil {
		return nil, requestf("%v", err)
	}
	ev := &Evaluation{Path: req.Path, Domain: req.Domain, Split: split, Task: req.Task, Preset: preset.Name}
	if req.Judge != nil {
		ev.Judge = req.Judge.Model()
	}
	records, closeSource, err := openTranscripts(ctx, req.Path, ev)
	if err != nil {
		return nil, err
	}
	defer closeSource()
	evaluator := &sim.Evaluator{Judge: req.Judge, UnsatisfiedReward: preset.Protocol.UnsatisfiedReward}
	i := 0
	for traj, err := range records {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", req.Path, err)
		}
		if d := cmp.Or(traj.Task.Domain, ev.Run.Domain); d != "" && d != "unknown" && d != req.Domain && fixed == nil {
			return nil, fmt.Errorf("%s: record %d: its task %q is of domain %s, not %s: evaluate it as domain %s (or name one task to score every record against it)",
				req.Path, i, traj.Task.Key, d, req.Domain, d)
		}
		task := fixed
		if task == nil {
			if task = byID[traj.Task.Key]; task == nil {
				return nil, fmt.Errorf("%s: record %d: no task %q in %s's %s split (choose the split, or name one task to score every record against it)",
					req.Path, i, traj.Task.Key, req.Domain, split)
			}
		}
		rec, err := evaluateRecord(ctx, evaluator, dom, task, i, traj)
		if err != nil {
			return nil, fmt.Errorf("%s: record %d (task %s): %w", req.Path, i, traj.Task.Key, err)
		}
		ev.Records = append(ev.Records, rec)
		i++
	}
	if len(ev.Records) == 0 {
		return nil, fmt.Errorf("%s: no records to evaluate", req.Path)
	}
	return ev, nil
}

// evaluateRecord replays and scores record i, traj, against task.
func evaluateRecord(ctx context.Context, evaluator *sim.Evaluator, dom sim.Domain, task *emobench.TaskSpec, i int, traj *emobench.Trajectory) (EvaluatedRecord, error) {
	replay, err := sim.ReplayTranscript(dom, traj.Messages)
	if err != nil {
		return EvaluatedRecord{}, err
	}
	reason := traj.TerminationReason
	if reason == "" {
		reason = emobench.TerminationUnknown
	}
	scored := &emobench.Trajectory{
		Task: task.Task(), Trial: traj.Trial, Evaluable: traj.Evaluable, TerminationReason: reason,
		AgentCost: traj.AgentCost, UserCost: traj.UserCost, Error: traj.Error, Messages: traj.Messages,
	}
	if err := evaluator.Evaluate(ctx, dom, task, replay.FinalHash, scored); err != nil {
		return EvaluatedRecord{}, err
	}
	recorded := traj.Reward
	if !traj.Evaluated {
		recorded = nil
	}
	mismatches := replay.Mismatches
	if mismatches == nil {
		mismatches = []sim.ToolResultMismatch{}
	}
	scored.Extra, _ = json.Marshal(map[string]any{"evaluated_from": map[string]any{
		"record": i, "task_id": traj.Task.Key, "trial": traj.Trial, "recorded_reward": recorded,
		"tool_calls": replay.Calls, "tool_result_mismatches": mismatches,
	}})
	rec := EvaluatedRecord{
		Record: i, TaskID: task.ID, Reward: scored.Reward, RecordedReward: recorded, Termination: string(reason),
		ToolCalls: replay.Calls, ToolResultMismatches: len(replay.Mismatches), Mismatches: replay.Mismatches, Trajectory: scored,
	}
	checks, err := emobench.RewardChecks(scored.RewardInfo)
	if err != nil {
		return EvaluatedRecord{}, err
	}
	rec.Checks = make([]EvaluatedCheck, len(checks))
	for k, c := range checks {
		ec := EvaluatedCheck{Name: string(c.Kind), Detail: c.Subject}
		if c.Status != emobench.CheckNotChecked {
			passed := c.Status == emobench.CheckPassed
			ec.Passed = &passed
		}
		switch c.Kind {
		case emobench.CheckDB:
			ec.Detail = "final state equals the gold replay's"
			if !*ec.Passed {
				ec.Detail = "final state differs from the gold replay's"
			}
		case emobench.CheckRefusal:
			ec.Detail = refusalDetail(scored.RewardInfo)
		}
		rec.Checks[k] = ec
	}
	return rec, nil
}

// refusalDetail says what a REFUSAL check saw: the entities looked up or
// missed, and the message that refused (or that none did).
func refusalDetail(rewardInfo json.RawMessage) string {
	var ri struct {
		RefusalCheck *sim.RefusalCheck `json:"refusal_check"`
	}
	if json.Unmarshal(rewardInfo, &ri) != nil || ri.RefusalCheck == nil {
		return ""
	}
	c := ri.RefusalCheck
	var parts []string
	switch {
	case len(c.Missing) > 0:
		parts = append(parts, "not looked up: "+strings.Join(c.Missing, ", "))
	case len(c.EntityIDs) > 0:
		parts = append(parts, "looked up: "+strings.Join(c.EntityIDs, ", "))
	}
	switch {
	case c.Said != "":
		parts = append(parts, fmt.Sprintf("refused (%s): %q", cmp.Or(c.ToldBy, "rule"), c.Said))
	case c.ReadsMade && c.Judgement != "":
		parts = append(parts, "judge: "+c.Judgement)
	case c.ReadsMade:
		parts = append(parts, "no agent message after the lookups refuses")
	}
	return strings.Join(parts, "; ")
}

// openTranscripts opens path and returns its records as trajectories,
// filling ev's Format, SHA256 and Run; close releases the source.
func openTranscripts(ctx context.Context, path string, ev *Evaluation) (iter.Seq2[*emobench.Trajectory, error], func(), error) {
	if path == ingest.StdinArg {
		return nil, nil, requestf("evaluate reads a file or a τ²-bench run directory, not standard input: save it to a file first")
	}
	src, err := ingest.OpenSource(ctx, path, nil)
	if err != nil {
		return nil, nil, err
	}
	if ev.SHA256, err = src.Hash(); err != nil {
		src.Close()
		return nil, nil, err
	}
	if !src.IsDir() {
		if prefix, err := readPrefix(path, 1<<20); err == nil && ingest.IsTranscript(prefix) {
			src.Close()
			return transcriptRecords(path, ev)
		}
	}
	in, err := ingest.Open(src, ingest.Hints{})
	if err != nil {
		src.Close()
		return nil, nil, err
	}
	if in.Trajectories == nil {
		src.Close()
		return nil, nil, fmt.Errorf("%s: a %s file holds published scores, not transcripts", path, in.Format)
	}
	ev.Format, ev.Run = in.Format, in.Run
	return in.Trajectories, src.Close, nil
}

// transcriptRecords reads path as emobench's transcript JSON; ev.Run is the
// first record's run.
func transcriptRecords(path string, ev *Evaluation) (iter.Seq2[*emobench.Trajectory, error], func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	ev.Format = ingest.FormatTranscript
	seq := func(yield func(*emobench.Trajectory, error) bool) {
		first := true
		for t, err := range ingest.ReadTranscripts(f, 0) {
			if err != nil {
				yield(nil, err)
				return
			}
			if first {
				ev.Run, first = t.Run, false
			}
			if !yield(t.Trajectory, nil) {
				return
			}
		}
	}
	return seq, func() { f.Close() }, nil
}

// readPrefix reads at most n bytes from the start of the file path.
func readPrefix(path string, n int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

// SourceEvaluated is the source_format of a run `emobench evaluate
// --store` wrote.
const SourceEvaluated = "evaluated"

// StoreEvaluation writes ev's scored trajectories as one run in one
// transaction and returns its id and name: named evaluated-FILE (made
// distinct), source_format "evaluated", source_path the file, its models
// and condition as the file gives them, and its config recording
// {"provenance": "evaluated from FILE", "evaluate": {file, sha256,
// format, domain, split, task, judge, preset}}. Its stored provenance kind is
// "ingested" (read from a file); its source_sha256 is left empty, so the
// file can still be ingested as it is. Trials are numbered from 0 per
// task in file order (the file's own trial is kept in each trajectory's
// extra.evaluated_from), so that records scored against one --task stay
// apart.
func StoreEvaluation(ctx context.Context, store *db.DB, ev *Evaluation) (int64, string, error) {
	abs, err := filepath.Abs(ev.Path)
	if err != nil {
		abs = ev.Path
	}
	base := strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs))
	name, _, err := store.DistinctRunName(ctx, "evaluated-"+base, 0)
	if err != nil {
		return 0, "", err
	}
	config, err := json.Marshal(map[string]any{
		"provenance": "evaluated from " + abs,
		"evaluate": map[string]any{
			"file": abs, "sha256": ev.SHA256, "format": ev.Format, "domain": ev.Domain,
			"split": ev.Split, "task": ev.Task, "judge": ev.Judge, "preset": ev.Preset,
		},
	})
	if err != nil {
		return 0, "", err
	}
	run := emobench.Run{
		Name: name, SourceFormat: SourceEvaluated, SourcePath: abs,
		AgentModel: ev.Run.AgentModel, AgentStrategy: ev.Run.AgentStrategy,
		UserModel: ev.Run.UserModel, UserStrategy: ev.Run.UserStrategy,
		Domain: ev.Domain, Condition: ev.Run.Condition, Config: config,
	}
	if run.Condition == "" {
		run.Condition = emobench.ConditionNone
	}
	trials := map[string]int{}
	seq := func(yield func(*emobench.Trajectory, error) bool) {
		for _, r := range ev.Records {
			t := *r.Trajectory
			t.Trial = trials[t.Task.Key]
			trials[t.Task.Key]++
			if !yield(&t, nil) {
				return
			}
		}
	}
	res, err := store.IngestRun(ctx, run, seq, db.DuplicateRefuse)
	if err != nil {
		return 0, "", fmt.Errorf("%s: %w", ev.Path, err)
	}
	return res.RunID, name, nil
}

// EvaluationJudge builds the judge of `evaluate --judge llm:MODEL`, as
// `run --judge` builds its own (temperature 0): endpoint baseURL (""
// for the default), key in the environment variable keyEnv. "" judges
// nothing (nil). Errors are EREQUEST error.
func EvaluationJudge(model, baseURL, keyEnv string, llm sim.LLMOptions) (sim.Judge, error) {
	if model == "" {
		return nil, nil
	}
	if err := CheckEndpoint("judge-base-url", baseURL); err != nil {
		return nil, requestf("%v", err)
	}
	spec := emobench.RunSpec{Judge: model, JudgeLLM: &emobench.LLMRole{BaseURL: baseURL, APIKeyEnv: keyEnv, Temperature: new(float64)}}
	judge, err := sim.NewJudge(spec, llm)
	if err != nil {
		return nil, requestf("%v", err)
	}
	return judge, nil
}

// EvaluationFormats are the formats WriteEvaluation writes.
var EvaluationFormats = []string{"table", "json"}

// WriteEvaluation writes ev in format: "json", an array of the records
// (EvaluatedRecord: record, task_id, reward, recorded_reward,
// termination_reason, checks [{name, passed, detail}], tool_calls,
// tool_result_mismatches); "table", for a reader, a line per record with
// every check beneath it and each tool result mismatch (recorded and
// replayed results), then the totals. The data's control characters are
// replaced (table.Printable). An unknown format is an EREQUEST error.
func WriteEvaluation(w io.Writer, ev *Evaluation, format string) error {
	switch format {
	case "json":
		b, err := json.MarshalIndent(ev.Records, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	case "table", "":
		var b strings.Builder
		writeEvaluationTable(&b, ev)
		_, err := io.WriteString(w, table.Printable(b.String()))
		return err
	}
	return settingf("format", "%q: want %s", format, strings.Join(EvaluationFormats, " or "))
}

func writeEvaluationTable(b *strings.Builder, ev *Evaluation) {
	fmt.Fprintf(b, "%s (%s): %d records scored against %s's %s tasks", ev.Path, ev.Format, len(ev.Records), ev.Domain, ev.Split)
	if ev.Task != "" {
		fmt.Fprintf(b, " (every record against task %s)", ev.Task)
	}
	b.WriteString("\n")
	passed, mismatched, mismatches, calls := 0, 0, 0, 0
	for _, r := range ev.Records {
		calls += r.ToolCalls
		if passes(r.Reward) {
			passed++
		}
		if r.ToolResultMismatches > 0 {
			mismatched++
			mismatches += r.ToolResultMismatches
		}
		fmt.Fprintf(b, "\nrecord %d  task %s  reward %s  recorded %s  termination %s  tool calls %d, results differing %d\n",
			r.Record, r.TaskID, rewardText(r.Reward), rewardText(r.RecordedReward), r.Termination, r.ToolCalls, r.ToolResultMismatches)
		for _, c := range r.Checks {
			verdict := "not checked"
			if c.Passed != nil && *c.Passed {
				verdict = "passed"
			} else if c.Passed != nil {
				verdict = "FAILED"
			}
			fmt.Fprintf(b, "  %-13s %-11s %s\n", c.Name, verdict, oneLine(c.Detail, 100))
		}
		for _, m := range r.Mismatches {
			recorded := "(none recorded)"
			if !m.Missing {
				recorded = oneLine(m.Recorded, 100)
			}
			fmt.Fprintf(b, "  mismatch: tool call %d %s %s\n    recorded: %s\n    replayed: %s\n",
				m.Call, m.Name, oneLine(string(m.Arguments), 100), recorded, oneLine(m.Replayed, 100))
		}
	}
	withRecorded, agree := ev.Agreement()
	fmt.Fprintf(b, "\n%d of %d records pass; %d records with tool result mismatches (%d of %d tool calls differ from the recorded result)",
		passed, len(ev.Records), mismatched, mismatches, calls)
	if withRecorded > 0 {
		fmt.Fprintf(b, "; pass/fail agrees with the recorded reward on %d of %d", agree, withRecorded)
	}
	b.WriteString("\n")
}

// rewardText is a reward as the table prints it: "none" for nil.
func rewardText(r *float64) string {
	if r == nil {
		return "none"
	}
	return strconv.FormatFloat(*r, 'g', -1, 64)
}

// oneLine is s on one line, cut to max runes with "…".
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

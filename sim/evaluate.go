package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/emobench/emobench"
)

// failingReasons are terminations that score 0 whatever the checks say;
// user_unsatisfied scores UnsatisfiedReward.
var failingReasons = map[emobench.TerminationReason]bool{
	emobench.TerminationUserUnsatisfied: true,
	emobench.TerminationMaxSteps:        true,
	emobench.TerminationTooManyErrors:   true,
	emobench.TerminationError:           true,
}

// UnsatisfiedReward is the reward of an episode the user abandoned
// (###UNSATISFIED###), as τ-Emotion-Bench stores it: a fail (passed 0),
// which statistics count as 0 credit, never as a negative score.
const UnsatisfiedReward = -1.0

// RewardInfo is what Evaluate records in reward_info, in the layout of
// τ²-bench's RewardInfo (so that one reader, emobench.RewardChecks, finds
// the checks of native and τ²-bench runs alike) plus forbidden_checks,
// refusal_check and procedure_checks. Every check is recorded; RewardBasis says which gate the
// reward.
type RewardInfo struct {
	Reward      *float64             `json:"reward"` // nil when a check of the basis could not be judged
	RewardBasis []emobench.CheckKind `json:"reward_basis"`
	// RewardBreakdown is 1 or 0 per kind with a verdict (every kind the
	// task has checks of, in the basis or not); a kind not checked, or
	// whose checks all do not gate (ActionCheck.Gates,
	// ProcedureCheck.Gates false), is left out.
	RewardBreakdown   map[emobench.CheckKind]float64 `json:"reward_breakdown"`
	DBCheck           DBCheck                        `json:"db_check"`
	ActionChecks      []ActionCheck                  `json:"action_checks"`
	ForbiddenChecks   []ForbiddenCheck               `json:"forbidden_checks"`
	CommunicateChecks []CommunicateCheck             `json:"communicate_checks"`
	RefusalCheck      *RefusalCheck                  `json:"refusal_check,omitempty"` // refusal tasks only
	ProcedureChecks   []ProcedureCheck               `json:"procedure_checks"`
	NLAssertions      []NLAssertionCheck             `json:"nl_assertions"`
	Judge             *JudgeRecord                   `json:"judge,omitempty"` // set when a judge ran
	Info              EvaluationInfo                 `json:"info"`
}

// DBCheck compares the final state hash with the gold replay's.
type DBCheck struct {
	DBMatch   bool    `json:"db_match"`
	DBReward  float64 `json:"db_reward"`
	GoldHash  string  `json:"gold_hash"`
	FinalHash string  `json:"final_hash"`
}

// ActionCheck says whether a gold write (or transfer) call was made with
// matching arguments; Calls are the indexes, among the agent's tool calls
// in order, of the calls that matched. Gates says whether it decides the
// ACTION verdict (see RewardBasis); one that does not is recorded, and
// counts in strict scoring, but leaves the reward to DB.
type ActionCheck struct {
	Action       emobench.Action `json:"action"`
	ActionMatch  bool            `json:"action_match"`
	ActionReward float64         `json:"action_reward"`
	Calls        []int           `json:"calls,omitempty"`
	Gates        bool            `json:"gates"`
}

// ForbiddenCheck says whether the agent called a write the policy forbids
// in the task (whatever the tool answered); Calls as in ActionCheck.
type ForbiddenCheck struct {
	Action emobench.Action `json:"action"`
	Called bool            `json:"called"`
	Calls  []int           `json:"calls,omitempty"`
}

// CommunicateCheck says whether an agent message says a required output
// (see outputs.go for how each kind matches). Kind is how it matched:
// date, time, money, quantity, number, id, phrase or any_of (a synonym
// set). Justification is the judge's, for a free-form output a judge
// decided; empty otherwise.
type CommunicateCheck struct {
	Info          string `json:"info"`
	Met           bool   `json:"met"`
	Kind          string `json:"kind,omitempty"`
	Justification string `json:"justification,omitempty"`
}

// NLAssertionCheck is a judge's verdict on one assertion; Met nil means
// not checked (no judge was given).
type NLAssertionCheck struct {
	NLAssertion   string `json:"nl_assertion"`
	Met           *bool  `json:"met"`
	Justification string `json:"justification"`
}

// JudgeRecord is the judge that decided the NL assertions and what it
// cost (USD; nil when unknown). The token counts are nil (null) when the
// server reported no plausible usage.
type JudgeRecord struct {
	Model            string   `json:"model"`
	PromptTokens     *int     `json:"prompt_tokens"`
	CompletionTokens *int     `json:"completion_tokens"`
	Cost             *float64 `json:"cost"`
}

// EvaluationInfo holds the notes of an evaluation: the termination reason
// when it decided the reward, and what could not be judged.
type EvaluationInfo struct {
	TerminationReason emobench.TerminationReason `json:"termination_reason,omitempty"`
	Note              string                     `json:"note,omitempty"`
}

// Verdict is a judge's decision on one NL assertion.
type Verdict struct {
	Met           bool
	Justification string
}

// Judge decides natural-language assertions about a finished episode.
// Judge returns one verdict per assertion, in order, and the usage of the
// judging (nil when it made no LLM call); an error leaves the assertions
// not checked.
type Judge interface {
	Model() string
	Judge(ctx context.Context, task *emobench.TaskSpec, msgs []emobench.Message, assertions []string) ([]Verdict, *emobench.Usage, error)
}

// Evaluator scores finished trajectories. The zero Evaluator has no judge:
// NL assertions are recorded as not checked.
type Evaluator struct {
	Judge Judge // nil: no judge
	// UnsatisfiedReward is the reward of a user_unsatisfied episode; nil
	// is UnsatisfiedReward (the run's preset sets it).
	UnsatisfiedReward *float64
}

// RewardBasis returns the check kinds that gate the reward of task in
// domain dom: the task's own RewardBasis when set, else DB, FORBIDDEN and
// COMMUNICATE (τ²-bench's default DB and COMMUNICATE, plus FORBIDDEN),
// with ACTION added when the gold actions call the transfer tool (the
// transfer must be made) or make a write with explicit CompareArgs (an
// argument the policy turns on but the state does not keep, such as the
// airline's cancellation reason: compare_args ["reservation_id",
// "reason"]), REFUSAL on a refusal task (forbidden writes and no
// transfer), and PROCEDURE on a task with Advice (the advice must be
// given; see ProcedureCheck): an agent that does nothing fails each. Under this default
// basis, ACTION's verdict is that of the transfers and of the writes with
// explicit CompareArgs alone: the other gold writes are recorded in
// action_checks (gates false) but left to DB, which judges their outcome
// whatever arguments reached it. Under a task's own basis every gold
// write and transfer decides ACTION, as in τ²-bench.
func RewardBasis(dom Domain, task *emobench.TaskSpec) []emobench.CheckKind {
	if task.RewardBasis != nil {
		return task.RewardBasis
	}
	basis := []emobench.CheckKind{emobench.CheckDB}
	if transfers(dom, task) || comparesWriteArgs(dom, task) {
		basis = append(basis, emobench.CheckAction)
	}
	basis = append(basis, emobench.CheckForbidden, emobench.CheckCommunicate)
	if refusalTask(dom, task) {
		basis = append(basis, emobench.CheckRefusal)
	}
	if len(task.Advice) > 0 {
		basis = append(basis, emobench.CheckProcedure)
	}
	return basis
}

// comparesWriteArgs reports whether a gold write of task names its own
// CompareArgs.
func comparesWriteArgs(dom Domain, task *emobench.TaskSpec) bool {
	writes := domainWrites(dom)
	return slices.ContainsFunc(task.Actions, func(a emobench.Action) bool { return writes[a.Name] && a.CompareArgs != nil })
}

// actionGates reports whether the ACTION check of gold decides the ACTION
// verdict (see RewardBasis): always under the task's own basis or when
// the task neither transfers nor compares a write's arguments; else only
// for a transfer or a write with explicit CompareArgs.
func actionGates(dom Domain, task *emobench.TaskSpec, gold emobench.Action) bool {
	if task.RewardBasis != nil || !transfers(dom, task) && !comparesWriteArgs(dom, task) {
		return true
	}
	return gold.Name == dom.TransferTool() || gold.CompareArgs != nil
}

func transfers(dom Domain, task *emobench.TaskSpec) bool {
	return slices.ContainsFunc(task.Actions, func(a emobench.Action) bool { return a.Name == dom.TransferTool() })
}

// refusalTask reports whether the right answer to task includes refusing
// the user: the policy forbids some write here and the gold does not
// transfer instead.
func refusalTask(dom Domain, task *emobench.TaskSpec) bool {
	return len(task.Forbidden) > 0 && !transfers(dom, task)
}

// Evaluate scores a finished trajectory with the zero Evaluator (no
// judge). See Evaluator.Evaluate.
func Evaluate(dom Domain, task *emobench.TaskSpec, finalHash string, traj *emobench.Trajectory) error {
	return (&Evaluator{}).Evaluate(context.Background(), dom, task, finalHash, traj)
}

// Evaluate scores a finished trajectory in place and records every check
// in traj.RewardInfo (a RewardInfo as JSON). The checks:
//   - DB: the final state hash equals the hash after replaying the task's
//     gold actions on a fresh database;
//   - ACTION: each gold call of a write tool or the transfer tool was made,
//     with equal values for its CompareArgs (nil: every argument of the
//     gold and the call; the transfer tool's default: the name alone);
//     which of them decide the verdict: see RewardBasis;
//   - FORBIDDEN: no call of a task's forbidden write whose arguments match
//     the entry's (its CompareArgs, nil: the ids it names, see
//     matchingCalls), whatever the tool answered;
//   - COMMUNICATE: some agent message says each required output, matched
//     by its kind on token boundaries (numbers with their unit, money,
//     dates and times in any common format, any member of a synonym set
//     "on time|on schedule"; see outputs.go); with a judge, a free-form
//     output is the judge's assertion "The agent told the user …";
//   - REFUSAL (refusal tasks): the entities the forbidden writes act on
//     were looked up, by any route, and an agent message after those
//     lookups tells the user it cannot be done (SaysRefusal; with a
//     judge, an NL assertion); see RefusalCheck. FORBIDDEN and DB carry
//     the rest of a correct refusal: no forbidden write, the entity left
//     unchanged;
//   - PROCEDURE: each advice of the task given when due (and each write
//     confirmed, recorded but never gating); see ProcedureCheck;
//   - NL_ASSERTION: each assertion, decided by the judge; without one,
//     not checked.
//
// The reward is 1 when every check of RewardBasis passed, else 0; nil
// (and the trajectory not evaluated) when a check of the basis is not
// checked. The termination overrides it: user_unsatisfied scores
// UnsatisfiedReward, and max_steps, too_many_errors and error score 0 (an
// error episode is not evaluated). Evaluate fails only when a gold action
// does not replay (a bug in the task) or ctx is done while judging.
func (e *Evaluator) Evaluate(ctx context.Context, dom Domain, task *emobench.TaskSpec, finalHash string, traj *emobench.Trajectory) error {
	goldHash, err := GoldHash(dom, task)
	if err != nil {
		return err
	}
	writes := domainWrites(dom)
	calls := agentCalls(traj.Messages)
	info := RewardInfo{
		RewardBasis:       RewardBasis(dom, task),
		RewardBreakdown:   map[emobench.CheckKind]float64{},
		DBCheck:           DBCheck{DBMatch: goldHash == finalHash, GoldHash: goldHash, FinalHash: finalHash},
		ActionChecks:      []ActionCheck{},
		ForbiddenChecks:   []ForbiddenCheck{},
		CommunicateChecks: []CommunicateCheck{},
		NLAssertions:      []NLAssertionCheck{},
		ProcedureChecks:   []ProcedureCheck{},
	}
	if info.DBCheck.DBMatch {
		info.DBCheck.DBReward = 1
	}
	verdicts := map[emobench.CheckKind]emobench.CheckStatus{emobench.CheckDB: status(info.DBCheck.DBMatch)}

	for _, gold := range task.Actions {
		if !writes[gold.Name] && gold.Name != dom.TransferTool() {
			continue
		}
		gates := actionGates(dom, task, gold)
		if gold.Name == dom.TransferTool() && gold.CompareArgs == nil {
			gold.CompareArgs = []string{}
		}
		c := ActionCheck{Action: gold, Calls: matchingCalls(calls, gold, false), Gates: gates}
		c.ActionMatch = len(c.Calls) > 0
		if c.ActionMatch {
			c.ActionReward = 1
		}
		info.ActionChecks = append(info.ActionChecks, c)
		if gates {
			verdicts[emobench.CheckAction] = worst(verdicts[emobench.CheckAction], status(c.ActionMatch))
		}
	}
	for _, f := range task.Forbidden {
		c := ForbiddenCheck{Action: f, Calls: matchingCalls(calls, f, true)}
		c.Called = len(c.Calls) > 0
		info.ForbiddenChecks = append(info.ForbiddenChecks, c)
		verdicts[emobench.CheckForbidden] = worst(verdicts[emobench.CheckForbidden], status(!c.Called))
	}
	outputs, err := e.outputChecks(ctx, task, traj.Messages, &info)
	if err != nil {
		return err
	}
	for _, c := range outputs {
		info.CommunicateChecks = append(info.CommunicateChecks, c)
		verdicts[emobench.CheckCommunicate] = worst(verdicts[emobench.CheckCommunicate], status(c.Met))
	}
	procedure, err := e.evaluateProcedure(ctx, task, traj.Messages, writes, &info)
	if err != nil {
		return err
	}
	if procedure != "" {
		verdicts[emobench.CheckProcedure] = procedure
	}
	if len(task.NLAssertions) > 0 {
		v, err := e.judge(ctx, task, traj.Messages, &info)
		if err != nil {
			return err
		}
		verdicts[emobench.CheckNLAssertion] = v
	}
	if refusalTask(dom, task) { // after the NL assertions: it adds to their judge record
		c, err := e.refusal(ctx, dom, task, traj.Messages, writes, &info)
		if err != nil {
			return err
		}
		info.RefusalCheck = &c
		verdicts[emobench.CheckRefusal] = status(c.Met)
	}

	for kind, v := range verdicts {
		if v == emobench.CheckPassed {
			info.RewardBreakdown[kind] = 1
		} else if v == emobench.CheckFailed {
			info.RewardBreakdown[kind] = 0
		}
	}
	reward, judged := 1.0, true
	for _, kind := range info.RewardBasis {
		switch verdicts[kind] {
		case emobench.CheckFailed:
			reward = 0
		case emobench.CheckNotChecked:
			judged = false
		}
	}
	switch {
	case traj.TerminationReason == emobench.TerminationUserUnsatisfied:
		reward, judged = UnsatisfiedReward, true
		if e.UnsatisfiedReward != nil {
			reward = *e.UnsatisfiedReward
		}
		info.Info.TerminationReason = traj.TerminationReason
	case failingReasons[traj.TerminationReason]:
		reward, judged = 0, true
		info.Info.TerminationReason = traj.TerminationReason
	case reward == 0:
		judged = true // a failed check decides, whatever was not checked
	}
	if !judged {
		info.Info.Note = "a check of the reward basis was not checked, so the reward is unknown"
	}
	// An episode that failed for an LLM error was not judged, as with
	// imported error records.
	traj.Evaluated = judged && traj.TerminationReason != emobench.TerminationError
	traj.Reward = nil
	if judged {
		traj.Reward = &reward
		info.Reward = &reward
	}
	traj.RewardInfo, err = json.Marshal(info)
	return err
}

// judge records the judge's verdicts on the task's NL assertions in info
// and returns their combined status: not checked without a judge or when
// the judge fails (its error in the justification), unless ctx is done.
func (e *Evaluator) judge(ctx context.Context, task *emobench.TaskSpec, msgs []emobench.Message, info *RewardInfo) (emobench.CheckStatus, error) {
	unchecked := func(why string) emobench.CheckStatus {
		for _, a := range task.NLAssertions {
			info.NLAssertions = append(info.NLAssertions, NLAssertionCheck{NLAssertion: a, Justification: why})
		}
		return emobench.CheckNotChecked
	}
	if e.Judge == nil {
		return unchecked("not checked: no judge"), nil
	}
	verdicts, usage, err := e.Judge.Judge(ctx, task, msgs, task.NLAssertions)
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	info.addJudgeUsage(e.Judge.Model(), usage)
	if err == nil && len(verdicts) != len(task.NLAssertions) {
		err = fmt.Errorf("judge gave %d verdicts for %d assertions", len(verdicts), len(task.NLAssertions))
	}
	if err != nil {
		return unchecked("not checked: judge failed: " + err.Error()), nil
	}
	overall := emobench.CheckPassed
	for i, a := range task.NLAssertions {
		met := verdicts[i].Met
		info.NLAssertions = append(info.NLAssertions, NLAssertionCheck{NLAssertion: a, Met: &met, Justification: verdicts[i].Justification})
		overall = worst(overall, status(met))
	}
	return overall, nil
}

// addJudgeUsage records a judge call of model in info.Judge, adding its
// usage to the calls recorded before: tokens and cost stay known only
// while every call's are.
func (info *RewardInfo) addJudgeUsage(model string, usage *emobench.Usage) {
	first := info.Judge == nil
	if first {
		info.Judge = &JudgeRecord{Model: model}
	}
	j := info.Judge
	switch {
	case usage == nil:
		return
	case first:
		j.Cost = usage.Cost
		if !usage.TokensUnknown {
			prompt, completion := usage.PromptTokens, usage.CompletionTokens
			j.PromptTokens, j.CompletionTokens = &prompt, &completion
		}
		return
	}
	if j.Cost != nil && usage.Cost != nil {
		cost := *j.Cost + *usage.Cost
		j.Cost = &cost
	} else {
		j.Cost = nil
	}
	if j.PromptTokens != nil && !usage.TokensUnknown {
		prompt, completion := *j.PromptTokens+usage.PromptTokens, *j.CompletionTokens+usage.CompletionTokens
		j.PromptTokens, j.CompletionTokens = &prompt, &completion
	} else {
		j.PromptTokens, j.CompletionTokens = nil, nil
	}
}

func status(ok bool) emobench.CheckStatus {
	if ok {
		return emobench.CheckPassed
	}
	return emobench.CheckFailed
}

// worst combines the statuses of a kind's checks: any failure fails the
// kind; else any not checked leaves it not checked. "" is no check yet.
func worst(a, b emobench.CheckStatus) emobench.CheckStatus {
	for _, s := range []emobench.CheckStatus{emobench.CheckFailed, emobench.CheckNotChecked} {
		if a == s || b == s {
			return s
		}
	}
	return emobench.CheckPassed
}

// agentCall is one tool call of the agent, with the index of its message.
type agentCall struct {
	msg  int
	call emobench.ToolCall
}

func agentCalls(msgs []emobench.Message) []agentCall {
	var calls []agentCall
	for i, m := range msgs {
		if m.Role != emobench.RoleAssistant {
			continue
		}
		for _, c := range m.ToolCalls {
			calls = append(calls, agentCall{msg: i, call: c})
		}
	}
	return calls
}

// matchingCalls returns the indexes of the calls of want's tool whose
// arguments match want's. The arguments compared are want.CompareArgs, or
// when nil: for a gold action (not subset) every argument of want and of
// the call, so it must be called exactly; for a forbidden entry (subset)
// the arguments it names that identify what the write acts on (names
// ending in _id or _ids; all it names when none does), so that the same
// write on the same order or reservation is forbidden whatever its other
// arguments (a reason, an amount). An entry that names no argument
// matches every call of its tool. Malformed arguments match nothing.
//
// Values compare as τ²-bench's compare_args compares them for a gold
// action: JSON-equal, numbers by value (1 and 1.0 are equal, 1 and "1"
// are not), lists as sequences. A forbidden entry's values compare as the
// write they stand for (forbiddenValueMatch): a number equals a string
// holding it (an attempt with a mistyped id is still the attempt, which
// FORBIDDEN counts whatever the tool answered), and a list matches a list
// holding each of its elements, in any order among others (returning
// items A and B includes returning A).
func matchingCalls(calls []agentCall, want emobench.Action, subset bool) []int {
	var wantArgs map[string]any
	_ = json.Unmarshal(orEmpty(want.Arguments), &wantArgs)
	var idx []int
	for i, c := range calls {
		if c.call.Name != want.Name || c.call.ArgumentsMalformed {
			continue
		}
		var got map[string]any
		if json.Unmarshal(orEmpty(c.call.Arguments), &got) != nil {
			continue
		}
		keys := want.CompareArgs
		switch {
		case keys == nil && subset:
			keys = identifyingArgs(wantArgs)
		case keys == nil:
			keys = slices.AppendSeq(slices.Collect(maps.Keys(wantArgs)), maps.Keys(got))
		}
		equal := reflect.DeepEqual
		if subset {
			equal = forbiddenValueMatch
		}
		if argsEqual(wantArgs, got, keys, equal) {
			idx = append(idx, i)
		}
	}
	return idx
}

// identifyingArgs returns the names in args ending in _id or _ids, or all
// of them when none does.
func identifyingArgs(args map[string]any) []string {
	var ids []string
	for k := range args {
		if strings.HasSuffix(k, "_id") || strings.HasSuffix(k, "_ids") {
			ids = append(ids, k)
		}
	}
	if len(ids) == 0 {
		return slices.Collect(maps.Keys(args))
	}
	return ids
}

// argsEqual reports whether want and got both lack or both hold each of
// keys, with equal values.
func argsEqual(want, got map[string]any, keys []string, equal func(want, got any) bool) bool {
	for _, k := range keys {
		w, wok := want[k]
		g, gok := got[k]
		if wok != gok || wok && !equal(w, g) {
			return false
		}
	}
	return true
}

// forbiddenValueMatch reports whether a call's argument value got does
// what a forbidden entry's value want names: equal JSON values; a number
// and a string whose text parses to it; a list holding each element of
// want's list (in any order, among others).
func forbiddenValueMatch(want, got any) bool {
	switch w := want.(type) {
	case []any:
		g, ok := got.([]any)
		if !ok {
			return false
		}
		for _, we := range w {
			if !slices.ContainsFunc(g, func(ge any) bool { return forbiddenValueMatch(we, ge) }) {
				return false
			}
		}
		return true
	case float64:
		if g, ok := got.(string); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(g), 64)
			return err == nil && f == w
		}
	case string:
		if _, ok := got.(float64); ok {
			return forbiddenValueMatch(got, want)
		}
	}
	return reflect.DeepEqual(want, got)
}

func orEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// writeSets caches, by domain name, which of its tools write: building an
// environment copies the domain's database.
var writeSets sync.Map

func domainWrites(dom Domain) map[string]bool {
	if w, ok := writeSets.Load(dom.Name()); ok {
		return w.(map[string]bool)
	}
	w := writeTools(dom.NewEnvironment().Tools())
	writeSets.Store(dom.Name(), w)
	return w
}

// goldHashes caches GoldHash by domain, task id and actions: a task's gold
// state never changes, and hashing a domain's database is the engine's
// costliest step.
var goldHashes sync.Map

// GoldHash replays the task's ground-truth actions on a fresh environment
// and returns the resulting state hash.
func GoldHash(dom Domain, task *emobench.TaskSpec) (string, error) {
	actions, _ := json.Marshal(task.Actions)
	key := dom.Name() + "\x00" + task.ID + "\x00" + string(actions)
	if h, ok := goldHashes.Load(key); ok {
		return h.(string), nil
	}
	h, err := replayGold(dom, task)
	if err == nil {
		goldHashes.Store(key, h)
	}
	return h, err
}

func replayGold(dom Domain, task *emobench.TaskSpec) (string, error) {
	env := dom.NewEnvironment()
	for i, a := range task.Actions {
		if _, err := env.Call(a.Name, a.Arguments); err != nil {
			return "", fmt.Errorf("task %s: gold action %d (%s) fails: %w", task.ID, i, a.Name, err)
		}
	}
	return env.Hash(), nil
}

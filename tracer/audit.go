package tracer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// Criterion is one of the things a task audit checks: the four of
// magnet-tau's audit (Tracer's predecessor): goal orientation, a concrete
// tool task with a user preference (its "template"), solvability by the
// ground truth, and the hand-off of out-of-domain requests (its "no domain
// violation"); and one correct end state (issue 21).
type Criterion string

// The audit criteria, in the order reports list them.
const (
	// CriterionGoalOriented: the instruction states the user's goal and
	// preferences, not a procedure for the agent. The rules fail an
	// instruction that is empty; that states no goal (none of want, need,
	// would like, 'd like, wish, hope, prefer, looking to, trying to,
	// please, owed, entitled, can/could/would you, tell me, let me know,
	// the user's own voice (I, my, me, we, our), or a question); that names one of the domain's tools or an argument name
	// of one, when the name holds an underscore (cancel_pending_order,
	// order_id; plain words such as calculate are left alone); that uses step words of a procedure
	// ("first call", "then use the", "next, fetch", "look up", "call the
	// tool", "function call", "API", "step 1", numbered lines); or that
	// holds JSON (an object or array literal).
	CriterionGoalOriented Criterion = "goal_oriented"
	// CriterionToolTask: the task holds at least one request a gold action
	// completes (a tool the request names is among the gold calls), or a
	// forbidden or transfer request (Forbidden set, or the gold calls the
	// domain's transfer tool), plus a preference fact beyond identity: a
	// scenario fact other than the user's identity (first_name, last_name,
	// name, zip, email, user_id, phone, dob) and entity ids (keys ending
	// in _id or _ids), such as a reason, an option, a payment method or a
	// cabin.
	CriterionToolTask Criterion = "tool_task_with_preference"
	// CriterionSolvable: the task's reward basis checks something
	// (sim.CheckRewardBasis: not empty, no NL_ASSERTION without
	// assertions, no COMMUNICATE without outputs), its required outputs
	// are valid (sim.CheckOutputs: none shorter than 3 characters without
	// a unit), the gold actions replay on a fresh
	// dom.NewEnvironment() without a tool error, and sim.Oracle with
	// sim.ScriptedUser passes the task under both conditions (seed 1).
	CriterionSolvable Criterion = "solvable"
	// CriterionHandoff: an out-of-domain request is handed off, not
	// executed. A task whose gold calls the domain's transfer tool calls
	// nothing after the transfer and makes no write that none of its
	// requests asks for (a task combining intents may carry out one request
	// and hand off another; a write whose tool no request names would be
	// the handed-off request executed); a task with
	// Forbidden writes has none of them among its gold actions (matched as
	// the evaluator's FORBIDDEN check matches an agent's call,
	// sim.ForbiddenMatch). A task with neither passes.
	CriterionHandoff Criterion = "out_of_domain_handoff"
	// CriterionSingleEndState: the task has one correct end state. For
	// every gold write, the writes the user's words also allow
	// (sim.Catalog.Alternatives) that the policy allows and that run
	// reach the gold's end state when the rest of the gold follows them
	// (endstate.go). Rules only (the judge is not asked); not checked for
	// a domain whose catalog declares no Alternatives.
	CriterionSingleEndState Criterion = "single_end_state"
)

// Criteria lists the audit criteria in report order.
var Criteria = []Criterion{CriterionGoalOriented, CriterionToolTask, CriterionSolvable, CriterionHandoff, CriterionSingleEndState}

// JudgeCriteria are the criteria the judge decides, magnet-tau's four;
// the others are rules only.
var JudgeCriteria = []Criterion{CriterionGoalOriented, CriterionToolTask, CriterionSolvable, CriterionHandoff}

// judged reports whether the judge decides c.
func judged(c Criterion) bool { return slices.Contains(JudgeCriteria, c) }

// Audit methods: the deterministic rules run on every task; the judge only
// when one is given.
const (
	MethodRules = "rules"
	MethodJudge = "judge"
)

// AuditResult is the outcome of one criterion on one task by one method.
// Reason says why a check failed or was not checked, and what it saw when
// it passed.
type AuditResult struct {
	Criterion Criterion            `json:"criterion"`
	Method    string               `json:"method"`
	Status    emobench.CheckStatus `json:"status"`
	Reason    string               `json:"reason,omitempty"`
}

// TaskAudit is the audit of one task: Index is its position in the audited
// slice (0-based), Results one per criterion and method, rules first.
type TaskAudit struct {
	Index   int           `json:"index"`
	TaskID  string        `json:"task_id"`
	Domain  string        `json:"domain"`
	Results []AuditResult `json:"results"`
}

// Failed reports whether any check of the task failed.
func (a TaskAudit) Failed() bool {
	return slices.ContainsFunc(a.Results, func(r AuditResult) bool { return r.Status == emobench.CheckFailed })
}

// AuditReport is the audit of a task list. Judge is the judge's model, ""
// when no judge ran (its checks are then not checked, never passed).
type AuditReport struct {
	Judge string      `json:"judge,omitempty"`
	Tasks []TaskAudit `json:"tasks"`
}

// CriterionSummary counts one criterion's results by one method over the
// report's tasks: Checked = Passed + Failed; NotChecked are the tasks it
// could not decide (the judge's, without a judge or when it failed).
type CriterionSummary struct {
	Criterion  Criterion `json:"criterion"`
	Method     string    `json:"method"`
	Tasks      int       `json:"tasks"`
	Checked    int       `json:"checked"`
	Passed     int       `json:"passed"`
	Failed     int       `json:"failed"`
	NotChecked int       `json:"not_checked"`
}

// Summary returns one row per criterion and method, in Criteria order,
// rules before judge (no judge row for a rules-only criterion).
func (r AuditReport) Summary() []CriterionSummary {
	var out []CriterionSummary
	for _, c := range Criteria {
		for _, m := range []string{MethodRules, MethodJudge} {
			if m == MethodJudge && !judged(c) {
				continue
			}
			s := CriterionSummary{Criterion: c, Method: m}
			for _, t := range r.Tasks {
				for _, res := range t.Results {
					if res.Criterion != c || res.Method != m {
						continue
					}
					s.Tasks++
					switch res.Status {
					case emobench.CheckPassed:
						s.Passed++
					case emobench.CheckFailed:
						s.Failed++
					default:
						s.NotChecked++
					}
				}
			}
			s.Checked = s.Passed + s.Failed
			out = append(out, s)
		}
	}
	return out
}

// AuditFailure is one failed check of one task.
type AuditFailure struct {
	Index     int       `json:"index"`
	TaskID    string    `json:"task_id"`
	Criterion Criterion `json:"criterion"`
	Method    string    `json:"method"`
	Reason    string    `json:"reason"`
}

// Failures lists every failed check, by task then criterion.
func (r AuditReport) Failures() []AuditFailure {
	var out []AuditFailure
	for _, t := range r.Tasks {
		for _, res := range t.Results {
			if res.Status == emobench.CheckFailed {
				out = append(out, AuditFailure{Index: t.Index, TaskID: t.TaskID, Criterion: res.Criterion, Method: res.Method, Reason: res.Reason})
			}
		}
	}
	return out
}

// Failed reports whether any task failed any check.
func (r AuditReport) Failed() bool {
	return slices.ContainsFunc(r.Tasks, TaskAudit.Failed)
}

// Judge gives an LLM's verdict on each criterion of one task; LLMJudge is
// the Chat Completions one.
type Judge interface {
	Model() string
	// AuditTask returns a verdict per criterion of task in dom, or an error
	// (an *sim.LLMError, or a reply without a verdict for every
	// criterion): the task's judge checks are then not checked.
	AuditTask(ctx context.Context, dom sim.Domain, task *emobench.TaskSpec) (map[Criterion]sim.Verdict, error)
}

// Audit checks every task of tasks against dom: the deterministic rules
// of each Criterion first, then judge's verdicts when judge is not nil
// (without one, the judge's checks are not checked). A task passes a
// criterion only by the checks that ran; see each Criterion for its
// rules. Audit runs up to two offline episodes per task and changes
// nothing. It fails only when ctx is done; a judge's failure on a task
// leaves that task's judge checks not checked, with the error as reason.
func Audit(ctx context.Context, tasks []emobench.TaskSpec, dom sim.Domain, judge Judge) (AuditReport, error) {
	report := AuditReport{Tasks: make([]TaskAudit, 0, len(tasks))}
	if judge != nil {
		report.Judge = judge.Model()
	}
	a := newAuditor(dom)
	for i := range tasks {
		task := &tasks[i]
		ta := TaskAudit{Index: i, TaskID: task.ID, Domain: task.Domain}
		rules := map[Criterion]func(*emobench.TaskSpec) (bool, string){
			CriterionGoalOriented: a.goalOriented,
			CriterionToolTask:     a.toolTask,
			CriterionSolvable:     func(t *emobench.TaskSpec) (bool, string) { return a.solvable(ctx, t) },
			CriterionHandoff:      a.handoff,
		}
		for _, c := range Criteria {
			var status emobench.CheckStatus
			var reason string
			if c == CriterionSingleEndState {
				status, reason = a.singleEndState(task)
			} else {
				var ok bool
				ok, reason = rules[c](task)
				status = checkStatus(ok)
			}
			if err := ctx.Err(); err != nil {
				return report, err
			}
			ta.Results = append(ta.Results, AuditResult{Criterion: c, Method: MethodRules, Status: status, Reason: reason})
		}
		verdicts, judgeErr := map[Criterion]sim.Verdict(nil), error(nil)
		if judge != nil {
			verdicts, judgeErr = judge.AuditTask(ctx, dom, task)
			if err := ctx.Err(); err != nil {
				return report, err
			}
		}
		for _, c := range JudgeCriteria {
			res := AuditResult{Criterion: c, Method: MethodJudge, Status: emobench.CheckNotChecked}
			switch v, ok := verdicts[c]; {
			case judge == nil:
				res.Reason = "no judge"
			case judgeErr != nil:
				res.Reason = judgeErr.Error()
			case !ok:
				res.Reason = "the judge gave no verdict"
			default:
				res.Status, res.Reason = checkStatus(v.Met), v.Justification
			}
			ta.Results = append(ta.Results, res)
		}
		report.Tasks = append(report.Tasks, ta)
	}
	return report, nil
}

func checkStatus(ok bool) emobench.CheckStatus {
	if ok {
		return emobench.CheckPassed
	}
	return emobench.CheckFailed
}

// auditor holds what the rules need of the domain, computed once.
type auditor struct {
	dom     sim.Domain
	catalog *sim.Catalog    // the domain's, read on first use; nil before or without one
	tools   []string        // tool names
	writes  map[string]bool // write tools
	toolRe  *regexp.Regexp  // any tool or argument name with an underscore, as a word; nil if none
}

func newAuditor(dom sim.Domain) *auditor {
	a := &auditor{dom: dom, writes: map[string]bool{}}
	args := map[string]bool{}
	for _, t := range dom.NewEnvironment().Tools() {
		a.tools = append(a.tools, t.Name)
		if t.Writes {
			a.writes[t.Name] = true
		}
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if json.Unmarshal(t.Parameters, &schema) == nil {
			for name := range schema.Properties {
				args[name] = true
			}
		}
	}
	// Names without an underscore (calculate, think) are ordinary words.
	var names []string
	for _, n := range slices.Concat(a.tools, slices.Sorted(maps.Keys(args))) {
		if strings.Contains(n, "_") {
			names = append(names, regexp.QuoteMeta(n))
		}
	}
	if len(names) > 0 {
		a.toolRe = regexp.MustCompile(`(?i)\b(?:` + strings.Join(names, "|") + `)\b`)
	}
	return a
}

var (
	// goalWords mark a stated goal or preference.
	goalWords = regexp.MustCompile(`(?i)\b(?:want|wants|wanted|need|needs|would like|'d like|wish|hope|prefer|prefers|looking to|trying to|` +
		`please|owed|entitled|can you|could you|would you|tell me|let me know|i|i'm|my|me|we|our)\b|\?`)
	// procedureWords mark an instruction that tells the agent what to do
	// step by step rather than what the user wants.
	procedureWords = []*regexp.Regexp{
		// "then use my gift card" is a preference; "then use the" a step.
		regexp.MustCompile(`(?i)\b(?:first|then|next|after that|afterwards|finally)\s*,?\s+(?:call|use the|invoke|run|query|look up|fetch|retrieve)\b`),
		regexp.MustCompile(`(?i)\blook(?:s|ed|ing)?\s+up\b`),
		regexp.MustCompile(`(?i)\b(?:call|invoke|use)\s+(?:the\s+|a\s+)?(?:tool|function|api|endpoint)\b`),
		regexp.MustCompile(`(?i)\b(?:tool|function)\s+calls?\b`),
		regexp.MustCompile(`\bAPI\b`),
		regexp.MustCompile(`(?i)\bstep\s+(?:\d+|one|two|three)\b`),
		regexp.MustCompile(`(?m)^\s*\d+[.)]\s`),
	}
	// jsonLiteral is the opening of a JSON object or array literal.
	jsonLiteral = regexp.MustCompile(`[{\[]\s*"|"\s*:\s*[{\["\d]`)
)

func (a *auditor) goalOriented(t *emobench.TaskSpec) (bool, string) {
	text := strings.TrimSpace(t.Instruction)
	if text == "" {
		return false, "the instruction is empty"
	}
	if a.toolRe != nil {
		if m := a.toolRe.FindString(text); m != "" {
			if slices.Contains(a.tools, strings.ToLower(m)) {
				return false, fmt.Sprintf("the instruction names the tool %s: it states a procedure", m)
			}
			return false, fmt.Sprintf("the instruction names the tool argument %s: it states a procedure", m)
		}
	}
	for _, re := range procedureWords {
		if m := re.FindString(text); m != "" {
			return false, fmt.Sprintf("the instruction has the step words %q: it states a procedure", strings.TrimSpace(m))
		}
	}
	if m := jsonLiteral.FindString(text); m != "" {
		return false, fmt.Sprintf("the instruction holds JSON (%q)", m)
	}
	if !goalWords.MatchString(text) {
		return false, "the instruction states no goal (no want, need, please, question or first-person request)"
	}
	return true, "states a goal, names no tool and no step"
}

// identityFacts are the scenario facts that only identify the user.
var identityFacts = []string{"first_name", "last_name", "name", "full_name", "zip", "zip_code", "email", "user_id", "phone", "dob", "date_of_birth"}

func isIdentityFact(key string) bool {
	return slices.Contains(identityFacts, key) || strings.HasSuffix(key, "_id") || strings.HasSuffix(key, "_ids")
}

func (a *auditor) toolTask(t *emobench.TaskSpec) (bool, string) {
	gold := map[string]bool{}
	for _, act := range t.Actions {
		gold[act.Name] = true
	}
	var request string
	switch {
	case len(t.Forbidden) > 0:
		request = fmt.Sprintf("a forbidden request (%s)", t.Forbidden[0].Name)
	case gold[a.dom.TransferTool()]:
		request = "a transfer request"
	default:
		for _, r := range t.Scenario.Requests {
			if i := slices.IndexFunc(r.Tools, func(n string) bool { return gold[n] }); i >= 0 {
				request = fmt.Sprintf("request %q completed by %s", r.Text, r.Tools[i])
				break
			}
		}
	}
	if request == "" {
		var named []string
		for _, r := range t.Scenario.Requests {
			named = append(named, r.Tools...)
		}
		if len(t.Scenario.Requests) == 0 {
			return false, "the scenario has no request"
		}
		return false, fmt.Sprintf("no request is completed by a gold action (requests name %s; gold calls %s)",
			orNone(slices.Compact(slices.Sorted(slices.Values(named)))), orNone(slices.Sorted(maps.Keys(gold))))
	}
	var prefs []string
	for _, k := range slices.Sorted(maps.Keys(t.Scenario.Facts)) {
		if !isIdentityFact(k) && strings.TrimSpace(t.Scenario.Facts[k]) != "" {
			prefs = append(prefs, k)
		}
	}
	if len(prefs) == 0 {
		return false, fmt.Sprintf("%s, but no preference fact beyond identity (facts: %s)", request, orNone(slices.Sorted(maps.Keys(t.Scenario.Facts))))
	}
	return true, fmt.Sprintf("%s; preferences %s", request, strings.Join(prefs, ", "))
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}

func (a *auditor) solvable(ctx context.Context, t *emobench.TaskSpec) (bool, string) {
	if err := errors.Join(sim.CheckRewardBasis(t), sim.CheckOutputs(t)); err != nil {
		return false, strings.ReplaceAll(strings.ReplaceAll(err.Error(), "task "+t.ID+": ", ""), "\n", "; ")
	}
	env := a.dom.NewEnvironment()
	for i, act := range t.Actions {
		if _, err := env.Call(act.Name, act.Arguments); err != nil {
			return false, fmt.Sprintf("gold action %d (%s) fails: %v", i, act.Name, err)
		}
	}
	for _, withEmotions := range []bool{true, false} {
		traj, err := sim.RunEpisode(ctx, sim.EpisodeConfig{
			Domain: a.dom, Task: t, Agent: sim.Oracle{}, User: sim.ScriptedUser{}, WithEmotions: withEmotions, Seed: 1,
		})
		if err != nil {
			return false, fmt.Sprintf("the oracle episode (emotions %v) fails: %v", withEmotions, err)
		}
		if !traj.Passed() {
			reward := "none"
			if traj.Reward != nil {
				reward = fmt.Sprint(*traj.Reward)
			}
			return false, fmt.Sprintf("the oracle with the scripted user does not pass (emotions %v): reward %s, termination %s%s",
				withEmotions, reward, traj.TerminationReason, failingChecks(traj.RewardInfo))
		}
	}
	return true, fmt.Sprintf("%d gold actions replay; the oracle passes with and without emotions", len(t.Actions))
}

// failingChecks names the failed checks of a reward_info, ": failed DB,
// ACTION x" or "".
func failingChecks(rewardInfo json.RawMessage) string {
	checks, err := emobench.RewardChecks(rewardInfo)
	if err != nil {
		return ""
	}
	var failed []string
	for _, c := range checks {
		if c.Status == emobench.CheckFailed {
			failed = append(failed, strings.TrimSpace(string(c.Kind)+" "+c.Subject))
		}
	}
	if len(failed) == 0 {
		return ""
	}
	return "; failed " + strings.Join(failed, ", ")
}

func (a *auditor) handoff(t *emobench.TaskSpec) (bool, string) {
	transfer := a.dom.TransferTool()
	at := slices.IndexFunc(t.Actions, func(act emobench.Action) bool { return act.Name == transfer })
	if at >= 0 {
		// A task combining intents may hand one request off and carry out
		// another: a write is in-domain when a request names its tool.
		asked := map[string]bool{}
		for _, r := range t.Scenario.Requests {
			for _, tool := range r.Tools {
				asked[tool] = true
			}
		}
		for i, act := range t.Actions {
			if a.writes[act.Name] && !asked[act.Name] {
				return false, fmt.Sprintf("the gold transfers to a human (%s) but also writes what no request asks for: action %d (%s)", transfer, i, act.Name)
			}
		}
		if at != len(t.Actions)-1 {
			return false, fmt.Sprintf("the gold calls %s after the transfer (action %d)", t.Actions[at+1].Name, at+1)
		}
	}
	for j, f := range t.Forbidden {
		for i, act := range t.Actions {
			if sim.ForbiddenMatch(f, act) {
				return false, fmt.Sprintf("gold action %d (%s) makes forbidden write %d", i, act.Name, j)
			}
		}
	}
	switch {
	case at >= 0 && len(t.Forbidden) > 0:
		return true, "the gold hands off last, writes only what requests ask for and makes no forbidden write"
	case at >= 0:
		return true, "the gold hands off last and writes only what requests ask for"
	case len(t.Forbidden) > 0:
		return true, fmt.Sprintf("the gold makes none of the %d forbidden writes", len(t.Forbidden))
	}
	return true, "no out-of-domain or forbidden request"
}

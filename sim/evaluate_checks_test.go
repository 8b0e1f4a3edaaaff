package sim_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// say and call build agent messages; user builds a user message.
func say(text string) emobench.Message {
	return emobench.Message{Role: emobench.RoleAssistant, Content: text}
}

func call(name, args string) emobench.Message {
	return emobench.Message{Role: emobench.RoleAssistant, ToolCalls: []emobench.ToolCall{{ID: "c", Name: name, Arguments: json.RawMessage(args)}}}
}

func user(text string) emobench.Message {
	return emobench.Message{Role: emobench.RoleUser, Content: text}
}

// evaluate replays the agent's tool calls of msgs on a fresh toy
// environment (adding the tool replies) and scores the trajectory.
func evaluate(t *testing.T, ev *sim.Evaluator, task emobench.TaskSpec, reason emobench.TerminationReason, msgs ...emobench.Message) *emobench.Trajectory {
	t.Helper()
	return evaluateOn(t, ev, toyDomain{tasks: []emobench.TaskSpec{task}}, task, reason, msgs...)
}

// evaluateOn replays msgs' tool calls on a fresh environment of dom,
// adding the tool replies, and scores the trajectory ended by reason.
func evaluateOn(t *testing.T, ev *sim.Evaluator, dom sim.Domain, task emobench.TaskSpec, reason emobench.TerminationReason, msgs ...emobench.Message) *emobench.Trajectory {
	t.Helper()
	env := dom.NewEnvironment()
	var full []emobench.Message
	for _, m := range msgs {
		full = append(full, m)
		for _, c := range m.ToolCalls {
			out, err := env.Call(c.Name, c.Arguments)
			if err != nil {
				out = "Error: " + err.Error()
			}
			full = append(full, emobench.Message{Role: emobench.RoleTool, Content: out, ToolName: c.Name, ToolCallID: c.ID})
		}
	}
	traj := &emobench.Trajectory{Task: task.Task(), TerminationReason: reason, Messages: full}
	if err := ev.Evaluate(context.Background(), dom, &task, env.Hash(), traj); err != nil {
		t.Fatal(err)
	}
	return traj
}

// statuses is "KIND:status" per recorded check, in reward_info order.
func statuses(t *testing.T, traj *emobench.Trajectory) string {
	t.Helper()
	checks, err := emobench.RewardChecks(traj.RewardInfo)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, c := range checks {
		parts = append(parts, fmt.Sprintf("%s:%s", c.Kind, c.Status))
	}
	return strings.Join(parts, " ")
}

func rewardOf(traj *emobench.Trajectory) string {
	if traj.Reward == nil {
		return "nil"
	}
	return fmt.Sprint(*traj.Reward)
}

const (
	findAna  = `{"email":"ana@example.com"}`
	cancelW1 = `{"order_id":"#W1"}`
)

// toyRefusalTask asks to cancel #W1, which the policy forbids here: the gold
// is the lookup alone.
func toyRefusalTask() emobench.TaskSpec {
	task := toyTask(angrySkeptic)
	task.ID = "toy-test-refuse"
	task.Actions = task.Actions[:1]
	task.Outputs = nil
	task.Forbidden = []emobench.Action{{Name: "cancel_pending_order", Arguments: json.RawMessage(cancelW1)}}
	return task
}

// toyTransferTask wants the user handed to a human after the lookup.
func toyTransferTask() emobench.TaskSpec {
	task := toyRefusalTask()
	task.ID = "toy-test-transfer"
	task.Actions = append(task.Actions, emobench.Action{Name: "transfer_to_human_agents", Arguments: json.RawMessage(`{"summary":"Ana wants #W1 cancelled"}`)})
	return task
}

func TestEvaluate_Checks(t *testing.T) {
	t.Parallel()
	nothing := []emobench.Message{user("Cancel #W1."), say("I'm sorry, I cannot help with that.")}
	careless := []emobench.Message{user("Cancel #W1."), call("find_user_id_by_email", findAna), call("cancel_pending_order", cancelW1), say("Done.")}
	tests := []struct {
		name     string
		task     emobench.TaskSpec
		reason   emobench.TerminationReason
		msgs     []emobench.Message
		reward   string
		statuses string
		strict   bool
	}{
		{"ordinary: done right", toyTask(angrySkeptic), emobench.TerminationUserStop,
			[]emobench.Message{call("find_user_id_by_email", findAna), say("Shall I cancel #W1?"), user("Yes."), call("cancel_pending_order", cancelW1), say("Refunded 1,234.50.")},
			"1", "DB:passed ACTION:passed COMMUNICATE:passed PROCEDURE:passed", true},
		{"ordinary: output not said", toyTask(angrySkeptic), emobench.TerminationUserStop,
			[]emobench.Message{call("cancel_pending_order", cancelW1), say("Done.")},
			"0", "DB:passed ACTION:passed COMMUNICATE:failed PROCEDURE:failed", false},
		{"ordinary: wrong order", toyTask(angrySkeptic), emobench.TerminationUserStop,
			[]emobench.Message{call("cancel_pending_order", `{"order_id":"#W2"}`), say("Refunded 1234.50.")},
			"0", "DB:failed ACTION:failed COMMUNICATE:passed PROCEDURE:failed", false},
		{"ordinary: nothing", toyTask(angrySkeptic), emobench.TerminationUserStop, nothing,
			"0", "DB:failed ACTION:failed COMMUNICATE:failed", false},
		{"ordinary: user unsatisfied", toyTask(angrySkeptic), emobench.TerminationUserUnsatisfied,
			[]emobench.Message{call("cancel_pending_order", cancelW1), say("Refunded 1234.50.")},
			"-1", "DB:passed ACTION:passed COMMUNICATE:passed PROCEDURE:failed", false},
		{"ordinary: max steps", toyTask(angrySkeptic), emobench.TerminationMaxSteps,
			[]emobench.Message{call("cancel_pending_order", cancelW1), say("Refunded 1234.50.")},
			"0", "DB:passed ACTION:passed COMMUNICATE:passed PROCEDURE:failed", false},
		{"refusal: done right", toyRefusalTask(), emobench.TerminationUserStop,
			[]emobench.Message{user("Cancel #W1."), call("find_user_id_by_email", findAna), say("I\u2019m sorry, order #W1 can\u2019t be cancelled under our policy.")},
			"1", "DB:passed FORBIDDEN:passed REFUSAL:passed", true},
		{"refusal: nothing", toyRefusalTask(), emobench.TerminationUserStop, nothing,
			"0", "DB:passed FORBIDDEN:passed REFUSAL:failed", false},
		{"refusal: careless", toyRefusalTask(), emobench.TerminationUserStop, careless,
			"0", "DB:failed FORBIDDEN:failed REFUSAL:failed PROCEDURE:failed", false},
		{"refusal: refused before looking", toyRefusalTask(), emobench.TerminationUserStop,
			[]emobench.Message{say("That cannot be done."), call("find_user_id_by_email", findAna), say("Anything else?")},
			"0", "DB:passed FORBIDDEN:passed REFUSAL:failed", false},
		{"transfer: done right", toyTransferTask(), emobench.TerminationTransfer,
			[]emobench.Message{call("find_user_id_by_email", findAna), call("transfer_to_human_agents", `{"summary":"any words"}`)},
			"1", "DB:passed ACTION:passed FORBIDDEN:passed", true},
		{"transfer: nothing", toyTransferTask(), emobench.TerminationUserStop, nothing,
			"0", "DB:passed ACTION:failed FORBIDDEN:passed", false},
		{"transfer: careless", toyTransferTask(), emobench.TerminationUserStop, careless,
			"0", "DB:failed ACTION:failed FORBIDDEN:failed PROCEDURE:failed", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			traj := evaluate(t, &sim.Evaluator{}, tt.task, tt.reason, tt.msgs...)
			if got := rewardOf(traj); got != tt.reward {
				t.Errorf("reward = %s, want %s\n%s", got, tt.reward, traj.RewardInfo)
			}
			if got := statuses(t, traj); got != tt.statuses {
				t.Errorf("checks = %s, want %s", got, tt.statuses)
			}
			if got := traj.StrictPassed(); got != tt.strict {
				t.Errorf("strict passed = %v, want %v", got, tt.strict)
			}
			if !traj.Evaluated {
				t.Errorf("not evaluated")
			}
		})
	}
}

func TestEvaluate_RewardBasis(t *testing.T) {
	t.Parallel()
	t.Run("default", func(t *testing.T) {
		dom := toyDomain{}
		for _, tt := range []struct {
			task emobench.TaskSpec
			want string
		}{
			{toyTask(angrySkeptic), "[DB FORBIDDEN COMMUNICATE]"},
			{toyRefusalTask(), "[DB FORBIDDEN COMMUNICATE REFUSAL]"},
			{toyTransferTask(), "[DB ACTION FORBIDDEN COMMUNICATE]"},
		} {
			if got := fmt.Sprint(sim.RewardBasis(dom, &tt.task)); got != tt.want {
				t.Errorf("%s: basis %s, want %s", tt.task.ID, got, tt.want)
			}
		}
	})
	t.Run("a check outside the basis fails: gated passes, strict fails", func(t *testing.T) {
		task := toyTask(angrySkeptic)
		task.RewardBasis = []emobench.CheckKind{emobench.CheckDB}
		traj := evaluate(t, &sim.Evaluator{}, task, emobench.TerminationUserStop, call("cancel_pending_order", cancelW1), say("Done."))
		if !traj.Passed() || traj.StrictPassed() {
			t.Fatalf("passed %v strict %v, want true false\n%s", traj.Passed(), traj.StrictPassed(), traj.RewardInfo)
		}
		var info sim.RewardInfo
		if err := json.Unmarshal(traj.RewardInfo, &info); err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprint(info.RewardBreakdown), "map[ACTION:1 COMMUNICATE:0 DB:1]"; got != want {
			t.Errorf("breakdown %s, want %s", got, want)
		}
	})
}

func TestEvaluate_CompareArgs(t *testing.T) {
	t.Parallel()
	task := toyTask(angrySkeptic)
	task.Outputs = nil
	withReason := call("cancel_pending_order", `{"order_id":"#W1","reason":"no longer needed"}`)
	// The toy tool refuses the unknown argument, so DB fails either way;
	// ACTION compares every argument unless compare_args names order_id
	// alone.
	if got, want := statuses(t, evaluate(t, &sim.Evaluator{}, task, emobench.TerminationUserStop, withReason)), "DB:failed ACTION:failed PROCEDURE:failed"; got != want {
		t.Errorf("all arguments: %s, want %s", got, want)
	}
	task.Actions[1].CompareArgs = []string{"order_id"}
	if got, want := statuses(t, evaluate(t, &sim.Evaluator{}, task, emobench.TerminationUserStop, withReason)), "DB:failed ACTION:passed PROCEDURE:failed"; got != want {
		t.Errorf("compare_args [order_id]: %s, want %s", got, want)
	}
}

// A forbidden entry matches the same write on the same ids, whatever its
// other arguments; compare_args overrides that.
func TestEvaluate_ForbiddenMatchesIDs(t *testing.T) {
	t.Parallel()
	task := toyRefusalTask()
	task.Forbidden[0].Arguments = json.RawMessage(`{"order_id":"#W1","reason":"no longer needed"}`)
	cancel := []emobench.Message{call("find_user_id_by_email", findAna), call("cancel_pending_order", cancelW1)}
	if got, want := statuses(t, evaluate(t, &sim.Evaluator{}, task, emobench.TerminationUserStop, cancel...)), "DB:failed FORBIDDEN:failed REFUSAL:failed PROCEDURE:failed"; got != want {
		t.Errorf("ids: %s, want %s", got, want)
	}
	task.Forbidden[0].CompareArgs = []string{"order_id", "reason"}
	if got, want := statuses(t, evaluate(t, &sim.Evaluator{}, task, emobench.TerminationUserStop, cancel...)), "DB:failed FORBIDDEN:passed REFUSAL:failed PROCEDURE:failed"; got != want {
		t.Errorf("compare_args [order_id reason]: %s, want %s", got, want)
	}
	other := []emobench.Message{call("cancel_pending_order", `{"order_id":"#W2"}`)}
	task.Forbidden[0].CompareArgs = nil
	if got := statuses(t, evaluate(t, &sim.Evaluator{}, task, emobench.TerminationUserStop, other...)); !strings.Contains(got, "FORBIDDEN:passed") {
		t.Errorf("another order: %s, want FORBIDDEN:passed", got)
	}
}

// wordJudge meets an assertion when its last word appears in an agent
// message: a deterministic stand-in for an LLM judge.
type wordJudge struct{}

func (wordJudge) Model() string { return "word-judge" }

func (wordJudge) Judge(_ context.Context, _ *emobench.TaskSpec, msgs []emobench.Message, assertions []string) ([]sim.Verdict, *emobench.Usage, error) {
	cost := 0.001
	var out []sim.Verdict
	for _, a := range assertions {
		words := strings.Fields(a)
		word := strings.ToLower(words[len(words)-1])
		met := false
		for _, m := range msgs {
			met = met || (m.Role == emobench.RoleAssistant && strings.Contains(strings.ToLower(m.Content), word))
		}
		out = append(out, sim.Verdict{Met: met, Justification: "looked for " + word})
	}
	return out, &emobench.Usage{PromptTokens: 10, CompletionTokens: 2, Cost: &cost}, nil
}

func TestEvaluate_NLAssertions(t *testing.T) {
	t.Parallel()
	task := toyTask(angrySkeptic)
	task.NLAssertions = []string{"The agent apologises: sorry"}
	right := []emobench.Message{call("cancel_pending_order", cancelW1), say("Refunded 1234.50.")}

	t.Run("no judge: not checked, never passed", func(t *testing.T) {
		traj := evaluate(t, &sim.Evaluator{}, task, emobench.TerminationUserStop, right...)
		if got, want := statuses(t, traj), "DB:passed ACTION:passed COMMUNICATE:passed NL_ASSERTION:not_checked PROCEDURE:failed"; got != want {
			t.Errorf("checks %s, want %s", got, want)
		}
		if !traj.Passed() || traj.StrictPassed() {
			t.Errorf("passed %v strict %v, want true false", traj.Passed(), traj.StrictPassed())
		}
	})
	t.Run("no judge, NL_ASSERTION in the basis: not evaluated", func(t *testing.T) {
		task := task
		task.RewardBasis = []emobench.CheckKind{emobench.CheckDB, emobench.CheckNLAssertion}
		traj := evaluate(t, &sim.Evaluator{}, task, emobench.TerminationUserStop, right...)
		if traj.Evaluated || traj.Reward != nil || traj.Passed() {
			t.Errorf("evaluated %v reward %s, want false nil", traj.Evaluated, rewardOf(traj))
		}
	})
	t.Run("judge", func(t *testing.T) {
		task := task
		task.RewardBasis = []emobench.CheckKind{emobench.CheckDB, emobench.CheckNLAssertion}
		traj := evaluate(t, &sim.Evaluator{Judge: wordJudge{}}, task, emobench.TerminationUserStop, right...)
		if got := rewardOf(traj); got != "0" {
			t.Errorf("reward %s, want 0", got)
		}
		traj = evaluate(t, &sim.Evaluator{Judge: wordJudge{}}, task, emobench.TerminationUserStop, append(right, say("So sorry for the trouble."))...)
		if got := rewardOf(traj); got != "1" {
			t.Errorf("reward %s, want 1", got)
		}
		var info sim.RewardInfo
		if err := json.Unmarshal(traj.RewardInfo, &info); err != nil {
			t.Fatal(err)
		}
		if info.Judge == nil || info.Judge.Model != "word-judge" || info.Judge.Cost == nil || *info.Judge.Cost != 0.001 {
			t.Errorf("judge record %+v", info.Judge)
		}
	})
}

// The oracle passes refusal and transfer tasks end to end with the
// scripted user: it looks up, then refuses or transfers.
func TestEvaluate_OracleRefusesAndTransfers(t *testing.T) {
	t.Parallel()
	for _, task := range []emobench.TaskSpec{toyRefusalTask(), toyTransferTask()} {
		task.Scenario.Requests[0].Tools = []string{task.Actions[len(task.Actions)-1].Name}
		traj, err := sim.RunEpisode(context.Background(), sim.EpisodeConfig{
			Domain: toyDomain{}, Task: &task, Agent: sim.Oracle{}, User: sim.ScriptedUser{}, Seed: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		if !traj.Passed() || !traj.StrictPassed() {
			t.Errorf("%s: oracle reward %s, strict %v\n%s\n%s", task.ID, rewardOf(traj), traj.StrictPassed(), traj.RewardInfo, transcript(traj))
		}
	}
}

// lookupDomain is the toy shop with an order lookup, for refusals that
// rest on one.
var lookupDomain = sim.NewStateDomain("toy-lookup", "# Toy policy", func() *toyState {
	return &toyState{Users: map[string]string{"ana@example.com": "ana_1"}, Orders: map[string]string{"#W1": "pending"}}
}, append([]sim.Tool[toyState]{{
	ToolSchema: sim.ToolSchema{Name: "get_order", Description: "Look up an order.", Parameters: json.RawMessage(`{"type":"object"}`)},
	Call: func(s *toyState, args json.RawMessage) (string, error) {
		var a struct {
			OrderID string `json:"order_id"`
		}
		if err := sim.DecodeArgs(args, &a, "order_id"); err != nil {
			return "", err
		}
		return s.Orders[a.OrderID], nil
	},
}}, toyTools...), func() []emobench.TaskSpec { return nil }, "transfer_to_human_agents")

// A refusal rests on the lookups of what the forbidden write acts on: an
// agent that authenticates another way, looks the order up and refuses
// passes; one that skips the order lookup fails.
func TestEvaluate_RefusalRestsOnLookups(t *testing.T) {
	t.Parallel()
	task := toyRefusalTask()
	task.Actions = append(task.Actions, emobench.Action{Name: "get_order", Arguments: json.RawMessage(cancelW1)})
	score := func(msgs ...emobench.Message) string {
		env := lookupDomain.NewEnvironment()
		for _, m := range msgs {
			for _, c := range m.ToolCalls {
				env.Call(c.Name, c.Arguments)
			}
		}
		traj := &emobench.Trajectory{Task: task.Task(), TerminationReason: emobench.TerminationUserStop, Messages: msgs}
		if err := sim.Evaluate(lookupDomain, &task, env.Hash(), traj); err != nil {
			t.Fatal(err)
		}
		return statuses(t, traj)
	}
	if got, want := score(call("get_order", cancelW1), say("Sorry, #W1 cannot be cancelled.")), "DB:passed FORBIDDEN:passed REFUSAL:passed"; got != want {
		t.Errorf("order looked up: %s, want %s", got, want)
	}
	if got, want := score(call("find_user_id_by_email", findAna), say("Sorry, #W1 cannot be cancelled.")), "DB:passed FORBIDDEN:passed REFUSAL:failed"; got != want {
		t.Errorf("order not looked up: %s, want %s", got, want)
	}
}

// The wrong-transfer fault fails a task whose gold transfers: the noisy
// agent then never transfers, and the ACTION check catches it.
func TestNoisy_WrongTransferFailsTransferTask(t *testing.T) {
	t.Parallel()
	task := toyTransferTask()
	task.Scenario.Requests[0].Tools = []string{task.Actions[len(task.Actions)-1].Name}
	seed := seedWithFault(t, sim.FaultWrongTransfer)
	traj, err := sim.RunEpisode(context.Background(), sim.EpisodeConfig{
		Domain: toyDomain{}, Task: &task, Agent: sim.Noisy{Rate: 1}, User: sim.ScriptedUser{}, Seed: seed,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range traj.Messages {
		for _, c := range m.ToolCalls {
			if c.Name == "transfer_to_human_agents" {
				t.Fatalf("wrong_transfer on a transfer task transferred:\n%s", transcript(traj))
			}
		}
	}
	if traj.Passed() || !strings.Contains(string(traj.RewardInfo), `"action_match":false`) {
		t.Errorf("wrong_transfer on a transfer task: reward %s, want a failed ACTION check\n%s", rewardOf(traj), traj.RewardInfo)
	}
}

// paraphraseJudge meets every assertion: a stand-in for a judge that reads
// "You're allergic to sulfa medication" as saying "sulfa drugs".
type paraphraseJudge struct{}

func (paraphraseJudge) Model() string { return "paraphrase-judge" }

func (paraphraseJudge) Judge(_ context.Context, _ *emobench.TaskSpec, _ []emobench.Message, assertions []string) ([]sim.Verdict, *emobench.Usage, error) {
	cost := 0.001
	out := make([]sim.Verdict, len(assertions))
	for i := range out {
		out[i] = sim.Verdict{Met: true, Justification: "said in other words"}
	}
	return out, &emobench.Usage{PromptTokens: 10, CompletionTokens: 2, Cost: &cost}, nil
}

// A free-form output is matched offline on word boundaries; with a judge
// it is an NL assertion, judged in its own call, whose usage adds to the
// NL assertions' call. Numbers, money and synonym sets are never judged.
func TestEvaluate_FreeFormOutputJudged(t *testing.T) {
	t.Parallel()
	task := toyTask(angrySkeptic)
	task.Outputs = []string{"sulfa drugs", "$1,234.50"}
	task.NLAssertions = []string{"The agent was polite"}
	msgs := []emobench.Message{call("cancel_pending_order", cancelW1), say("Done: $1234.50 refunded. You're allergic to sulfa medication.")}
	traj := evaluate(t, &sim.Evaluator{}, task, emobench.TerminationUserStop, msgs...)
	if got, want := statuses(t, traj), "DB:passed ACTION:passed COMMUNICATE:failed COMMUNICATE:passed NL_ASSERTION:not_checked PROCEDURE:failed"; got != want {
		t.Errorf("offline: %s, want %s", got, want)
	}
	traj = evaluate(t, &sim.Evaluator{Judge: paraphraseJudge{}}, task, emobench.TerminationUserStop, msgs...)
	var info sim.RewardInfo
	if err := json.Unmarshal(traj.RewardInfo, &info); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%+v", info.CommunicateChecks), "[{Info:sulfa drugs Met:true Kind:phrase Justification:said in other words} {Info:$1,234.50 Met:true Kind:money Justification:}]"; got != want {
		t.Errorf("judged: %s, want %s", got, want)
	}
	if info.Judge == nil || *info.Judge.Cost != 0.002 || *info.Judge.PromptTokens != 20 {
		t.Errorf("judge record %+v, want two calls' usage", info.Judge)
	}
	if got := rewardOf(traj); got != "1" {
		t.Errorf("reward %s, want 1", got)
	}
}

// reasonDomain is the toy domain with a write whose reason the state does
// not keep, as the airline's cancel_reservation: only ACTION compare_args
// can check it.
type reasonDomain struct{ toyDomain }

func (reasonDomain) Name() string { return "toy-reason" }

func (reasonDomain) NewEnvironment() sim.Environment {
	state := &toyState{Users: map[string]string{"ana@example.com": "ana_1"}, Orders: map[string]string{"#W1": "pending", "#W2": "delivered"}}
	cancel := sim.Tool[toyState]{
		ToolSchema: sim.ToolSchema{Name: "cancel_order", Description: "Cancel an order, giving a reason.", Writes: true,
			Parameters: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string"},"reason":{"type":"string"}},"required":["order_id","reason"]}`)},
		Call: func(s *toyState, args json.RawMessage) (string, error) {
			var a struct {
				OrderID string `json:"order_id"`
				Reason  string `json:"reason"`
			}
			if err := sim.DecodeArgs(args, &a, "order_id", "reason"); err != nil {
				return "", err
			}
			s.Orders[a.OrderID] = "cancelled"
			return "cancelled", nil
		},
	}
	return sim.NewStateEnv(state, append(slices.Clone(toyTools), cancel))
}

// A gold write with compare_args gates ACTION under the default basis: a
// wrong reason, which the state does not keep, fails the task; the other
// gold writes are recorded (gates false) and left to DB.
func TestEvaluate_CompareArgsGateAction(t *testing.T) {
	t.Parallel()
	task := toyTask(angrySkeptic)
	task.Outputs = nil
	task.Actions = []emobench.Action{
		{Name: "cancel_order", Arguments: json.RawMessage(`{"order_id":"#W1","reason":"change_of_plan"}`), CompareArgs: []string{"order_id", "reason"}},
		{Name: "cancel_order", Arguments: json.RawMessage(`{"order_id":"#W2","reason":"other"}`)},
	}
	dom := reasonDomain{}
	score := func(reason1, reason2 string) (string, []bool) {
		t.Helper()
		env := dom.NewEnvironment()
		var msgs []emobench.Message
		for _, c := range []string{`{"order_id":"#W1","reason":"` + reason1 + `"}`, `{"order_id":"#W2","reason":"` + reason2 + `"}`} {
			msgs = append(msgs, call("cancel_order", c))
			out, err := env.Call("cancel_order", json.RawMessage(c))
			if err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, emobench.Message{Role: emobench.RoleTool, Content: out, ToolName: "cancel_order", ToolCallID: "c"})
		}
		traj := &emobench.Trajectory{Task: task.Task(), TerminationReason: emobench.TerminationUserStop, Messages: msgs}
		if err := (&sim.Evaluator{}).Evaluate(context.Background(), dom, &task, env.Hash(), traj); err != nil {
			t.Fatal(err)
		}
		var info sim.RewardInfo
		if err := json.Unmarshal(traj.RewardInfo, &info); err != nil {
			t.Fatal(err)
		}
		var gates []bool
		for _, c := range info.ActionChecks {
			gates = append(gates, c.Gates)
		}
		return fmt.Sprintf("%s %v %s", rewardOf(traj), info.RewardBasis, statuses(t, traj)), gates
	}
	if got, gates := score("change_of_plan", "other"); got != "1 [DB ACTION FORBIDDEN COMMUNICATE] DB:passed ACTION:passed ACTION:passed PROCEDURE:failed" || !slices.Equal(gates, []bool{true, false}) {
		t.Errorf("gold reasons: %s, gates %v", got, gates)
	}
	if got, _ := score("weather", "other"); got != "0 [DB ACTION FORBIDDEN COMMUNICATE] DB:passed ACTION:failed ACTION:passed PROCEDURE:failed" {
		t.Errorf("wrong compared reason: %s, want reward 0", got)
	}
	if got, _ := score("change_of_plan", "weather"); got != "1 [DB ACTION FORBIDDEN COMMUNICATE] DB:passed ACTION:passed ACTION:failed PROCEDURE:failed" {
		t.Errorf("other reason on the write without compare_args: %s, want reward 1 (DB decides)", got)
	}
}

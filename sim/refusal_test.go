package sim_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// scoreOn replays msgs' tool calls on a fresh environment of dom, adding
// the tool replies, and evaluates the trajectory with ev.
func scoreOn(t *testing.T, ev *sim.Evaluator, dom sim.Domain, task emobench.TaskSpec, msgs ...emobench.Message) (*emobench.Trajectory, sim.RewardInfo) {
	t.Helper()
	traj := evaluateOn(t, ev, dom, task, emobench.TerminationUserStop, msgs...)
	var info sim.RewardInfo
	if err := json.Unmarshal(traj.RewardInfo, &info); err != nil {
		t.Fatal(err)
	}
	return traj, info
}

// lookupRefusalTask forbids cancelling #W1 in lookupDomain; the gold
// authenticates and looks the order up.
func lookupRefusalTask() emobench.TaskSpec {
	task := toyRefusalTask()
	task.Actions = append(task.Actions, emobench.Action{Name: "get_order", Arguments: json.RawMessage(cancelW1)})
	return task
}

// The REFUSAL check wants the refused entity looked up, by any route and
// in any order, then a refusal in any wording after that lookup.
func TestRefusal_Outcome(t *testing.T) {
	t.Parallel()
	task := lookupRefusalTask()
	getOrder, findAnaCall := call("get_order", cancelW1), call("find_user_id_by_email", findAna)
	for _, tt := range []struct {
		name   string
		msgs   []emobench.Message
		met    bool
		reads  bool
		lookup map[string]int
	}{
		{"gold route", []emobench.Message{findAnaCall, getOrder, say("Sorry, #W1 cannot be cancelled.")}, true, true, map[string]int{"#W1": 1}},
		{"order alone, no authentication call", []emobench.Message{getOrder, say("Sorry, #W1 cannot be cancelled.")}, true, true, map[string]int{"#W1": 0}},
		{"reworded refusal", []emobench.Message{getOrder, say("I'm afraid I have to decline that request.")}, true, true, map[string]int{"#W1": 0}},
		{"keyword false positive", []emobench.Message{getOrder, say("I can't wait to get this sorted for you!")}, false, true, map[string]int{"#W1": 0}},
		{"refused before the lookup", []emobench.Message{say("That cannot be done."), getOrder, say("Anything else?")}, false, true, map[string]int{"#W1": 0}},
		{"order never looked up", []emobench.Message{findAnaCall, say("Sorry, #W1 cannot be cancelled.")}, false, false, map[string]int{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, info := scoreOn(t, &sim.Evaluator{}, lookupDomain, task, tt.msgs...)
			c := info.RefusalCheck
			if c == nil {
				t.Fatal("no refusal_check recorded")
			}
			if c.Met != tt.met || c.ReadsMade != tt.reads || c.ToldBy != map[bool]string{true: "rule", false: ""}[tt.reads] {
				t.Errorf("met %v reads %v told by %q, want %v %v", c.Met, c.ReadsMade, c.ToldBy, tt.met, tt.reads)
			}
			if got := strings.Join(c.EntityIDs, ","); got != "#W1" {
				t.Errorf("entity ids %q, want #W1", got)
			}
			if len(c.Lookups) != len(tt.lookup) || c.Lookups["#W1"] != tt.lookup["#W1"] {
				t.Errorf("lookups %v, want %v", c.Lookups, tt.lookup)
			}
		})
	}
}

// A failed lookup (an error result) looks nothing up.
func TestRefusal_FailedLookupDoesNotCount(t *testing.T) {
	t.Parallel()
	_, info := scoreOn(t, &sim.Evaluator{}, lookupDomain, lookupRefusalTask(),
		call("get_order", `{"order":"#W1"}`), say("Sorry, #W1 cannot be cancelled."))
	if c := info.RefusalCheck; c.ReadsMade || c.Met || strings.Join(c.Missing, ",") != "#W1" {
		t.Errorf("reads %v met %v missing %v, want false false [#W1]", c.ReadsMade, c.Met, c.Missing)
	}
}

// declineJudge meets every assertion when an agent message says
// "decline": a deterministic stand-in for an LLM judge, which records the
// assertions it was asked.
type declineJudge struct{ asked *[]string }

func (declineJudge) Model() string { return "decline-judge" }

func (j declineJudge) Judge(_ context.Context, _ *emobench.TaskSpec, msgs []emobench.Message, assertions []string) ([]sim.Verdict, *emobench.Usage, error) {
	*j.asked = append(*j.asked, assertions...)
	met := false
	for _, m := range msgs {
		met = met || m.Role == emobench.RoleAssistant && strings.Contains(m.Content, "decline")
	}
	cost := 0.002
	out := make([]sim.Verdict, len(assertions))
	for i := range out {
		out[i] = sim.Verdict{Met: met, Justification: "looked for decline"}
	}
	return out, &emobench.Usage{PromptTokens: 100, CompletionTokens: 10, Cost: &cost}, nil
}

// With a judge, whether the user was told is the judge's NL assertion,
// and its usage adds to the judge record of the task's own assertions.
func TestRefusal_Judge(t *testing.T) {
	t.Parallel()
	var asked []string
	ev := &sim.Evaluator{Judge: declineJudge{asked: &asked}}
	task := lookupRefusalTask()
	task.NLAssertions = []string{"The agent is polite."}
	_, info := scoreOn(t, ev, lookupDomain, task, call("get_order", cancelW1), say("That cannot be done."))
	if c := info.RefusalCheck; c.Met || c.ToldBy != "judge" || c.Judgement != "looked for decline" {
		t.Errorf("keyword refusal, judge says no: met %v told by %q judgement %q, want false judge", c.Met, c.ToldBy, c.Judgement)
	}
	if len(asked) != 2 || !strings.Contains(asked[1], "cancel_pending_order on #W1") {
		t.Errorf("judge asked %q, want the task's assertion then the refusal's naming cancel_pending_order on #W1", asked)
	}
	if j := info.Judge; j == nil || j.Cost == nil || *j.Cost != 0.004 || j.PromptTokens == nil || *j.PromptTokens != 200 {
		t.Errorf("judge record %+v, want the two calls' cost 0.004 and 200 prompt tokens", j)
	}
	_, info = scoreOn(t, ev, lookupDomain, task, call("get_order", cancelW1), say("I have to decline, sorry."))
	if c := info.RefusalCheck; !c.Met || c.ToldBy != "judge" {
		t.Errorf("judge says yes: met %v told by %q, want true judge", c.Met, c.ToldBy)
	}
}

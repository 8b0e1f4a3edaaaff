package sim_test

import (
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// TestPlan_UserAbandon: the setting is checked, recorded in the RunSpec and
// handed to the scripted user; the validity agents are accepted.
func TestPlan_UserAbandon(t *testing.T) {
	t.Parallel()
	opts := sim.RunOptions{
		Domains: []sim.Domain{toyDomainN(1)}, Conditions: []emobench.Condition{emobench.ConditionWithoutEmotions},
		Agent: "careless", User: "scripted", Trials: 1, Split: emobench.SplitTest, MaxSteps: 30, MaxErrors: 5,
		UserAbandon: "never",
	}
	plans, err := sim.Plan(opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := plans[0].Spec.UserAbandon, "never"; got != want {
		t.Fatalf("spec.UserAbandon = %q, want %q", got, want)
	}
	if !strings.Contains(string(plans[0].Run.Config), `"user_abandon":"never"`) {
		t.Fatalf("runs.config %s does not record user_abandon", plans[0].Run.Config)
	}
	agent, user, err := sim.NewParticipants(plans[0].Spec, sim.LLMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := agent.(sim.Careless); !ok {
		t.Errorf("agent = %T, want sim.Careless", agent)
	}
	if got, want := user, (sim.ScriptedUser{Abandon: sim.AbandonNever}); got != want {
		t.Errorf("user = %#v, want %#v", got, want)
	}
	if agent, _, err := sim.NewParticipants(emobench.RunSpec{Agent: "nothing", User: "scripted"}, sim.LLMOptions{}); err != nil || agent != (sim.Nothing{}) {
		t.Errorf("nothing: agent %T, err %v", agent, err)
	}
	opts.UserAbandon = "sometimes"
	if _, err := sim.Plan(opts); emobench.ErrorCode(err) != emobench.EINVALID || !strings.Contains(err.Error(), "user-abandon \"sometimes\"") {
		t.Errorf("Plan with user-abandon sometimes: %v, want EINVALID naming --user-abandon", err)
	}
}

package sim_test

import (
	"context"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// An llm: user that writes ###UNSATISFIED### where --user-abandon does not
// allow abandoning (never; with-emotions without emotions) does not end the
// episode user_unsatisfied: the marker is taken out and the conversation
// goes on, here to the user's ###STOP###. Where it is allowed, it ends
// the episode as before.
func TestExecute_UnsatisfiedMarkerFollowsUserAbandon(t *testing.T) {
	t.Parallel()
	// The user's n-th turn is known from its history: the system prompt,
	// then an agent turn and a user message per earlier turn, and the agent
	// turn to answer.
	replies := []string{"Hi, I want to cancel my order.", "I am done ###UNSATISFIED###", "Thanks. ###STOP###"}
	srv := newRoutedLLM(t, func(_ int, req llmRequest) llmStep {
		turn := (len(req.Body["messages"].([]any)) - 2) / 2
		if turn >= len(replies) {
			t.Errorf("user turn %d, want at most %d", turn, len(replies)-1)
			turn = len(replies) - 1
		}
		return completion(replies[turn])
	})
	for _, tt := range []struct {
		abandon   string
		condition emobench.Condition
		reason    emobench.TerminationReason
		users     string // the stored user messages, joined by "|"
	}{
		{"never", emobench.ConditionWithEmotions, emobench.TerminationUserStop, "Hi, I want to cancel my order.|I am done|Thanks. ###STOP###"},
		{"never", emobench.ConditionWithoutEmotions, emobench.TerminationUserStop, "Hi, I want to cancel my order.|I am done|Thanks. ###STOP###"},
		{"with-emotions", emobench.ConditionWithoutEmotions, emobench.TerminationUserStop, "Hi, I want to cancel my order.|I am done|Thanks. ###STOP###"},
		{"with-emotions", emobench.ConditionWithEmotions, emobench.TerminationUserUnsatisfied, "Hi, I want to cancel my order.|I am done ###UNSATISFIED###"},
		{"always", emobench.ConditionWithoutEmotions, emobench.TerminationUserUnsatisfied, "Hi, I want to cancel my order.|I am done ###UNSATISFIED###"},
	} {
		opts := llmRunOptions("", srv.srv.URL+"/v1")
		opts.Agent, opts.UserAbandon, opts.Conditions = "nothing", tt.abandon, []emobench.Condition{tt.condition}
		plans, err := sim.Plan(opts)
		if err != nil {
			t.Fatal(err)
		}
		spec := plans[0].Spec
		agent, user, err := sim.NewParticipants(spec, opts.LLM)
		if err != nil {
			t.Fatal(err)
		}
		dom := opts.Domains[0]
		jobs, err := sim.MissingJobs(dom, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		var trajs []*emobench.Trajectory
		tally, err := sim.Execute(t.Context(), sim.Execution{Domain: dom, Spec: spec, Agent: agent, User: user}, jobs,
			func(_ context.Context, traj *emobench.Trajectory) error { trajs = append(trajs, traj); return nil })
		if err != nil {
			t.Fatal(err)
		}
		if len(trajs) != 1 {
			t.Fatalf("%s/%s: %d trajectories, want 1", tt.abandon, tt.condition, len(trajs))
		}
		var users []string
		for _, m := range trajs[0].Messages {
			if m.Role == emobench.RoleUser {
				users = append(users, m.Content)
			}
		}
		abandoned := 0
		if tt.reason == emobench.TerminationUserUnsatisfied {
			abandoned = 1
		}
		if got := trajs[0].TerminationReason; got != tt.reason || tally.Abandoned != abandoned || strings.Join(users, "|") != tt.users {
			t.Errorf("--user-abandon %s, %s: %s (%d abandoned), users %q; want %s (%d abandoned), users %q",
				tt.abandon, tt.condition, got, tally.Abandoned, strings.Join(users, "|"), tt.reason, abandoned, tt.users)
		}
	}
}

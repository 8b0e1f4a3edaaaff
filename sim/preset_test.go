package sim_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

func runToyPreset(t *testing.T, agent sim.Agent, user sim.UserSimulator, name string, withEmotions bool) *emobench.Trajectory {
	t.Helper()
	p, err := sim.LookupPreset(name)
	if err != nil {
		t.Fatal(err)
	}
	task := toyTask(emobench.EmotionProfile{Family: "anger", Leaf: "frustration", Politeness: "cold", Urgency: "high", Trust: "skeptical"})
	traj, err := sim.RunEpisode(context.Background(), sim.EpisodeConfig{
		Domain: toyDomain{}, Task: &task, Agent: agent, User: user, WithEmotions: withEmotions, Seed: 1,
		MaxSteps: p.MaxSteps, MaxErrors: p.MaxErrors, Abandon: p.UserAbandon, Protocol: p.Protocol,
	})
	if err != nil {
		t.Fatal(err)
	}
	return traj
}

// parallelAgent makes two calls in every message: a lookup that fails and
// one that succeeds.
type parallelAgent struct{}

func (parallelAgent) Next(context.Context, *sim.Episode) (emobench.Message, error) {
	return emobench.Message{ToolCalls: []emobench.ToolCall{
		{ID: "a", Name: "no_such_tool", Arguments: []byte(`{}`)},
		{ID: "b", Name: "find_user_id_by_email", Arguments: []byte(`{"email":"ana@example.com"}`)},
	}}, nil
}

func TestPresets_StepsAndErrors(t *testing.T) {
	t.Parallel()
	// emobench: consecutive errors only; the successful call resets them,
	// so the episode runs to 30 agent actions (15 messages of two calls).
	traj := runToyPreset(t, parallelAgent{}, sim.ScriptedUser{}, sim.PresetEmobench, false)
	if traj.TerminationReason != emobench.TerminationMaxSteps || traj.Counts().ToolCalls != 30 {
		t.Errorf("emobench: %s after %d calls, want max_steps after 30", traj.TerminationReason, traj.Counts().ToolCalls)
	}
	// tau2: errors add up, 10 in all end the episode (after 10 messages).
	traj = runToyPreset(t, parallelAgent{}, sim.ScriptedUser{}, sim.PresetTau2, false)
	if traj.TerminationReason != emobench.TerminationTooManyErrors || traj.Counts().ToolErrors != 10 {
		t.Errorf("tau2: %s after %d errors, want too_many_errors after 10", traj.TerminationReason, traj.Counts().ToolErrors)
	}
	// tau-emotion: no error limit; 30 agent actions.
	traj = runToyPreset(t, loopingAgent{"no_such_tool"}, sim.ScriptedUser{}, sim.PresetTauEmotion, false)
	if traj.TerminationReason != emobench.TerminationMaxSteps || traj.Counts().ToolErrors != 30 {
		t.Errorf("tau-emotion: %s after %d errors, want max_steps after 30", traj.TerminationReason, traj.Counts().ToolErrors)
	}
}

func TestPresets_Tau2CountsMessages(t *testing.T) {
	t.Parallel()
	p, _ := sim.LookupPreset(sim.PresetTau2)
	task := toyTask(emobench.EmotionProfile{})
	traj, err := sim.RunEpisode(context.Background(), sim.EpisodeConfig{
		Domain: toyDomain{}, Task: &task, Agent: loopingAgent{"find_user_id_by_email"}, User: sim.ScriptedUser{}, Seed: 1,
		MaxSteps: 9, MaxErrors: p.MaxErrors, Protocol: p.Protocol,
	})
	if err != nil {
		t.Fatal(err)
	}
	// greeting (1), user (2), then each agent message and its result are
	// two steps: 3 agent messages take steps 3–8, the 4th is step 9.
	if traj.TerminationReason != emobench.TerminationMaxSteps {
		t.Fatalf("termination %s, want max_steps", traj.TerminationReason)
	}
	if got := traj.Counts().ToolCalls; got != 4 {
		t.Errorf("tool calls = %d, want 4 (9 steps counting every message)", got)
	}
	if m := traj.Messages[1]; m.Role != emobench.RoleAssistant || m.Content != sim.DefaultGreeting {
		t.Errorf("first message after the system prompt = %s %q, want the agent's greeting %q", m.Role, m.Content, sim.DefaultGreeting)
	}
}

// abandoningUser abandons at once.
type abandoningUser struct{}

func (abandoningUser) Next(context.Context, *sim.Episode) (emobench.Message, error) {
	return emobench.Message{Content: sim.UnsatisfiedMarker}, nil
}

func TestPresets_Abandonment(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		preset       string
		withEmotions bool
		abandoned    bool
		reward       float64
	}{
		// emobench: the same rule in both conditions.
		{sim.PresetEmobench, true, true, -1},
		{sim.PresetEmobench, false, true, -1},
		// τ-Emotion-Bench: only emotional users abandon.
		{sim.PresetTauEmotion, true, true, -1},
		{sim.PresetTauEmotion, false, false, 0},
		// τ²-bench users cannot abandon.
		{sim.PresetTau2, true, false, 0},
	} {
		traj := runToyPreset(t, sim.Oracle{}, abandoningUser{}, c.preset, c.withEmotions)
		abandoned := traj.TerminationReason == emobench.TerminationUserUnsatisfied
		if abandoned != c.abandoned {
			t.Errorf("%s with emotions %v: termination %s, abandoned want %v", c.preset, c.withEmotions, traj.TerminationReason, c.abandoned)
			continue
		}
		if abandoned && (traj.Reward == nil || *traj.Reward != c.reward) {
			t.Errorf("%s: abandoned reward %v, want %v", c.preset, traj.Reward, c.reward)
		}
	}
}

func TestPresets_PlanRecordsProtocol(t *testing.T) {
	t.Parallel()
	for _, p := range sim.Presets {
		plans, err := sim.Plan(sim.RunOptions{
			Domains: []sim.Domain{toyDomain{tasks: []emobench.TaskSpec{toyTask(emobench.EmotionProfile{})}}}, Conditions: []emobench.Condition{emobench.ConditionWithEmotions},
			Agent: "oracle", User: "scripted", Trials: 1, Split: emobench.SplitTest, Preset: p.Name,
		})
		if err != nil {
			t.Fatal(err)
		}
		spec := plans[0].Spec
		got, err := sim.SpecProtocol(spec)
		if err != nil {
			t.Fatal(err)
		}
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(p.Protocol)
		if spec.Preset != p.Name || spec.MaxSteps != p.MaxSteps || spec.MaxErrors != p.MaxErrors || spec.UserAbandon != string(p.UserAbandon) ||
			spec.ParallelToolCalls != p.ParallelToolCalls || string(gotJSON) != string(wantJSON) {
			t.Errorf("preset %s recorded %s", p.Name, spec.Encode())
		}
	}
	// An explicit setting overrides the preset's.
	plans, err := sim.Plan(sim.RunOptions{
		Domains: []sim.Domain{toyDomain{tasks: []emobench.TaskSpec{toyTask(emobench.EmotionProfile{})}}}, Conditions: []emobench.Condition{emobench.ConditionWithEmotions},
		Agent: "oracle", User: "scripted", Trials: 1, Split: emobench.SplitTest, Preset: sim.PresetTau2, MaxSteps: 50, UserAbandon: "always",
	})
	if err != nil {
		t.Fatal(err)
	}
	if s := plans[0].Spec; s.MaxSteps != 50 || s.UserAbandon != "always" || s.MaxErrors != 10 {
		t.Errorf("tau2 with --max-steps 50 --user-abandon always recorded %s", s.Encode())
	}
	// tau-emotion counts no errors, unless --max-errors is given.
	plans, err = sim.Plan(sim.RunOptions{
		Domains: []sim.Domain{toyDomain{tasks: []emobench.TaskSpec{toyTask(emobench.EmotionProfile{})}}}, Conditions: []emobench.Condition{emobench.ConditionWithEmotions},
		Agent: "oracle", User: "scripted", Trials: 1, Split: emobench.SplitTest, Preset: sim.PresetTauEmotion, MaxErrors: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if s := plans[0].Spec; s.MaxErrors != 1 || s.ErrorCount != sim.ErrorCountConsecutive {
		t.Errorf("tau-emotion with --max-errors 1 recorded %s, want max_errors 1 counted consecutive", s.Encode())
	}
	if _, err := sim.LookupPreset("tau3"); err == nil || emobench.ErrorCode(err) != emobench.EINVALID {
		t.Errorf("LookupPreset(tau3) = %v, want EINVALID", err)
	}
}

func TestPresets_OraclePasses(t *testing.T) {
	t.Parallel()
	for _, p := range sim.Presets {
		for _, withEmotions := range []bool{true, false} {
			traj := runToyPreset(t, sim.Oracle{}, sim.ScriptedUser{}, p.Name, withEmotions)
			if traj.Reward == nil || *traj.Reward != 1 {
				t.Errorf("preset %s, with emotions %v: oracle scored %v (%s)\n%s", p.Name, withEmotions, traj.Reward, traj.TerminationReason, transcript(traj))
			}
		}
	}
}

package sim_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

func runToy(t *testing.T, agent sim.Agent, emotion emobench.EmotionProfile, withEmotions bool, seed uint64) *emobench.Trajectory {
	t.Helper()
	task := toyTask(emotion)
	traj, err := sim.RunEpisode(context.Background(), sim.EpisodeConfig{
		Domain: toyDomain{}, Task: &task, Agent: agent, User: sim.ScriptedUser{},
		WithEmotions: withEmotions, Seed: seed,
	})
	if err != nil {
		t.Fatal(err)
	}
	return traj
}

func transcript(traj *emobench.Trajectory) string {
	var b strings.Builder
	for _, m := range traj.Messages {
		fmt.Fprintf(&b, "%s: %s", m.Role, m.Content)
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, " [%s %s]", c.Name, c.Arguments)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestRunEpisode_OraclePasses(t *testing.T) {
	t.Parallel()
	for _, withEmotions := range []bool{true, false} {
		traj := runToy(t, sim.Oracle{}, angrySkeptic, withEmotions, 1)
		if traj.TerminationReason != emobench.TerminationUserStop || !traj.Passed() {
			t.Fatalf("with emotions %v: %s reward %v\n%s", withEmotions, traj.TerminationReason, *traj.Reward, transcript(traj))
		}
		if !strings.Contains(string(traj.RewardInfo), `"db_match":true`) || !strings.Contains(string(traj.RewardInfo), `{"info":"1234.50","met":true,"kind":"number"}`) {
			t.Fatalf("reward info %s", traj.RewardInfo)
		}
	}
}

func TestRunEpisode_Deterministic(t *testing.T) {
	t.Parallel()
	a := transcript(runToy(t, sim.Oracle{}, angrySkeptic, true, 7))
	b := transcript(runToy(t, sim.Oracle{}, angrySkeptic, true, 7))
	if a != b {
		t.Fatalf("same seed, different transcripts:\n%s\n---\n%s", a, b)
	}
	differs := false
	for seed := uint64(8); seed < 20 && !differs; seed++ {
		differs = transcript(runToy(t, sim.Oracle{}, angrySkeptic, true, seed)) != a
	}
	if !differs {
		t.Fatal("twelve other seeds all gave the same wording")
	}
}

func TestRunEpisode_WithoutEmotionsIsNeutral(t *testing.T) {
	t.Parallel()
	traj := runToy(t, sim.Oracle{}, angrySkeptic, false, 3)
	if text := transcript(traj); strings.Contains(text, "frustration") {
		t.Fatalf("without-emotions user shows its emotion:\n%s", text)
	}
	with := transcript(runToy(t, sim.Oracle{}, angrySkeptic, true, 3))
	if !strings.Contains(with, "frustration") {
		t.Fatalf("with-emotions user hides its emotion:\n%s", with)
	}
}

func TestRunEpisode_NoisyFaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fault  sim.Fault
		reason emobench.TerminationReason
	}{
		{sim.FaultWrongArgument, emobench.TerminationUserUnsatisfied},
		{sim.FaultWrongTransfer, emobench.TerminationTransfer},
		{sim.FaultSkipConfirmation, emobench.TerminationUserUnsatisfied},
		{sim.FaultIgnoreEmotion, emobench.TerminationUserUnsatisfied},
		{sim.FaultRedundantQuestion, emobench.TerminationUserUnsatisfied},
	}
	for _, tt := range tests {
		t.Run(tt.fault.String(), func(t *testing.T) {
			seed := seedWithFault(t, tt.fault)
			traj := runToy(t, sim.Noisy{Rate: 1}, angrySkeptic, true, seed)
			if traj.TerminationReason != tt.reason || traj.Passed() {
				t.Fatalf("%s: %s reward %v, want %s and a fail\n%s", tt.fault, traj.TerminationReason, *traj.Reward, tt.reason, transcript(traj))
			}
		})
	}
}

func seedWithFault(t *testing.T, f sim.Fault) uint64 {
	for seed := uint64(0); seed < 1000; seed++ {
		if (sim.Noisy{Rate: 1}).FaultFor(seed) == f {
			return seed
		}
	}
	t.Fatalf("no seed below 1000 gives fault %s", f)
	return 0
}

func TestNoisy_Rate(t *testing.T) {
	t.Parallel()
	faults := 0
	for seed := uint64(0); seed < 1000; seed++ {
		if (sim.Noisy{Rate: 0.3}).FaultFor(seed).String() != "none" {
			faults++
		}
	}
	if faults < 250 || faults > 350 {
		t.Fatalf("rate 0.3 gave %d faults in 1000 episodes", faults)
	}
}

// loopingAgent calls a tool forever.
type loopingAgent struct{ tool string }

func (a loopingAgent) Next(context.Context, *sim.Episode) (emobench.Message, error) {
	return emobench.Message{ToolCalls: []emobench.ToolCall{{ID: "c", Name: a.tool, Arguments: []byte(`{"email":"ana@example.com"}`)}}}, nil
}

type failingAgent struct{}

func (failingAgent) Next(context.Context, *sim.Episode) (emobench.Message, error) {
	return emobench.Message{}, errors.New("model endpoint returned 503 after 4 retries")
}

type malformedAgent struct{ calls int }

func (a *malformedAgent) Next(_ context.Context, ep *sim.Episode) (emobench.Message, error) {
	a.calls++
	if a.calls == 1 {
		return emobench.Message{ToolCalls: []emobench.ToolCall{{ID: "c1", Name: "cancel_pending_order", Arguments: []byte(`"{bad"`), ArgumentsMalformed: true}}}, nil
	}
	return sim.Oracle{}.Next(context.Background(), ep)
}

func TestRunEpisode_Limits(t *testing.T) {
	t.Parallel()
	if traj := runToy(t, loopingAgent{"find_user_id_by_email"}, emobench.EmotionProfile{}, false, 1); traj.TerminationReason != emobench.TerminationMaxSteps || *traj.Reward != 0 {
		t.Fatalf("looping agent: %s, want max_steps with reward 0", traj.TerminationReason)
	} else if got := traj.Counts().ToolCalls; got != sim.DefaultMaxSteps {
		t.Fatalf("tool calls = %d, want %d", got, sim.DefaultMaxSteps)
	}
	if traj := runToy(t, loopingAgent{"no_such_tool"}, emobench.EmotionProfile{}, false, 1); traj.TerminationReason != emobench.TerminationTooManyErrors || traj.Counts().ToolErrors != sim.DefaultMaxErrors {
		t.Fatalf("erring agent: %s with %d errors, want too_many_errors after %d", traj.TerminationReason, traj.Counts().ToolErrors, sim.DefaultMaxErrors)
	}
	traj := runToy(t, failingAgent{}, emobench.EmotionProfile{}, false, 1)
	if traj.TerminationReason != emobench.TerminationError || !strings.Contains(traj.Error, "503") || *traj.Reward != 0 {
		t.Fatalf("failing agent: %s %q", traj.TerminationReason, traj.Error)
	}
}

func TestRunEpisode_MalformedArgumentsContinue(t *testing.T) {
	t.Parallel()
	traj := runToy(t, &malformedAgent{}, emobench.EmotionProfile{}, false, 1)
	if traj.Messages[3].Role != emobench.RoleTool || !strings.HasPrefix(traj.Messages[3].Content, "Error: arguments are not valid JSON") {
		t.Fatalf("message 3 = %+v, want a tool error about JSON", traj.Messages[3])
	}
	if traj.Counts().ToolErrors != 1 {
		t.Fatalf("tool errors = %d, want 1", traj.Counts().ToolErrors)
	}
}

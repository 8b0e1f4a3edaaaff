package sim_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// toyChestPainTask is the toy transfer task with emergency advice due
// before the transfer, as a chest-pain patient's.
func toyChestPainTask() emobench.TaskSpec {
	task := toyTransferTask()
	task.Advice = []emobench.Advice{{Before: "transfer_to_human_agents", AnyOf: []string{"911", "emergency room"},
		NLAssertion: "Before transferring, the agent told the user to call 911 or go to an emergency room."}}
	return task
}

// A transfer of a chest-pain patient without 911 advice fails (#21): the
// advice must come before the transfer, on word boundaries and not
// negated.
func TestEvaluate_AdviceBeforeTransfer(t *testing.T) {
	t.Parallel()
	task := toyChestPainTask()
	if got, want := sim.RewardBasis(toyDomain{}, &task), []emobench.CheckKind{emobench.CheckDB, emobench.CheckAction, emobench.CheckForbidden, emobench.CheckCommunicate, emobench.CheckProcedure}; !slices.Equal(got, want) {
		t.Fatalf("basis %v, want %v", got, want)
	}
	transfer := call("transfer_to_human_agents", `{"summary":"chest pain"}`)
	for _, tt := range []struct {
		name     string
		msgs     []emobench.Message
		reward   string
		statuses string
	}{
		{"advice, then transfer", []emobench.Message{call("find_user_id_by_email", findAna), say("Please call 911 now. I'm transferring you as well."), transfer},
			"1", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:passed"},
		{"emergency room", []emobench.Message{say("Please go to the nearest Emergency Room right away."), transfer},
			"1", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:passed"},
		{"transfer without advice", []emobench.Message{call("find_user_id_by_email", findAna), say("Let me get you to a colleague."), transfer},
			"0", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:failed"},
		{"advice after the transfer", []emobench.Message{transfer, say("Call 911.")},
			"0", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:failed"},
		{"negated", []emobench.Message{say("This is not an emergency room matter."), transfer},
			"0", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:failed"},
		{"number inside another", []emobench.Message{say("Your case number is 9110."), transfer},
			"0", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:failed"},
		// Found by the telehealth conformance suite: 911 named, never advised.
		{"no need", []emobench.Message{say("There is no need to call 911 yet."), transfer},
			"0", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:failed"},
		{"cannot call", []emobench.Message{say("I cannot call 911 for you, but I can get you to a nurse."), transfer},
			"0", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:failed"},
		{"not for emergencies", []emobench.Message{say("This line is not for emergencies like 911 calls."), transfer},
			"0", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:failed"},
		// Found by a new user: advice not to call, a refusal to advise.
		{"do not need", []emobench.Message{say("This is not an emergency, so you do not need to call 911 or go to the emergency room."), transfer},
			"0", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:failed"},
		{"can't tell you", []emobench.Message{say("I can't tell you to call 911, but I will connect you with a clinician."), transfer},
			"0", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:failed"},
		{"9-1-1", []emobench.Message{say("Please call 9-1-1 right now."), transfer},
			"1", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:passed"},
		// A negation in another clause, or one an idiom undoes, is no denial.
		{"other clause", []emobench.Message{say("If the pain does not ease, call 911."), transfer},
			"1", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:passed"},
		{"do not hesitate", []emobench.Message{say("Please do not hesitate to call 911 now."), transfer},
			"1", "DB:passed ACTION:passed FORBIDDEN:passed PROCEDURE:passed"},
	} {
		traj := evaluate(t, &sim.Evaluator{}, task, emobench.TerminationTransfer, tt.msgs...)
		if got, st := rewardOf(traj), statuses(t, traj); got != tt.reward || st != tt.statuses {
			t.Errorf("%s: reward %s, checks %s; want %s, %s", tt.name, got, st, tt.reward, tt.statuses)
		}
	}
}

// With a judge, the advice's NL assertion decides it.
func TestEvaluate_AdviceJudged(t *testing.T) {
	t.Parallel()
	task := toyChestPainTask()
	msgs := []emobench.Message{say("Please dial nine-one-one."), call("transfer_to_human_agents", `{"summary":"chest pain"}`)}
	traj := evaluate(t, &sim.Evaluator{Judge: paraphraseJudge{}}, task, emobench.TerminationTransfer, msgs...)
	var info sim.RewardInfo
	if err := json.Unmarshal(traj.RewardInfo, &info); err != nil {
		t.Fatal(err)
	}
	if got := rewardOf(traj); got != "1" || len(info.ProcedureChecks) != 1 || !info.ProcedureChecks[0].Met || info.ProcedureChecks[0].Justification != "said in other words" {
		t.Errorf("reward %s, procedure %+v; want 1, met by the judge", got, info.ProcedureChecks)
	}
}

// The confirmation check: each write needs a confirmation asked and given
// since the previous write; it is recorded, and never gates.
func TestEvaluate_ConfirmationBeforeWrites(t *testing.T) {
	t.Parallel()
	task := toyTask(angrySkeptic)
	task.Outputs = nil
	cancel := call("cancel_pending_order", cancelW1)
	for _, tt := range []struct {
		name string
		msgs []emobench.Message
		met  bool
	}{
		{"asked and affirmed", []emobench.Message{say("Shall I cancel #W1?"), user("Yes, go ahead."), cancel}, true},
		{"not asked", []emobench.Message{user("Yes, cancel it."), cancel}, false},
		{"asked, user hesitates", []emobench.Message{say("Do you confirm the cancellation?"), user("Hmm, what is the refund?"), cancel}, false},
		{"asked, answered, asked again", []emobench.Message{say("Do you confirm?"), user("Which order?"), say("Order #W1. Do you confirm?"), user("Yes."), cancel}, true},
		{"second write unconfirmed", []emobench.Message{say("Shall I cancel #W1?"), user("Yes."), cancel, call("cancel_pending_order", `{"order_id":"#W2"}`)}, false},
	} {
		traj := evaluate(t, &sim.Evaluator{}, task, emobench.TerminationUserStop, tt.msgs...)
		var info sim.RewardInfo
		if err := json.Unmarshal(traj.RewardInfo, &info); err != nil {
			t.Fatal(err)
		}
		if len(info.ProcedureChecks) != 1 || info.ProcedureChecks[0].Met != tt.met || info.ProcedureChecks[0].Gates {
			t.Errorf("%s: procedure %+v, want met %v, not gating", tt.name, info.ProcedureChecks, tt.met)
		}
		if _, ok := info.RewardBreakdown[emobench.CheckProcedure]; ok {
			t.Errorf("%s: breakdown %v has PROCEDURE, which only gating checks decide", tt.name, info.RewardBreakdown)
		}
	}
}

// The oracle gives the advice when due, right before the transfer or in
// its opening, and passes end to end with the scripted user.
func TestOracle_GivesAdvice(t *testing.T) {
	t.Parallel()
	before := toyChestPainTask()
	anywhere := toyChestPainTask()
	anywhere.ID, anywhere.Advice[0].Before = "toy-test-advice-anywhere", ""
	for _, task := range []emobench.TaskSpec{before, anywhere} {
		task.Scenario.Requests[0].Tools = []string{"transfer_to_human_agents"}
		for _, withEmotions := range []bool{true, false} {
			traj, err := sim.RunEpisode(context.Background(), sim.EpisodeConfig{
				Domain: toyDomain{}, Task: &task, Agent: sim.Oracle{}, User: sim.ScriptedUser{}, WithEmotions: withEmotions, Seed: 1,
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := statuses(t, traj); !traj.Passed() || !strings.Contains(got, "PROCEDURE:passed") || traj.TerminationReason != emobench.TerminationTransfer {
				t.Errorf("%s (emotions %v): reward %s, %s, %s\n%s", task.ID, withEmotions, rewardOf(traj), got, traj.TerminationReason, transcript(traj))
			}
		}
	}
}

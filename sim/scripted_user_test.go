package sim_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// userReply returns the scripted user's reply after msgs, on the toy task
// with the angry skeptic's profile.
func userReply(t *testing.T, user sim.ScriptedUser, withEmotions bool, msgs ...emobench.Message) string {
	t.Helper()
	task := toyTask(angrySkeptic)
	ep := &sim.Episode{Task: &task, Tools: toyDomain{}.NewEnvironment().Tools(), Messages: msgs, WithEmotions: withEmotions, Seed: 1}
	msg, err := user.Next(context.Background(), ep)
	if err != nil {
		t.Fatal(err)
	}
	return msg.Content
}

func userSays(text string) emobench.Message {
	return emobench.Message{Role: emobench.RoleUser, Content: text}
}

func agentSays(text string) emobench.Message {
	return emobench.Message{Role: emobench.RoleAssistant, Content: text}
}

// toolCall returns an agent call and its result, paired by id.
func toolCall(id, name, args, result string) []emobench.Message {
	return []emobench.Message{
		{Role: emobench.RoleAssistant, ToolCalls: []emobench.ToolCall{{ID: id, Name: name, Arguments: json.RawMessage(args)}}},
		{Role: emobench.RoleTool, ToolCallID: id, ToolName: name, Content: result},
	}
}

// gaveFacts is the start of a toy conversation in which the user has
// given its e-mail and order id.
var gaveFacts = []emobench.Message{
	userSays("I want to cancel my order."),
	agentSays("I'm sorry to hear that, I understand. Could you give me your email and order id?"),
	userSays("My email is ana@example.com, and my order id is #W1."),
}

func TestScriptedUser_Confirmation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, ask string
		yes       bool
		want      string
	}{
		{"Matches", `I understand. I am about to run cancel_pending_order with {"order_id":"#W1"}. Do you confirm that I should proceed (yes)?`, true, "Yes"},
		{"WrongOrder", `I understand. I am about to run cancel_pending_order with {"order_id":"#W2"}. Do you confirm that I should proceed (yes)?`, false, "my order id is #W1"},
		{"ExtendedID", `I understand. Shall I cancel order #W10? Please confirm.`, false, "my order id is #W1"},
		{"Plain", `I understand. Shall I cancel order #W1 now? Please confirm.`, true, "Yes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := append(append([]emobench.Message{}, gaveFacts...), agentSays(tt.ask))
			got := userReply(t, sim.ScriptedUser{}, true, msgs...)
			if isYes := strings.Contains(got, "Yes"); isYes != tt.yes || !strings.Contains(got, tt.want) {
				t.Fatalf("reply = %q, want yes=%v and %q", got, tt.yes, tt.want)
			}
			if strings.Contains(got, sim.UnsatisfiedMarker) {
				t.Fatalf("reply = %q: a confirmation request is no reason to leave", got)
			}
		})
	}
}

func TestScriptedUser_UnrequestedWrite(t *testing.T) {
	t.Parallel()
	task := toyTask(emobench.EmotionProfile{})
	tools := append(toyDomain{}.NewEnvironment().Tools(), sim.ToolSchema{Name: "delete_account", Writes: true})
	msgs := append(append([]emobench.Message{}, gaveFacts...), agentSays("I am about to run delete_account for you. Do you confirm?"))
	ep := &sim.Episode{Task: &task, Tools: tools, Messages: msgs, Seed: 1}
	msg, err := sim.ScriptedUser{}.Next(context.Background(), ep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(msg.Content, "No") || strings.Contains(msg.Content, "Yes") {
		t.Fatalf("reply = %q, want a no to a write the user did not ask for", msg.Content)
	}
}

func TestScriptedUser_RequestDoneOnlyWithItsFacts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		order string
		done  bool
	}{{"#W1", true}, {"#W2", false}} {
		msgs := append(append([]emobench.Message{}, gaveFacts...),
			agentSays("I understand. Shall I cancel order "+tt.order+"? Please confirm."),
			userSays("Yes, go ahead."))
		msgs = append(msgs, toolCall("c1", "cancel_pending_order", `{"order_id":"`+tt.order+`"}`, `{"status":"cancelled"}`)...)
		msgs = append(msgs, agentSays("I understand. It is cancelled."))
		got := userReply(t, sim.ScriptedUser{}, false, msgs...)
		if done := strings.Contains(got, sim.StopMarker); done != tt.done {
			t.Errorf("after cancelling %s: reply %q, want stop %v", tt.order, got, tt.done)
		}
	}
}

func TestScriptedUser_CheckIsNoRepeatedQuestion(t *testing.T) {
	t.Parallel()
	for _, check := range []string{
		"I understand. I found order #W1. Is that the one you mean?",
		"I understand. Is that the one you mean?",
		"I understand. Just to check, your order id is #W1, correct?",
	} {
		msgs := append(append([]emobench.Message{}, gaveFacts...), agentSays(check))
		got := userReply(t, sim.ScriptedUser{}, true, msgs...)
		if strings.Contains(got, sim.UnsatisfiedMarker) || strings.Contains(got, "already told") {
			t.Errorf("after %q: reply %q, want an answer, not a complaint", check, got)
		}
	}
	// Asking again for the order id is a repeated question.
	msgs := append(append([]emobench.Message{}, gaveFacts...), agentSays("I understand. What is your order id?"))
	if got := userReply(t, sim.ScriptedUser{}, true, msgs...); !strings.Contains(got, sim.UnsatisfiedMarker) {
		t.Errorf("asked again for the order id: reply %q, want %s", got, sim.UnsatisfiedMarker)
	}
}

func TestScriptedUser_Abandon(t *testing.T) {
	t.Parallel()
	msgs := append(append([]emobench.Message{}, gaveFacts...), agentSays("I understand. What is your order id?"))
	for _, tt := range []struct {
		abandon      sim.UserAbandon
		withEmotions bool
		want         bool
	}{
		{"", true, true}, {"", false, false},
		{sim.AbandonAlways, false, true}, {sim.AbandonNever, true, false}, {sim.AbandonWithEmotions, false, false},
	} {
		got := userReply(t, sim.ScriptedUser{Abandon: tt.abandon}, tt.withEmotions, msgs...)
		if left := strings.Contains(got, sim.UnsatisfiedMarker); left != tt.want {
			t.Errorf("abandon %q, emotions %v: reply %q, want abandonment %v", tt.abandon, tt.withEmotions, got, tt.want)
		}
		if !tt.want && (!strings.Contains(got, "I already told you that.") || !strings.Contains(got, "#W1")) {
			t.Errorf("abandon %q, emotions %v: reply %q, want the complaint and the order id again", tt.abandon, tt.withEmotions, got)
		}
	}
}

func TestParseUserAbandon(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]sim.UserAbandon{"": sim.AbandonWithEmotions, "always": sim.AbandonAlways, "never": sim.AbandonNever, "with-emotions": sim.AbandonWithEmotions} {
		if got, err := sim.ParseUserAbandon(in); err != nil || got != want {
			t.Errorf("ParseUserAbandon(%q) = %q, %v, want %q", in, got, err, want)
		}
	}
	if _, err := sim.ParseUserAbandon("sometimes"); emobench.ErrorCode(err) != emobench.EINVALID || !strings.Contains(err.Error(), `user-abandon "sometimes"`) {
		t.Errorf("ParseUserAbandon(sometimes) error = %v, want EINVALID naming the value", err)
	}
}

func TestScriptedUserWarning(t *testing.T) {
	t.Parallel()
	if got := sim.ScriptedUserWarning("llm:gpt-4.1", "scripted"); !strings.Contains(got, "scripted user") {
		t.Errorf("llm agent with the scripted user: warning %q, want one", got)
	}
	for _, pair := range [][2]string{{"oracle", "scripted"}, {"llm:gpt-4.1", "llm:gpt-4.1"}, {"careless", "scripted"}} {
		if got := sim.ScriptedUserWarning(pair[0], pair[1]); got != "" {
			t.Errorf("%s with %s: warning %q, want none", pair[0], pair[1], got)
		}
	}
}

func TestRunEpisode_UserStops(t *testing.T) {
	t.Parallel()
	for marker, want := range map[string]emobench.TerminationReason{
		sim.TransferMarker: emobench.TerminationUserTransfer, sim.OutOfScopeMarker: emobench.TerminationUserOutOfScope,
		sim.StopMarker: emobench.TerminationUserStop, sim.UnsatisfiedMarker: emobench.TerminationUserUnsatisfied,
	} {
		task := toyTask(emobench.EmotionProfile{})
		traj, err := sim.RunEpisode(context.Background(), sim.EpisodeConfig{
			Domain: toyDomain{}, Task: &task, Agent: sim.Nothing{}, User: stopUser{marker}, Seed: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		if traj.TerminationReason != want {
			t.Errorf("user sent %s: termination %s, want %s", marker, traj.TerminationReason, want)
		}
	}
}

// stopUser asks once, then ends with its marker.
type stopUser struct{ marker string }

func (u stopUser) Next(_ context.Context, ep *sim.Episode) (emobench.Message, error) {
	if len(ep.Messages) == 0 {
		return userSays("I want to cancel my order."), nil
	}
	return userSays(u.marker), nil
}

// TestScriptedUser_NearMissArgumentIsNotDone: a write whose argument
// nearly matches one of the user's facts (a full address, compared field by
// field) does not complete the request: the user says what is wrong and
// asks again, and does not stop.
func TestScriptedUser_NearMissArgumentIsNotDone(t *testing.T) {
	t.Parallel()
	const address = "56 River Street, Providence, RI 02923, USA"
	task := emobench.TaskSpec{
		ID: "toy-test-address", Domain: "toy", Split: emobench.SplitTest,
		Scenario: emobench.Scenario{
			Facts:    map[string]string{"new_address": address, "zip": "97284", "new_payment_method": "paypal"},
			Requests: []emobench.Request{{Text: "Change my account's address to " + address + ".", Tools: []string{"modify_user_address"}}},
		},
	}
	tools := []sim.ToolSchema{{Name: "modify_user_address", Writes: true}}
	args := func(address1, city, zip string) string {
		return `{"address1":"` + address1 + `","address2":"","city":"` + city + `","country":"USA","state":"RI","user_id":"hana_3982","zip":"` + zip + `"}`
	}
	for _, tt := range []struct {
		name, args string
		done       bool
		wrong      string // the value the user objects to
	}{
		{"Exact", args("56 River Street", "Providence", "02923"), true, ""},
		{"ExtendedAddress1", args("56 River Street0", "Providence", "02923"), false, "56 River Street0"},
		{"TruncatedZip", args("56 River Street", "Providence", "0292"), false, "0292"},
		{"CityCase", args("56 River Street", "providence", "02923"), false, "providence"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msgs := []emobench.Message{
				userSays("Hi. " + task.Scenario.Requests[0].Text),
				agentSays("I am about to run modify_user_address with " + args("56 River Street", "Providence", "02923") + ". Do you confirm that I should proceed (yes)?"),
				userSays("Yes, go ahead."),
			}
			msgs = append(msgs, toolCall("c1", "modify_user_address", tt.args, `{"user_id":"hana_3982"}`)...)
			msgs = append(msgs, agentSays("All done. Is there anything else I can help you with?"))
			ep := &sim.Episode{Task: &task, Tools: tools, Messages: msgs, Seed: 1}
			msg, err := sim.ScriptedUser{}.Next(context.Background(), ep)
			if err != nil {
				t.Fatal(err)
			}
			got := msg.Content
			if done := strings.Contains(got, sim.StopMarker); done != tt.done {
				t.Fatalf("reply = %q, want stop %v", got, tt.done)
			}
			if tt.done {
				return
			}
			want := `No, that's not right: you put "` + tt.wrong + `", but my new address is ` + address + `. Change my account's address to ` + address + `.`
			if got != want {
				t.Fatalf("reply = %q, want %q", got, want)
			}
		})
	}
}

package sim_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

func TestNothing_NeverCallsATool(t *testing.T) {
	t.Parallel()
	for _, withEmotions := range []bool{true, false} {
		traj := runToy(t, sim.Nothing{}, angrySkeptic, withEmotions, 1)
		if got := traj.Counts().ToolCalls; got != 0 {
			t.Fatalf("emotions %v: %d tool calls, want 0", withEmotions, got)
		}
		if traj.Passed() {
			t.Fatalf("emotions %v: nothing passed the toy task (%s)\n%s", withEmotions, traj.TerminationReason, transcript(traj))
		}
	}
}

func TestCareless_DoesTheTaskWithoutConfirming(t *testing.T) {
	t.Parallel()
	traj := runToy(t, sim.Careless{}, emobench.EmotionProfile{}, false, 1)
	if !traj.Passed() {
		t.Fatalf("careless failed the toy task: %s\n%s", traj.TerminationReason, transcript(traj))
	}
	for _, m := range traj.Messages {
		if m.Role == emobench.RoleAssistant && (m.Content != "" && (strings.Contains(m.Content, "confirm") || strings.Contains(m.Content, "proceed"))) {
			t.Fatalf("careless asked for confirmation: %q", m.Content)
		}
	}
	// A skeptical user leaves when it writes without asking.
	if traj := runToy(t, sim.Careless{}, angrySkeptic, true, 1); traj.TerminationReason != emobench.TerminationUserUnsatisfied {
		t.Fatalf("careless with a skeptic: %s, want user_unsatisfied\n%s", traj.TerminationReason, transcript(traj))
	}
}

// refusalTask: the user asks to cancel the delivered order #W2, which the
// policy refuses; the gold calls only look the user up.
func refusalTask() emobench.TaskSpec {
	task := toyTask(emobench.EmotionProfile{})
	task.Scenario = emobench.Scenario{
		Facts:    map[string]string{"email": "ana@example.com", "order_id": "#W2"},
		Requests: []emobench.Request{{Text: "Cancel my order #W2.", Tools: []string{"find_user_id_by_email"}}},
	}
	task.Actions = task.Actions[:1]
	task.Outputs = nil
	return task
}

func TestCareless_ActsOnARefusal(t *testing.T) {
	t.Parallel()
	task := refusalTask()
	ep := &sim.Episode{Task: &task, Tools: toyDomain{}.NewEnvironment().Tools(), Seed: 1}
	var calls []emobench.ToolCall
	for i := 0; i < 5; i++ {
		msg, err := sim.Careless{}.Next(context.Background(), ep)
		if err != nil {
			t.Fatal(err)
		}
		msg.Role = emobench.RoleAssistant
		ep.Messages = append(ep.Messages, msg)
		calls = append(calls, msg.ToolCalls...)
	}
	if len(calls) != 2 || calls[1].Name != "cancel_pending_order" {
		t.Fatalf("calls = %+v, want the gold lookup, then cancel_pending_order", calls)
	}
	var args map[string]any
	if err := json.Unmarshal(calls[1].Arguments, &args); err != nil || args["order_id"] != "#W2" {
		t.Fatalf("cancel arguments = %s, want order_id #W2 from the user's facts", calls[1].Arguments)
	}
}

// TestCareless_InfersTheWrite: the request's first word picks the write
// tool, by name or by description; enum arguments take the value closest
// to the facts.
func TestCareless_InfersTheWrite(t *testing.T) {
	t.Parallel()
	tools := []sim.ToolSchema{
		{Name: "get_reservation_details", Parameters: json.RawMessage(`{"type":"object","properties":{"reservation_id":{"type":"string"}}}`)},
		{Name: "cancel_reservation", Writes: true, Description: "Cancel a whole reservation.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"reservation_id":{"type":"string"},"reason":{"type":"string","enum":["other","change_of_plan","weather"]}}}`)},
		{Name: "send_certificate", Writes: true, Description: "Send a travel certificate as compensation for a delayed flight.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"reservation_id":{"type":"string"},"amount":{"type":"number"}}}`)},
	}
	for _, tt := range []struct {
		request, tool, args string
	}{
		{"Cancel reservation ABC123 and refund it.", "cancel_reservation", `{"reason":"change_of_plan","reservation_id":"ABC123"}`},
		{"Compensate me for flight LK1.", "send_certificate", `{"amount":120,"reservation_id":"ABC123"}`},
	} {
		task := emobench.TaskSpec{
			ID: "t", Scenario: emobench.Scenario{
				Facts:    map[string]string{"reservation_id": "ABC123", "reason": "my plans changed"},
				Requests: []emobench.Request{{Text: tt.request, Tools: []string{"get_reservation_details"}}},
			},
			Actions: []emobench.Action{{Name: "get_reservation_details", Arguments: json.RawMessage(`{"reservation_id":"ABC123"}`)}},
		}
		ep := &sim.Episode{Task: &task, Tools: tools, Seed: 1, Messages: []emobench.Message{
			{Role: emobench.RoleUser, Content: tt.request},
			{Role: emobench.RoleAssistant, Content: "I can help with that."},
			{Role: emobench.RoleAssistant, ToolCalls: []emobench.ToolCall{{ID: "c1", Name: "get_reservation_details", Arguments: task.Actions[0].Arguments}}},
			{Role: emobench.RoleTool, ToolCallID: "c1", ToolName: "get_reservation_details", Content: `{"reservation_id":"ABC123","payment_history":[{"payment_id":"credit_card_1","amount":120}]}`},
		}}
		msg, err := sim.Careless{}.Next(context.Background(), ep)
		if err != nil {
			t.Fatal(err)
		}
		if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Name != tt.tool || string(msg.ToolCalls[0].Arguments) != tt.args {
			t.Errorf("%q: message %+v, want %s %s", tt.request, msg, tt.tool, tt.args)
		}
	}
}

// TestCareless_LooksUpIDs: ids the user never gave are read off earlier
// tool results, by the words of the user's facts about the thing.
func TestCareless_LooksUpIDs(t *testing.T) {
	t.Parallel()
	tools := []sim.ToolSchema{
		{Name: "get_order_details"},
		{Name: "return_items", Writes: true, Description: "Return items of a delivered order.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string"},"item_ids":{"type":"array","items":{"type":"string"}},"payment_method_id":{"type":"string"}}}`)},
	}
	request := "Return the desk lamp from order #W2 and refund it to my gift card."
	task := emobench.TaskSpec{
		ID: "t", Scenario: emobench.Scenario{
			Facts:    map[string]string{"order_id": "#W2", "item_name": "desk lamp", "payment_method": "gift card"},
			Requests: []emobench.Request{{Text: request, Tools: []string{"get_order_details"}}},
		},
		Actions: []emobench.Action{{Name: "get_order_details", Arguments: json.RawMessage(`{"order_id":"#W2"}`)}},
	}
	ep := &sim.Episode{Task: &task, Tools: tools, Seed: 1, Messages: []emobench.Message{
		{Role: emobench.RoleUser, Content: request},
		{Role: emobench.RoleAssistant, Content: "I can help with that."},
		{Role: emobench.RoleAssistant, ToolCalls: []emobench.ToolCall{{ID: "c1", Name: "get_order_details", Arguments: task.Actions[0].Arguments}}},
		{Role: emobench.RoleTool, ToolCallID: "c1", ToolName: "get_order_details", Content: `{"order_id":"#W2",` +
			`"items":[{"name":"desk lamp","item_id":"111"},{"name":"desk","item_id":"222"},{"name":"floor lamp","item_id":"333"}],` +
			`"payment_methods":{"credit_card_1":{"id":"credit_card_1","source":"credit_card"},"gift_card_9":{"id":"gift_card_9","source":"gift_card"}}}`},
	}}
	msg, err := sim.Careless{}.Next(context.Background(), ep)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"item_ids":["111"],"order_id":"#W2","payment_method_id":"gift_card_9"}`
	if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Name != "return_items" || string(msg.ToolCalls[0].Arguments) != want {
		t.Fatalf("message %+v, want return_items %s", msg, want)
	}
}

// TestValidityAgents_Deterministic: the same seed gives the same
// transcript, and without abandonment nothing runs to the step cap.
func TestValidityAgents_Deterministic(t *testing.T) {
	t.Parallel()
	for _, agent := range []sim.Agent{sim.Nothing{}, sim.Careless{}} {
		a := transcript(runToy(t, agent, angrySkeptic, true, 5))
		if b := transcript(runToy(t, agent, angrySkeptic, true, 5)); a != b {
			t.Fatalf("%T: same seed, different transcripts:\n%s\n---\n%s", agent, a, b)
		}
	}
	task := toyTask(angrySkeptic)
	traj, err := sim.RunEpisode(context.Background(), sim.EpisodeConfig{
		Domain: toyDomain{}, Task: &task, Agent: sim.Nothing{}, User: sim.ScriptedUser{Abandon: sim.AbandonNever},
		WithEmotions: true, Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if traj.TerminationReason != emobench.TerminationMaxSteps || strings.Contains(transcript(traj), sim.UnsatisfiedMarker) {
		t.Fatalf("nothing with a user who never abandons: %s, want max_steps and no %s", traj.TerminationReason, sim.UnsatisfiedMarker)
	}
}

package tracer

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/emobench/emobench"
)

// cancelTask is a retail-like task: the user knows name, zip, order id and
// reason; the gold actions use all four.
func cancelTask(t *testing.T) emobench.Task {
	t.Helper()
	spec := emobench.TaskSpec{
		ID: "cancel", Domain: "retail", Split: emobench.SplitTest, Instruction: "cancel",
		Scenario: emobench.Scenario{
			Facts:    map[string]string{"first_name": "Hiro", "last_name": "Achebe", "zip": "97278", "order_id": "#R4246633", "reason": "ordered by mistake", "payment_method": "paypal", "item_name": "smart thermostat"},
			Requests: []emobench.Request{{Text: "Cancel order #R4246633.", Tools: []string{"cancel_pending_order"}}},
		},
		Actions: []emobench.Action{
			{Name: "find_user_id_by_name_zip", Arguments: json.RawMessage(`{"first_name":"Hiro","last_name":"Achebe","zip":"97278"}`)},
			{Name: "get_order_details", Arguments: json.RawMessage(`{"order_id":"#R4246633"}`)},
			{Name: "cancel_pending_order", Arguments: json.RawMessage(`{"order_id":"#R4246633","reason":"ordered by mistake","payment_method_id":"paypal_2497361","item_ids":["7923139928"]}`)},
		},
	}
	return spec.Task()
}

func user(text string) emobench.Message {
	return emobench.Message{Role: emobench.RoleUser, Content: text}
}
func agent(text string) emobench.Message {
	return emobench.Message{Role: emobench.RoleAssistant, Content: text}
}
func call(name, args string) emobench.Message {
	return emobench.Message{Role: emobench.RoleAssistant, ToolCalls: []emobench.ToolCall{{ID: name, Name: name, Arguments: json.RawMessage(args)}}}
}
func result(name, text string) emobench.Message {
	return emobench.Message{Role: emobench.RoleTool, ToolName: name, ToolCallID: name, Content: text}
}

func TestUsedFacts(t *testing.T) {
	task := cancelTask(t)
	var scenario emobench.Scenario
	var actions []emobench.Action
	if err := json.Unmarshal(task.Scenario, &scenario); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(task.Actions, &actions); err != nil {
		t.Fatal(err)
	}
	// item_name is addressed by its id: not used; payment_method "paypal"
	// extends to paypal_2497361.
	want := []string{"first_name", "last_name", "order_id", "payment_method", "reason", "zip"}
	if got := UsedFacts(scenario.Facts, actions); !slices.Equal(got, want) {
		t.Fatalf("UsedFacts = %v, want %v", got, want)
	}
	wordy := map[string]string{"payment": "my gift card (gift_card_9676094)", "short": "ab"}
	got := UsedFacts(wordy, []emobench.Action{{Name: "pay", Arguments: json.RawMessage(`{"id":"gift_card_9676094","x":"ab_c"}`)}})
	if want := []string{"payment", "short"}; !slices.Equal(got, want) {
		t.Fatalf("UsedFacts(words) = %v, want %v", got, want)
	}
}

func TestDependence(t *testing.T) {
	task := cancelTask(t)
	traj := &emobench.Trajectory{Task: task, Messages: []emobench.Message{
		user("Hi. Cancel order #R4246633, my first name is Hiro."), // gives first name and order id
		agent("Sure. What is your last name and zip?"),             // question 1: asks new facts
		user("My last name is Achebe, and my zip is 97278."),
		call("find_user_id_by_name_zip", `{"first_name":"Hiro","last_name":"Achebe","zip":"97278"}`),
		result("find_user_id_by_name_zip", "u_1"),
		call("get_user_details", `{"user_id":"u_1"}`),
		result("get_user_details", `{"payment_methods":{"paypal_2497361":{"source":"PayPal"}}}`),
		agent("What is your order id?"),                 // question 2: already answered (turn 1)
		agent("Which payment method should we refund?"), // question 3: the tool result holds paypal
		call("get_order_details", `{"order_id":"#R4246633"}`),
		result("get_order_details", "Error: order not found"),
		agent("Your order #R4246633 is pending. Shall I cancel it? Please confirm."), // question 4: a confirmation, asks no fact
		user("Yes, go ahead."),
		call("cancel_pending_order", `{}`),
		result("cancel_pending_order", "ok"),
		agent("Done."), // no question
	}}
	d, ok, err := Dependence(traj)
	if err != nil || !ok {
		t.Fatalf("Dependence: ok %v, err %v", ok, err)
	}
	if got, want := len(d.NeededFacts), 6; got != want {
		t.Fatalf("needed facts = %v, want %d", d.NeededFacts, want)
	}
	if got, want := d.UserTurns, 3; got != want {
		t.Fatalf("user turns = %d, want %d", got, want)
	}
	if got, want := d.UserTurnsPerFact, 3.0/6; got != want {
		t.Fatalf("user turns per fact = %v, want %v", got, want)
	}
	if got, want := d.FollowUpQuestions, 4; got != want {
		t.Fatalf("follow-up questions = %d, want %d", got, want)
	}
	if got, want := d.QuestionsAlreadyAnswered, 1; got != want {
		t.Fatalf("questions already answered = %d, want %d", got, want)
	}
	if got, want := d.QuestionsToolFindable, 1; got != want {
		t.Fatalf("questions tool-findable = %d, want %d", got, want)
	}
	if got, want := d.ToolCalls, 4; got != want {
		t.Fatalf("tool calls = %d, want %d", got, want)
	}
	if got, want := d.ToolCallShare, 4.0/8; math.Abs(got-want) > 1e-12 {
		t.Fatalf("tool-call share = %v, want %v", got, want)
	}
}

func TestDependence_FindableLater(t *testing.T) {
	// The question comes before the read that finds the value: findable
	// all the same. An error result finds nothing.
	traj := &emobench.Trajectory{Task: cancelTask(t), Messages: []emobench.Message{
		user("Cancel my order."),
		agent("What is the reason?"),
		agent("What is your zip?"),
		call("get_user_details", `{}`),
		result("get_user_details", "Error: zip 97278 unknown"),
		call("get_order_details", `{}`),
		result("get_order_details", `{"note":"Ordered by mistake"}`),
	}}
	d, _, err := Dependence(traj)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.QuestionsToolFindable, 1; got != want {
		t.Fatalf("questions tool-findable = %d, want %d", got, want)
	}
	if got, want := d.QuestionsAlreadyAnswered, 0; got != want {
		t.Fatalf("questions already answered = %d, want %d", got, want)
	}
	if got, want := d.ToolCallShare, 2.0/4; got != want {
		t.Fatalf("tool-call share = %v, want %v", got, want)
	}
}

func TestDependence_Unknown(t *testing.T) {
	traj := &emobench.Trajectory{Task: emobench.Task{Key: "7", Actions: json.RawMessage(`[]`)}, Messages: []emobench.Message{user("hi")}}
	if _, ok, err := Dependence(traj); ok || err != nil {
		t.Fatalf("no scenario: ok %v, err %v; want unknown, no error", ok, err)
	}
	traj.Task.Scenario = json.RawMessage(`{"facts": 3}`)
	if _, _, err := Dependence(traj); err == nil {
		t.Fatal("malformed scenario: no error")
	}
}

func TestDependence_NoFactsNoTurns(t *testing.T) {
	spec := emobench.TaskSpec{ID: "x", Scenario: emobench.Scenario{Requests: []emobench.Request{{Text: "hi"}}}}
	d, ok, err := Dependence(&emobench.Trajectory{Task: spec.Task(), Messages: []emobench.Message{user("hi"), user("still there?")}})
	if err != nil || !ok {
		t.Fatalf("ok %v, err %v", ok, err)
	}
	// No needed fact: the denominator is 1. No call, no question: share 0.
	if d.UserTurnsPerFact != 2 || d.ToolCallShare != 0 {
		t.Fatalf("per fact %v, share %v; want 2, 0", d.UserTurnsPerFact, d.ToolCallShare)
	}
}

// BenchmarkDependence measures the user dependence of transcripts of
// growing length (seeded by construction: the same messages every run).
func BenchmarkDependence(b *testing.B) {
	for _, turns := range []int{10, 100} {
		b.Run(fmt.Sprintf("turns=%d", turns), func(b *testing.B) {
			spec := emobench.TaskSpec{ID: "b", Scenario: emobench.Scenario{
				Facts:    map[string]string{"order_id": "#W1", "zip": "12345", "email": "a@b.c"},
				Requests: []emobench.Request{{Text: "x"}}},
				Actions: []emobench.Action{{Name: "get_order_details", Arguments: json.RawMessage(`{"order_id":"#W1"}`)}}}
			traj := &emobench.Trajectory{Task: spec.Task()}
			for i := 0; i < turns; i++ {
				traj.Messages = append(traj.Messages, user("my zip is 12345"), agent("What is your order id?"),
					call("get_order_details", `{"order_id":"#W1"}`), result("get_order_details", `{"order_id":"#W1","status":"pending"}`))
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, _, err := Dependence(traj); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "trajectories/s")
		})
	}
}

// FuzzDependence: any scenario, actions and message texts give an error or
// metrics in range, never a panic.
func FuzzDependence(f *testing.F) {
	f.Add(`{"facts":{"order_id":"#W1"},"requests":[{"text":"x"}]}`, `[{"name":"a","kwargs":{"order_id":"#W1"}}]`, "What is your order id?", "#W1")
	f.Add(`{"facts":{"":""}}`, `[{"name":"a","kwargs":[1,{"x":["y"]}]}]`, "confirm? your  id?", "Error")
	f.Add(`null`, `{}`, "?", "")
	f.Fuzz(func(t *testing.T, scenario, actions, question, answer string) {
		traj := &emobench.Trajectory{Task: emobench.Task{Key: "f", Scenario: json.RawMessage(scenario), Actions: json.RawMessage(actions)}, Messages: []emobench.Message{
			user(answer), agent(question), call("t", `{}`), result("t", answer), agent(question),
		}}
		d, ok, err := Dependence(traj)
		if err != nil || !ok {
			return
		}
		if d.ToolCallShare < 0 || d.ToolCallShare > 1 || d.UserTurnsPerFact < 0 || d.QuestionsAlreadyAnswered > d.FollowUpQuestions || d.QuestionsToolFindable > d.FollowUpQuestions {
			t.Fatalf("metrics out of range: %+v", d)
		}
	})
}

package sim

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/emobench/emobench"
)

// callsTranscript is a transcript whose calls pair every way succeededCalls
// knows: by id, without one (the earliest unanswered call of the tool),
// with an error result, with malformed arguments, with an id reused and
// with arguments that contradict the user's facts; the agent's replies
// between them let patience run out and come back.
func callsTranscript() []emobench.Message {
	call := func(id, name, args string) emobench.ToolCall {
		return emobench.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)}
	}
	result := func(id, name, content string) emobench.Message {
		return emobench.Message{Role: emobench.RoleTool, ToolCallID: id, ToolName: name, Content: content}
	}
	agent := func(text string) emobench.Message {
		return emobench.Message{Role: emobench.RoleAssistant, Content: text}
	}
	user := func(text string) emobench.Message { return emobench.Message{Role: emobench.RoleUser, Content: text} }
	calls := func(c ...emobench.ToolCall) emobench.Message {
		return emobench.Message{Role: emobench.RoleAssistant, ToolCalls: c}
	}
	malformed := call("m1", "get_order", `"{not json"`)
	malformed.ArgumentsMalformed = true
	return []emobench.Message{
		user("I want two lookups and a cancellation."),
		agent("Could you give me your order id?"),
		user("My order id is #W1."),
		calls(call("", "get_order", `{"order_id":"#W1"}`), call("", "get_order", `{"order_id":"#W2"}`)),
		result("", "get_order", `{"id":"#W1"}`),
		agent("One moment."),
		agent("Still looking."),
		result("", "get_order", "Error: no such order"),
		calls(malformed),
		result("m1", "get_order", `{}`),
		agent("Let me try again."),
		agent("Nearly there."),
		agent("Bear with me."),
		calls(call("c1", "get_order", `{"order_id":"#W9"}`)), // an id of the user's shape that is not theirs
		result("c1", "get_order", `{"id":"#W9"}`),
		agent("Found another order."),
		calls(call("c2", "get_order", `{"order_id":"#W1"}`), call("c2", "cancel_order", `{"order_id":"#W1","reason":"no longer needed"}`)),
		result("c2", "cancel_order", `{"status":"cancelled"}`),
		result("c2", "get_order", `{"id":"#W1"}`),
		agent("Is there anything else?"),
		agent("Hello?"),
		agent("Are you there?"),
		agent("Anything else?"),
	}
}

// The calls succeededCalls finds in a prefix of a transcript are a prefix
// of those it finds in the whole, each at the message of its result: what
// lets stalled count requests up message by message.
func TestSucceededCalls_PrefixOfWhole(t *testing.T) {
	msgs := callsTranscript()
	whole := succeededCalls(msgs)
	if len(whole) < 3 {
		t.Fatalf("%d succeeded calls, want the transcript to have at least 3", len(whole))
	}
	for i := range msgs {
		var want []checkedCall
		for _, c := range whole {
			if c.at <= i {
				want = append(want, c)
			}
		}
		if got := succeededCalls(msgs[:i+1]); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("after message %d: %v, want %v", i, got, want)
		}
	}
}

// stalled, counting up, agrees at every turn with its definition:
// doneRequests over each prefix of the transcript checked anew.
func TestStalled_SameAsEveryPrefix(t *testing.T) {
	msgs := callsTranscript()
	task := emobench.TaskSpec{
		ID: "toy-stalled", Domain: "toy", Split: emobench.SplitTest,
		Emotion: emobench.EmotionProfile{Family: "anger", Leaf: "rage", Urgency: "high", Trust: "skeptical"},
		Scenario: emobench.Scenario{
			Facts: map[string]string{"order_id": "#W1", "email": "ana@example.com"},
			Requests: []emobench.Request{
				{Text: "Look up my order.", Tools: []string{"get_order"}},
				{Text: "Look it up again.", Tools: []string{"get_order"}},
				{Text: "Cancel it.", Tools: []string{"cancel_order", "get_order"}},
			},
		},
	}
	byPrefix := func(s *userState) bool {
		since, done := 0, 0
		for i, m := range s.ep.Messages {
			if m.Role == emobench.RoleAssistant && len(m.ToolCalls) == 0 {
				since++
			}
			if d := doneRequests(s.ep, checkCalls(s.ep.Messages[:i+1], s.facts)); d > done {
				done, since = d, 0
			}
		}
		return since > s.patience()
	}
	changes := 0
	last := false
	for i := range msgs {
		ep := &Episode{Task: &task, Messages: msgs[:i+1], WithEmotions: true, Seed: 1}
		s := newUserState(ep)
		got, want := s.stalled(), byPrefix(s)
		if got != want {
			t.Errorf("after message %d: stalled %v, want %v", i, got, want)
		}
		if got != last {
			changes++
			last = got
		}
	}
	if changes < 2 {
		t.Errorf("stalled changed %d times over the transcript, want it to run out and come back", changes)
	}
}

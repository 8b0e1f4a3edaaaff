package sim_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// toyCalls is an agent message of calls and the tool messages answering
// them, each call's result given.
func toyCalls(calls []emobench.ToolCall, results ...string) []emobench.Message {
	msgs := []emobench.Message{{Role: emobench.RoleAssistant, ToolCalls: calls}}
	for i, r := range results {
		msgs = append(msgs, emobench.Message{Role: emobench.RoleTool, Content: r, ToolName: calls[i].Name, ToolCallID: calls[i].ID})
	}
	return msgs
}

func TestReplayTranscript(t *testing.T) {
	t.Parallel()
	dom := toyDomain{}
	find := emobench.ToolCall{ID: "a", Name: "find_user_id_by_email", Arguments: json.RawMessage(`{"email":"ana@example.com"}`)}
	cancel := emobench.ToolCall{ID: "b", Name: "cancel_pending_order", Arguments: json.RawMessage(`{"order_id":"#W1"}`)}
	again := emobench.ToolCall{ID: "c", Name: "cancel_pending_order", Arguments: json.RawMessage(`{"order_id":"#W1"}`)}
	t.Run("OK", func(t *testing.T) {
		// Results answered out of order, by call id; JSON with other
		// spacing and key order; an error result as the orchestrator
		// writes it.
		msgs := toyCalls([]emobench.ToolCall{find, cancel, again},
			"", "", "")
		msgs[1] = emobench.Message{Role: emobench.RoleTool, Content: `{"refund":"1,234.50","status":"cancelled"}`, ToolCallID: "b"}
		msgs[2] = emobench.Message{Role: emobench.RoleTool, Content: "ana_1", ToolCallID: "a"}
		msgs[3] = emobench.Message{Role: emobench.RoleTool, Content: "Error: order #W1 is cancelled, not pending", ToolCallID: "c"}
		r, err := sim.ReplayTranscript(dom, msgs)
		if err != nil {
			t.Fatal(err)
		}
		if r.Calls != 3 || len(r.Mismatches) != 0 {
			t.Errorf("calls %d, mismatches %+v; want 3 and none", r.Calls, r.Mismatches)
		}
		if r.FinalHash == dom.NewEnvironment().Hash() {
			t.Error("the cancellation left the state unchanged")
		}
	})
	t.Run("Mismatch", func(t *testing.T) {
		r, err := sim.ReplayTranscript(dom, toyCalls([]emobench.ToolCall{find, cancel}, "bob_2"))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Mismatches) != 2 {
			t.Fatalf("mismatches %+v, want the changed result and the missing one", r.Mismatches)
		}
		if m := r.Mismatches[0]; m.Call != 0 || m.Recorded != "bob_2" || m.Replayed != "ana_1" || m.Missing {
			t.Errorf("first mismatch %+v", m)
		}
		if m := r.Mismatches[1]; m.Call != 1 || !m.Missing {
			t.Errorf("second mismatch %+v, want the missing result", m)
		}
	})
	t.Run("ErrUnknownTool", func(t *testing.T) {
		teleport := emobench.ToolCall{ID: "t", Name: "teleport", Arguments: json.RawMessage(`{}`)}
		_, err := sim.ReplayTranscript(dom, toyCalls([]emobench.ToolCall{find, teleport}, "ana_1", "done"))
		var re *sim.ReplayError
		if !errors.As(err, &re) || re.Call != 1 || re.Name != "teleport" {
			t.Fatalf("error %v, want a *ReplayError at call 1", err)
		}
		// The harness that recorded it refused it too: it replays as that refusal.
		r, err := sim.ReplayTranscript(dom, toyCalls([]emobench.ToolCall{teleport}, `Error: unknown tool "teleport"`))
		if err != nil || len(r.Mismatches) != 0 {
			t.Errorf("a refused unknown tool: error %v, mismatches %+v", err, r.Mismatches)
		}
	})
	t.Run("ErrMalformedArguments", func(t *testing.T) {
		bad := emobench.ToolCall{ID: "m", Name: "cancel_pending_order", Arguments: json.RawMessage(`"{order"`), ArgumentsMalformed: true}
		var re *sim.ReplayError
		if _, err := sim.ReplayTranscript(dom, toyCalls([]emobench.ToolCall{bad}, "cancelled")); !errors.As(err, &re) {
			t.Errorf("malformed arguments answered as run: error %v, want a *ReplayError", err)
		}
	})
}

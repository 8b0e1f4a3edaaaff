package sft_test

import (
	"encoding/json"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer/sft"
)

// fixtureTools are small tools whose schemas exercise the template's
// tojson: HTML characters, non-ASCII text, U+2028, floats and a large
// number, and a tool without parameters.
var fixtureTools = []sim.ToolSchema{
	{Name: "lookup_order", Description: "Look up an order <by id> & return it — “as is”.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string","description":"Such as '#R1'.\u2028Include the '#'."}},"required":["order_id"],"additionalProperties":false}`)},
	{Name: "refund", Description: "Refund part of an order.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string"},"amount":{"type":"number","minimum":0.50,"maximum":1e21,"default":100.0},"items":{"type":"array","items":{"type":"integer"}}},"required":["order_id","amount"],"additionalProperties":false}`)},
	{Name: "list_regions", Description: "List the regions."},
}

func call(id, name, args string) emobench.ToolCall {
	return emobench.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)}
}

func user(s string) emobench.Message { return emobench.Message{Role: emobench.RoleUser, Content: s} }
func agent(s string, calls ...emobench.ToolCall) emobench.Message {
	return emobench.Message{Role: emobench.RoleAssistant, Content: s, ToolCalls: calls}
}
func result(id, name, s string) emobench.Message {
	return emobench.Message{Role: emobench.RoleTool, ToolCallID: id, ToolName: name, Content: s}
}

const fixturePolicy = "# Shop policy\n\nConfirm every refund with the user first.\n"

// fixtureRecords are the golden tests' records: a plain lookup, parallel
// calls with a tool error and text beside calls ending on a tool result,
// and reasoning in assistant turns.
func fixtureRecords() []*sft.Record {
	return []*sft.Record{
		sft.NewRecord(1, "shop", "anger", fixturePolicy, fixtureTools, []emobench.Message{
			{Role: emobench.RoleSystem, Content: "stored prompt, dropped"},
			user("Hi, where is my order #R1? I'm furious."),
			agent("I'm sorry. Let me look at order #R1 <now> & check."),
			user("Fine."),
			agent("", call("call_a", "lookup_order", `{ "order_id": "#R1" }`)),
			result("call_a", "lookup_order", `{"order_id":"#R1","status":"delivered","note":"é\u2028ok"}`),
			agent("Order #R1 was delivered yesterday."),
			user("Thanks. ###STOP###"),
		}),
		sft.NewRecord(2, "shop", "fear", fixturePolicy, fixtureTools, []emobench.Message{
			user("I need a refund of 12.5 for #R2 and #R3, please hurry."),
			agent("Checking both orders.", call("", "lookup_order", `{"order_id":"#R2"}`), call("", "lookup_order", `{"order_id":"#R3"}`)),
			result("", "", `{"order_id":"#R2","status":"delivered"}`),
			result("", "", "Error: order #R3 not found"),
			agent("#R3 does not exist. Shall I refund 12.5 on #R2?"),
			user("Yes."),
			agent("", call("call_r", "refund", `{"order_id":"#R2","amount":12.5,"items":[1,2]}`), call("call_l", "list_regions", ``)),
			result("call_r", "refund", "refunded 12.5"),
			result("call_l", "list_regions", `["eu","us"]`),
		}),
		sft.NewRecord(3, "shop", "", fixturePolicy, fixtureTools, []emobench.Message{
			user("Which regions do you ship to?"),
			agent("<think>\nThe user asks about regions.\n</think>\n\n", call("call_x", "list_regions", `{}`)),
			result("call_x", "list_regions", `["eu","us"]`),
			agent("<think>\nTwo regions.\n</think>\n\nWe ship to the EU and the US."),
		}),
	}
}

package sim_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// toyState is a tiny shop for engine tests: users by email, orders by id.
type toyState struct {
	Users  map[string]string `json:"users"`  // email → user id
	Orders map[string]string `json:"orders"` // order id → status
}

type toyDomain struct{ tasks []emobench.TaskSpec }

func (toyDomain) Name() string         { return "toy" }
func (toyDomain) Policy() string       { return "# Toy policy\nAuthenticate, confirm before writes." }
func (toyDomain) TransferTool() string { return "transfer_to_human_agents" }
func (d toyDomain) Tasks() []emobench.TaskSpec {
	return d.tasks
}

func (toyDomain) NewEnvironment() sim.Environment {
	state := &toyState{
		Users:  map[string]string{"ana@example.com": "ana_1"},
		Orders: map[string]string{"#W1": "pending", "#W2": "delivered"},
	}
	return sim.NewStateEnv(state, toyTools)
}

var toyTools = []sim.Tool[toyState]{
	{
		ToolSchema: sim.ToolSchema{Name: "find_user_id_by_email", Description: "Find a user id by email.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"email":{"type":"string"}},"required":["email"]}`)},
		Call: func(s *toyState, args json.RawMessage) (string, error) {
			var a struct{ Email string }
			if err := sim.DecodeArgs(args, &a, "email"); err != nil {
				return "", err
			}
			id, ok := s.Users[a.Email]
			if !ok {
				return "", errors.New("user not found")
			}
			return id, nil
		},
	},
	{
		ToolSchema: sim.ToolSchema{Name: "cancel_pending_order", Description: "Cancel a pending order.", Writes: true,
			Parameters: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"]}`)},
		Call: func(s *toyState, args json.RawMessage) (string, error) {
			var a struct {
				OrderID string `json:"order_id"`
			}
			if err := sim.DecodeArgs(args, &a, "order_id"); err != nil {
				return "", err
			}
			status, ok := s.Orders[a.OrderID]
			if !ok {
				return "", fmt.Errorf("order %s not found", a.OrderID)
			}
			if status != "pending" {
				return "", fmt.Errorf("order %s is %s, not pending", a.OrderID, status)
			}
			s.Orders[a.OrderID] = "cancelled"
			return `{"status": "cancelled", "refund": "1,234.50"}`, nil
		},
	},
	{
		ToolSchema: sim.ToolSchema{Name: "transfer_to_human_agents", Description: "Transfer to a human.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"summary":{"type":"string"}},"required":["summary"]}`)},
		Call: func(*toyState, json.RawMessage) (string, error) { return "Transfer successful", nil },
	},
}

func toyTask(emotion emobench.EmotionProfile) emobench.TaskSpec {
	return emobench.TaskSpec{
		ID: "toy-test-000", Domain: "toy", Split: emobench.SplitTest, UserID: "ana_1",
		Instruction: "You are Ana (ana@example.com). Cancel your pending order #W1.",
		Scenario: emobench.Scenario{
			Facts:    map[string]string{"email": "ana@example.com", "order_id": "#W1"},
			Requests: []emobench.Request{{Text: "I want to cancel my order.", Tools: []string{"cancel_pending_order"}}},
		},
		Emotion: emotion,
		Actions: []emobench.Action{
			{Name: "find_user_id_by_email", Arguments: json.RawMessage(`{"email":"ana@example.com"}`)},
			{Name: "cancel_pending_order", Arguments: json.RawMessage(`{"order_id":"#W1"}`)},
		},
		Outputs: []string{"1234.50"},
	}
}

var angrySkeptic = emobench.EmotionProfile{Family: "anger", Leaf: "frustration", Politeness: "cold", Urgency: "high", Trust: "skeptical"}

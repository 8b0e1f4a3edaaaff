package analysis_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
)

func TestIsFollowUp(t *testing.T) {
	// Expected labels are by hand: does the message ask the user for
	// information or confirmation the agent needs? Messages are modelled on
	// τ-bench retail/airline agent turns.
	tests := []struct {
		text string
		want bool
	}{
		// Requests for information.
		{"Could you please provide the email address associated with your account?", true},
		{"Sure, I can help. What is your user ID?", true},
		{"Which of the two orders would you like to return?", true},
		{"Please provide your order ID and zip code.", true}, // imperative, no '?'
		{"To verify your identity I'll need your first name, last name and zip code.", true},
		{"May I have your reservation number", true}, // question without '?'
		{"Let me know the payment method you would like the refund to go to.", true},
		{"I found order #W2378156.\nWhich item do you want to exchange?", true},
		// Requests for confirmation.
		{"I will cancel order #W123 (reason: no longer needed). Do you confirm (yes)?", true},
		{"Here are the details:\n- item: keyboard\n- refund: $45.99\n\n**Shall I proceed?**", true},
		{"The new total is $120.50. Please confirm (yes/no).", true},
		{"Would you like me to go ahead with the exchange? Is there anything else I can help with?", true},
		// Closing courtesies and greetings.
		{"Is there anything else I can help you with?", false},
		{"Your order has been cancelled. Is there anything else I can help with today?", false},
		{"Hello! How can I help you today?", false},
		{"Feel free to let me know if you need anything else.", false},
		{"Let me know if you have any other questions!", false},
		// Statements.
		{"Your order #W2378156 has been cancelled and $54.04 will be refunded within 5-7 business days.", false},
		{"I'm sorry, but I cannot modify a delivered order. I will transfer you to a human agent.", false},
		{"Please note that the refund goes to the original payment method.", false},
		{"Thank you for your patience. Have a great day!", false},
		{"The FAQ is at example.com/faq?id=7 for reference.", false}, // '?' inside a URL
		{"", false},
	}
	for _, tt := range tests {
		if got, want := analysis.IsFollowUp(tt.text), tt.want; got != want {
			t.Errorf("IsFollowUp(%q) = %v, want %v", tt.text, got, want)
		}
	}
}

func TestTrajectoryBalance(t *testing.T) {
	msgs := []emobench.Message{
		{Role: emobench.RoleSystem, Content: "You are a helpful agent. What is your name?"}, // not the agent
		{Role: emobench.RoleUser, Content: "I want to return my order. Can you help?"},      // not the agent
		{Role: emobench.RoleAssistant, Content: "Sure. What is your email?"},                // follow-up
		{Role: emobench.RoleUser, Content: "a@b.com"},
		{Role: emobench.RoleAssistant, ToolCalls: []emobench.ToolCall{{Name: "find_user_id_by_email"}}},
		{Role: emobench.RoleTool, Content: "u1"},
		{Role: emobench.RoleAssistant, Content: "Shall I check both orders?", // tool calls win
			ToolCalls: []emobench.ToolCall{{Name: "get_order_details"}, {Name: "get_order_details"}}},
		{Role: emobench.RoleAssistant, Content: "Which order do you want to return?"}, // follow-up
		{Role: emobench.RoleAssistant, Content: "Is there anything else?"},            // courtesy
	}
	// By hand: 3 tool calls, 2 follow-ups, share 3/5.
	b := analysis.TrajectoryBalance(msgs)
	if got, want := b.ToolCalls, 3; got != want {
		t.Fatalf("ToolCalls = %v, want %v", got, want)
	}
	if got, want := b.FollowUps, 2; got != want {
		t.Fatalf("FollowUps = %v, want %v", got, want)
	}
	if got, want := b.Share, 0.6; math.Abs(got-want) > tol {
		t.Fatalf("Share = %v, want %v", got, want)
	}
}

func TestTrajectoryBalance_Empty(t *testing.T) {
	for _, msgs := range [][]emobench.Message{nil, {{Role: emobench.RoleAssistant, Content: "Done."}}} {
		b := analysis.TrajectoryBalance(msgs)
		if b.ToolCalls != 0 || b.FollowUps != 0 || !math.IsNaN(b.Share) {
			t.Errorf("TrajectoryBalance(%v) = %+v, want zero counts and NaN share", msgs, b)
		}
	}
}

func TestSuccessByShareBin(t *testing.T) {
	shares := []float64{0, 0.1, 0.3, 0.5, 0.5, 0.6, 1, math.NaN(), 1.2, -0.1}
	passed := []bool{false, true, true, true, false, true, false, true, true, true}
	// By hand, 4 bins of width 0.25; NaN, 1.2 and −0.1 are skipped; 1 goes
	// to the last (closed) bin; 0.5 opens bin 2.
	want := []struct {
		lo, hi    float64
		n, passes int
	}{
		{0, 0.25, 2, 1},
		{0.25, 0.5, 1, 1},
		{0.5, 0.75, 3, 2},
		{0.75, 1, 1, 0},
	}
	bins := analysis.SuccessByShareBin(shares, passed, 4)
	if got, want := len(bins), len(want); got != want {
		t.Fatalf("len(bins) = %v, want %v", got, want)
	}
	for i, w := range want {
		b := bins[i]
		if b.Lo != w.lo || b.Hi != w.hi || b.N != w.n || b.Successes != w.passes {
			t.Errorf("bin %d = %+v, want [%v, %v) n=%d successes=%d", i, b, w.lo, w.hi, w.n, w.passes)
		}
		if got, want := b.Rate, float64(w.passes)/float64(w.n); math.Abs(got-want) > tol {
			t.Errorf("bin %d rate = %v, want %v", i, got, want)
		}
		if ci := analysis.Wilson(w.passes, w.n, 0.95); b.CI != ci {
			t.Errorf("bin %d CI = %v, want %v", i, b.CI, ci)
		}
	}
}

func TestSuccessByShareBin_Empty(t *testing.T) {
	bins := analysis.SuccessByShareBin(nil, nil, 3)
	if got, want := len(bins), 3; got != want {
		t.Fatalf("len(bins) = %v, want %v", got, want)
	}
	for i, b := range bins {
		if b.N != 0 || !math.IsNaN(b.Rate) || !math.IsNaN(b.CI.Lo) || !math.IsNaN(b.CI.Hi) {
			t.Errorf("bin %d = %+v, want empty with NaN rate and CI", i, b)
		}
	}
}

func TestSuccessByShareBin_Panics(t *testing.T) {
	for name, f := range map[string]func(){
		"length mismatch": func() { analysis.SuccessByShareBin([]float64{0.5}, nil, 2) },
		"zero bins":       func() { analysis.SuccessByShareBin(nil, nil, 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func ExampleIsFollowUp() {
	fmt.Println(analysis.IsFollowUp("Could you give me your zip code?"))
	fmt.Println(analysis.IsFollowUp("Please confirm (yes/no)."))
	fmt.Println(analysis.IsFollowUp("Is there anything else I can help you with?"))
	fmt.Println(analysis.IsFollowUp("Your refund has been issued."))
	// Output:
	// true
	// true
	// false
	// false
}

func ExampleTrajectoryBalance() {
	b := analysis.TrajectoryBalance([]emobench.Message{
		{Role: emobench.RoleAssistant, Content: "What is your order number?"},
		{Role: emobench.RoleUser, Content: "#W1"},
		{Role: emobench.RoleAssistant, ToolCalls: []emobench.ToolCall{{Name: "get_order_details"}}},
		{Role: emobench.RoleAssistant, ToolCalls: []emobench.ToolCall{{Name: "cancel_pending_order"}}},
		{Role: emobench.RoleAssistant, Content: "Done. Anything else?"},
	})
	fmt.Printf("tool calls %d, follow-ups %d, share %.3f\n", b.ToolCalls, b.FollowUps, b.Share)
	// Output:
	// tool calls 2, follow-ups 1, share 0.667
}

func ExampleSuccessByShareBin() {
	shares := []float64{0.1, 0.2, 0.5, 0.6, 0.7, 0.95}
	passed := []bool{false, false, true, true, false, false}
	for _, b := range analysis.SuccessByShareBin(shares, passed, 2) {
		fmt.Printf("[%.1f, %.1f]: %d/%d = %.2f %v\n", b.Lo, b.Hi, b.Successes, b.N, b.Rate, b.CI)
	}
	// Output:
	// [0.0, 0.5]: 0/2 = 0.00 [0.0000, 0.6576] (95% wilson)
	// [0.5, 1.0]: 2/4 = 0.50 [0.1500, 0.8500] (95% wilson)
}

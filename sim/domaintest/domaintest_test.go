package domaintest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// shop is a tiny declared domain: users by email, orders by id.
type shop struct {
	Users  sim.Table[shopUser]  `json:"users"`
	Orders sim.Table[shopOrder] `json:"orders"`
}

type shopUser struct {
	ID string `json:"id"`
}

type shopOrder struct {
	Status string `json:"status"`
}

func newShop() *shop {
	s := &shop{}
	s.Users.Put("ana@example.com", &shopUser{ID: "ana_1"})
	for i := range 6 {
		s.Orders.Put(fmt.Sprintf("#W%d", i), &shopOrder{Status: "pending"})
	}
	return s
}

type emailArgs struct {
	Email string `json:"email"`
}

type orderArgs struct {
	OrderID string `json:"order_id"`
}

// shopTools are the shop's tools; cancelThroughGet makes the cancel tool
// change the row it read with Get (the bug the fork check catches).
func shopTools(cancelThroughGet bool) []sim.Tool[shop] {
	emailSchema, emailReq := sim.ParamSchema([]sim.Param{{Name: "email", Type: "string", Description: "The user's email."}})
	orderSchema, orderReq := sim.ParamSchema([]sim.Param{{Name: "order_id", Type: "string", Description: "The order id, such as #W1."}})
	summarySchema, summaryReq := sim.ParamSchema([]sim.Param{{Name: "summary", Type: "string", Description: "The user's issue."}})
	return []sim.Tool[shop]{
		sim.NewTool("find_user_id_by_email", "Find a user id by email.", false, emailSchema,
			sim.TypedCall(emailReq, func(s *shop, a *emailArgs) (string, error) {
				u, ok := s.Users.Get(a.Email)
				if !ok {
					return "", errors.New("user not found")
				}
				return u.ID, nil
			})),
		sim.NewTool("cancel_pending_order", "Cancel a pending order.", true, orderSchema,
			sim.TypedCall(orderReq, func(s *shop, a *orderArgs) (string, error) {
				o, ok := s.Orders.Get(a.OrderID)
				if !ok {
					return "", fmt.Errorf("order %s not found", a.OrderID)
				}
				if o.Status != "pending" {
					return "", fmt.Errorf("order %s is %s, not pending", a.OrderID, o.Status)
				}
				if !cancelThroughGet {
					o, _ = s.Orders.Edit(a.OrderID)
				}
				o.Status = "cancelled"
				return `{"status": "cancelled"}`, nil
			})),
		sim.NewTool("transfer_to_human_agents", "Transfer the user to a human agent.", false, summarySchema,
			sim.TypedCall(summaryReq, func(*shop, *struct {
				Summary string `json:"summary"`
			}) (string, error) {
				return "Transfer successful", nil
			})),
	}
}

// shopTasks are five test tasks, one per emotion family: four
// cancellations and a transfer.
func shopTasks(t *testing.T) []byte {
	t.Helper()
	var tasks []emobench.TaskSpec
	for i, f := range emobench.Taxonomy.Families {
		auth := sim.NewAction("find_user_id_by_email", "email", "ana@example.com")
		task := emobench.TaskSpec{
			ID: fmt.Sprintf("shop-test-%03d", i), Domain: "shop", Split: emobench.SplitTest, UserID: "ana_1",
			Emotion: emobench.EmotionProfile{Family: f.Name, Leaf: f.Leaves[0], Politeness: "cold", Urgency: "high", Trust: "skeptical"},
			Outputs: []string{},
		}
		if i < 4 {
			order := fmt.Sprintf("#W%d", i)
			task.Instruction = "You are Ana (ana@example.com). You want to cancel your pending order " + order + ": you no longer need it."
			task.Scenario = emobench.Scenario{
				Facts:    map[string]string{"email": "ana@example.com", "order_id": order, "reason": "no longer needed"},
				Requests: []emobench.Request{{Text: "I want to cancel my order " + order + ".", Tools: []string{"cancel_pending_order"}}},
			}
			task.Actions = []emobench.Action{auth, sim.NewAction("cancel_pending_order", "order_id", order)}
		} else {
			task.Instruction = "You are Ana (ana@example.com). Your parcel was thrown over the fence: you want to complain to a person."
			task.Scenario = emobench.Scenario{
				Facts:    map[string]string{"email": "ana@example.com", "complaint": "the courier threw the parcel over the fence"},
				Requests: []emobench.Request{{Text: "I want to complain about the courier to a person.", Tools: []string{"transfer_to_human_agents"}}},
			}
			task.Actions = []emobench.Action{auth, sim.NewAction("transfer_to_human_agents", "summary", "courier complaint")}
		}
		tasks = append(tasks, task)
	}
	b, err := sim.EncodeTasks(tasks)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newShopDomain(t *testing.T, cancelThroughGet bool) sim.Domain {
	return sim.NewDomain(sim.DomainSpec[shop]{
		Name: "shop", Policy: "# Shop policy\nAuthenticate the user, confirm before writes, transfer courier complaints.",
		Initial: newShop, Tools: shopTools(cancelThroughGet), TransferTool: "transfer_to_human_agents",
		TaskSets: sim.TaskSets{Test: sim.TaskSet{File: "tasks.json", Data: shopTasks(t), Count: 5, Seed: 1}},
	})
}

// TestRun_Shop runs the suite on a small declared domain without a
// catalog: the catalog's checks and the files' freshness skip, the rest
// passes.
func TestRun_Shop(t *testing.T) {
	Run(t, newShopDomain(t, false))
}

// TestForkEqualsDeepCopy_ErrChangedThroughGet: a tool that changes a row
// it took with Get changes the frozen initial state, which the fork check
// reports (by a differing call, hash or VerifyInitial).
func TestForkEqualsDeepCopy_ErrChangedThroughGet(t *testing.T) {
	dom := newShopDomain(t, true)
	td := dom.(sim.TaskSetDomain)
	s := newSuite(t, dom)
	task := &s.all[0]
	err := compareCalls("the fork", task.ID, td.NewEnvironment(), td.NewDeepEnvironment(), task.Actions)
	if err == nil {
		err = td.VerifyInitial()
	}
	if err == nil {
		t.Fatal("a tool changing a row through Get went unnoticed")
	}
	// A second episode sees the first's change: its cancel fails.
	if _, err := dom.NewEnvironment().Call("cancel_pending_order", task.Actions[1].Arguments); err == nil || !strings.Contains(err.Error(), "not pending") {
		t.Errorf("the second episode's cancel: %v, want the order not pending (the shared row changed)", err)
	}
}

// TestCompareCalls_ErrDiffers: two environments over different states
// differ at the first call whose result differs.
func TestCompareCalls_ErrDiffers(t *testing.T) {
	dom := newShopDomain(t, false)
	a, b := dom.NewEnvironment(), dom.NewEnvironment()
	if _, err := b.Call("cancel_pending_order", json.RawMessage(`{"order_id":"#W5"}`)); err != nil {
		t.Fatal(err)
	}
	calls := []emobench.Action{sim.NewAction("find_user_id_by_email", "email", "ana@example.com"), sim.NewAction("cancel_pending_order", "order_id", "#W5")}
	err := compareCalls("a", "t1", a, b, calls)
	if err == nil || !strings.Contains(err.Error(), "call 0") {
		t.Fatalf("compareCalls = %v, want a difference at call 0 (the hashes differ from the start)", err)
	}
}

// TestSample: -short takes every len/n-th item from the first; the full
// suite takes all.
func TestSample(t *testing.T) {
	items := make([]int, 25)
	for i := range items {
		items[i] = i
	}
	got := sample(items, 10)
	if testing.Short() {
		if want := []int{0, 3, 6, 9, 12, 15, 18, 21, 24}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("sample = %v, want %v", got, want)
		}
	} else if len(got) != 25 {
		t.Errorf("sample = %d items, want all 25", len(got))
	}
}

// TestFollowsPath: the path's steps in order, a step repeated, reads in
// between; a write off the path or a missing step is an error.
func TestFollowsPath(t *testing.T) {
	writes := func(n string) bool { return strings.HasPrefix(n, "w_") }
	for _, tt := range []struct {
		names, path []string
		wantErr     string
	}{
		{[]string{"r_a", "w_b"}, []string{"w_b"}, ""},
		{[]string{"r_a", "w_b", "w_b", "r_c", "w_d"}, []string{"w_b", "w_d"}, ""},
		{[]string{"w_x", "w_b"}, []string{"w_b"}, "off the path"},
		{[]string{"r_a"}, []string{"r_a", "w_b"}, "do not reach step 1"},
	} {
		err := followsPath(tt.names, tt.path, writes)
		if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("followsPath(%v, %v) = %v, want %q", tt.names, tt.path, err, tt.wantErr)
		}
	}
}

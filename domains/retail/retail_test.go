package retail

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

func TestDomain(t *testing.T) {
	d := New()
	if got, want := d.Name(), "retail"; got != want {
		t.Errorf("Name = %q, want %q", got, want)
	}
	if !strings.Contains(d.Policy(), "no longer needed") {
		t.Errorf("Policy does not state the cancellation reasons")
	}
	env := d.NewEnvironment()
	names := make([]string, 0)
	for _, s := range env.Tools() {
		names = append(names, s.Name)
	}
	if !slices.Contains(names, d.TransferTool()) {
		t.Errorf("TransferTool %q is not among the tools %v", d.TransferTool(), names)
	}
	if _, err := env.Call("no_such_tool", nil); err == nil {
		t.Errorf("Call of an unknown tool: no error")
	}
}

// TestDomain_NewEnvironment checks that episodes do not share state.
func TestDomain_NewEnvironment(t *testing.T) {
	d := New()
	a, b := d.NewEnvironment(), d.NewEnvironment()
	initial := a.Hash()
	var task emobench.TaskSpec // the first task with a write
	for _, tk := range d.Tasks() {
		if tk.Actions[len(tk.Actions)-1].Name != ToolTransfer && len(tk.Forbidden) == 0 && hasWrite(tk) {
			task = tk
			break
		}
	}
	for _, act := range task.Actions {
		if _, err := a.Call(act.Name, act.Arguments); err != nil {
			t.Fatal(err)
		}
	}
	if a.Hash() == initial {
		t.Fatalf("task %s did not change the state", task.ID)
	}
	if got := b.Hash(); got != initial {
		t.Fatalf("another environment's state changed")
	}
	if got := d.NewEnvironment().Hash(); got != initial {
		t.Fatalf("a new environment does not start from the initial state")
	}
}

func TestDomain_NoPanicOnGarbage(t *testing.T) {
	env := New().NewEnvironment()
	for _, tool := range env.Tools() {
		for _, args := range []string{`null`, `{"order_id":{}}`, `{"item_ids":[1,2]}`, `{`, `"x"`, `{"user_id":"","order_id":""}`} {
			if _, err := env.Call(tool.Name, json.RawMessage(args)); err != nil && strings.Contains(err.Error(), "failed:") {
				t.Errorf("%s(%s) panicked: %v", tool.Name, args, err)
			}
		}
	}
}

func BenchmarkNewEnvironment(b *testing.B) {
	d := New()
	b.ReportAllocs()
	for b.Loop() {
		_ = d.NewEnvironment()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "envs/s")
}

func BenchmarkHash(b *testing.B) {
	env := New().NewEnvironment().(*sim.StateEnv[DB])
	for b.Loop() {
		_ = env.Hash()
	}
}

func hasWrite(task emobench.TaskSpec) bool {
	for _, a := range task.Actions {
		for _, tl := range Tools() {
			if tl.Name == a.Name && tl.Writes {
				return true
			}
		}
	}
	return false
}

// The items of a return are a set: returning A and B hashes as returning
// B and A (Order.StateForm), and returning A alone does not (#21).
func TestStateHash_ReturnItemsAreASet(t *testing.T) {
	var order *Order
	for _, o := range replay(t).State.Orders.All() {
		if o.Status == StatusDelivered && len(o.Items) >= 2 && o.Items[0].ItemID != o.Items[1].ItemID {
			order = o
			break
		}
	}
	if order == nil {
		t.Fatal("no delivered order with two items")
	}
	pm := order.PaymentHistory[0].PaymentMethodID
	hashAfter := func(items ...string) string {
		b, _ := json.Marshal(map[string]any{"order_id": order.ID, "item_ids": items, "payment_method_id": pm})
		env := New().NewEnvironment()
		if _, err := env.Call(ToolReturnItems, b); err != nil {
			t.Fatal(err)
		}
		return env.Hash()
	}
	a, b := order.Items[0].ItemID, order.Items[1].ItemID
	want := hashAfter(a, b)
	if got := hashAfter(b, a); got != want {
		t.Error("return items in another order hash differently")
	}
	if got := hashAfter(a); got == want {
		t.Error("returning one item hashes as returning two")
	}
}

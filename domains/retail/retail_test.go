package retail

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/sim/domaintest"
)

// TestDomain runs the conformance suite every domain runs: tools, catalog,
// tasks, oracle, fork against deep copy, determinism, audit, fresh files.
func TestDomain(t *testing.T) { domaintest.Run(t, New()) }

// TestTasks_Writes checks what the task sets were generated for (their
// IntentsDist): the test split averages at least 1.5 gold writes a task
// with 30% of its tasks making two or more, and every write tool and the
// transfer end some task.
func TestTasks_Writes(t *testing.T) {
	writes := map[string]bool{}
	for _, tl := range Tools() {
		writes[tl.Name] = tl.Writes
	}
	n, total, multi, last := 0, 0, 0, map[string]bool{}
	for _, task := range New().Tasks() {
		last[task.Actions[len(task.Actions)-1].Name] = true
		if task.Split != emobench.SplitTest {
			continue
		}
		n++
		w := 0
		for _, a := range task.Actions {
			if writes[a.Name] {
				w++
			}
		}
		total += w
		if w >= 2 {
			multi++
		}
	}
	if float64(total) < 1.5*float64(n) || float64(multi) < 0.3*float64(n) {
		t.Errorf("test split: %d writes in %d tasks, %d with two or more: want at least 1.5 a task and 30%% with two", total, n, multi)
	}
	for name, w := range writes {
		if (w || name == ToolTransfer) && !last[name] {
			t.Errorf("no task ends with %s", name)
		}
	}
}

// TestTasks_AddressPartsAreFacts checks what Tracer's facts-reachable
// check skips (Catalog.ExemptArgs): every part of an address a gold action
// passes is part of a fact of its task, the address the user states whole.
func TestTasks_AddressPartsAreFacts(t *testing.T) {
	n := 0
	for _, task := range New().Tasks() {
		facts := slices.Collect(maps.Values(task.Scenario.Facts))
		for _, a := range task.Actions {
			var args map[string]any
			_ = json.Unmarshal(a.Arguments, &args)
			for _, k := range addressArgNames {
				v, _ := args[k].(string)
				if v != "" && !slices.ContainsFunc(facts, func(f string) bool { return strings.Contains(f, v) }) {
					t.Errorf("task %s: %s %s %q is in no fact", task.ID, a.Name, k, v)
				}
				n += len(v)
			}
		}
	}
	if n == 0 {
		t.Error("no gold action passes an address")
	}
}

// TestTasks_ReturnsSayTheRefund checks that every task whose gold returns
// items has the refund, the sum of their prices when the return is made,
// among its outputs.
func TestTasks_ReturnsSayTheRefund(t *testing.T) {
	for _, task := range New().Tasks() {
		env := replay(t)
		for _, a := range task.Actions {
			if a.Name == ToolReturnItems {
				var args struct {
					OrderID string   `json:"order_id"`
					ItemIDs []string `json:"item_ids"`
				}
				_ = json.Unmarshal(a.Arguments, &args)
				var refund sim.Money
				for _, id := range args.ItemIDs {
					refund += findItem(env.State.Orders.At(args.OrderID), id).Price
				}
				if !slices.Contains(task.Outputs, dollars(refund)) {
					t.Errorf("task %s: return of %v from %s: outputs %q lack the refund %s", task.ID, args.ItemIDs, args.OrderID, task.Outputs, dollars(refund))
				}
			}
			if _, err := env.Call(a.Name, a.Arguments); err != nil {
				t.Fatalf("task %s: %s: %v", task.ID, a.Name, err)
			}
		}
	}
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
	hashAfter := func(items ...string) string {
		b, _ := json.Marshal(map[string]any{"order_id": order.ID, "item_ids": items, "payment_method_id": order.PaymentHistory[0].PaymentMethodID})
		return replay(t, emobench.Action{Name: ToolReturnItems, Arguments: b}).Hash()
	}
	a, b := order.Items[0].ItemID, order.Items[1].ItemID
	if want := hashAfter(a, b); hashAfter(b, a) != want || hashAfter(a) == want {
		t.Error("return items hash as a list, not a set (or one item as two)")
	}
}

func TestPolicy_StatesTheCancelReasons(t *testing.T) {
	if p := New().Policy(); !strings.Contains(p, ReasonNoLongerNeeded) || !strings.Contains(p, ReasonOrderedByMistake) {
		t.Error("policy.md does not state the cancellation reasons")
	}
}

func BenchmarkNewEnvironment(b *testing.B) {
	d := New()
	b.ReportAllocs()
	for b.Loop() {
		_ = d.NewEnvironment()
	}
}

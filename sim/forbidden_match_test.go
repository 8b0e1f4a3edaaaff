package sim_test

import (
	"encoding/json"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// ForbiddenMatch matches a gold action as FORBIDDEN matches an agent's
// call: by the entry's ids, values by what they name.
func TestForbiddenMatch(t *testing.T) {
	t.Parallel()
	gold := emobench.Action{Name: "return_items", Arguments: json.RawMessage(`{"order_id":"#W1","item_ids":["a","b"],"payment_method_id":"pm"}`)}
	for _, tt := range []struct {
		name, args string
		compare    []string
		want       bool
	}{
		{"return_items", `{"order_id":"#W1","item_ids":["b"]}`, nil, true},
		{"return_items", `{"order_id":"#W1","item_ids":["c"]}`, nil, false},
		{"return_items", `{"order_id":"#W2"}`, nil, false},
		{"return_items", `{"order_id":"#W2","payment_method_id":"pm"}`, []string{"payment_method_id"}, true},
		{"return_items", ``, nil, true},
		{"cancel", ``, nil, false},
	} {
		f := emobench.Action{Name: tt.name, Arguments: json.RawMessage(tt.args), CompareArgs: tt.compare}
		if got := sim.ForbiddenMatch(f, gold); got != tt.want {
			t.Errorf("forbidden %s(%s) compare %v: match %v, want %v", tt.name, tt.args, tt.compare, got, tt.want)
		}
	}
	n := emobench.Action{Name: "pay", Arguments: json.RawMessage(`{"amount":"40"}`)}
	if !sim.ForbiddenMatch(emobench.Action{Name: "pay", Arguments: json.RawMessage(`{"amount":40}`)}, n) {
		t.Error(`forbidden amount 40 does not match a gold "40"`)
	}
}

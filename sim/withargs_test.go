package sim_test

import (
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

func TestWithArgs(t *testing.T) {
	gold := emobench.Action{Name: "refund", Arguments: []byte(`{"order_id":"#W1","items":["a","b"],"method":"card"}`), CompareArgs: []string{"order_id"}}
	for _, c := range []struct {
		name string
		a    emobench.Action
		kv   []any
		want string
	}{
		{"OneArg", gold, []any{"method", "gift_card"}, `{"items":["a","b"],"method":"gift_card","order_id":"#W1"}`},
		{"TwoArgs", gold, []any{"items", []string{"c"}, "note", 1}, `{"items":["c"],"method":"card","note":1,"order_id":"#W1"}`},
		{"NoObject", emobench.Action{Name: "x", Arguments: []byte(`[1]`)}, []any{"k", "v"}, `[1]`},
		{"Unencodable", gold, []any{"method", func() {}}, string(gold.Arguments)},
	} {
		got := sim.WithArgs(c.a, c.kv...)
		if got.Name != c.a.Name || string(got.Arguments) != c.want {
			t.Errorf("%s: WithArgs = %s%s, want %s%s", c.name, got.Name, got.Arguments, c.a.Name, c.want)
		}
	}
	if string(gold.Arguments) != `{"order_id":"#W1","items":["a","b"],"method":"card"}` {
		t.Error("WithArgs changed its argument's arguments")
	}
}

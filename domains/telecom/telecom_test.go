package telecom

import (
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/sim/domaintest"
)

// TestDomain runs the conformance suite every domain passes
// (sim/domaintest): tools, catalog, tasks, oracle, fork against deep copy,
// determinism, audit and fresh task files.
func TestDomain(t *testing.T) { domaintest.Run(t, New()) }

// TestDomain_Policy checks what is particular to telecom's domain value.
func TestDomain_Policy(t *testing.T) {
	d := New()
	if got, want := d.Name(), "telecom"; got != want {
		t.Errorf("Name = %q, want %q", got, want)
	}
	if p := strings.Join(strings.Fields(d.Policy()), " "); !strings.Contains(p, "next billing cycle") || !strings.Contains(p, "The tools do not check this policy") {
		t.Errorf("Policy does not state the plan change rule and that the tools do not check it")
	}
	env := d.NewEnvironment()
	var names []string
	writes := 0
	for _, s := range env.Tools() {
		names = append(names, s.Name)
		if s.Writes {
			writes++
		}
	}
	if len(names) < 12 || writes < 5 {
		t.Errorf("%d tools, %d writes: want at least 12 and 5", len(names), writes)
	}
	if !slices.Contains(names, d.TransferTool()) {
		t.Errorf("TransferTool %q is not among the tools %v", d.TransferTool(), names)
	}
	if _, err := env.Call("no_such_tool", nil); err == nil {
		t.Errorf("Call of an unknown tool: no error")
	}
}

// newEnv returns an environment over a fresh fork of the initial state.
func newEnv() *sim.StateEnv[DB] { return New().NewEnvironment().(*sim.StateEnv[DB]) }

// initialState returns a fork of the initial state, for reading.
func initialState() *DB { return newEnv().State }

// edit returns t's row of id for changing (sim.Table.Edit).
func edit[V any](t *sim.Table[V], id string) *V {
	v, _ := t.Edit(id)
	return v
}

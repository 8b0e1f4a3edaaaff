package telehealth

import (
	"encoding/json"
	"iter"
	"strings"
	"testing"

	"github.com/emobench/emobench/sim"
)

// TestDomain checks the domain as a sim.Domain: its name, policy and
// transfer tool, fresh environments that start from the same state, and
// a write in one environment that never reaches the next.
func TestDomain(t *testing.T) {
	d := New()
	if d.Name() != Name || d.TransferTool() != ToolTransfer || !strings.Contains(d.Policy(), "The tools do not check this policy") {
		t.Fatalf("domain %s, transfer %s, policy of %d bytes", d.Name(), d.TransferTool(), len(d.Policy()))
	}
	if _, ok := d.(sim.CatalogDomain); !ok {
		t.Fatal("New() is no sim.CatalogDomain")
	}
	a := d.NewEnvironment()
	initial := a.Hash()
	if h := a.Hash(); h != initial {
		t.Fatal("hashing twice gave different hashes")
	}
	args, _ := json.Marshal(map[string]string{"patient_id": "P10001", "phone": "212-555-0199"})
	if _, err := a.Call(ToolUpdatePhone, args); err != nil {
		t.Fatal(err)
	}
	if a.Hash() == initial {
		t.Fatal("a write left the hash unchanged")
	}
	if b := d.NewEnvironment(); b.Hash() != initial || row(&b.(*sim.StateEnv[DB]).State.Patients, "P10001").Phone == "212-555-0199" {
		t.Fatal("a write reached a fresh environment")
	}
	if _, err := a.Call("no_such_tool", nil); err == nil {
		t.Fatal("an unknown tool gave no error")
	}
}

// newEnv returns an environment over a fresh fork of the initial state.
func newEnv() *sim.StateEnv[DB] { return New().NewEnvironment().(*sim.StateEnv[DB]) }

// initialState returns a fresh fork of the initial state.
func initialState() *DB { return newEnv().State }

// envOver returns an environment over db with the telehealth tools; it
// changes db.
func envOver(db *DB) *sim.StateEnv[DB] { return sim.NewStateEnv(db, tools()) }

// edit returns t's row of id for changing (sim.Table.Edit).
func edit[V any](t *sim.Table[V], id string) *V {
	v, _ := t.Edit(id)
	return v
}

// inOrder yields m's rows in increasing order of id.
func inOrder[V any](m map[string]*V) iter.Seq2[string, *V] {
	t := sim.NewTable(m)
	return t.All()
}

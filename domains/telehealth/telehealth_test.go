package telehealth

import (
	"encoding/json"
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
	if b := d.NewEnvironment(); b.Hash() != initial || b.(*sim.StateEnv[DB]).State.Patients["P10001"].Phone == "212-555-0199" {
		t.Fatal("a write reached a fresh environment")
	}
	if _, err := a.Call("no_such_tool", nil); err == nil {
		t.Fatal("an unknown tool gave no error")
	}
}

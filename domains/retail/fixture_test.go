package retail

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// newEnv returns an environment over db with the retail tools.
func newEnv(db *DB) *sim.StateEnv[DB] { return sim.NewStateEnv(db, Tools()) }

// replay returns a fork of the initial state (New) after actions.
func replay(t testing.TB, actions ...emobench.Action) *sim.StateEnv[DB] {
	t.Helper()
	env := New().NewEnvironment().(*sim.StateEnv[DB])
	for i, a := range actions {
		if _, err := env.Call(a.Name, a.Arguments); err != nil {
			t.Fatalf("replay: action %d %s%s: %v", i, a.Name, a.Arguments, err)
		}
	}
	return env
}

// testDB returns the small hand-made database of testdata/store.json,
// whose numbers the tool tests assert exactly.
//
//   - ana_silva_1000 (ana@example.com; Ana Silva, 80203) has a gift card
//     (balance 50.00), a PayPal account and a visa ending in 4242, and orders
//     #R0000001 (pending, paypal, black usb lamp 40.00), #R0000002
//     (delivered, visa, white usb lamp 42.00 + blue bottle 20.00), #R0000003
//     (processed, paypal, blue bottle 20.00) and #R0000004 (pending, gift
//     card, blue bottle 20.00).
//   - ben_ito_2000 (ben@example.com; Ben Ito, 97201) has a PayPal account
//     and order #R0000005 (pending, black usb lamp 40.00).
//   - Lamp 100 has items 1001 black/usb 40.00, 1002 white/usb 42.00, 1003
//     brass/usb 60.00 (unavailable) and 1004 black/plug 45.00; bottle 200
//     has 2001 blue/500ml 20.00 and 2002 green/500ml 22.50.
func testDB(t testing.TB) *DB {
	db := new(DB)
	readJSON(t, "testdata/store.json", db)
	return db
}

// readJSON decodes the JSON file name into v.
func readJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

package telecom

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzTools calls a tool, chosen by index, with arbitrary arguments on an
// episode's database: a result or an error, never a panic (which
// StateEnv.Call would report as "tool ... failed").
func FuzzTools(f *testing.F) {
	db := initialState()
	c := row(&db.Customers, db.Customers.Keys()[0])
	for i := range Tools() {
		f.Add(uint8(i), `{}`)
		f.Add(uint8(i), string(args("customer_id", c.ID, "phone_number", c.ContactPhone, "bill_id", c.Bills[3].ID, "amount", 1.5,
			"installments", 2, "zip", c.Address.Zip, "issue", "no signal", "category", TicketConnectivity, "reason", CreditOutage)))
	}
	f.Add(uint8(0), `{"phone_number": null}`)
	f.Add(uint8(3), `{"customer_id": ["C1"], "phone_number": {"a": 1}}`)
	tools := Tools()
	f.Fuzz(func(t *testing.T, i uint8, raw string) {
		tool := tools[int(i)%len(tools)]
		env := New().NewEnvironment()
		if _, err := env.Call(tool.Name, json.RawMessage(raw)); err != nil && strings.Contains(err.Error(), "tool "+tool.Name+" failed") {
			t.Fatalf("%s(%s) panicked: %v", tool.Name, raw, err)
		}
	})
}

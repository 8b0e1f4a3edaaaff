package telehealth

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzTools calls a tool, chosen by index, with arbitrary arguments on an
// episode's database: a result or an error, never a panic (which
// StateEnv.Call reports as "tool ... failed").
func FuzzTools(f *testing.F) {
	p := row(&initialState().Patients, "P10001")
	seed, _ := json.Marshal(map[string]any{
		"patient_id": p.ID, "appointment_id": p.AppointmentIDs[0], "prescription_id": p.PrescriptionIDs[0], "device_id": "DEV-50001",
		"provider_id": "DR001", "supplier_id": "SUP01", "medications": []string{"warfarin", "ibuprofen"}, "start_time": "2025-03-12T09:00",
		"visit_type": VisitTelehealth, "reason": "x", "medication": "losartan", "dose": "50 mg", "frequency": "once daily",
		"phone": "303-555-0100", "email": p.Email, "date_of_birth": p.DateOfBirth, "first_name": p.Name.First, "last_name": p.Name.Last,
		"specialty": "cardiology", "summary": "s",
	})
	for i := range Tools() {
		f.Add(uint8(i), `{}`)
		f.Add(uint8(i), string(seed))
	}
	f.Add(uint8(5), `{"medications": [1, null]}`)
	f.Add(uint8(11), `{"patient_id": ["P1"], "start_time": {"a": 1}}`)
	tools := Tools()
	f.Fuzz(func(t *testing.T, i uint8, raw string) {
		tool := tools[int(i)%len(tools)]
		env := New().NewEnvironment()
		if _, err := env.Call(tool.Name, json.RawMessage(raw)); err != nil && strings.Contains(err.Error(), "tool "+tool.Name+" failed") {
			t.Fatalf("%s(%s) panicked: %v", tool.Name, raw, err)
		}
	})
}

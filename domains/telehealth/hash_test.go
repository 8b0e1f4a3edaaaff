package telehealth

import (
	"encoding/json"
	"testing"
)

// A cancellation reason is free text: the state hash normalises it
// (Appointment.StateForm), so the gold's wording does not decide the
// task, while another reason is another state (#21).
func TestStateHash_FreeTextReason(t *testing.T) {
	appt := find(t, InitialDB().Appointments, func(a *Appointment) bool {
		return a.Status == StatusScheduled && a.Start >= nowTime.Add(cancellationWindow).Format(timeLayout)
	})
	hashAfter := func(reason string) string {
		env := New().NewEnvironment()
		args, _ := json.Marshal(map[string]string{"appointment_id": appt.ID, "reason": reason})
		if _, err := env.Call(ToolCancel, args); err != nil {
			t.Fatal(err)
		}
		return env.Hash()
	}
	gold := hashAfter("a schedule change")
	if got := hashAfter("Schedule change."); got != gold {
		t.Errorf(`"Schedule change." hashes %s, "a schedule change" %s: want equal`, got, gold)
	}
	if got := hashAfter("feeling better"); got == gold {
		t.Error(`"feeling better" hashes as "a schedule change": want a different hash`)
	}
	// The deep copy, which encodes every record, agrees with the episode
	// clone, which encodes only the one it took.
	db := InitialDB()
	args, _ := json.Marshal(map[string]string{"appointment_id": appt.ID, "reason": "Schedule Change"})
	if _, err := NewEnvironment(db).Call(ToolCancel, args); err != nil {
		t.Fatal(err)
	}
	if got := db.StateHash(); got != gold {
		t.Errorf("deep copy hashes %s, episode clone %s", got, gold)
	}
}

package telehealth

import (
	"encoding/json"
	"testing"

	"github.com/emobench/emobench/sim"
)

// A cancellation reason is free text: the state hash normalises it
// (Appointment.StateForm), so the gold's wording does not decide the
// task, while another reason is another state (#21).
func TestStateHash_FreeTextReason(t *testing.T) {
	appt := find(t, initialState().Appointments.All(), func(a *Appointment) bool {
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
	// A deep copy, which encodes every record, agrees with the fork,
	// which encodes only the one it took.
	deep := New().(sim.TaskSetDomain).NewDeepEnvironment()
	args, _ := json.Marshal(map[string]string{"appointment_id": appt.ID, "reason": "Schedule Change"})
	if _, err := deep.Call(ToolCancel, args); err != nil {
		t.Fatal(err)
	}
	if got := deep.Hash(); got != gold {
		t.Errorf("deep copy hashes %s, fork %s", got, gold)
	}
}

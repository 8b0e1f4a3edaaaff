package telehealth

import "github.com/emobench/emobench/sim"

// StateForm is the appointment as the state hash (StateHash, in db.go)
// sees it (sim.StateFormer): its reason and cancellation reason, free
// text the agent writes, normalised (sim.NormalizeFreeText), so that
// "Schedule change" and "a schedule change." hash alike.
func (a *Appointment) StateForm() any {
	c := *a
	c.Reason, c.CancelReason = sim.NormalizeFreeText(a.Reason), sim.NormalizeFreeText(a.CancelReason)
	return &c
}

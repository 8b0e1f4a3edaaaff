package telehealth

import (
	"slices"
	"testing"

	"github.com/emobench/emobench/sim"
)

// TestGenerateDB checks that GenerateDB is deterministic (the same seed
// the same state, another seed another) and that the initial state's
// sizes and references hold.
func TestGenerateDB(t *testing.T) {
	if a := sim.HashState(GenerateDB(Seed)); a != sim.HashState(GenerateDB(Seed)) || a == sim.HashState(GenerateDB(Seed+1)) {
		t.Error("GenerateDB(Seed) twice gave different states, or another seed the same")
	}
	db := newEnv().State
	ref := db.ref()
	if db.Patients.Len() != NumPatients || len(ref.Providers) != NumProviders || db.Appointments.Len() < 1000 || db.Prescriptions.Len() < 800 || db.Devices.Len() < 300 || len(ref.Suppliers) < 15 {
		t.Fatalf("sizes: %d patients, %d providers, %d appointments, %d prescriptions, %d devices, %d suppliers",
			db.Patients.Len(), len(ref.Providers), db.Appointments.Len(), db.Prescriptions.Len(), db.Devices.Len(), len(ref.Suppliers))
	}
	ids, emails := map[[3]string]bool{}, map[string]bool{}
	slots := map[string]bool{}
	for id, p := range db.Patients.All() {
		key := [3]string{p.Name.First, p.Name.Last, p.DateOfBirth}
		if ids[key] || emails[p.Email] {
			t.Errorf("%s: name and birth date or email not unique", id)
		}
		ids[key], emails[p.Email] = true, true
		if ref.Records[id] == nil || ref.Suppliers[p.PreferredSupplierID] == nil {
			t.Errorf("%s: no record or supplier", id)
		}
		for _, aid := range p.AppointmentIDs {
			a := db.Appointments.At(aid)
			if a == nil || a.PatientID != id || ref.Providers[a.ProviderID] == nil {
				t.Errorf("%s: appointment %s", id, aid)
				continue
			}
			if a.Status == StatusScheduled {
				if a.Start <= Now || slots[a.ProviderID+a.Start] {
					t.Errorf("%s: scheduled appointment %s at %s is past or double-booked", id, aid, a.Start)
				}
				slots[a.ProviderID+a.Start] = true
			}
		}
		meds := db.activeMeds(id, "")
		for i, m := range meds {
			for _, n := range meds[i+1:] {
				if sev, _ := ref.interaction(m, n); sev == SeverityMajor {
					t.Errorf("%s: the initial regimen has a major interaction %s + %s", id, m, n)
				}
			}
		}
		for _, rid := range p.PrescriptionIDs {
			rx := db.Prescriptions.At(rid)
			if rx == nil || rx.PatientID != id || ref.Medications[rx.Medication] == nil || ref.Providers[rx.PrescriberID] == nil || ref.Suppliers[rx.SupplierID] == nil {
				t.Errorf("%s: prescription %s", id, rid)
			}
		}
		for _, did := range p.DeviceIDs {
			if d := db.Devices.At(did); d == nil || d.PatientID != id || len(ref.Uploads[did]) == 0 {
				t.Errorf("%s: device %s", id, did)
			}
		}
	}
	for _, s := range ref.Suppliers {
		for _, m := range s.Stock {
			if ref.Medications[m].Controlled && !s.ControlledLicense {
				t.Errorf("%s stocks controlled %s without a license", s.ID, m)
			}
		}
		if !slices.IsSorted(s.ShipsTo) || !slices.IsSorted(s.Stock) {
			t.Errorf("%s: unsorted lists", s.ID)
		}
	}
	if !slices.IsSortedFunc(ref.Interactions, byPair) {
		t.Error("interactions not sorted")
	}
	if sev, _ := ref.interaction("warfarin", "ibuprofen"); sev != SeverityMajor {
		t.Errorf("warfarin + ibuprofen = %s, want major", sev)
	}
}

// TestStateForm_FreeTextReason: a cancellation reason is free text, which
// the state hash normalises (Appointment.StateForm), so the gold's wording
// does not decide the task, while another reason is another state (#21).
func TestStateForm_FreeTextReason(t *testing.T) {
	var appt *Appointment
	for _, a := range newEnv().State.Appointments.All() {
		if a.Status == StatusScheduled && a.Start >= nowTime.Add(cancellationWindow).Format(timeLayout) {
			appt = a
			break
		}
	}
	hashAfter := func(reason string) string {
		env := newEnv()
		run(t, env, []step{{Tool: ToolCancel, Args: map[string]any{"appointment_id": appt.ID, "reason": reason}, Want: []string{appt.ID}}})
		return env.Hash()
	}
	if gold := hashAfter("a schedule change"); hashAfter("Schedule change.") != gold || hashAfter("feeling better") == gold {
		t.Error(`"Schedule change." should hash as "a schedule change", "feeling better" not`)
	}
}

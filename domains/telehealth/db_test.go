package telehealth

import (
	"slices"
	"testing"

	"github.com/emobench/emobench/sim"
)

// TestGenerateDB_Deterministic checks that the same seed gives the same
// environment hash and another seed another.
func TestGenerateDB_Deterministic(t *testing.T) {
	a, b, c := sim.HashState(GenerateDB(Seed)), sim.HashState(GenerateDB(Seed)), sim.HashState(GenerateDB(Seed+1))
	if a != b {
		t.Fatal("GenerateDB(Seed) twice gave different hashes")
	}
	if a == c {
		t.Fatal("GenerateDB of another seed gave the same hash")
	}
	if got := New().NewEnvironment().Hash(); got != a {
		t.Fatalf("the domain's fresh environment hashes %s, want GenerateDB(Seed)'s %s", got, a)
	}
}

// TestGenerateDB_Consistent checks sizes and that every reference points
// at a record that exists.
func TestGenerateDB_Consistent(t *testing.T) {
	db := initialState()
	ref := db.ref()
	if db.Patients.Len() < 500 || len(ref.Providers) < 40 || db.Appointments.Len() < 1000 || db.Prescriptions.Len() < 800 || db.Devices.Len() < 300 || len(ref.Suppliers) < 15 {
		t.Fatalf("sizes: %d patients, %d providers, %d appointments, %d prescriptions, %d devices, %d suppliers",
			db.Patients.Len(), len(ref.Providers), db.Appointments.Len(), db.Prescriptions.Len(), db.Devices.Len(), len(ref.Suppliers))
	}
	ids, emails := map[[3]string]bool{}, map[string]bool{}
	slots := map[string]bool{}
	for _, id := range db.Patients.Keys() {
		p := row(&db.Patients, id)
		key := [3]string{p.Name.First, p.Name.Last, p.DateOfBirth}
		if ids[key] || emails[p.Email] {
			t.Errorf("%s: name and birth date or email not unique", id)
		}
		ids[key], emails[p.Email] = true, true
		if ref.Records[id] == nil || ref.Suppliers[p.PreferredSupplierID] == nil {
			t.Errorf("%s: no record or supplier", id)
		}
		for _, aid := range p.AppointmentIDs {
			a := row(&db.Appointments, aid)
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
			rx := row(&db.Prescriptions, rid)
			if rx == nil || rx.PatientID != id || ref.Medications[rx.Medication] == nil || ref.Providers[rx.PrescriberID] == nil || ref.Suppliers[rx.SupplierID] == nil {
				t.Errorf("%s: prescription %s", id, rid)
			}
		}
		for _, did := range p.DeviceIDs {
			if d := row(&db.Devices, did); d == nil || d.PatientID != id || len(ref.Uploads[did]) == 0 {
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
	if !slices.IsSortedFunc(ref.Interactions, func(a, b Interaction) int {
		if a.A != b.A {
			return map[bool]int{true: -1, false: 1}[a.A < b.A]
		}
		return map[bool]int{true: -1, false: 1}[a.B < b.B]
	}) {
		t.Error("interactions not sorted")
	}
	if sev, _ := ref.interaction("warfarin", "ibuprofen"); sev != SeverityMajor {
		t.Errorf("warfarin + ibuprofen = %s, want major", sev)
	}
}

package telehealth

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// checkRule asserts that allowed passes CheckPolicy and violating fails it
// with rule, both for patient on db.
func checkRule(t *testing.T, db *DB, patient, rule string, allowed, violating emobench.Action) {
	t.Helper()
	wantPolicy(t, db, patient, "", allowed)
	wantPolicy(t, db, patient, rule, violating)
}

// wantPolicy asserts that a passes CheckPolicy for patient on db (rule "") or
// fails it with rule.
func wantPolicy(t *testing.T, db *DB, patient, rule string, a emobench.Action) {
	t.Helper()
	var v *PolicyViolation
	if err := CheckPolicy(envOver(db), patient, a); rule == "" && err != nil || rule != "" && (!errors.As(err, &v) || v.Rule != rule) {
		t.Errorf("%s%s gave %v, want a violation of %q (none: \"\")", a.Name, a.Arguments, err, rule)
	}
}

// ownReference gives db a copy of its Reference, which episodes share,
// with suppliers and uploads a test may add to.
func ownReference(db *DB) {
	r := *db.ref()
	r.Suppliers, r.Uploads = maps.Clone(r.Suppliers), maps.Clone(r.Uploads)
	db.Reference = sim.NewReference(&r)
}

func TestCheckPolicy_Rules(t *testing.T) {
	db := initialState()
	ownReference(db)
	at := func(h int) string { return nowTime.Add(time.Duration(h) * time.Hour).Format(timeLayout) }

	// Two scheduled appointments of one patient, one late and one not:
	// a hand-made pair on a copy.
	p := db.Patients.At("P10004")
	soon := &Appointment{ID: "APT90001", PatientID: p.ID, ProviderID: "DR001", Start: at(5), Status: StatusScheduled}
	later := &Appointment{ID: "APT90002", PatientID: p.ID, ProviderID: "DR001", Start: at(30), Status: StatusScheduled}
	stranger := &Appointment{ID: "APT90003", PatientID: "P10005", ProviderID: "DR001", Start: at(48), Status: StatusScheduled}
	for _, a := range []*Appointment{soon, later, stranger} {
		db.Appointments.Put(a.ID, a)
	}
	checkRule(t, db, p.ID, RuleCancellationWindow, sim.NewAction(ToolCancel, "appointment_id", later.ID, "reason", "x"), sim.NewAction(ToolCancel, "appointment_id", soon.ID, "reason", "x"))
	checkRule(t, db, p.ID, RuleOwnRecord, sim.NewAction(ToolCancel, "appointment_id", later.ID, "reason", "x"), sim.NewAction(ToolCancel, "appointment_id", stranger.ID, "reason", "x"))

	// Waivers: a no-show of a patient without a waiver, and one with a
	// waiver 11 months ago (13 months ago does not count).
	noShow := func(id, patient, waivedOn string) *Appointment {
		a := &Appointment{ID: id, PatientID: patient, ProviderID: "DR001", Start: "2024-12-02T10:00", Status: StatusNoShow, NoShowFee: NoShowFee}
		a.FeeWaived, a.WaivedOn = waivedOn != "", waivedOn
		db.Appointments.Put(id, a)
		p := edit(&db.Patients, patient)
		p.AppointmentIDs = append(p.AppointmentIDs, id)
		return a
	}
	for _, id := range []string{"P10006", "P10007"} {
		for _, aid := range db.Patients.At(id).AppointmentIDs {
			edit(&db.Appointments, aid).FeeWaived = false
		}
	}
	free := noShow("APT90010", "P10006", "")
	noShow("APT90011", "P10006", "2024-01-15") // 14 months ago
	noShow("APT90012", "P10007", "2024-04-20") // 11 months ago
	second := noShow("APT90013", "P10007", "")
	wantPolicy(t, db, "P10006", "", sim.NewAction(ToolWaiveNoShow, "appointment_id", free.ID))
	wantPolicy(t, db, "P10007", RuleWaiverOncePerYear, sim.NewAction(ToolWaiveNoShow, "appointment_id", second.ID))
	wantPolicy(t, db, "P10006", RuleOwnRecord, sim.NewAction(ToolWaiveNoShow, "appointment_id", second.ID))

	// Booking: licensed and not licensed in the patient's state.
	var lic, unlic *Provider
	for _, id := range slices.Sorted(maps.Keys(db.ref().Providers)) {
		pr := db.ref().Providers[id]
		if slices.Contains(pr.LicensedStates, p.Address.State) {
			lic = pr
		} else {
			unlic = pr
		}
	}
	book := func(pr *Provider) emobench.Action {
		return sim.NewAction(ToolBook, "patient_id", p.ID, "provider_id", pr.ID, "start_time", at(50), "visit_type", VisitTelehealth, "reason", "x")
	}
	checkRule(t, db, p.ID, RuleProviderLicensed, book(lic), book(unlic))
	checkRule(t, db, p.ID, RuleOwnRecord, sim.NewAction(ToolUpdatePhone, "patient_id", p.ID, "phone", "212-555-0100"), sim.NewAction(ToolUpdatePhone, "patient_id", "P10009", "phone", "212-555-0100"))

	// Medication changes on a hand-made regimen: warfarin and
	// acetaminophen, approved to become ibuprofen or tramadol.
	q := edit(&db.Patients, "P10008")
	for _, id := range q.PrescriptionIDs {
		edit(&db.Prescriptions, id).Status = RxDiscontinued
	}
	db.Prescriptions.Put("RX900001", &Prescription{ID: "RX900001", PatientID: q.ID, Medication: "warfarin", Dose: "5 mg", Frequency: "once daily", Status: RxActive, ExpiresOn: "2025-12-01", RefillsRemaining: 2, SupplierID: "SUP01"})
	db.Prescriptions.Put("RX900002", &Prescription{ID: "RX900002", PatientID: q.ID, Medication: "acetaminophen", Dose: "500 mg", Frequency: "as needed", Status: RxActive, ExpiresOn: "2025-01-01", RefillsRemaining: 2, SupplierID: "SUP01",
		Approved: []Alternative{{"ibuprofen", "400 mg", "three times daily"}, {"tramadol", "50 mg", "as needed"}}})
	q.PrescriptionIDs = append(q.PrescriptionIDs, "RX900001", "RX900002")
	change := func(med, dose, freq string) emobench.Action {
		return sim.NewAction(ToolChangeMedication, "prescription_id", "RX900002", "medication", med, "dose", dose, "frequency", freq)
	}
	checkRule(t, db, q.ID, RulePrescriberApproved, change("tramadol", "50 mg", "as needed"), change("tramadol", "100 mg", "as needed"))
	checkRule(t, db, q.ID, RuleNoMajorInteraction, change("tramadol", "50 mg", "as needed"), change("ibuprofen", "400 mg", "three times daily"))
	wantPolicy(t, db, "P10001", RuleOwnRecord, change("tramadol", "50 mg", "as needed"))
	// Refills: current and expired.
	checkRule(t, db, q.ID, RulePrescriptionCurrent, sim.NewAction(ToolRequestRefill, "prescription_id", "RX900001"), sim.NewAction(ToolRequestRefill, "prescription_id", "RX900002"))

	// Suppliers, with the patient's state and a controlled drug.
	state := q.Address.State
	db.Prescriptions.Put("RX900003", &Prescription{ID: "RX900003", PatientID: q.ID, Medication: "zolpidem", Dose: "5 mg", Frequency: "nightly", Status: RxActive, ExpiresOn: "2025-12-01", SupplierID: "SUP01"})
	n := 0
	sup := func(ships, licensed bool, stock ...string) string {
		n++
		id := fmt.Sprintf("SUP9%d", n)
		s := &Supplier{ID: id, Name: id, ControlledLicense: licensed, Stock: stock, ShipsTo: []string{"ZZ"}}
		if ships {
			s.ShipsTo = []string{state}
		}
		db.ref().Suppliers[id] = s
		return id
	}
	good := sup(true, true, "warfarin", "zolpidem")
	checkRule(t, db, q.ID, RuleSupplierStocks, supplierAction("RX900001", good), supplierAction("RX900001", sup(true, true, "zolpidem")))
	checkRule(t, db, q.ID, RuleSupplierShips, supplierAction("RX900001", good), supplierAction("RX900001", sup(false, true, "warfarin")))
	checkRule(t, db, q.ID, RuleSupplierControlled, supplierAction("RX900003", good), supplierAction("RX900003", sup(true, false, "zolpidem")))

	// Devices: one that uploaded an hour ago, one quiet for 8 days, one
	// whose last upload is an error.
	dev := func(id string, last Upload) {
		db.Devices.Put(id, &Device{ID: id, PatientID: q.ID, Type: DeviceBPCuff, Status: DeviceActive})
		db.ref().Uploads[id] = []Upload{{Time: at(-100), Value: "120/80 mmHg", Flag: FlagOK}, last}
	}
	dev("DEV90001", Upload{Time: at(-1), Value: "121/79 mmHg", Flag: FlagOK})
	dev("DEV90002", Upload{Time: at(-8 * 24), Value: "121/79 mmHg", Flag: FlagOK})
	dev("DEV90003", Upload{Time: at(-1), Value: "E-3 sensor error", Flag: FlagError})
	checkRule(t, db, q.ID, RuleDeviceFaulty, sim.NewAction(ToolReplaceDevice, "device_id", "DEV90002"), sim.NewAction(ToolReplaceDevice, "device_id", "DEV90001"))
	checkRule(t, db, q.ID, RuleDeviceFaulty, sim.NewAction(ToolReplaceDevice, "device_id", "DEV90003"), sim.NewAction(ToolReplaceDevice, "device_id", "DEV90001"))
	checkRule(t, db, "P10001", RuleOwnRecord, sim.NewAction(ToolUpdatePhone, "patient_id", "P10001", "phone", "212-555-0100"), sim.NewAction(ToolReplaceDevice, "device_id", "DEV90002"))
}

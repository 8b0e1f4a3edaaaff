package telehealth

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench/sim"
)

// call runs a tool on env and fails the test on an error.
func call(t *testing.T, db *DB, name string, args any) map[string]any {
	t.Helper()
	res, err := callErr(db, name, args)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res), &out); err != nil {
		t.Fatalf("%s: result %q is no JSON object: %v", name, res, err)
	}
	return out
}

func callErr(db *DB, name string, args any) (string, error) {
	b, _ := json.Marshal(args)
	return envOver(db).Call(name, b)
}

// wantErr runs a tool that must fail, with an error containing want.
func wantErr(t *testing.T, db *DB, name string, args any, want string) {
	t.Helper()
	before := sim.HashState(db)
	_, err := callErr(db, name, args)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("%s %v: error %v, want one containing %q", name, args, err, want)
	}
	if sim.HashState(db) != before {
		t.Fatalf("%s: a failed call changed the state", name)
	}
}

func TestTools_Count(t *testing.T) {
	writes := 0
	for _, tl := range Tools() {
		if tl.Writes {
			writes++
		}
		var schema map[string]any
		if err := json.Unmarshal(tl.Parameters, &schema); err != nil || schema["type"] != "object" {
			t.Errorf("%s: schema %s", tl.Name, tl.Parameters)
		}
	}
	if n := len(Tools()); n < 12 || writes < 5 {
		t.Errorf("%d tools, %d writes: want at least 12 and 5", n, writes)
	}
}

func TestTools_Authentication(t *testing.T) {
	db := initialState()
	p := row(&db.Patients, "P10001")
	got := call(t, db, ToolFindByNameDOB, map[string]string{"first_name": strings.ToUpper(p.Name.First), "last_name": p.Name.Last, "date_of_birth": p.DateOfBirth})
	if got["patient_id"] != p.ID {
		t.Errorf("by name: %v, want %s", got, p.ID)
	}
	got = call(t, db, ToolFindByEmailDOB, map[string]string{"email": " " + p.Email, "date_of_birth": p.DateOfBirth})
	if got["patient_id"] != p.ID {
		t.Errorf("by email: %v, want %s", got, p.ID)
	}
	wantErr(t, db, ToolFindByEmailDOB, map[string]string{"email": p.Email, "date_of_birth": "1900-01-01"}, "no patient")
	wantErr(t, db, ToolFindByNameDOB, map[string]string{"first_name": p.Name.First, "last_name": p.Name.Last, "date_of_birth": "03/04/1970"}, "YYYY-MM-DD")
}

func TestTools_Reads(t *testing.T) {
	db := initialState()
	p := row(&db.Patients, "P10001")
	if got := call(t, db, ToolGetPatient, map[string]string{"patient_id": p.ID}); got["email"] != p.Email {
		t.Errorf("patient: %v", got)
	}
	rec := call(t, db, ToolGetRecord, map[string]string{"patient_id": p.ID})
	if len(rec["conditions"].([]any)) == 0 {
		t.Errorf("record without conditions: %v", rec)
	}
	rx := row(&db.Prescriptions, p.PrescriptionIDs[0])
	if got := call(t, db, ToolGetPrescription, map[string]string{"prescription_id": rx.ID}); got["medication"] != rx.Medication {
		t.Errorf("prescription: %v", got)
	}
	got := call(t, db, ToolCheckInteractions, map[string]any{"medications": []string{"Warfarin", "ibuprofen", "metformin"}})
	pairs := got["interactions"].([]any)
	if len(pairs) != 3 || pairs[0].(map[string]any)["severity"] != SeverityMajor || pairs[1].(map[string]any)["severity"] != SeverityNone {
		t.Errorf("interactions: %v", got)
	}
	wantErr(t, db, ToolCheckInteractions, map[string]any{"medications": []string{"warfarin"}}, "at least two")
	wantErr(t, db, ToolCheckInteractions, map[string]any{"medications": []string{"warfarin", "snake oil"}}, "formulary")
	provs := call(t, db, ToolSearchProviders, map[string]string{"specialty": "Cardiology"})["providers"].([]any)
	if len(provs) != 5 {
		t.Errorf("cardiologists: %d, want 5", len(provs))
	}
	wantErr(t, db, ToolSearchProviders, map[string]string{"specialty": "astrology"}, "no providers")
	pr := db.ref().Providers["DR001"]
	det := call(t, db, ToolGetProvider, map[string]string{"provider_id": "DR001"})
	slots := det["open_slots"].([]any)
	if len(slots) == 0 || len(slots) != len(db.openSlots(pr)) {
		t.Errorf("open slots: %d", len(slots))
	}
	for _, s := range slots {
		if s.(string) <= Now {
			t.Errorf("slot %v is not after now", s)
		}
	}
	appt := row(&db.Appointments, p.AppointmentIDs[0])
	if got := call(t, db, ToolGetAppointment, map[string]string{"appointment_id": appt.ID}); got["provider_name"] != db.ref().Providers[appt.ProviderID].Name {
		t.Errorf("appointment: %v", got)
	}
	if got := call(t, db, ToolListSuppliers, map[string]string{}); len(got["suppliers"].([]any)) != len(db.ref().Suppliers) {
		t.Errorf("suppliers: %v", got)
	}
	d := find(t, db.Devices.All(), func(d *Device) bool { return true })
	if got := call(t, db, ToolListUploads, map[string]string{"device_id": d.ID}); len(got["uploads"].([]any)) != len(db.ref().Uploads[d.ID]) {
		t.Errorf("uploads: %v", got)
	}
	wantErr(t, db, ToolListUploads, map[string]string{"device_id": "DEV0"}, "not found")
	if got := call(t, db, ToolTransfer, map[string]string{"summary": "billing dispute"}); got["status"] != "transferred" {
		t.Errorf("transfer: %v", got)
	}
	wantErr(t, db, ToolTransfer, map[string]string{"summary": " "}, "summary")
}

// unlicensedProvider returns a provider not licensed in state, and one
// of its open slots.
func unlicensedProvider(t *testing.T, db *DB, state string) (*Provider, string) {
	t.Helper()
	pr := find(t, inOrder(db.ref().Providers), func(pr *Provider) bool {
		return !slices.Contains(pr.LicensedStates, state) && len(db.openSlots(pr)) > 0
	})
	return pr, db.openSlots(pr)[0]
}

func TestTools_Book(t *testing.T) {
	db := initialState()
	p := row(&db.Patients, "P10002")
	pr := find(t, inOrder(db.ref().Providers), func(pr *Provider) bool {
		return slices.Contains(pr.LicensedStates, p.Address.State) && len(db.openSlots(pr)) > 0
	})
	slot := db.openSlots(pr)[0]
	args := map[string]string{"patient_id": p.ID, "provider_id": pr.ID, "start_time": slot, "visit_type": VisitTelehealth, "reason": "follow-up visit"}
	got := call(t, db, ToolBook, args)
	id := got["appointment_id"].(string)
	if a := row(&db.Appointments, id); a == nil || a.Status != StatusScheduled || a.Fee != pr.VisitFee || !slices.Contains(row(&db.Patients, p.ID).AppointmentIDs, id) {
		t.Fatalf("booked %v", got)
	}
	if slices.Contains(db.openSlots(pr), slot) {
		t.Error("a booked slot is still open")
	}
	wantErr(t, db, ToolBook, args, "no open slot")
	wantErr(t, db, ToolBook, map[string]string{"patient_id": p.ID, "provider_id": pr.ID, "start_time": "tomorrow", "visit_type": VisitTelehealth, "reason": "x"}, "YYYY-MM-DDTHH:MM")
	wantErr(t, db, ToolBook, map[string]string{"patient_id": p.ID, "provider_id": pr.ID, "start_time": "2025-03-09T09:00", "visit_type": VisitTelehealth, "reason": "x"}, "no open slot")
	wantErr(t, db, ToolBook, map[string]string{"patient_id": p.ID, "provider_id": pr.ID, "start_time": slot, "visit_type": "house call", "reason": "x"}, "visit types")

	// breaks: provider_licensed — a provider not licensed in the patient's state is booked.
	other, oslot := unlicensedProvider(t, db, p.Address.State)
	got = call(t, db, ToolBook, map[string]string{"patient_id": p.ID, "provider_id": other.ID, "start_time": oslot, "visit_type": VisitTelehealth, "reason": "second opinion"})
	if row(&db.Appointments, got["appointment_id"].(string)).ProviderID != other.ID {
		t.Errorf("unlicensed booking: %v", got)
	}
}

func TestTools_Cancel(t *testing.T) {
	db := initialState()
	later := find(t, db.Appointments.All(), func(a *Appointment) bool {
		return a.Status == StatusScheduled && a.Start >= nowTime.Add(cancellationWindow).Format(timeLayout)
	})
	call(t, db, ToolCancel, map[string]string{"appointment_id": later.ID, "reason": "schedule conflict"})
	if a := row(&db.Appointments, later.ID); a.Status != StatusCancelled || a.CancelledAt != Now || a.CancelReason != "schedule conflict" {
		t.Errorf("cancelled: %+v", a)
	}
	wantErr(t, db, ToolCancel, map[string]string{"appointment_id": later.ID, "reason": "again"}, "is cancelled")
	done := find(t, db.Appointments.All(), func(a *Appointment) bool { return a.Status == StatusCompleted })
	wantErr(t, db, ToolCancel, map[string]string{"appointment_id": done.ID, "reason": "x"}, "is completed")
	wantErr(t, db, ToolCancel, map[string]string{"appointment_id": "APT1", "reason": "x"}, "not found")

	// breaks: cancellation_window — an appointment starting within 24 hours is cancelled.
	soon := find(t, db.Appointments.All(), func(a *Appointment) bool {
		return a.Status == StatusScheduled && a.Start < nowTime.Add(cancellationWindow).Format(timeLayout)
	})
	call(t, db, ToolCancel, map[string]string{"appointment_id": soon.ID, "reason": "feeling better"})
	if row(&db.Appointments, soon.ID).Status != StatusCancelled {
		t.Error("late cancellation did not cancel")
	}
	// breaks: own_record — the tool takes no patient: an appointment of
	// another patient than the one verified is cancelled all the same.
	other := find(t, db.Appointments.All(), func(a *Appointment) bool {
		return a.Status == StatusScheduled && a.PatientID != later.PatientID && a.PatientID != soon.PatientID
	})
	call(t, db, ToolCancel, map[string]string{"appointment_id": other.ID, "reason": "cancelled by a relative"})
	if row(&db.Appointments, other.ID).Status != StatusCancelled {
		t.Error("another patient's appointment was not cancelled")
	}
}

func TestTools_WaiveNoShow(t *testing.T) {
	db := initialState()
	a := find(t, db.Appointments.All(), func(a *Appointment) bool { return a.Status == StatusNoShow && !a.FeeWaived })
	call(t, db, ToolWaiveNoShow, map[string]string{"appointment_id": a.ID})
	if x := row(&db.Appointments, a.ID); !x.FeeWaived || x.WaivedOn != Today {
		t.Errorf("waived: %+v", x)
	}
	wantErr(t, db, ToolWaiveNoShow, map[string]string{"appointment_id": a.ID}, "already waived")
	done := find(t, db.Appointments.All(), func(a *Appointment) bool { return a.Status == StatusCompleted })
	wantErr(t, db, ToolWaiveNoShow, map[string]string{"appointment_id": done.ID}, "no no-show fee")

	// breaks: waiver_once_per_year — a second waiver within 12 months goes through.
	p := row(&db.Patients, a.PatientID)
	for _, id := range p.AppointmentIDs {
		if x := row(&db.Appointments, id); x.Status == StatusNoShow && !x.FeeWaived {
			call(t, db, ToolWaiveNoShow, map[string]string{"appointment_id": id})
			if !row(&db.Appointments, id).FeeWaived {
				t.Error("second waiver not recorded")
			}
			return
		}
	}
	other := find(t, db.Appointments.All(), func(x *Appointment) bool {
		return x.Status == StatusNoShow && !x.FeeWaived && recentWaiver(db, x.PatientID) != ""
	})
	call(t, db, ToolWaiveNoShow, map[string]string{"appointment_id": other.ID})
}

func TestTools_ChangeMedication(t *testing.T) {
	db := initialState()
	rx := find(t, db.Prescriptions.All(), func(rx *Prescription) bool {
		return len(rx.Approved) > 0 && majorWith(db, rx.PatientID, rx.ID, rx.Approved[0].Medication) == ""
	})
	alt := rx.Approved[0]
	call(t, db, ToolChangeMedication, map[string]string{"prescription_id": rx.ID, "medication": alt.Medication, "dose": alt.Dose, "frequency": alt.Frequency})
	if x := row(&db.Prescriptions, rx.ID); x.Medication != alt.Medication || x.Dose != alt.Dose || x.ChangedOn != Today || len(x.Approved) != 0 {
		t.Errorf("changed: %+v", x)
	}
	wantErr(t, db, ToolChangeMedication, map[string]string{"prescription_id": rx.ID, "medication": alt.Medication, "dose": alt.Dose, "frequency": alt.Frequency}, "already")
	wantErr(t, db, ToolChangeMedication, map[string]string{"prescription_id": rx.ID, "medication": "unobtainium", "dose": "1 mg", "frequency": "daily"}, "formulary")
	wantErr(t, db, ToolChangeMedication, map[string]string{"prescription_id": rx.ID, "medication": "aspirin", "dose": "", "frequency": "daily"}, "must not be empty")

	// breaks: prescriber_approved — a dose the patient wants, that no prescriber approved, is set.
	other := find(t, db.Prescriptions.All(), func(x *Prescription) bool { return x.Status == RxActive && x.ID != rx.ID })
	call(t, db, ToolChangeMedication, map[string]string{"prescription_id": other.ID, "medication": other.Medication, "dose": "999 mg", "frequency": other.Frequency})
	if row(&db.Prescriptions, other.ID).Dose != "999 mg" {
		t.Error("unapproved dose not set")
	}
	// breaks: no_major_interaction — an approved alternative with a major interaction is set.
	bad := find(t, db.Prescriptions.All(), func(x *Prescription) bool {
		return len(x.Approved) > 0 && majorWith(db, x.PatientID, x.ID, x.Approved[0].Medication) != ""
	})
	a := bad.Approved[0]
	call(t, db, ToolChangeMedication, map[string]string{"prescription_id": bad.ID, "medication": a.Medication, "dose": a.Dose, "frequency": a.Frequency})
	if row(&db.Prescriptions, bad.ID).Medication != a.Medication {
		t.Error("interacting change not made")
	}
}

func TestTools_UpdateSupplier(t *testing.T) {
	db := initialState()
	ok := func(rx *Prescription, s *Supplier) bool {
		return s.ID != rx.SupplierID && CheckPolicy(envOver(db), rx.PatientID, supplierAction(rx.ID, s.ID)) == nil
	}
	var rx *Prescription
	var good *Supplier
	for _, id := range db.Prescriptions.Keys() {
		for _, sid := range slices.Sorted(maps.Keys(db.ref().Suppliers)) {
			if x, s := row(&db.Prescriptions, id), db.ref().Suppliers[sid]; rx == nil && ok(x, s) {
				rx, good = x, s
			}
		}
	}
	call(t, db, ToolUpdateSupplier, map[string]string{"prescription_id": rx.ID, "supplier_id": good.ID})
	if row(&db.Prescriptions, rx.ID).SupplierID != good.ID {
		t.Error("supplier not updated")
	}
	wantErr(t, db, ToolUpdateSupplier, map[string]string{"prescription_id": rx.ID, "supplier_id": good.ID}, "already")
	wantErr(t, db, ToolUpdateSupplier, map[string]string{"prescription_id": rx.ID, "supplier_id": "SUP99"}, "not found")

	// breaks: supplier_ships — a supplier that does not ship to the patient's state takes it.
	state := row(&db.Patients, rx.PatientID).Address.State
	far := find(t, inOrder(db.ref().Suppliers), func(s *Supplier) bool { return !slices.Contains(s.ShipsTo, state) })
	call(t, db, ToolUpdateSupplier, map[string]string{"prescription_id": rx.ID, "supplier_id": far.ID})
	// breaks: supplier_stocks and supplier_controlled — a controlled drug goes to an unlicensed supplier.
	ctrl := find(t, db.Prescriptions.All(), func(x *Prescription) bool { return db.ref().Medications[x.Medication].Controlled })
	unlicensed := find(t, inOrder(db.ref().Suppliers), func(s *Supplier) bool { return !s.ControlledLicense && s.ID != ctrl.SupplierID })
	call(t, db, ToolUpdateSupplier, map[string]string{"prescription_id": ctrl.ID, "supplier_id": unlicensed.ID})
	if row(&db.Prescriptions, rx.ID).SupplierID != far.ID || row(&db.Prescriptions, ctrl.ID).SupplierID != unlicensed.ID {
		t.Error("policy-breaking supplier moves not made")
	}
}

func TestTools_RequestRefill(t *testing.T) {
	db := initialState()
	rx := find(t, db.Prescriptions.All(), func(rx *Prescription) bool { return rx.RefillsRemaining > 0 && rx.ExpiresOn >= Today })
	n := rx.RefillsRemaining
	got := call(t, db, ToolRequestRefill, map[string]string{"prescription_id": rx.ID})
	if row(&db.Prescriptions, rx.ID).RefillsRemaining != n-1 || db.RefillOrders.Len() != 1 || got["refills_remaining"] != float64(n-1) {
		t.Errorf("refill: %v", got)
	}
	empty := find(t, db.Prescriptions.All(), func(rx *Prescription) bool { return rx.RefillsRemaining == 0 })
	wantErr(t, db, ToolRequestRefill, map[string]string{"prescription_id": empty.ID}, "no refills")

	// breaks: prescription_current — an expired prescription is refilled.
	old := find(t, db.Prescriptions.All(), func(rx *Prescription) bool { return rx.RefillsRemaining > 0 && rx.ExpiresOn < Today })
	call(t, db, ToolRequestRefill, map[string]string{"prescription_id": old.ID})
	if db.RefillOrders.Len() != 2 {
		t.Error("expired refill not ordered")
	}
}

func TestTools_ReplaceDevice(t *testing.T) {
	db := initialState()
	d := find(t, db.Devices.All(), func(d *Device) bool { return faulty(db, d) })
	got := call(t, db, ToolReplaceDevice, map[string]string{"device_id": d.ID})
	nd := got["new_device"].(map[string]any)["device_id"].(string)
	if row(&db.Devices, d.ID).Status != DeviceRetired || row(&db.Devices, nd).Replaces != d.ID || !slices.Contains(row(&db.Patients, d.PatientID).DeviceIDs, nd) {
		t.Errorf("replace: %v", got)
	}
	wantErr(t, db, ToolReplaceDevice, map[string]string{"device_id": d.ID}, "retired")

	// breaks: device_faulty — a device that uploaded yesterday is replaced.
	ok := find(t, db.Devices.All(), func(d *Device) bool { return d.Status == DeviceActive && !faulty(db, d) })
	call(t, db, ToolReplaceDevice, map[string]string{"device_id": ok.ID})
	if row(&db.Devices, ok.ID).Status != DeviceRetired {
		t.Error("working device not replaced")
	}
}

func TestTools_UpdatePhone(t *testing.T) {
	db := initialState()
	call(t, db, ToolUpdatePhone, map[string]string{"patient_id": "P10003", "phone": "303-555-0147"})
	if row(&db.Patients, "P10003").Phone != "303-555-0147" {
		t.Error("phone not updated")
	}
	wantErr(t, db, ToolUpdatePhone, map[string]string{"patient_id": "P10003", "phone": "303-555-0147"}, "already")
	wantErr(t, db, ToolUpdatePhone, map[string]string{"patient_id": "P10003", "phone": "5550147"}, "NNN-NNN-NNNN")
}

// TestTools_BadArguments calls every tool with malformed arguments: an
// error, never a panic or a change.
func TestTools_BadArguments(t *testing.T) {
	db := initialState()
	env := envOver(db)
	before := env.Hash()
	for _, tl := range Tools() {
		for _, args := range []string{`[]`, `{"nope": 1}`, `{"patient_id": 5, "prescription_id": [], "appointment_id": {}, "device_id": null}`, `not json`, `{}`} {
			if tl.Name == ToolListSuppliers && args == `{}` {
				continue
			}
			if _, err := env.Call(tl.Name, json.RawMessage(args)); err == nil {
				t.Errorf("%s(%s): no error", tl.Name, args)
			}
		}
	}
	if env.Hash() != before {
		t.Error("bad calls changed the state")
	}
}

// TestTools_ExactIDs checks that every tool taking an id finds its record
// only by the id exactly as stored, as a store keyed by id does: the id
// works, and the id in lower case, with a space around it or unknown is
// "not found" and changes nothing.
func TestTools_ExactIDs(t *testing.T) {
	db := initialState()
	p := find(t, db.Patients.All(), func(p *Patient) bool {
		return len(p.AppointmentIDs) > 0 && len(p.PrescriptionIDs) > 0 && len(p.DeviceIDs) > 0
	})
	appt, rx, dev := row(&db.Appointments, p.AppointmentIDs[0]), row(&db.Prescriptions, p.PrescriptionIDs[0]), row(&db.Devices, p.DeviceIDs[0])
	pr := db.ref().Providers[slices.Sorted(maps.Keys(db.ref().Providers))[0]]
	cases := []struct {
		tool, key, id string
		other         map[string]string
	}{
		{ToolGetPatient, "patient_id", p.ID, nil},
		{ToolGetRecord, "patient_id", p.ID, nil},
		{ToolGetAppointment, "appointment_id", appt.ID, nil},
		{ToolGetPrescription, "prescription_id", rx.ID, nil},
		{ToolGetProvider, "provider_id", pr.ID, nil},
		{ToolListUploads, "device_id", dev.ID, nil},
		// Writes: the variant ids only, so the state stays the initial one.
		{ToolCancel, "appointment_id", "", map[string]string{"reason": "travel"}},
		{ToolWaiveNoShow, "appointment_id", "", nil},
		{ToolRequestRefill, "prescription_id", "", nil},
		{ToolReplaceDevice, "device_id", "", nil},
		{ToolUpdatePhone, "patient_id", "", map[string]string{"phone": "212-555-0199"}},
		{ToolUpdateSupplier, "supplier_id", "", map[string]string{"prescription_id": rx.ID}},
	}
	ids := map[string]string{"patient_id": p.ID, "appointment_id": appt.ID, "prescription_id": rx.ID, "device_id": dev.ID,
		"provider_id": pr.ID, "supplier_id": slices.Sorted(maps.Keys(db.ref().Suppliers))[0]}
	for _, c := range cases {
		args := func(id string) map[string]string {
			m := map[string]string{c.key: id}
			for k, v := range c.other {
				m[k] = v
			}
			return m
		}
		if c.id != "" {
			call(t, db, c.tool, args(c.id))
		}
		id := ids[c.key]
		for _, variant := range []string{strings.ToLower(id), " " + id, id + " ", id + "X"} {
			wantErr(t, db, c.tool, args(variant), "not found")
		}
	}
	// The policy's own-record rules look records up the same way.
	env := envOver(db)
	for _, a := range []struct{ tool, key, id string }{
		{ToolCancel, "appointment_id", appt.ID}, {ToolRequestRefill, "prescription_id", rx.ID}, {ToolReplaceDevice, "device_id", dev.ID},
		{ToolUpdatePhone, "patient_id", p.ID},
	} {
		err := CheckPolicy(env, p.ID, sim.NewAction(a.tool, a.key, strings.ToLower(a.id), "reason", "travel", "phone", "212-555-0199"))
		var v *PolicyViolation
		if !errors.As(err, &v) || v.Rule != RuleOwnRecord {
			t.Errorf("CheckPolicy %s with %s in lower case: %v, want a %s violation", a.tool, a.key, err, RuleOwnRecord)
		}
	}
}

// TestTools_ErrorsCapEchoedArguments checks that an error repeats at most
// maxEcho characters of an argument, ending "…", however long the
// argument, and repeats a short one whole.
func TestTools_ErrorsCapEchoedArguments(t *testing.T) {
	db := initialState()
	huge := strings.Repeat("é", 100_000)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{ToolGetPatient, map[string]any{"patient_id": huge}},
		{ToolGetAppointment, map[string]any{"appointment_id": huge}},
		{ToolGetPrescription, map[string]any{"prescription_id": huge}},
		{ToolGetProvider, map[string]any{"provider_id": huge}},
		{ToolListUploads, map[string]any{"device_id": huge}},
		{ToolSearchProviders, map[string]any{"specialty": huge}},
		{ToolCheckInteractions, map[string]any{"medications": []string{huge, "warfarin"}}},
		{ToolFindByNameDOB, map[string]any{"first_name": huge, "last_name": huge, "date_of_birth": "1980-01-01"}},
		{ToolFindByEmailDOB, map[string]any{"email": huge, "date_of_birth": "1980-01-01"}},
		{ToolFindByEmailDOB, map[string]any{"email": "a@example.com", "date_of_birth": huge}},
		{ToolUpdatePhone, map[string]any{"patient_id": "P10001", "phone": huge}},
		{ToolUpdateSupplier, map[string]any{"prescription_id": row(&db.Patients, "P10001").PrescriptionIDs[0], "supplier_id": huge}},
		{ToolChangeMedication, map[string]any{"prescription_id": row(&db.Patients, "P10001").PrescriptionIDs[0], "medication": huge, "dose": "1 mg", "frequency": "daily"}},
		{ToolBook, map[string]any{"patient_id": "P10001", "provider_id": slices.Sorted(maps.Keys(db.ref().Providers))[0], "start_time": huge, "visit_type": VisitTelehealth, "reason": "x"}},
	} {
		_, err := callErr(db, c.tool, c.args)
		if err == nil {
			t.Errorf("%s with a 100,000-character argument: no error", c.tool)
			continue
		}
		if n := len(err.Error()); n > 600 {
			t.Errorf("%s: error of %d bytes, want the argument cut: %.120s", c.tool, n, err)
		}
		if !strings.Contains(err.Error(), strings.Repeat("é", maxEcho)+"…") || strings.Contains(err.Error(), strings.Repeat("é", maxEcho+1)) {
			t.Errorf("%s: error %.200q does not quote the argument's first %d characters and \"…\"", c.tool, err, maxEcho)
		}
	}
	if got, want := echo(strings.Repeat("a", maxEcho)), strings.Repeat("a", maxEcho); got != want {
		t.Errorf("echo of %d characters = %q, want it whole", maxEcho, got)
	}
	wantErr(t, db, ToolGetPatient, map[string]string{"patient_id": "P99999"}, `patient "P99999" not found`)
}

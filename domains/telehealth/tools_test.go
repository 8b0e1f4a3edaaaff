package telehealth

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench/sim"
)

// step is one tool call of a script run on one environment: its result
// holds want, or, when err, it fails with an error holding want and
// changes nothing; then check, if set, reads the state.
type step struct {
	tool  string
	args  map[string]any
	want  string
	err   bool
	check func(db *DB) bool
}

// kv makes arguments of alternating keys and values.
func kv(pairs ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i].(string)] = pairs[i+1]
	}
	return m
}

// fit returns args but for the names the tool takes no parameter of.
func fit(tool string, args map[string]any) map[string]any {
	for _, tl := range tools() {
		if tl.Name == tool {
			var schema struct{ Properties map[string]any }
			_ = json.Unmarshal(tl.Parameters, &schema)
			maps.DeleteFunc(args, func(k string, _ any) bool { return schema.Properties[k] == nil })
		}
	}
	return args
}

// run runs steps in order on env.
func run(t *testing.T, env *sim.StateEnv[DB], steps []step) {
	t.Helper()
	for i, s := range steps {
		b, _ := json.Marshal(s.args)
		before := env.Hash()
		res, err := env.Call(s.tool, b)
		switch {
		case s.err && (err == nil || !strings.Contains(err.Error(), s.want) || env.Hash() != before):
			t.Errorf("step %d %s%s: error %v (state changed: %v), want one holding %q", i, s.tool, b, err, env.Hash() != before, s.want)
		case !s.err && (err != nil || !strings.Contains(res, s.want)):
			t.Errorf("step %d %s%s: %.300s, %v: want a result holding %q", i, s.tool, b, res, err, s.want)
		case s.check != nil && !s.check(env.State):
			t.Errorf("step %d %s%s: the state after it is not as expected", i, s.tool, b)
		}
	}
}

// TestTools runs a script of calls of every tool, on one environment:
// results, errors, what the writes change, and (steps marked "breaks")
// writes the policy forbids but the tools carry out, as the clinic's
// systems would.
func TestTools(t *testing.T) {
	env := newEnv()
	db := env.State
	p := db.Patients.At("P10001")
	rx := db.Prescriptions.At(p.PrescriptionIDs[0])
	appt := db.Appointments.At(p.AppointmentIDs[0])
	soon := func(a *Appointment) bool { return a.Start < nowTime.Add(cancellationWindow).Format(timeLayout) }
	later := find(t, db.Appointments.All(), func(a *Appointment) bool { return a.Status == StatusScheduled && !soon(a) })
	late := find(t, db.Appointments.All(), func(a *Appointment) bool { return a.Status == StatusScheduled && soon(a) })
	done := find(t, db.Appointments.All(), func(a *Appointment) bool { return a.Status == StatusCompleted })
	noShow := find(t, db.Appointments.All(), func(a *Appointment) bool {
		return a.Status == StatusNoShow && !a.FeeWaived && slices.ContainsFunc(db.Patients.At(a.PatientID).AppointmentIDs, func(id string) bool {
			x := db.Appointments.At(id)
			return id != a.ID && x.Status == StatusNoShow && !x.FeeWaived
		})
	})
	var second *Appointment // another unwaived no-show of noShow's patient
	for _, id := range db.Patients.At(noShow.PatientID).AppointmentIDs {
		if x := db.Appointments.At(id); id != noShow.ID && x.Status == StatusNoShow && !x.FeeWaived {
			second = x
		}
	}
	safe := find(t, db.Prescriptions.All(), func(x *Prescription) bool {
		return len(x.Approved) > 0 && majorWith(db, x.PatientID, x.ID, x.Approved[0].Medication) == ""
	})
	risky := find(t, db.Prescriptions.All(), func(x *Prescription) bool {
		return len(x.Approved) > 0 && majorWith(db, x.PatientID, x.ID, x.Approved[0].Medication) != ""
	})
	alt, bad := safe.Approved[0], risky.Approved[0]
	refill := find(t, db.Prescriptions.All(), func(x *Prescription) bool { return x.RefillsRemaining > 0 && x.ExpiresOn >= Today })
	expired := find(t, db.Prescriptions.All(), func(x *Prescription) bool { return x.RefillsRemaining > 0 && x.ExpiresOn < Today })
	empty := find(t, db.Prescriptions.All(), func(x *Prescription) bool { return x.RefillsRemaining == 0 })
	ctrl := find(t, db.Prescriptions.All(), func(x *Prescription) bool { return db.ref().Medications[x.Medication].Controlled })
	eligible := func(x *Prescription, s *Supplier) bool {
		return s.ID != x.SupplierID && CheckPolicy(env, x.PatientID, supplierAction(x.ID, s.ID)) == nil
	}
	moved := find(t, db.Prescriptions.All(), func(x *Prescription) bool {
		return x.ID != ctrl.ID && slices.ContainsFunc(slices.Collect(maps.Values(db.ref().Suppliers)), func(s *Supplier) bool { return eligible(x, s) })
	})
	good := find(t, inOrder(db.ref().Suppliers), func(s *Supplier) bool { return eligible(moved, s) })
	far := find(t, inOrder(db.ref().Suppliers), func(s *Supplier) bool {
		return !slices.Contains(s.ShipsTo, db.Patients.At(moved.PatientID).Address.State)
	})
	unlicensed := find(t, inOrder(db.ref().Suppliers), func(s *Supplier) bool { return !s.ControlledLicense && s.ID != ctrl.SupplierID })
	broken := find(t, db.Devices.All(), func(d *Device) bool { return faulty(db, d) })
	working := find(t, db.Devices.All(), func(d *Device) bool { return !faulty(db, d) })
	pp := db.Patients.At("P10002")
	licensed := find(t, inOrder(db.ref().Providers), func(pr *Provider) bool {
		return slices.Contains(pr.LicensedStates, pp.Address.State) && len(db.openSlots(pr)) > 0
	})
	unlic := find(t, inOrder(db.ref().Providers), func(pr *Provider) bool {
		return !slices.Contains(pr.LicensedStates, pp.Address.State) && len(db.openSlots(pr)) > 0
	})
	slot, uslot := db.openSlots(licensed)[0], db.openSlots(unlic)[0]
	book := func(pr *Provider, start, vt string) map[string]any {
		return kv("patient_id", pp.ID, "provider_id", pr.ID, "start_time", start, "visit_type", vt, "reason", "follow-up visit")
	}
	booked := func(pr *Provider, start string) func(db *DB) bool {
		return func(db *DB) bool {
			a := db.Appointments.At(fmt.Sprintf("APT%05d", 20000+db.Appointments.Len()))
			return a.ProviderID == pr.ID && a.Start == start && a.Fee == pr.VisitFee && slices.Contains(db.Patients.At(pp.ID).AppointmentIDs, a.ID) &&
				!slices.Contains(db.openSlots(pr), start)
		}
	}
	status := func(id, want string) func(db *DB) bool {
		return func(db *DB) bool { return db.Appointments.At(id).Status == want }
	}
	change := func(x *Prescription, a Alternative) map[string]any {
		return kv("prescription_id", x.ID, "medication", a.Medication, "dose", a.Dose, "frequency", a.Frequency)
	}
	rxIs := func(id string, ok func(x *Prescription) bool) func(db *DB) bool {
		return func(db *DB) bool { return ok(db.Prescriptions.At(id)) }
	}
	run(t, env, []step{
		{tool: ToolFindByNameDOB, args: kv("first_name", strings.ToUpper(p.Name.First), "last_name", p.Name.Last, "date_of_birth", p.DateOfBirth), want: p.ID},
		{tool: ToolFindByEmailDOB, args: kv("email", " "+p.Email, "date_of_birth", p.DateOfBirth), want: p.ID},
		{tool: ToolFindByEmailDOB, args: kv("email", p.Email, "date_of_birth", "1900-01-01"), want: "no patient", err: true},
		{tool: ToolFindByNameDOB, args: kv("first_name", "A", "last_name", "B", "date_of_birth", "03/04/1970"), want: "YYYY-MM-DD", err: true},
		{tool: ToolGetPatient, args: kv("patient_id", p.ID), want: p.Email},
		{tool: ToolGetPatient, args: kv("patient_id", "P99999"), want: `patient "P99999" not found`, err: true},
		{tool: ToolGetRecord, args: kv("patient_id", p.ID), want: db.ref().Records[p.ID].Conditions[0]},
		{tool: ToolGetPrescription, args: kv("prescription_id", rx.ID), want: `"medication":"` + rx.Medication},
		{tool: ToolCheckInteractions, args: kv("medications", []string{"Warfarin", "ibuprofen", "metformin"}),
			want: `{"drug_a":"warfarin","drug_b":"ibuprofen","severity":"major","note":"raises the risk of serious bleeding"},{"drug_a":"warfarin","drug_b":"metformin","severity":"none"}`},
		{tool: ToolCheckInteractions, args: kv("medications", []string{"warfarin"}), want: "at least two", err: true},
		{tool: ToolCheckInteractions, args: kv("medications", []string{"warfarin", "snake oil"}), want: "formulary", err: true},
		{tool: ToolSearchProviders, args: kv("specialty", "Cardiology"), want: `"specialty":"cardiology"`},
		{tool: ToolSearchProviders, args: kv("specialty", "astrology"), want: "no providers", err: true},
		{tool: ToolGetProvider, args: kv("provider_id", licensed.ID), want: `"open_slots":["` + slot},
		{tool: ToolGetAppointment, args: kv("appointment_id", appt.ID), want: `"provider_name":"` + db.ref().Providers[appt.ProviderID].Name},
		{tool: ToolListSuppliers, args: kv(), want: fmt.Sprintf(`"supplier_id":"SUP%02d"`, len(db.ref().Suppliers))},
		{tool: ToolListUploads, args: kv("device_id", broken.ID), want: db.ref().Uploads[broken.ID][0].Time},
		{tool: ToolListUploads, args: kv("device_id", "DEV0"), want: "not found", err: true},
		{tool: ToolTransfer, args: kv("summary", "billing dispute"), want: "transferred"},
		{tool: ToolTransfer, args: kv("summary", " "), want: "summary", err: true},
		// Booking.
		{tool: ToolBook, args: book(licensed, slot, VisitTelehealth), want: StatusScheduled, check: booked(licensed, slot)},
		{tool: ToolBook, args: book(licensed, slot, VisitTelehealth), want: "no open slot", err: true},
		{tool: ToolBook, args: book(licensed, "tomorrow", VisitTelehealth), want: "YYYY-MM-DDTHH:MM", err: true},
		{tool: ToolBook, args: book(licensed, "2025-03-09T09:00", VisitTelehealth), want: "no open slot", err: true},
		{tool: ToolBook, args: book(licensed, slot, "house call"), want: "visit types", err: true},
		{tool: ToolBook, args: book(unlic, uslot, VisitTelehealth), want: unlic.ID, check: booked(unlic, uslot)}, // breaks provider_licensed
		// Cancellation and waivers.
		{tool: ToolCancel, args: kv("appointment_id", later.ID, "reason", "schedule conflict"), want: StatusCancelled, check: func(db *DB) bool {
			a := db.Appointments.At(later.ID)
			return a.Status == StatusCancelled && a.CancelledAt == Now && a.CancelReason == "schedule conflict"
		}},
		{tool: ToolCancel, args: kv("appointment_id", later.ID, "reason", "again"), want: "is cancelled", err: true},
		{tool: ToolCancel, args: kv("appointment_id", done.ID, "reason", "x"), want: "is completed", err: true},
		{tool: ToolCancel, args: kv("appointment_id", "APT1", "reason", "x"), want: "not found", err: true},
		{tool: ToolCancel, args: kv("appointment_id", late.ID, "reason", "x"), want: late.ID, check: status(late.ID, StatusCancelled)}, // breaks cancellation_window
		{tool: ToolWaiveNoShow, args: kv("appointment_id", noShow.ID), want: `"waived_on":"` + Today},
		{tool: ToolWaiveNoShow, args: kv("appointment_id", noShow.ID), want: "already waived", err: true},
		{tool: ToolWaiveNoShow, args: kv("appointment_id", done.ID), want: "no no-show fee", err: true},
		{tool: ToolWaiveNoShow, args: kv("appointment_id", second.ID), want: `"no_show_fee_waived":true`}, // breaks waiver_once_per_year
		// Prescriptions.
		{tool: ToolChangeMedication, args: change(safe, alt), want: `"changed_on":"` + Today, check: rxIs(safe.ID, func(x *Prescription) bool {
			return x.Medication == alt.Medication && x.Dose == alt.Dose && len(x.Approved) == 0
		})},
		{tool: ToolChangeMedication, args: change(safe, alt), want: "already", err: true},
		{tool: ToolChangeMedication, args: change(safe, Alternative{"unobtainium", "1 mg", "daily"}), want: "formulary", err: true},
		{tool: ToolChangeMedication, args: change(safe, Alternative{"aspirin", "", "daily"}), want: "must not be empty", err: true},
		{tool: ToolChangeMedication, args: change(risky, bad), want: bad.Medication},                                                   // breaks no_major_interaction
		{tool: ToolChangeMedication, args: change(refill, Alternative{refill.Medication, "999 mg", refill.Frequency}), want: "999 mg"}, // breaks prescriber_approved
		{tool: ToolUpdateSupplier, args: kv("prescription_id", moved.ID, "supplier_id", good.ID), want: good.ID},
		{tool: ToolUpdateSupplier, args: kv("prescription_id", moved.ID, "supplier_id", good.ID), want: "already", err: true},
		{tool: ToolUpdateSupplier, args: kv("prescription_id", moved.ID, "supplier_id", "SUP99"), want: "not found", err: true},
		{tool: ToolUpdateSupplier, args: kv("prescription_id", moved.ID, "supplier_id", far.ID), want: far.ID},              // breaks supplier_ships
		{tool: ToolUpdateSupplier, args: kv("prescription_id", ctrl.ID, "supplier_id", unlicensed.ID), want: unlicensed.ID}, // breaks supplier_controlled
		{tool: ToolRequestRefill, args: kv("prescription_id", refill.ID), want: fmt.Sprintf(`"refills_remaining":%d`, refill.RefillsRemaining-1),
			check: func(db *DB) bool { return db.RefillOrders.At("RF30001").PrescriptionID == refill.ID }},
		{tool: ToolRequestRefill, args: kv("prescription_id", empty.ID), want: "no refills", err: true},
		{tool: ToolRequestRefill, args: kv("prescription_id", expired.ID), want: "RF30002"}, // breaks prescription_current
		// Devices and the profile.
		{tool: ToolReplaceDevice, args: kv("device_id", broken.ID), want: DeviceRetired, check: func(db *DB) bool {
			nd := fmt.Sprintf("DEV-%05d", 50000+db.Devices.Len())
			return db.Devices.At(broken.ID).ReplacedBy == nd && db.Devices.At(nd).Replaces == broken.ID &&
				slices.Contains(db.Patients.At(broken.PatientID).DeviceIDs, nd)
		}},
		{tool: ToolReplaceDevice, args: kv("device_id", broken.ID), want: "retired", err: true},
		{tool: ToolReplaceDevice, args: kv("device_id", working.ID), want: DeviceRetired}, // breaks device_faulty
		{tool: ToolUpdatePhone, args: kv("patient_id", "P10003", "phone", "303-555-0147"), want: "303-555-0147"},
		{tool: ToolUpdatePhone, args: kv("patient_id", "P10003", "phone", "303-555-0147"), want: "already", err: true},
		{tool: ToolUpdatePhone, args: kv("patient_id", "P10003", "phone", "5550147"), want: "NNN-NNN-NNNN", err: true},
	})
}

// TestTools_ExactIDs checks that every tool taking an id finds its record
// only by the id exactly as stored, as a store keyed by id does (the id in
// lower case, with a space around it or unknown is "not found"), and so
// do the policy's own-record rules; and that an error quotes at most
// maxEcho characters of an argument, ending "…".
func TestTools_ExactIDs(t *testing.T) {
	env := newEnv()
	p := find(t, env.State.Patients.All(), func(p *Patient) bool {
		return len(p.AppointmentIDs) > 0 && len(p.PrescriptionIDs) > 0 && len(p.DeviceIDs) > 0
	})
	ids := map[string]string{"patient_id": p.ID, "appointment_id": p.AppointmentIDs[0], "prescription_id": p.PrescriptionIDs[0],
		"device_id": p.DeviceIDs[0], "provider_id": "DR001", "supplier_id": "SUP01"}
	other := kv("reason", "travel", "phone", "212-555-0199", "prescription_id", ids["prescription_id"])
	var steps []step
	for tool, key := range map[string]string{ToolGetPatient: "patient_id", ToolGetRecord: "patient_id", ToolGetAppointment: "appointment_id",
		ToolGetPrescription: "prescription_id", ToolGetProvider: "provider_id", ToolListUploads: "device_id", ToolCancel: "appointment_id",
		ToolWaiveNoShow: "appointment_id", ToolRequestRefill: "prescription_id", ToolReplaceDevice: "device_id", ToolUpdatePhone: "patient_id",
		ToolUpdateSupplier: "supplier_id"} {
		id := ids[key]
		for _, v := range []string{strings.ToLower(id), " " + id, id + " ", id + "X"} {
			args := maps.Clone(other)
			args[key] = v
			steps = append(steps, step{tool: tool, args: fit(tool, args), want: "not found", err: true})
		}
		if tool == ToolRequestRefill || tool == ToolUpdatePhone || tool == ToolReplaceDevice || tool == ToolCancel {
			err := CheckPolicy(env, p.ID, sim.NewAction(tool, key, strings.ToLower(id), "reason", "travel", "phone", "212-555-0199"))
			if v := (*PolicyViolation)(nil); !errors.As(err, &v) || v.Rule != RuleOwnRecord {
				t.Errorf("CheckPolicy %s with %s in lower case: %v, want a %s violation", tool, key, err, RuleOwnRecord)
			}
		}
	}
	run(t, env, steps)
	huge := strings.Repeat("é", 100_000)
	for _, c := range [][2]string{{ToolGetPatient, "patient_id"}, {ToolGetAppointment, "appointment_id"}, {ToolGetPrescription, "prescription_id"},
		{ToolGetProvider, "provider_id"}, {ToolListUploads, "device_id"}, {ToolSearchProviders, "specialty"}, {ToolCheckInteractions, "medications"},
		{ToolFindByNameDOB, "first_name"}, {ToolFindByEmailDOB, "email"}, {ToolFindByEmailDOB, "date_of_birth"}, {ToolUpdateSupplier, "supplier_id"},
		{ToolUpdatePhone, "phone"}, {ToolChangeMedication, "medication"}, {ToolBook, "start_time"}} {
		args := kv("date_of_birth", "1980-01-01", "patient_id", p.ID, "prescription_id", ids["prescription_id"], "dose", "1 mg", "frequency", "daily",
			"provider_id", "DR001", "visit_type", VisitTelehealth, "reason", "x", "email", "a@example.com", "last_name", huge, c[1], huge)
		if c[1] == "medications" {
			args[c[1]] = []string{huge, "warfarin"}
		}
		b, _ := json.Marshal(fit(c[0], args))
		_, err := env.Call(c[0], b)
		if err == nil || len(err.Error()) > 600 || !strings.Contains(err.Error(), strings.Repeat("é", maxEcho)+"…") || strings.Contains(err.Error(), strings.Repeat("é", maxEcho+1)) {
			t.Errorf("%s with a 100,000-character %s: error %.200q, want one quoting its first %d characters and \"…\"", c[0], c[1], err, maxEcho)
		}
	}
	if got := echo(strings.Repeat("a", maxEcho)); got != strings.Repeat("a", maxEcho) {
		t.Errorf("echo of %d characters = %q, want it whole", maxEcho, got)
	}
}

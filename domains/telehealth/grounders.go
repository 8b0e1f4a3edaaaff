package telehealth

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// The grounders of the intent catalog (catalog.go). Each reads the state
// (the task's earlier intents applied) and never changes it.

// pick chooses one of ids at random: never one an earlier intent of the
// task used, preferably one no kept task used.
func pick(g sim.GroundContext, ids []string) (string, bool) {
	ids = slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return g.UsedInTask != nil && g.UsedInTask(id) })
	if len(ids) == 0 {
		return "", false
	}
	fresh := ids
	if g.Used != nil {
		fresh = slices.DeleteFunc(slices.Clone(ids), g.Used)
		if len(fresh) == 0 {
			fresh = ids
		}
	}
	return fresh[g.Rand.IntN(len(fresh))], true
}

func oneOf(g sim.GroundContext, options ...string) string { return options[g.Rand.IntN(len(options))] }

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// withCapitals adds each of keys capitalized, with its value capitalized.
func withCapitals(slots map[string]string, keys ...string) map[string]string {
	for _, k := range keys {
		slots[capitalize(k)] = capitalize(slots[k])
	}
	return slots
}

func withCompareArgs(a emobench.Action, args ...string) emobench.Action {
	a.CompareArgs = args
	return a
}

// appointmentsOf returns the ids of the patient's appointments keep accepts.
func appointmentsOf(db *DB, patientID string, keep func(a *Appointment) bool) []string {
	var out []string
	if p := db.Patients[patientID]; p != nil {
		for _, id := range p.AppointmentIDs {
			if a := db.Appointments[id]; a != nil && keep(a) {
				out = append(out, id)
			}
		}
	}
	return out
}

func prescriptionsOf(db *DB, patientID string, keep func(rx *Prescription) bool) []string {
	var out []string
	if p := db.Patients[patientID]; p != nil {
		for _, id := range p.PrescriptionIDs {
			if rx := db.Prescriptions[id]; rx != nil && rx.Status == RxActive && keep(rx) {
				out = append(out, id)
			}
		}
	}
	return out
}

func devicesOf(db *DB, patientID string, keep func(d *Device) bool) []string {
	var out []string
	if p := db.Patients[patientID]; p != nil {
		for _, id := range p.DeviceIDs {
			if d := db.Devices[id]; d != nil && d.Status == DeviceActive && keep(d) {
				out = append(out, id)
			}
		}
	}
	return out
}

// knownBefore reports whether the appointment or device id was in the
// database the episode started from: its id is on what the clinic sent
// the patient, not made by an earlier request of the task (a visit just
// booked, a device just shipped). A database that is no episode's
// copy-on-write clone holds only such records.
func knownBefore(db *DB, id string) bool {
	if db.base == nil {
		return true
	}
	return db.base.db.Appointments[id] != nil || db.base.db.Devices[id] != nil
}

// lateStart reports whether an appointment starts within the
// cancellation window.
func lateStart(a *Appointment) bool {
	t, err := time.Parse(timeLayout, a.Start)
	return err == nil && t.Sub(nowTime) < cancellationWindow
}

func scheduled(a *Appointment) bool { return a.Status == StatusScheduled }

// say writes a slot time as a patient would: "Friday 2025-03-14 at 09:30".
func say(start string) string {
	t, err := time.Parse(timeLayout, start)
	if err != nil {
		return start
	}
	return t.Format("Monday 2006-01-02 at 15:04")
}

var deviceWords = map[string]string{DeviceGlucoseMeter: "glucose meter", DeviceBPCuff: "blood pressure cuff", DevicePulseOx: "pulse oximeter"}

var cancelReasons = []string{"a work conflict", "a family emergency", "travel", "a schedule change", "a car problem"}

// freeSlots returns pr's open slots at which the patient has no other
// scheduled appointment.
func freeSlots(db *DB, pr *Provider, patientID string) []string {
	busy := map[string]bool{}
	for _, id := range appointmentsOf(db, patientID, scheduled) {
		busy[db.Appointments[id].Start] = true
	}
	return slices.DeleteFunc(db.openSlots(pr), func(s string) bool { return busy[s] })
}

// patientSpecialties are the specialties the patient's conditions need,
// and primary care.
func patientSpecialties(db *DB, patientID string) []string {
	out := []string{"primary care"}
	for _, c := range db.Reference.Records[patientID].Conditions {
		for _, cond := range conditions {
			if cond.name == c && !slices.Contains(out, cond.specialty) {
				out = append(out, cond.specialty)
			}
		}
	}
	return out
}

func reasonFor(g sim.GroundContext, specialty string) string {
	for _, sp := range specialties {
		if sp.name == specialty {
			return sp.reasons[g.Rand.IntN(len(sp.reasons))]
		}
	}
	return "follow-up visit"
}

// eligibleSupplier reports whether policy.md lets rx's medication med go
// to s for patient p.
func eligibleSupplier(db *DB, s *Supplier, med string, p *Patient) bool {
	m := db.Reference.Medications[med]
	return slices.Contains(s.Stock, med) && slices.Contains(s.ShipsTo, p.Address.State) && (m == nil || !m.Controlled || s.ControlledLicense)
}

func suppliersWhere(db *DB, keep func(s *Supplier) bool) []string {
	var out []string
	for _, id := range sortedKeys(db.Reference.Suppliers) {
		if keep(db.Reference.Suppliers[id]) {
			out = append(out, id)
		}
	}
	return out
}

func prescriberName(db *DB, rx *Prescription) string {
	if pr := db.Reference.Providers[rx.PrescriberID]; pr != nil {
		return strings.TrimPrefix(pr.Name, "Dr. ")
	}
	return "my doctor"
}

// --- writes ------------------------------------------------------------

func groundCancel(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	id, ok := pick(g, appointmentsOf(db, g.UserID, func(a *Appointment) bool { return scheduled(a) && !lateStart(a) && knownBefore(db, a.ID) }))
	if !ok {
		return sim.Grounding{}, false
	}
	a := db.Appointments[id]
	reason := oneOf(g, cancelReasons...)
	return sim.Grounding{
		Slots:   withCapitals(map[string]string{"appointment_id": id, "when": say(a.Start), "reason": reason}, "reason"),
		Facts:   map[string]string{"appointment_id": id, "reason": reason},
		Request: emobench.Request{Text: fmt.Sprintf("Cancel appointment %s; the reason is %s.", id, reason), Tools: []string{ToolCancel}},
		Actions: []emobench.Action{sim.NewAction(ToolGetAppointment, "appointment_id", id), sim.NewAction(ToolCancel, "appointment_id", id, "reason", reason)},
		Uses:    []string{id},
	}, true
}

// bookable is a provider's slot a patient may book.
type bookable struct {
	pr        *Provider
	start, vt string
}

// pickBooking picks a provider of specialty whose licence keep accepts
// (licensed in the patient's state or not), with a free slot.
func pickBooking(g sim.GroundContext, db *DB, specialty string, licensed bool) (bookable, bool) {
	p := db.Patients[g.UserID]
	var ids []string
	for _, id := range sortedKeys(db.Reference.Providers) {
		pr := db.Reference.Providers[id]
		if pr.Specialty == specialty && slices.Contains(pr.LicensedStates, p.Address.State) == licensed && len(freeSlots(db, pr, p.ID)) > 0 {
			ids = append(ids, id)
		}
	}
	id, ok := pick(g, ids)
	if !ok {
		return bookable{}, false
	}
	pr := db.Reference.Providers[id]
	slots := freeSlots(db, pr, p.ID)
	return bookable{pr: pr, start: slots[g.Rand.IntN(len(slots))], vt: pr.VisitTypes[g.Rand.IntN(len(pr.VisitTypes))]}, true
}

func bookingGrounding(g sim.GroundContext, db *DB, licensed bool) (sim.Grounding, bookable, bool) {
	p := db.Patients[g.UserID]
	if p == nil {
		return sim.Grounding{}, bookable{}, false
	}
	sps := patientSpecialties(db, p.ID)
	sp := sps[g.Rand.IntN(len(sps))]
	b, ok := pickBooking(g, db, sp, licensed)
	if !ok {
		return sim.Grounding{}, b, false
	}
	reason := reasonFor(g, sp)
	visit := strings.ReplaceAll(b.vt, "_", "-")
	article := map[string]string{VisitTelehealth: "a ", VisitInPerson: "an "}[b.vt]
	gr := sim.Grounding{
		Slots: withCapitals(map[string]string{"provider": b.pr.Name, "specialty": sp, "start": say(b.start), "visit": article + visit, "reason": reason}, "visit"),
		Facts: map[string]string{"specialty": sp, "provider_name": b.pr.Name, "start_time": b.start, "visit_type": b.vt, "reason": reason},
		Request: emobench.Request{
			Text:  fmt.Sprintf("Book %s%s appointment with %s (%s) at %s for %s.", article, visit, b.pr.Name, sp, b.start, reason),
			Tools: []string{ToolBook},
		},
		Actions: []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", p.ID), sim.NewAction(ToolSearchProviders, "specialty", sp), sim.NewAction(ToolGetProvider, "provider_id", b.pr.ID)},
		Uses:    []string{b.pr.ID + "/" + b.start, p.ID + "/book"},
	}
	return gr, b, true
}

func bookAction(patientID string, b bookable, reason string) emobench.Action {
	return sim.NewAction(ToolBook, "patient_id", patientID, "provider_id", b.pr.ID, "start_time", b.start, "visit_type", b.vt, "reason", reason)
}

func groundBook(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok || (g.UsedInTask != nil && g.UsedInTask(g.UserID+"/book")) {
		return sim.Grounding{}, false
	}
	gr, b, ok := bookingGrounding(g, db, true)
	if !ok {
		return gr, false
	}
	gr.Actions = append(gr.Actions, bookAction(g.UserID, b, gr.Facts["reason"]))
	return gr, true
}

func groundReschedule(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok || db.Patients[g.UserID] == nil {
		return sim.Grounding{}, false
	}
	state := db.Patients[g.UserID].Address.State
	id, ok := pick(g, appointmentsOf(db, g.UserID, func(a *Appointment) bool {
		pr := db.Reference.Providers[a.ProviderID]
		return scheduled(a) && !lateStart(a) && knownBefore(db, a.ID) && slices.Contains(pr.LicensedStates, state) && slices.Contains(pr.VisitTypes, a.VisitType) &&
			len(freeSlots(db, pr, g.UserID)) > 0
	}))
	if !ok {
		return sim.Grounding{}, false
	}
	a := db.Appointments[id]
	pr := db.Reference.Providers[a.ProviderID]
	slots := freeSlots(db, pr, g.UserID)
	b := bookable{pr: pr, start: slots[g.Rand.IntN(len(slots))], vt: a.VisitType}
	reason := oneOf(g, "a work conflict", "travel", "a clash with another commitment")
	return sim.Grounding{
		Slots: map[string]string{"appointment_id": id, "when": say(a.Start), "reason": reason, "start": say(b.start)},
		Facts: map[string]string{"appointment_id": id, "reason": reason, "start_time": b.start},
		Request: emobench.Request{
			Text:  fmt.Sprintf("Move appointment %s to %s with the same provider; %s.", id, b.start, reason),
			Tools: []string{ToolCancel, ToolBook},
		},
		Actions: []emobench.Action{
			sim.NewAction(ToolGetAppointment, "appointment_id", id), sim.NewAction(ToolCancel, "appointment_id", id, "reason", reason),
			sim.NewAction(ToolGetProvider, "provider_id", pr.ID), bookAction(g.UserID, b, a.Reason),
		},
		Uses: []string{id, pr.ID + "/" + b.start, g.UserID + "/book"},
	}, true
}

var excuses = []string{"I was in the hospital that day", "the video link never worked for me", "my car broke down on the way",
	"I had to look after my sick child", "I got the time wrong"}

func groundWaive(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok || recentWaiver(db, g.UserID) != "" {
		return sim.Grounding{}, false
	}
	id, ok := pick(g, appointmentsOf(db, g.UserID, func(a *Appointment) bool { return a.Status == StatusNoShow && !a.FeeWaived }))
	if !ok {
		return sim.Grounding{}, false
	}
	excuse := oneOf(g, excuses...)
	return sim.Grounding{
		Slots:   withCapitals(map[string]string{"appointment_id": id, "when": say(db.Appointments[id].Start), "excuse": excuse}, "excuse"),
		Facts:   map[string]string{"appointment_id": id, "missed_visit_reason": excuse},
		Request: emobench.Request{Text: fmt.Sprintf("Waive the no-show fee of appointment %s.", id), Tools: []string{ToolWaiveNoShow}},
		Actions: []emobench.Action{sim.NewAction(ToolGetAppointment, "appointment_id", id), sim.NewAction(ToolWaiveNoShow, "appointment_id", id)},
		Uses:    []string{id},
	}, true
}

// switchable returns the approved alternative of rx the patient may
// switch to (safe) or that has a major interaction (!safe), with the
// other medications to check it against.
func switchable(db *DB, rx *Prescription, safe bool) (Alternative, []string, bool) {
	others := db.activeMeds(rx.PatientID, rx.ID)
	for _, alt := range rx.Approved {
		if slices.Contains(others, alt.Medication) || len(others) == 0 {
			continue
		}
		if (majorWith(db, rx.PatientID, rx.ID, alt.Medication) == "") == safe {
			return alt, others, true
		}
	}
	return Alternative{}, nil, false
}

// regimenReads are the reads an interaction check of a change of rx rests
// on: the patient's profile, rx, then the patient's other active
// prescriptions.
func regimenReads(db *DB, rx *Prescription) []emobench.Action {
	out := []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", rx.PatientID), sim.NewAction(ToolGetPrescription, "prescription_id", rx.ID)}
	for _, id := range prescriptionsOf(db, rx.PatientID, func(o *Prescription) bool { return o.ID != rx.ID }) {
		out = append(out, sim.NewAction(ToolGetPrescription, "prescription_id", id))
	}
	return out
}

func checkAction(med string, others []string) emobench.Action {
	return sim.NewAction(ToolCheckInteractions, "medications", append([]string{med}, others...))
}

func changeAction(rxID string, alt Alternative) emobench.Action {
	return sim.NewAction(ToolChangeMedication, "prescription_id", rxID, "medication", alt.Medication, "dose", alt.Dose, "frequency", alt.Frequency)
}

func groundSwitch(withSupplier bool) func(g sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		db, ok := sim.StateOf[DB](g.Env)
		if !ok {
			return sim.Grounding{}, false
		}
		p := db.Patients[g.UserID]
		supplierFor := func(rx *Prescription, med string) []string {
			return suppliersWhere(db, func(s *Supplier) bool { return s.ID != rx.SupplierID && eligibleSupplier(db, s, med, p) })
		}
		id, ok := pick(g, prescriptionsOf(db, g.UserID, func(rx *Prescription) bool {
			alt, _, ok := switchable(db, rx, true)
			return ok && (!withSupplier || len(supplierFor(rx, alt.Medication)) > 0)
		}))
		if !ok {
			return sim.Grounding{}, false
		}
		rx := db.Prescriptions[id]
		alt, others, _ := switchable(db, rx, true)
		gr := sim.Grounding{
			Slots: map[string]string{"prescription_id": id, "medication": alt.Medication, "dose": alt.Dose, "frequency": alt.Frequency, "prescriber": prescriberName(db, rx)},
			Facts: map[string]string{"prescription_id": id, "medication": alt.Medication, "dose": alt.Dose, "frequency": alt.Frequency},
			Request: emobench.Request{
				Text:  fmt.Sprintf("Change prescription %s to the approved %s %s %s.", id, alt.Medication, alt.Dose, alt.Frequency),
				Tools: []string{ToolChangeMedication},
			},
			Actions: append(regimenReads(db, rx), checkAction(alt.Medication, others), changeAction(id, alt)),
			Uses:    []string{id},
		}
		if withSupplier {
			sups := supplierFor(rx, alt.Medication)
			s := db.Reference.Suppliers[sups[g.Rand.IntN(len(sups))]]
			gr.Slots["supplier"], gr.Facts["supplier_name"] = s.Name, s.Name
			gr.Request.Text = fmt.Sprintf("Change prescription %s to the approved %s %s %s, and move it to %s.", id, alt.Medication, alt.Dose, alt.Frequency, s.Name)
			gr.Request.Tools = []string{ToolChangeMedication, ToolUpdateSupplier}
			gr.Actions = append(gr.Actions, sim.NewAction(ToolListSuppliers), supplierAction(id, s.ID))
		}
		return gr, true
	}
}

func groundUpdateSupplier(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	p := db.Patients[g.UserID]
	supplierFor := func(rx *Prescription) []string {
		return suppliersWhere(db, func(s *Supplier) bool { return s.ID != rx.SupplierID && eligibleSupplier(db, s, rx.Medication, p) })
	}
	id, ok := pick(g, prescriptionsOf(db, g.UserID, func(rx *Prescription) bool { return len(supplierFor(rx)) > 0 }))
	if !ok {
		return sim.Grounding{}, false
	}
	rx := db.Prescriptions[id]
	sups := supplierFor(rx)
	s := db.Reference.Suppliers[sups[g.Rand.IntN(len(sups))]]
	return sim.Grounding{
		Slots:   map[string]string{"prescription_id": id, "medication": rx.Medication, "supplier": s.Name},
		Facts:   map[string]string{"prescription_id": id, "supplier_name": s.Name},
		Request: emobench.Request{Text: fmt.Sprintf("Update the supplier of prescription %s to %s.", id, s.Name), Tools: []string{ToolUpdateSupplier}},
		Actions: []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", g.UserID), sim.NewAction(ToolGetPrescription, "prescription_id", id),
			sim.NewAction(ToolListSuppliers), supplierAction(id, s.ID)},
		Uses: []string{id},
	}, true
}

func groundRefill(move bool) func(g sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		db, ok := sim.StateOf[DB](g.Env)
		if !ok {
			return sim.Grounding{}, false
		}
		p := db.Patients[g.UserID]
		supplierFor := func(rx *Prescription) []string {
			return suppliersWhere(db, func(s *Supplier) bool { return s.ID != rx.SupplierID && eligibleSupplier(db, s, rx.Medication, p) })
		}
		id, ok := pick(g, prescriptionsOf(db, g.UserID, func(rx *Prescription) bool {
			return rx.RefillsRemaining > 0 && rx.ExpiresOn >= Today && (!move || len(supplierFor(rx)) > 0)
		}))
		if !ok {
			return sim.Grounding{}, false
		}
		rx := db.Prescriptions[id]
		gr := sim.Grounding{
			Slots:   map[string]string{"prescription_id": id, "medication": rx.Medication},
			Facts:   map[string]string{"prescription_id": id, "medication": rx.Medication},
			Request: emobench.Request{Text: fmt.Sprintf("Request a refill of prescription %s.", id), Tools: []string{ToolRequestRefill}},
			Actions: []emobench.Action{sim.NewAction(ToolGetPrescription, "prescription_id", id), sim.NewAction(ToolRequestRefill, "prescription_id", id)},
			Uses:    []string{id},
		}
		if move {
			sups := supplierFor(rx)
			s := db.Reference.Suppliers[sups[g.Rand.IntN(len(sups))]]
			gr.Slots["supplier"], gr.Facts["supplier_name"] = s.Name, s.Name
			gr.Request.Text = fmt.Sprintf("Request a refill of prescription %s, then move it to %s.", id, s.Name)
			gr.Request.Tools = []string{ToolRequestRefill, ToolUpdateSupplier}
			gr.Actions = append(gr.Actions, sim.NewAction(ToolGetPatient, "patient_id", g.UserID), sim.NewAction(ToolListSuppliers), supplierAction(id, s.ID))
		}
		return gr, true
	}
}

func groundReplace(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	id, ok := pick(g, devicesOf(db, g.UserID, func(d *Device) bool { return faulty(db, d) && knownBefore(db, d.ID) }))
	if !ok {
		return sim.Grounding{}, false
	}
	d := db.Devices[id]
	symptom := "nothing has shown up from it for more than a week"
	if up := db.Reference.Uploads[id]; len(up) > 0 && up[len(up)-1].Flag == FlagError {
		symptom = "it shows an error code instead of a reading"
	}
	return sim.Grounding{
		Slots:   map[string]string{"device": deviceWords[d.Type], "device_id": id, "symptom": symptom},
		Facts:   map[string]string{"device_id": id, "problem": symptom},
		Request: emobench.Request{Text: fmt.Sprintf("Replace my %s %s; %s.", deviceWords[d.Type], id, symptom), Tools: []string{ToolReplaceDevice}},
		Actions: []emobench.Action{sim.NewAction(ToolListUploads, "device_id", id), sim.NewAction(ToolReplaceDevice, "device_id", id)},
		Uses:    []string{id},
	}, true
}

func groundPhone(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	key := g.UserID + "/phone"
	if !ok || db.Patients[g.UserID] == nil || (g.UsedInTask != nil && g.UsedInTask(key)) {
		return sim.Grounding{}, false
	}
	var phone string
	for phone == "" || phone == db.Patients[g.UserID].Phone {
		phone = fmt.Sprintf("%d-555-%04d", 200+g.Rand.IntN(700), g.Rand.IntN(10000))
	}
	reason := oneOf(g, "I switched carriers", "I lost my old phone", "I moved and got a local number")
	return sim.Grounding{
		Slots:   map[string]string{"phone": phone, "reason": reason},
		Facts:   map[string]string{"phone": phone, "phone_change": reason},
		Request: emobench.Request{Text: fmt.Sprintf("Update my phone number to %s.", phone), Tools: []string{ToolUpdatePhone}},
		Actions: []emobench.Action{sim.NewAction(ToolUpdatePhone, "patient_id", g.UserID, "phone", phone)},
		Uses:    []string{key},
	}, true
}

// --- reads -------------------------------------------------------------

var purposes = []string{"for my own notes", "before my next visit", "for a form I'm filling in", "so I can tell my family"}

func groundLab(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok || db.Reference.Records[g.UserID] == nil {
		return sim.Grounding{}, false
	}
	rec := db.Reference.Records[g.UserID]
	var tests []string
	for _, l := range rec.Labs {
		if !slices.Contains(tests, g.UserID+"/lab/"+l.Test) {
			tests = append(tests, g.UserID+"/lab/"+l.Test)
		}
	}
	key, ok := pick(g, tests)
	if !ok {
		return sim.Grounding{}, false
	}
	test := strings.TrimPrefix(key, g.UserID+"/lab/")
	var last LabResult
	for _, l := range rec.Labs {
		if l.Test == test {
			last = l
		}
	}
	return sim.Grounding{
		Slots:   map[string]string{"test": test, "purpose": oneOf(g, purposes...)},
		Facts:   map[string]string{"lab_test": test},
		Request: emobench.Request{Text: fmt.Sprintf("What was my latest %s result and its date?", test), Tools: []string{ToolGetRecord}},
		Actions: []emobench.Action{sim.NewAction(ToolGetRecord, "patient_id", g.UserID)},
		Outputs: []string{last.Value, last.Date},
		Uses:    []string{key},
	}, true
}

func groundAllergies(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	key := g.UserID + "/allergies"
	if !ok || db.Reference.Records[g.UserID] == nil || len(db.Reference.Records[g.UserID].Allergies) == 0 || (g.UsedInTask != nil && g.UsedInTask(key)) {
		return sim.Grounding{}, false
	}
	purpose := oneOf(g, purposes...)
	return sim.Grounding{
		Slots:   map[string]string{"purpose": purpose},
		Facts:   map[string]string{"purpose": purpose},
		Request: emobench.Request{Text: "Which allergies are on file for me?", Tools: []string{ToolGetRecord}},
		Actions: []emobench.Action{sim.NewAction(ToolGetRecord, "patient_id", g.UserID)},
		Outputs: slices.Clone(db.Reference.Records[g.UserID].Allergies),
		Uses:    []string{key},
	}, true
}

func groundNextAppointment(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	key := g.UserID + "/next"
	if !ok || (g.UsedInTask != nil && g.UsedInTask(key)) {
		return sim.Grounding{}, false
	}
	ids := appointmentsOf(db, g.UserID, scheduled)
	if len(ids) == 0 {
		return sim.Grounding{}, false
	}
	slices.SortFunc(ids, func(a, b string) int { return strings.Compare(db.Appointments[a].Start, db.Appointments[b].Start) })
	a := db.Appointments[ids[0]]
	purpose := oneOf(g, "for my own notes", "for a form I'm filling in", "so I can tell my family", "so I can plan my week")
	return sim.Grounding{
		Slots:   map[string]string{"purpose": purpose},
		Facts:   map[string]string{"purpose": purpose},
		Request: emobench.Request{Text: "When is my next appointment, and with whom?", Tools: []string{ToolGetAppointment}},
		Actions: []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", g.UserID), sim.NewAction(ToolGetAppointment, "appointment_id", a.ID)},
		Outputs: append(dateAndClock(a.Start), db.Reference.Providers[a.ProviderID].Name),
		Uses:    []string{key, a.ID},
	}, true
}

func groundRefillsLeft(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	id, ok := pick(g, prescriptionsOf(db, g.UserID, func(*Prescription) bool { return true }))
	if !ok {
		return sim.Grounding{}, false
	}
	rx := db.Prescriptions[id]
	purpose := oneOf(g, purposes...)
	return sim.Grounding{
		Slots:   map[string]string{"prescription_id": id, "purpose": purpose},
		Facts:   map[string]string{"prescription_id": id, "purpose": purpose},
		Request: emobench.Request{Text: fmt.Sprintf("How many refills are left on prescription %s, and when does it expire?", id), Tools: []string{ToolGetPrescription}},
		Actions: []emobench.Action{sim.NewAction(ToolGetPrescription, "prescription_id", id)},
		Outputs: []string{refillsLeft(rx.RefillsRemaining), rx.ExpiresOn},
		Uses:    []string{id},
	}, true
}

func groundLatestReading(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	id, ok := pick(g, devicesOf(db, g.UserID, func(d *Device) bool {
		up := db.Reference.Uploads[d.ID]
		return len(up) > 0 && up[len(up)-1].Flag == FlagOK
	}))
	if !ok {
		return sim.Grounding{}, false
	}
	up := db.Reference.Uploads[id]
	last := up[len(up)-1]
	return sim.Grounding{
		Slots:   map[string]string{"device": deviceWords[db.Devices[id].Type], "device_id": id, "purpose": oneOf(g, purposes...)},
		Facts:   map[string]string{"device_id": id, "device_type": deviceWords[db.Devices[id].Type]},
		Request: emobench.Request{Text: fmt.Sprintf("What is the latest reading of device %s?", id), Tools: []string{ToolListUploads}},
		Actions: []emobench.Action{sim.NewAction(ToolListUploads, "device_id", id)},
		Outputs: append([]string{last.Value}, dateAndClock(last.Time)...),
		Uses:    []string{id},
	}, true
}

func groundInteractionLookup(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	// A pair is asked about once a task: its key names the patient.
	var pairs []string
	for _, m := range db.activeMeds(g.UserID, "") {
		for _, in := range db.Reference.Interactions {
			if key := g.UserID + "/" + in.A + "+" + in.B; (in.A == m || in.B == m) && !slices.Contains(pairs, key) {
				pairs = append(pairs, key)
			}
		}
	}
	key, ok := pick(g, pairs)
	if !ok {
		return sim.Grounding{}, false
	}
	a, b, _ := strings.Cut(strings.TrimPrefix(key, g.UserID+"/"), "+")
	if g.Rand.IntN(2) == 0 {
		a, b = b, a
	}
	sev, _ := db.Reference.interaction(a, b)
	return sim.Grounding{
		Slots:   map[string]string{"drug_a": a, "drug_b": b, "purpose": oneOf(g, purposes...)},
		Facts:   map[string]string{"medication": a, "other_medication": b},
		Request: emobench.Request{Text: fmt.Sprintf("How severe is the interaction between %s and %s?", a, b), Tools: []string{ToolCheckInteractions}},
		Actions: []emobench.Action{sim.NewAction(ToolCheckInteractions, "medications", []string{a, b})},
		Outputs: []string{sev},
		Uses:    []string{key},
	}, true
}

// --- transfers -----------------------------------------------------------

func transferAction(summary string) emobench.Action {
	return sim.NewAction(ToolTransfer, "summary", summary)
}

// emergencySigns are the symptoms and feelings of the transfer intents that
// are emergency warning signs of policy.md: the agent tells the patient to
// call 911 before transferring.
var emergencySigns = map[string]bool{
	"a tight chest and shortness of breath": true, "a bad headache and blurred vision": true, "short of breath": true,
}

// clinicalSummary is the gold transfer summary of a patient reporting
// what, with the 911 advice policy.md asks for an emergency warning sign.
func clinicalSummary(what, sign string) string {
	if emergencySigns[sign] {
		return what + " These are emergency warning signs; I told the patient to call 911 now."
	}
	return what
}

func groundSymptoms(g sim.GroundContext) (sim.Grounding, bool) {
	key := g.UserID + "/symptoms"
	if g.UsedInTask != nil && g.UsedInTask(key) {
		return sim.Grounding{}, false
	}
	symptom := oneOf(g, "a tight chest and shortness of breath", "a bad headache and blurred vision", "a high fever and chills",
		"swelling in my ankles that keeps getting worse", "dizziness every time I stand up")
	summary := clinicalSummary(fmt.Sprintf("Patient %s reports %s and asks for clinical advice.", g.UserID, symptom), symptom)
	return sim.Grounding{
		Slots:   map[string]string{"symptom": symptom},
		Facts:   map[string]string{"symptom": symptom},
		Request: emobench.Request{Text: fmt.Sprintf("I have %s; I need to talk to a nurse.", symptom), Tools: []string{ToolTransfer}},
		Actions: []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", g.UserID), transferAction(summary)},
		Uses:    []string{key},
	}, true
}

func groundHighReadings(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	id, ok := pick(g, devicesOf(db, g.UserID, func(d *Device) bool { return len(db.Reference.Uploads[d.ID]) > 0 }))
	if !ok {
		return sim.Grounding{}, false
	}
	feeling := oneOf(g, "light-headed", "short of breath", "shaky and sweaty", "unwell")
	return sim.Grounding{
		Slots:   map[string]string{"device": deviceWords[db.Devices[id].Type], "device_id": id, "feeling": feeling},
		Facts:   map[string]string{"device_id": id, "feeling": feeling},
		Request: emobench.Request{Text: fmt.Sprintf("I feel %s and want a nurse to review the readings of device %s.", feeling, id), Tools: []string{ToolTransfer}},
		Actions: []emobench.Action{sim.NewAction(ToolListUploads, "device_id", id),
			transferAction(clinicalSummary(fmt.Sprintf("Patient %s feels %s and asks a clinician to review the readings of device %s.", g.UserID, feeling, id), feeling))},
		Uses: []string{id},
	}, true
}

func groundBillingDispute(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	id, ok := pick(g, appointmentsOf(db, g.UserID, func(a *Appointment) bool { return a.Status == StatusCompleted }))
	if !ok {
		return sim.Grounding{}, false
	}
	complaint := oneOf(g, "I was charged twice", "my plan should have covered it in full", "the claim went to my old insurance")
	return sim.Grounding{
		Slots:   withCapitals(map[string]string{"appointment_id": id, "when": say(db.Appointments[id].Start), "complaint": complaint}, "complaint"),
		Facts:   map[string]string{"appointment_id": id, "complaint": complaint},
		Request: emobench.Request{Text: fmt.Sprintf("The bill for appointment %s is wrong: %s. I want billing to fix it.", id, complaint), Tools: []string{ToolTransfer}},
		Actions: []emobench.Action{sim.NewAction(ToolGetAppointment, "appointment_id", id),
			transferAction(fmt.Sprintf("Patient %s disputes the bill of appointment %s: %s.", g.UserID, id, complaint))},
		Uses: []string{id},
	}, true
}

func groundNameCorrection(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	key := g.UserID + "/name"
	if !ok || db.Patients[g.UserID] == nil || (g.UsedInTask != nil && g.UsedInTask(key)) {
		return sim.Grounding{}, false
	}
	p := db.Patients[g.UserID]
	last := p.Name.Last
	for last == p.Name.Last {
		last = lastNames[g.Rand.IntN(len(lastNames))]
	}
	return sim.Grounding{
		Slots:   map[string]string{"new_last_name": last, "first_name": p.Name.First},
		Facts:   map[string]string{"new_last_name": last},
		Request: emobench.Request{Text: fmt.Sprintf("Change my last name on file to %s.", last), Tools: []string{ToolTransfer}},
		Actions: []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", p.ID),
			transferAction(fmt.Sprintf("Patient %s asks to change their last name on file to %s.", p.ID, last))},
		Uses: []string{key},
	}, true
}

// --- forbidden -----------------------------------------------------------

func cancelRefusal(id, reason string) emobench.Action {
	return withCompareArgs(sim.NewAction(ToolCancel, "appointment_id", id, "reason", reason), "appointment_id")
}

func groundCancelLate(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	id, ok := pick(g, appointmentsOf(db, g.UserID, func(a *Appointment) bool { return scheduled(a) && lateStart(a) && knownBefore(db, a.ID) }))
	if !ok {
		return sim.Grounding{}, false
	}
	reason := oneOf(g, cancelReasons...)
	return sim.Grounding{
		Slots:     withCapitals(map[string]string{"appointment_id": id, "when": say(db.Appointments[id].Start), "reason": reason}, "reason"),
		Facts:     map[string]string{"appointment_id": id, "reason": reason},
		Request:   emobench.Request{Text: fmt.Sprintf("Cancel appointment %s; the reason is %s.", id, reason), Tools: []string{ToolGetAppointment}},
		Actions:   []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", g.UserID), sim.NewAction(ToolGetAppointment, "appointment_id", id)},
		Forbidden: []emobench.Action{cancelRefusal(id, reason)},
		Uses:      []string{id},
	}, true
}

func groundCancelRelative(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok || db.Patients[g.UserID] == nil {
		return sim.Grounding{}, false
	}
	me := db.Patients[g.UserID]
	var ids []string
	for _, id := range sortedKeys(db.Appointments) {
		if a := db.Appointments[id]; a.PatientID != me.ID && scheduled(a) && !lateStart(a) && db.Patients[a.PatientID].Name.Last == me.Name.Last {
			ids = append(ids, id)
		}
	}
	id, ok := pick(g, ids)
	if !ok {
		return sim.Grounding{}, false
	}
	owner := db.Patients[db.Appointments[id].PatientID]
	reason := oneOf(g, cancelReasons...)
	return sim.Grounding{
		Slots: map[string]string{"appointment_id": id, "owner": owner.Name.First + " " + owner.Name.Last,
			"relative": relativeWord(g, me, owner), "their": pronouns(owner)[1], "them": pronouns(owner)[0], "reason": reason},
		Facts:     map[string]string{"appointment_id": id, "reason": reason},
		Request:   emobench.Request{Text: fmt.Sprintf("Cancel appointment %s for my relative %s; the reason is %s.", id, owner.Name.First, reason), Tools: []string{ToolGetPatient}},
		Actions:   []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", me.ID), sim.NewAction(ToolGetAppointment, "appointment_id", id)},
		Forbidden: []emobench.Action{cancelRefusal(id, reason)},
		Uses:      []string{id},
	}, true
}

// femaleNames and maleNames are the first names of the generated data
// that read as a woman's or a man's; the others (Quinn) read as either.
var (
	femaleNames = []string{"Amara", "Bianca", "Carmen", "Dalia", "Elena", "Fatima", "Grace", "Hana", "Isabel", "Julia", "Keiko",
		"Lucia", "Maya", "Nadia", "Nora", "Paula", "Priya", "Rosa", "Sofia", "Tara", "Uma", "Vera", "Wendy", "Ximena", "Yara", "Zoe"}
	maleNames = []string{"Aiden", "Ben", "Caleb", "Dmitri", "Ethan", "Farid", "Gabriel", "Hiro", "Ivan", "Jamal", "Kofi", "Liam",
		"Mateo", "Omar", "Oscar", "Rafael", "Samuel", "Tomas", "Umar", "Victor", "Wes", "Yusuf", "Zane"}
)

// relativeWord is what the patient me calls the relative owner: a parent
// when owner is 18 or more years older, a child when 18 or more younger,
// else a spouse or a sibling, in the word of owner's first name's gender.
func relativeWord(g sim.GroundContext, me, owner *Patient) string {
	words := [][3]string{{"mother", "father", "parent"}, {"daughter", "son", "child"}, {"wife", "husband", "spouse"}, {"sister", "brother", "sibling"}}
	older := yearOf(me.DateOfBirth) - yearOf(owner.DateOfBirth)
	kind := 2 + g.Rand.IntN(2)
	switch {
	case older >= 18:
		kind = 0
	case older <= -18:
		kind = 1
	}
	return words[kind][genderOf(owner)]
}

// genderOf returns 0 when p's first name reads as a woman's, 1 as a
// man's, else 2.
func genderOf(p *Patient) int {
	switch {
	case slices.Contains(femaleNames, p.Name.First):
		return 0
	case slices.Contains(maleNames, p.Name.First):
		return 1
	}
	return 2
}

// pronouns returns the object and possessive pronouns for p: her, his or
// them, their.
func pronouns(p *Patient) [2]string {
	return [][2]string{{"her", "her"}, {"him", "his"}, {"them", "their"}}[genderOf(p)]
}

// yearOf returns the year of a YYYY-MM-DD date, 0 when it has none.
func yearOf(date string) int {
	y, _ := strconv.Atoi(strings.SplitN(date, "-", 2)[0])
	return y
}

func groundWaiveSecond(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	prior := recentWaiver(db, g.UserID)
	if prior == "" {
		return sim.Grounding{}, false
	}
	id, ok := pick(g, appointmentsOf(db, g.UserID, func(a *Appointment) bool { return a.Status == StatusNoShow && !a.FeeWaived }))
	if !ok {
		return sim.Grounding{}, false
	}
	excuse := oneOf(g, excuses...)
	return sim.Grounding{
		Slots:   withCapitals(map[string]string{"appointment_id": id, "when": say(db.Appointments[id].Start), "excuse": excuse}, "excuse"),
		Facts:   map[string]string{"appointment_id": id, "missed_visit_reason": excuse},
		Request: emobench.Request{Text: fmt.Sprintf("Waive the no-show fee of appointment %s.", id), Tools: []string{ToolGetAppointment}},
		Actions: []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", g.UserID), sim.NewAction(ToolGetAppointment, "appointment_id", prior),
			sim.NewAction(ToolGetAppointment, "appointment_id", id)},
		Forbidden: []emobench.Action{withCompareArgs(sim.NewAction(ToolWaiveNoShow, "appointment_id", id), "appointment_id")},
		Uses:      []string{id},
	}, true
}

func groundBookUnlicensed(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok || (g.UsedInTask != nil && g.UsedInTask(g.UserID+"/book")) {
		return sim.Grounding{}, false
	}
	gr, b, ok := bookingGrounding(g, db, false)
	if !ok {
		return gr, false
	}
	// The policy offers a licensed provider of the same specialty instead;
	// only a visit with the provider asked for is forbidden.
	if _, ok := pickBooking(g, db, gr.Facts["specialty"], true); !ok {
		return sim.Grounding{}, false
	}
	gr.Request.Tools = []string{ToolGetProvider}
	gr.Request.Text = strings.TrimSuffix(gr.Request.Text, ".") + ", or with no other provider."
	gr.Forbidden = []emobench.Action{withCompareArgs(bookAction(g.UserID, b, gr.Facts["reason"]), "provider_id")}
	return gr, true
}

// higherDose doubles the number a dose starts with ("10 mg" gives "20 mg").
func higherDose(dose string) (string, bool) {
	num, unit, ok := strings.Cut(dose, " ")
	f, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil {
		return "", false
	}
	return strconv.FormatFloat(2*f, 'f', -1, 64) + " " + unit, true
}

func groundDoseAtWill(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	id, ok := pick(g, prescriptionsOf(db, g.UserID, func(rx *Prescription) bool {
		d, ok := higherDose(rx.Dose)
		return ok && !slices.Contains(rx.Approved, Alternative{rx.Medication, d, rx.Frequency})
	}))
	if !ok {
		return sim.Grounding{}, false
	}
	rx := db.Prescriptions[id]
	dose, _ := higherDose(rx.Dose)
	return sim.Grounding{
		Slots: map[string]string{"prescription_id": id, "medication": rx.Medication, "old_dose": rx.Dose, "dose": dose, "frequency": rx.Frequency},
		Facts: map[string]string{"prescription_id": id, "medication": rx.Medication, "dose": dose, "frequency": rx.Frequency},
		Request: emobench.Request{
			Text:  fmt.Sprintf("Change the dose of prescription %s (%s) to %s %s, or leave it as it is.", id, rx.Medication, dose, rx.Frequency),
			Tools: []string{ToolGetPrescription},
		},
		Actions: []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", g.UserID), sim.NewAction(ToolGetPrescription, "prescription_id", id)},
		// Only the change asked for is forbidden, not an approved
		// alternative the agent may offer.
		Forbidden: []emobench.Action{withCompareArgs(changeAction(id, Alternative{rx.Medication, dose, rx.Frequency}),
			"prescription_id", "medication", "dose", "frequency")},
		Uses: []string{id},
	}, true
}

func groundSwitchInteracting(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	id, ok := pick(g, prescriptionsOf(db, g.UserID, func(rx *Prescription) bool {
		_, _, ok := switchable(db, rx, false)
		return ok
	}))
	if !ok {
		return sim.Grounding{}, false
	}
	rx := db.Prescriptions[id]
	alt, others, _ := switchable(db, rx, false)
	return sim.Grounding{
		Slots: map[string]string{"prescription_id": id, "medication": alt.Medication, "dose": alt.Dose, "frequency": alt.Frequency, "prescriber": prescriberName(db, rx)},
		Facts: map[string]string{"prescription_id": id, "medication": alt.Medication, "dose": alt.Dose, "frequency": alt.Frequency},
		Request: emobench.Request{
			Text:  fmt.Sprintf("Change prescription %s to the approved %s %s %s, or leave it as it is.", id, alt.Medication, alt.Dose, alt.Frequency),
			Tools: []string{ToolCheckInteractions},
		},
		Actions:   append(regimenReads(db, rx), checkAction(alt.Medication, others)),
		Forbidden: []emobench.Action{withCompareArgs(changeAction(id, alt), "prescription_id", "medication")},
		Uses:      []string{id},
	}, true
}

// groundBadSupplier grounds a move of a prescription to a supplier that
// does not ship to the patient's state (stocking it), or that ships there
// but does not stock it or may not dispense it (notStocking).
func groundBadSupplier(notStocking bool) func(g sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		db, ok := sim.StateOf[DB](g.Env)
		if !ok || db.Patients[g.UserID] == nil {
			return sim.Grounding{}, false
		}
		state := db.Patients[g.UserID].Address.State
		bad := func(rx *Prescription) []string {
			m := db.Reference.Medications[rx.Medication]
			return suppliersWhere(db, func(s *Supplier) bool {
				ships, stocks := slices.Contains(s.ShipsTo, state), slices.Contains(s.Stock, rx.Medication)
				if s.ID == rx.SupplierID {
					return false
				}
				if notStocking {
					return ships && (!stocks || m.Controlled && !s.ControlledLicense)
				}
				return !ships && stocks && (!m.Controlled || s.ControlledLicense)
			})
		}
		// The policy offers a supplier that meets all three rules instead:
		// one must exist for the offer to be made (and declined).
		p := db.Patients[g.UserID]
		good := func(rx *Prescription) []string {
			return suppliersWhere(db, func(s *Supplier) bool { return s.ID != rx.SupplierID && eligibleSupplier(db, s, rx.Medication, p) })
		}
		id, ok := pick(g, prescriptionsOf(db, g.UserID, func(rx *Prescription) bool { return len(bad(rx)) > 0 && len(good(rx)) > 0 }))
		if !ok {
			return sim.Grounding{}, false
		}
		rx := db.Prescriptions[id]
		sups := bad(rx)
		s := db.Reference.Suppliers[sups[g.Rand.IntN(len(sups))]]
		return sim.Grounding{
			Slots:     map[string]string{"prescription_id": id, "medication": rx.Medication, "supplier": s.Name},
			Facts:     map[string]string{"prescription_id": id, "supplier_name": s.Name},
			Request:   emobench.Request{Text: fmt.Sprintf("Update the supplier of prescription %s to %s, or to none other.", id, s.Name), Tools: []string{ToolListSuppliers}},
			Actions:   []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", g.UserID), sim.NewAction(ToolGetPrescription, "prescription_id", id), sim.NewAction(ToolListSuppliers)},
			Forbidden: []emobench.Action{withCompareArgs(supplierAction(id, s.ID), "prescription_id", "supplier_id")},
			Uses:      []string{id},
		}, true
	}
}

func groundRefillExpired(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	id, ok := pick(g, prescriptionsOf(db, g.UserID, func(rx *Prescription) bool { return rx.RefillsRemaining > 0 && rx.ExpiresOn < Today }))
	if !ok {
		return sim.Grounding{}, false
	}
	rx := db.Prescriptions[id]
	return sim.Grounding{
		Slots:     map[string]string{"prescription_id": id, "medication": rx.Medication},
		Facts:     map[string]string{"prescription_id": id, "medication": rx.Medication},
		Request:   emobench.Request{Text: fmt.Sprintf("Request a refill of prescription %s.", id), Tools: []string{ToolGetPrescription}},
		Actions:   []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", g.UserID), sim.NewAction(ToolGetPrescription, "prescription_id", id)},
		Forbidden: []emobench.Action{withCompareArgs(sim.NewAction(ToolRequestRefill, "prescription_id", id), "prescription_id")},
		Uses:      []string{id},
	}, true
}

func groundReplaceWorking(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	id, ok := pick(g, devicesOf(db, g.UserID, func(d *Device) bool { return !faulty(db, d) }))
	if !ok {
		return sim.Grounding{}, false
	}
	wish := oneOf(g, "I saw there's a newer model", "mine looks a bit worn", "I'd like a spare one for travel", "my neighbour got a new one")
	d := db.Devices[id]
	return sim.Grounding{
		Slots:     withCapitals(map[string]string{"device": deviceWords[d.Type], "device_id": id, "wish": wish}, "wish"),
		Facts:     map[string]string{"device_id": id, "replacement_reason": wish},
		Request:   emobench.Request{Text: fmt.Sprintf("Replace my %s %s with a new one.", deviceWords[d.Type], id), Tools: []string{ToolListUploads}},
		Actions:   []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", g.UserID), sim.NewAction(ToolListUploads, "device_id", id)},
		Forbidden: []emobench.Action{withCompareArgs(sim.NewAction(ToolReplaceDevice, "device_id", id), "device_id")},
		Uses:      []string{id},
	}, true
}

// dateAndClock splits a YYYY-MM-DDTHH:MM time into the date and the clock
// time, the two outputs an answer must hold: "2025-02-15 at 09:00" says
// both, where the stored "2025-02-15T09:00" is no way a person writes it.
func dateAndClock(t string) []string {
	date, clock, ok := strings.Cut(t, "T")
	if !ok {
		return []string{t}
	}
	return []string{date, clock}
}

// refillsLeft is a refill count as an answer says it: "1 refill", "3
// refills".
func refillsLeft(n int) string {
	if n == 1 {
		return "1 refill"
	}
	return strconv.Itoa(n) + " refills"
}

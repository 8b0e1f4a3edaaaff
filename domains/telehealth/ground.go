package telehealth

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// The grounders of the intent catalog (catalog.go). Each reads the state
// (the task's earlier intents applied) and never changes it.

// appointmentsOf returns the ids of the patient's appointments keep
// accepts; prescriptionsOf and devicesOf those of their active
// prescriptions and devices.
func appointmentsOf(db *DB, patientID string, keep func(a *Appointment) bool) []string {
	return rowsOf(db, patientID, &db.Appointments, func(p *Patient) []string { return p.AppointmentIDs }, keep)
}

func prescriptionsOf(db *DB, patientID string, keep func(rx *Prescription) bool) []string {
	return rowsOf(db, patientID, &db.Prescriptions, func(p *Patient) []string { return p.PrescriptionIDs },
		func(rx *Prescription) bool { return rx.Status == RxActive && keep(rx) })
}

func devicesOf(db *DB, patientID string, keep func(d *Device) bool) []string {
	return rowsOf(db, patientID, &db.Devices, func(p *Patient) []string { return p.DeviceIDs },
		func(d *Device) bool { return d.Status == DeviceActive && keep(d) })
}

// rowsOf returns the ids of the patient's rows of t (ids) that keep accepts.
func rowsOf[V any](db *DB, patientID string, t *sim.Table[V], ids func(*Patient) []string, keep func(*V) bool) []string {
	var out []string
	if p := db.Patients.At(patientID); p != nil {
		for _, id := range ids(p) {
			if v := t.At(id); v != nil && keep(v) {
				out = append(out, id)
			}
		}
	}
	return out
}

// knownBefore reports whether the appointment or device id was in the
// initial database: its id is on what the clinic sent the patient, not
// made by an earlier request of the task (a visit just booked, a device
// just shipped).
func knownBefore(id string) bool {
	return initialDB().Appointments.Has(id) || initialDB().Devices.Has(id)
}

// unaware decides whether the patient has the ids of a kind of entity
// ("appointment", "prescription", "device") at hand, or, half of the
// time, describes the one a request is about (TraitFindable), which the
// agent finds through their profile. A task decides once a kind (its
// first request's choice is among its Uses, modeKey): the scripted user
// takes an id shaped like one they know for a mistake, so a patient who
// gave one prescription's number and not the other's would fail a right
// agent.
func unaware(g sim.GroundContext, kind string) bool {
	switch {
	case sim.UsedInTask(g, modeKey(g.UserID, kind, false)):
		return false
	case sim.UsedInTask(g, modeKey(g.UserID, kind, true)):
		return true
	}
	return g.Rand.IntN(2) == 0
}

// otherMode reports whether an earlier request of the task decided the
// patient's awareness of kind's ids otherwise than unaware, which a
// request that can only be made one way needs.
func otherMode(g sim.GroundContext, kind string, unaware bool) bool {
	return sim.UsedInTask(g, modeKey(g.UserID, kind, !unaware))
}

func modeKey(patientID, kind string, unaware bool) string {
	return fmt.Sprintf("%s/%s/unaware=%v", patientID, kind, unaware)
}

// findable marks gr as a request whose entity the patient described, with
// first, the profile read that lists the patient's entities, among its
// actions.
func findable(gr *sim.Grounding, patientID string) {
	gr.Traits = append(gr.Traits, emobench.TraitFindable)
	gr.Actions = append([]emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", patientID)}, gr.Actions...)
}

// appointmentRef is how the patient names appointment a ({appointment}):
// "APT20456 on Monday 2025-03-10 at 09:30", the id of their confirmation,
// or, unaware, "with Dr. Hiro Yilmaz on Monday 2025-03-10 at 09:30"; with
// the facts that carry it (Alternatives finds the described one by them).
func appointmentRef(db *DB, a *Appointment, unaware bool) (string, map[string]string) {
	if !unaware {
		return a.ID + " on " + say(a.Start), map[string]string{"appointment_id": a.ID}
	}
	name := db.ref().Providers[a.ProviderID].Name
	return "with " + name + " on " + say(a.Start), map[string]string{"provider_name": name, "appointment_time": say(a.Start)}
}

// prescriptionGrounding is the grounding of a request about rx, with its
// {prescription} and {medication}, the read of rx and the facts that name
// it: "my glipizide prescription RX401204", the number on its label, or,
// for an unaware patient whose only active prescription of its medication
// it is, "my glipizide prescription" (TraitFindable); the caller adds the
// request and the write. false: the patient is unaware (unaware) but has
// another active prescription of the medication.
func prescriptionGrounding(g sim.GroundContext, db *DB, rx *Prescription) (sim.Grounding, bool) {
	unaware := unaware(g, "prescription")
	gr := sim.Grounding{
		Slots:   map[string]string{"prescription": "my " + rx.Medication + " prescription " + rx.ID, "medication": rx.Medication},
		Facts:   map[string]string{"prescription_id": rx.ID, "current_medication": rx.Medication},
		Actions: []emobench.Action{sim.NewAction(ToolGetPrescription, "prescription_id", rx.ID)},
		Uses:    []string{rx.ID, modeKey(g.UserID, "prescription", unaware)},
	}
	if unaware {
		if len(prescriptionsOf(db, rx.PatientID, func(o *Prescription) bool { return o.Medication == rx.Medication })) > 1 {
			return gr, false
		}
		gr.Slots["prescription"] = "my " + rx.Medication + " prescription"
		delete(gr.Facts, "prescription_id")
		findable(&gr, rx.PatientID)
	}
	return gr, true
}

// deviceGrounding is the grounding of a request about device d, with its
// {device} and {device_ref}, the read of its uploads and the facts that
// name it: "blood pressure cuff (DEV-50452)", the id on its sticker, or,
// for an unaware patient whose only active device of its kind it is,
// "blood pressure cuff" (TraitFindable); the caller adds the request and
// the write. false: the patient is unaware (unaware) but has another
// active device of its kind.
func deviceGrounding(g sim.GroundContext, db *DB, d *Device) (sim.Grounding, bool) {
	unaware := unaware(g, "device")
	word := clinic.DeviceWords[d.Type]
	gr := sim.Grounding{
		Slots:   map[string]string{"device": word, "device_ref": word + " (" + d.ID + ")"},
		Facts:   map[string]string{"device_id": d.ID, "device_type": word},
		Actions: []emobench.Action{sim.NewAction(ToolListUploads, "device_id", d.ID)},
		Uses:    []string{d.ID, modeKey(g.UserID, "device", unaware)},
	}
	if unaware {
		if len(devicesOf(db, d.PatientID, func(o *Device) bool { return o.Type == d.Type })) > 1 {
			return gr, false
		}
		gr.Slots["device_ref"] = word
		delete(gr.Facts, "device_id")
		findable(&gr, d.PatientID)
	}
	return gr, true
}

// profileFirst puts the read of the patient's profile first among gr's
// actions, as an unaware patient's request has it (findable), when it is
// not there yet.
func profileFirst(gr *sim.Grounding, patientID string) {
	if len(gr.Traits) == 0 {
		gr.Actions = append([]emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", patientID)}, gr.Actions...)
	}
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

// dayLayout is a preferred day as a patient's fact says it, "Monday, March
// 17, 2025".
const dayLayout = "Monday, January 2, 2006"

// freeSlots returns pr's open slots at which the patient has no other
// scheduled appointment.
func freeSlots(db *DB, pr *Provider, patientID string) []string {
	busy := map[string]bool{}
	for _, id := range appointmentsOf(db, patientID, scheduled) {
		busy[db.Appointments.At(id).Start] = true
	}
	free := slices.DeleteFunc(db.openSlots(pr), func(s string) bool { return busy[s] })
	slices.Sort(free) // earliest first, which "the earliest open slot" reads
	return free
}

// patientSpecialties are the specialties the patient's conditions need,
// and primary care.
func patientSpecialties(db *DB, patientID string) []string {
	out := []string{"primary care"}
	for _, c := range db.ref().Records[patientID].Conditions {
		for _, cond := range clinic.Conditions {
			if cond.Name == c && !slices.Contains(out, cond.Specialty) {
				out = append(out, cond.Specialty)
			}
		}
	}
	return out
}

func reasonFor(g sim.GroundContext, specialty string) string {
	for _, sp := range clinic.Specialties {
		if sp.Name == specialty {
			return sp.Reasons[g.Rand.IntN(len(sp.Reasons))]
		}
	}
	return "follow-up visit"
}

// eligibleSupplier reports whether policy.md lets rx's medication med go
// to s for patient p.
func eligibleSupplier(db *DB, s *Supplier, med string, p *Patient) bool {
	m := db.ref().Medications[med]
	return slices.Contains(s.Stock, med) && slices.Contains(s.ShipsTo, p.Address.State) && (m == nil || !m.Controlled || s.ControlledLicense)
}

func suppliersWhere(db *DB, keep func(s *Supplier) bool) []string {
	var out []string
	for _, id := range slices.Sorted(maps.Keys(db.ref().Suppliers)) {
		if keep(db.ref().Suppliers[id]) {
			out = append(out, id)
		}
	}
	return out
}

// movesFor returns the ids of the suppliers, other than rx's own, that
// policy.md lets take med for rx's patient.
func movesFor(db *DB, rx *Prescription, med string) []string {
	p := db.Patients.At(rx.PatientID)
	return suppliersWhere(db, func(s *Supplier) bool { return s.ID != rx.SupplierID && eligibleSupplier(db, s, med, p) })
}

// anySupplier returns one of the suppliers ids at random.
func anySupplier(g sim.GroundContext, db *DB, ids []string) *Supplier {
	return db.ref().Suppliers[ids[g.Rand.IntN(len(ids))]]
}

func prescriberName(db *DB, rx *Prescription) string {
	if pr := db.ref().Providers[rx.PrescriberID]; pr != nil {
		return strings.TrimPrefix(pr.Name, "Dr. ")
	}
	return "my doctor"
}

// --- writes ------------------------------------------------------------

// groundCancel grounds the cancellation of a scheduled appointment the
// patient knows of, or of one within the cancellation window (late),
// which the policy refuses.
func groundCancel(late bool) func(sim.GroundContext, *DB) (sim.Grounding, bool) {
	return func(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
		id, ok := sim.PickFresh(g, appointmentsOf(db, g.UserID, func(a *Appointment) bool { return scheduled(a) && lateStart(a) == late && knownBefore(a.ID) }))
		if !ok {
			return sim.Grounding{}, false
		}
		reason := sim.OneOf(g.Rand, clinic.CancelReasons...)
		gr := appointmentGrounding(g, db, db.Appointments.At(id), map[string]string{"reason": reason})
		gr.Request = emobench.Request{Text: fmt.Sprintf("Cancel my appointment %s; the reason is %s.", gr.Slots["appointment"], reason), Tools: []string{ToolCancel}}
		gr.Actions = append(gr.Actions, sim.NewAction(ToolCancel, "appointment_id", id, "reason", reason))
		if late {
			profileFirst(&gr, g.UserID)
			return sim.RefusedWrite(gr, "appointment_id"), true
		}
		return gr, true
	}
}

// appointmentGrounding is the grounding of a request about appointment a
// that more (slots and facts: a reason, an excuse) completes, with its
// {appointment} and the read of a (after the profile's when the patient
// is unaware of its id); the caller adds the request and the write.
func appointmentGrounding(g sim.GroundContext, db *DB, a *Appointment, more map[string]string) sim.Grounding {
	unaware := unaware(g, "appointment")
	ref, facts := appointmentRef(db, a, unaware)
	gr := sim.Grounding{Slots: map[string]string{"appointment": ref}, Facts: facts,
		Actions: []emobench.Action{sim.NewAction(ToolGetAppointment, "appointment_id", a.ID)}, Uses: []string{a.ID, modeKey(g.UserID, "appointment", unaware)}}
	for k, v := range more {
		gr.Slots[k], gr.Facts[k] = v, v
		sim.WithCapitals(gr.Slots, k)
	}
	if unaware {
		findable(&gr, a.PatientID)
	}
	return gr
}

// bookable is a provider's slot a patient may book.
type bookable struct {
	pr        *Provider
	start, vt string
}

// pickBooking picks a provider of specialty whose licence keep accepts
// (licensed in the patient's state or not), with a free slot.
func pickBooking(g sim.GroundContext, db *DB, specialty string, licensed bool) (bookable, bool) {
	p := db.Patients.At(g.UserID)
	var ids []string
	for _, id := range slices.Sorted(maps.Keys(db.ref().Providers)) {
		pr := db.ref().Providers[id]
		if pr.Specialty == specialty && slices.Contains(pr.LicensedStates, p.Address.State) == licensed && len(freeSlots(db, pr, p.ID)) > 0 {
			ids = append(ids, id)
		}
	}
	id, ok := sim.PickFresh(g, ids)
	if !ok {
		return bookable{}, false
	}
	pr := db.ref().Providers[id]
	slots := freeSlots(db, pr, p.ID)
	return bookable{pr: pr, start: slots[g.Rand.IntN(len(slots))], vt: pr.VisitTypes[g.Rand.IntN(len(pr.VisitTypes))]}, true
}

func bookingGrounding(g sim.GroundContext, db *DB, licensed bool) (sim.Grounding, bookable, bool) {
	p := db.Patients.At(g.UserID)
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
		Slots: sim.WithCapitals(map[string]string{"provider": b.pr.Name, "specialty": sp, "start": say(b.start), "visit": article + visit, "reason": reason}, "visit"),
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

func groundBook(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	if sim.UsedInTask(g, g.UserID+"/book") {
		return sim.Grounding{}, false
	}
	gr, b, ok := bookingGrounding(g, db, true)
	if !ok {
		return gr, false
	}
	if g.Rand.IntN(2) == 0 {
		// The patient names a day, not a time (TraitConditional): the
		// earliest open slot that day, or if it has none the first after
		// it, which the provider's calendar decides.
		slots := freeSlots(db, b.pr, g.UserID)
		first, _ := time.Parse(dateLayout, Today)
		last, _ := time.Parse(dateLayout, slots[len(slots)-1][:len(dateLayout)])
		span := int(last.Sub(first).Hours() / 24)
		if span < 1 {
			return sim.Grounding{}, false
		}
		day := first.AddDate(0, 0, 1+g.Rand.IntN(span))
		gr.Uses = slices.DeleteFunc(gr.Uses, func(u string) bool { return u == b.pr.ID+"/"+b.start })
		b.start, _ = firstSlotFrom(slots, day.Format(dateLayout))
		gr.Uses = append(gr.Uses, b.pr.ID+"/"+b.start)
		delete(gr.Facts, "start_time")
		// A date as people write it: the scripted user takes an argument
		// that extends a fact's value ("2025-03-17T09:00" of "2025-03-17")
		// for a mistake.
		gr.Facts["preferred_day"], gr.Facts["if_nothing_open_that_day"] = day.Format(dayLayout), "the first open slot after it"
		gr.Slots["start"] = day.Format("Monday 2006-01-02") + ", at the earliest open slot that day, or if nothing is open that day, at the first open slot after it"
		gr.Request.Text = fmt.Sprintf("Book %s with %s (%s) at the earliest open slot on %s, or if none that day, the first one after it, for %s.",
			gr.Slots["visit"], b.pr.Name, gr.Facts["specialty"], day.Format(dateLayout), gr.Facts["reason"])
		gr.Traits = []string{emobench.TraitConditional}
	}
	gr.Actions = append(gr.Actions, bookAction(g.UserID, b, gr.Facts["reason"]))
	return gr, true
}

func groundReschedule(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	if db.Patients.At(g.UserID) == nil {
		return sim.Grounding{}, false
	}
	state := db.Patients.At(g.UserID).Address.State
	id, ok := sim.PickFresh(g, appointmentsOf(db, g.UserID, func(a *Appointment) bool {
		pr := db.ref().Providers[a.ProviderID]
		return scheduled(a) && !lateStart(a) && knownBefore(a.ID) && slices.Contains(pr.LicensedStates, state) && slices.Contains(pr.VisitTypes, a.VisitType) &&
			len(freeSlots(db, pr, g.UserID)) > 0
	}))
	if !ok {
		return sim.Grounding{}, false
	}
	a := db.Appointments.At(id)
	pr := db.ref().Providers[a.ProviderID]
	slots := freeSlots(db, pr, g.UserID)
	b := bookable{pr: pr, start: slots[g.Rand.IntN(len(slots))], vt: a.VisitType}
	reason := sim.OneOf(g.Rand, "a work conflict", "travel", "a clash with another commitment")
	gr := appointmentGrounding(g, db, a, map[string]string{"reason": reason, "start": say(b.start)})
	// The patient knows their doctor and the kind of visit they keep.
	gr.Facts["provider_name"], gr.Facts["visit_type"], gr.Facts["start_time"] = pr.Name, a.VisitType, b.start
	delete(gr.Facts, "start")
	gr.Request = emobench.Request{
		Text:  fmt.Sprintf("Move my appointment %s to %s with the same provider and visit type; %s.", gr.Slots["appointment"], say(b.start), reason),
		Tools: []string{ToolCancel, ToolBook},
	}
	gr.Actions = append(gr.Actions, sim.NewAction(ToolCancel, "appointment_id", id, "reason", reason),
		sim.NewAction(ToolGetProvider, "provider_id", pr.ID), bookAction(g.UserID, b, a.Reason))
	gr.Uses = append(gr.Uses, pr.ID+"/"+b.start, g.UserID+"/book")
	return gr, true
}

// groundWaive grounds the waiver of a no-show fee, or, for a patient
// who had one waived within the year (second), its refusal, which rests
// on the read of that waived visit.
func groundWaive(second bool) func(sim.GroundContext, *DB) (sim.Grounding, bool) {
	return func(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
		prior := recentWaiver(db, g.UserID)
		if (prior != "") != second {
			return sim.Grounding{}, false
		}
		id, ok := sim.PickFresh(g, appointmentsOf(db, g.UserID, func(a *Appointment) bool { return a.Status == StatusNoShow && !a.FeeWaived }))
		if !ok {
			return sim.Grounding{}, false
		}
		gr := appointmentGrounding(g, db, db.Appointments.At(id), map[string]string{"excuse": sim.OneOf(g.Rand, clinic.Excuses...)})
		gr.Request = emobench.Request{Text: fmt.Sprintf("Waive the no-show fee of my appointment %s.", gr.Slots["appointment"]), Tools: []string{ToolWaiveNoShow}}
		gr.Actions = append(gr.Actions, sim.NewAction(ToolWaiveNoShow, "appointment_id", id))
		if second {
			gr = sim.RefusedWrite(gr, "appointment_id")
			gr.Actions = []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", g.UserID), sim.NewAction(ToolGetAppointment, "appointment_id", prior),
				sim.NewAction(ToolGetAppointment, "appointment_id", id)}
		}
		return gr, true
	}
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

// groundSwitch grounds the switch of a prescription to an approved
// alternative without a major interaction, and its move to another
// supplier (withSupplier); or, not safe, to an approved alternative with a
// major interaction, which the policy refuses (the patient declines any
// other change).
func groundSwitch(safe, withSupplier bool) func(sim.GroundContext, *DB) (sim.Grounding, bool) {
	return func(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
		if otherMode(g, "prescription", false) {
			return sim.Grounding{}, false
		}
		id, ok := sim.PickFresh(g, prescriptionsOf(db, g.UserID, func(rx *Prescription) bool {
			alt, _, ok := switchable(db, rx, safe)
			return ok && (!withSupplier || len(movesFor(db, rx, alt.Medication)) > 0)
		}))
		if !ok {
			return sim.Grounding{}, false
		}
		rx := db.Prescriptions.At(id)
		alt, others, _ := switchable(db, rx, safe)
		gr := sim.Grounding{
			Slots: map[string]string{"prescription_id": id, "medication": alt.Medication, "dose": alt.Dose, "frequency": alt.Frequency, "prescriber": prescriberName(db, rx)},
			Facts: map[string]string{"prescription_id": id, "medication": alt.Medication, "dose": alt.Dose, "frequency": alt.Frequency},
			Request: emobench.Request{
				Text:  fmt.Sprintf("Change prescription %s to the approved %s %s %s.", id, alt.Medication, alt.Dose, alt.Frequency),
				Tools: []string{ToolChangeMedication},
			},
			Actions: append(regimenReads(db, rx), checkAction(alt.Medication, others), changeAction(id, alt)),
			Uses:    []string{id, modeKey(g.UserID, "prescription", false)},
		}
		if !safe {
			gr.Request.Text = strings.TrimSuffix(gr.Request.Text, ".") + ", or leave it as it is."
			gr.Traits = declined()
			return sim.RefusedWrite(gr, "prescription_id", "medication"), true
		}
		if withSupplier {
			s := anySupplier(g, db, movesFor(db, rx, alt.Medication))
			gr.Slots["supplier"], gr.Facts["supplier_name"] = s.Name, s.Name
			gr.Request.Text = fmt.Sprintf("Change prescription %s to the approved %s %s %s, and move it to %s.", id, alt.Medication, alt.Dose, alt.Frequency, s.Name)
			gr.Request.Tools = []string{ToolChangeMedication, ToolUpdateSupplier}
			gr.Actions = append(gr.Actions, sim.NewAction(ToolListSuppliers), supplierAction(id, s.ID))
		}
		return gr, true
	}
}

func groundUpdateSupplier(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	id, ok := sim.PickFresh(g, prescriptionsOf(db, g.UserID, func(rx *Prescription) bool { return len(movesFor(db, rx, rx.Medication)) > 0 }))
	if !ok {
		return sim.Grounding{}, false
	}
	rx := db.Prescriptions.At(id)
	s := anySupplier(g, db, movesFor(db, rx, rx.Medication))
	gr, ok := prescriptionGrounding(g, db, rx)
	if !ok {
		return gr, false
	}
	profileFirst(&gr, g.UserID)
	gr.Slots["supplier"], gr.Facts["supplier_name"] = s.Name, s.Name
	if others := suppliersWhere(db, func(o *Supplier) bool { return o.ID != rx.SupplierID && o.ID != s.ID }); g.Rand.IntN(2) == 0 && len(others) > 0 {
		// A first choice and s as the fallback (TraitConditional): the
		// first if it may take the prescription, which its stock,
		// shipping and licence decide, else s.
		first := db.ref().Suppliers[others[g.Rand.IntN(len(others))]]
		gr.Slots["supplier"] = supplierChoiceText(first.Name, s.Name)
		gr.Facts["supplier_name"] = gr.Slots["supplier"]
		gr.Traits = append(gr.Traits, emobench.TraitConditional)
		if eligibleSupplier(db, first, rx.Medication, db.Patients.At(g.UserID)) {
			s = first
		}
	}
	gr.Request = emobench.Request{Text: fmt.Sprintf("Update the supplier of %s to %s.", gr.Slots["prescription"], gr.Slots["supplier"]), Tools: []string{ToolUpdateSupplier}}
	gr.Actions = append(gr.Actions, sim.NewAction(ToolListSuppliers), supplierAction(id, s.ID))
	return gr, true
}

// groundRefill grounds a refill of a prescription with refills left, then
// its move to another supplier (move), or of an expired one (expired),
// which the policy refuses.
func groundRefill(move, expired bool) func(sim.GroundContext, *DB) (sim.Grounding, bool) {
	return func(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
		id, ok := sim.PickFresh(g, prescriptionsOf(db, g.UserID, func(rx *Prescription) bool {
			return rx.RefillsRemaining > 0 && (rx.ExpiresOn < Today) == expired && (!move || len(movesFor(db, rx, rx.Medication)) > 0)
		}))
		if !ok {
			return sim.Grounding{}, false
		}
		rx := db.Prescriptions.At(id)
		gr, ok := prescriptionGrounding(g, db, rx)
		if !ok {
			return gr, false
		}
		gr.Request = emobench.Request{Text: fmt.Sprintf("Request a refill of %s.", gr.Slots["prescription"]), Tools: []string{ToolRequestRefill}}
		gr.Actions = append(gr.Actions, sim.NewAction(ToolRequestRefill, "prescription_id", id))
		if expired {
			profileFirst(&gr, g.UserID)
			return sim.RefusedWrite(gr, "prescription_id"), true
		}
		if move {
			s := anySupplier(g, db, movesFor(db, rx, rx.Medication))
			gr.Slots["supplier"], gr.Facts["supplier_name"] = s.Name, s.Name
			gr.Request.Text = fmt.Sprintf("Request a refill of %s, then move it to %s.", gr.Slots["prescription"], s.Name)
			gr.Request.Tools = []string{ToolRequestRefill, ToolUpdateSupplier}
			gr.Actions = append(gr.Actions, sim.NewAction(ToolGetPatient, "patient_id", g.UserID), sim.NewAction(ToolListSuppliers), supplierAction(id, s.ID))
		}
		return gr, true
	}
}

func groundReplace(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	id, ok := sim.PickFresh(g, devicesOf(db, g.UserID, func(d *Device) bool { return faulty(db, d) && knownBefore(d.ID) }))
	if !ok {
		return sim.Grounding{}, false
	}
	d := db.Devices.At(id)
	symptom := "nothing has shown up from it for more than a week"
	if up := db.ref().Uploads[id]; len(up) > 0 && up[len(up)-1].Flag == FlagError {
		symptom = "it shows an error code instead of a reading"
	}
	gr, ok := deviceGrounding(g, db, d)
	if !ok {
		return gr, false
	}
	gr.Slots["symptom"], gr.Facts["problem"] = symptom, symptom
	gr.Request = emobench.Request{Text: fmt.Sprintf("Replace my %s; %s.", gr.Slots["device_ref"], symptom), Tools: []string{ToolReplaceDevice}}
	gr.Actions = append(gr.Actions, sim.NewAction(ToolReplaceDevice, "device_id", id))
	return gr, true
}

func groundPhone(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	key := g.UserID + "/phone"
	if db.Patients.At(g.UserID) == nil || sim.UsedInTask(g, key) {
		return sim.Grounding{}, false
	}
	var phone string
	for phone == "" || phone == db.Patients.At(g.UserID).Phone {
		phone = fmt.Sprintf("%d-555-%04d", 200+g.Rand.IntN(700), g.Rand.IntN(10000))
	}
	reason := sim.OneOf(g.Rand, "I switched carriers", "I lost my old phone", "I moved and got a local number")
	return sim.Grounding{
		Slots:   map[string]string{"phone": phone, "reason": reason},
		Facts:   map[string]string{"phone": phone, "phone_change": reason},
		Request: emobench.Request{Text: fmt.Sprintf("Update my phone number to %s.", phone), Tools: []string{ToolUpdatePhone}},
		Actions: []emobench.Action{sim.NewAction(ToolUpdatePhone, "patient_id", g.UserID, "phone", phone)},
		Uses:    []string{key},
	}, true
}

// --- reads -------------------------------------------------------------

func groundLab(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	if db.ref().Records[g.UserID] == nil {
		return sim.Grounding{}, false
	}
	rec := db.ref().Records[g.UserID]
	var tests []string
	for _, l := range rec.Labs {
		if !slices.Contains(tests, g.UserID+"/lab/"+l.Test) {
			tests = append(tests, g.UserID+"/lab/"+l.Test)
		}
	}
	key, ok := sim.PickFresh(g, tests)
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
		Slots:   map[string]string{"test": test, "purpose": sim.OneOf(g.Rand, clinic.Purposes...)},
		Facts:   map[string]string{"lab_test": test},
		Request: emobench.Request{Text: fmt.Sprintf("What was my latest %s result and its date?", test), Tools: []string{ToolGetRecord}},
		Actions: []emobench.Action{sim.NewAction(ToolGetRecord, "patient_id", g.UserID)},
		Outputs: []string{labValue(last), last.Date},
		Uses:    []string{key},
	}, true
}

func groundAllergies(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	key := g.UserID + "/allergies"
	if db.ref().Records[g.UserID] == nil || len(db.ref().Records[g.UserID].Allergies) == 0 || sim.UsedInTask(g, key) {
		return sim.Grounding{}, false
	}
	purpose := sim.OneOf(g.Rand, clinic.Purposes...)
	return sim.Grounding{
		Slots:   map[string]string{"purpose": purpose},
		Facts:   map[string]string{"purpose": purpose},
		Request: emobench.Request{Text: "Which allergies are on file for me?", Tools: []string{ToolGetRecord}},
		Actions: []emobench.Action{sim.NewAction(ToolGetRecord, "patient_id", g.UserID)},
		Outputs: slices.Clone(db.ref().Records[g.UserID].Allergies),
		Uses:    []string{key},
	}, true
}

func groundNextAppointment(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	if otherMode(g, "appointment", true) {
		return sim.Grounding{}, false
	}
	key := g.UserID + "/next"
	if sim.UsedInTask(g, key) {
		return sim.Grounding{}, false
	}
	ids := appointmentsOf(db, g.UserID, scheduled)
	if len(ids) == 0 {
		return sim.Grounding{}, false
	}
	slices.SortFunc(ids, func(a, b string) int {
		return strings.Compare(db.Appointments.At(a).Start, db.Appointments.At(b).Start)
	})
	a := db.Appointments.At(ids[0])
	purpose := sim.OneOf(g.Rand, "for my own notes", "for a form I'm filling in", "so I can tell my family", "so I can plan my week")
	return sim.Grounding{
		Slots:   map[string]string{"purpose": purpose},
		Facts:   map[string]string{"purpose": purpose},
		Request: emobench.Request{Text: "When is my next appointment, and with whom?", Tools: []string{ToolGetAppointment}},
		Actions: []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", g.UserID), sim.NewAction(ToolGetAppointment, "appointment_id", a.ID)},
		Outputs: append(sim.DateAndClock(a.Start), db.ref().Providers[a.ProviderID].Name),
		Uses:    []string{key, a.ID, modeKey(g.UserID, "appointment", true)},
		Traits:  []string{emobench.TraitFindable}, // the patient knows of no appointment: the agent finds the next one
	}, true
}

func groundRefillsLeft(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	id, ok := sim.PickFresh(g, prescriptionsOf(db, g.UserID, func(*Prescription) bool { return true }))
	if !ok {
		return sim.Grounding{}, false
	}
	rx := db.Prescriptions.At(id)
	gr, ok := prescriptionGrounding(g, db, rx)
	if !ok {
		return gr, false
	}
	purpose := sim.OneOf(g.Rand, clinic.Purposes...)
	gr.Slots["purpose"], gr.Facts["purpose"] = purpose, purpose
	gr.Request = emobench.Request{Text: fmt.Sprintf("How many refills are left on %s, and when does it expire?", gr.Slots["prescription"]), Tools: []string{ToolGetPrescription}}
	gr.Outputs = []string{refillsLeft(rx.RefillsRemaining), rx.ExpiresOn}
	return gr, true
}

func groundLatestReading(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	id, ok := sim.PickFresh(g, devicesOf(db, g.UserID, func(d *Device) bool {
		up := db.ref().Uploads[d.ID]
		return len(up) > 0 && up[len(up)-1].Flag == FlagOK
	}))
	if !ok {
		return sim.Grounding{}, false
	}
	up := db.ref().Uploads[id]
	last := up[len(up)-1]
	gr, ok := deviceGrounding(g, db, db.Devices.At(id))
	if !ok {
		return gr, false
	}
	gr.Slots["purpose"] = sim.OneOf(g.Rand, clinic.Purposes...)
	gr.Request = emobench.Request{Text: fmt.Sprintf("What is the latest reading of my %s?", gr.Slots["device_ref"]), Tools: []string{ToolListUploads}}
	gr.Outputs = append([]string{last.Value}, sim.DateAndClock(last.Time)...)
	return gr, true
}

func groundInteractionLookup(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	// A pair is asked about once a task: its key names the patient.
	var pairs []string
	for _, m := range db.activeMeds(g.UserID, "") {
		for _, in := range db.ref().Interactions {
			if key := g.UserID + "/" + in.A + "+" + in.B; (in.A == m || in.B == m) && !slices.Contains(pairs, key) {
				pairs = append(pairs, key)
			}
		}
	}
	key, ok := sim.PickFresh(g, pairs)
	if !ok {
		return sim.Grounding{}, false
	}
	a, b, _ := strings.Cut(strings.TrimPrefix(key, g.UserID+"/"), "+")
	if g.Rand.IntN(2) == 0 {
		a, b = b, a
	}
	sev, _ := db.ref().interaction(a, b)
	return sim.Grounding{
		Slots:   map[string]string{"drug_a": a, "drug_b": b, "purpose": sim.OneOf(g.Rand, clinic.Purposes...)},
		Facts:   map[string]string{"medication": a, "other_medication": b},
		Request: emobench.Request{Text: fmt.Sprintf("How severe is the interaction between %s and %s?", a, b), Tools: []string{ToolCheckInteractions}},
		Actions: []emobench.Action{sim.NewAction(ToolCheckInteractions, "medications", []string{a, b})},
		Outputs: []string{severityAnswer(sev)},
		Uses:    []string{key},
	}, true
}

// --- transfers -----------------------------------------------------------

func transferAction(summary string) emobench.Action {
	return sim.NewAction(ToolTransfer, "summary", summary)
}

// emergencyAdvice is what policy.md has the agent say to a patient with an
// emergency warning sign before the transfer.
var emergencyAdvice = emobench.Advice{Before: ToolTransfer, AnyOf: []string{"911", "emergency room", "emergency services", "emergency department"},
	NLAssertion: "The agent told the patient to call 911 or go to the emergency room before transferring"}

// warningSign reports whether a symptom or feeling of the transfer
// intents is an emergency warning sign of policy.md.
func warningSign(s string) bool {
	return slices.Contains(clinic.WarningSigns, s) || s == "short of breath"
}

// clinicalGrounding completes gr, a clinical transfer for a patient
// reporting what, with the transfer: for an emergency warning sign, with
// the 911 advice policy.md asks (Advice) and says in the summary.
func clinicalGrounding(gr sim.Grounding, what, sign string) sim.Grounding {
	if warningSign(sign) {
		what += " These are emergency warning signs; I told the patient to call 911 now."
		gr.Advice = []emobench.Advice{emergencyAdvice}
	}
	gr.Actions = append(gr.Actions, transferAction(what))
	return gr
}

func groundSymptoms(emergency bool) func(sim.GroundContext, *DB) (sim.Grounding, bool) {
	return func(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
		key := g.UserID + "/symptoms"
		if sim.UsedInTask(g, key) {
			return sim.Grounding{}, false
		}
		symptom := sim.OneOf(g.Rand, clinic.OtherSymptoms...)
		if emergency {
			symptom = sim.OneOf(g.Rand, clinic.WarningSigns...)
		}
		return clinicalGrounding(sim.Grounding{
			Slots:   map[string]string{"symptom": symptom},
			Facts:   map[string]string{"symptom": symptom},
			Request: emobench.Request{Text: fmt.Sprintf("I have %s; I need to talk to a nurse.", symptom), Tools: []string{ToolTransfer}},
			Actions: []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", g.UserID)},
			Uses:    []string{key},
		}, fmt.Sprintf("Patient %s reports %s and asks for clinical advice.", g.UserID, symptom), symptom), true
	}
}

func groundHighReadings(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	id, ok := sim.PickFresh(g, devicesOf(db, g.UserID, func(d *Device) bool { return len(db.ref().Uploads[d.ID]) > 0 }))
	if !ok {
		return sim.Grounding{}, false
	}
	gr, ok := deviceGrounding(g, db, db.Devices.At(id))
	if !ok {
		return gr, false
	}
	feeling := sim.OneOf(g.Rand, "light-headed", "short of breath", "shaky and sweaty", "unwell")
	gr.Slots["feeling"], gr.Facts["feeling"] = feeling, feeling
	gr.Request = emobench.Request{Text: fmt.Sprintf("I feel %s and want a nurse to review the readings of my %s.", feeling, gr.Slots["device_ref"]), Tools: []string{ToolTransfer}}
	return clinicalGrounding(gr, fmt.Sprintf("Patient %s feels %s and asks a clinician to review the readings of device %s.", g.UserID, feeling, id), feeling), true
}

func groundBillingDispute(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	id, ok := sim.PickFresh(g, appointmentsOf(db, g.UserID, func(a *Appointment) bool { return a.Status == StatusCompleted }))
	if !ok {
		return sim.Grounding{}, false
	}
	complaint := sim.OneOf(g.Rand, "I was charged twice", "my plan should have covered it in full", "the claim went to my old insurance")
	gr := appointmentGrounding(g, db, db.Appointments.At(id), map[string]string{"complaint": complaint})
	gr.Request = emobench.Request{Text: fmt.Sprintf("The bill for my appointment %s is wrong: %s. I want billing to fix it.", gr.Slots["appointment"], complaint), Tools: []string{ToolTransfer}}
	gr.Actions = append(gr.Actions, transferAction(fmt.Sprintf("Patient %s disputes the bill of appointment %s: %s.", g.UserID, id, complaint)))
	return gr, true
}

func groundNameCorrection(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	key := g.UserID + "/name"
	if db.Patients.At(g.UserID) == nil || sim.UsedInTask(g, key) {
		return sim.Grounding{}, false
	}
	p := db.Patients.At(g.UserID)
	last := p.Name.Last
	for last == p.Name.Last {
		last = clinic.LastNames[g.Rand.IntN(len(clinic.LastNames))]
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

// declined returns the traits of a refusal whose patient states what to do if
// the request cannot be met ("If Dr. Ruiz can't see me, I don't want
// another provider"): a condition the data decides (the licence, the
// supplier's stock, the interaction table), so TraitConditional.
func declined() []string { return []string{emobench.TraitConditional} }

func groundCancelRelative(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	if otherMode(g, "appointment", false) {
		return sim.Grounding{}, false
	}
	if db.Patients.At(g.UserID) == nil {
		return sim.Grounding{}, false
	}
	me := db.Patients.At(g.UserID)
	var ids []string
	for _, id := range db.Appointments.Keys() {
		if a := db.Appointments.At(id); a.PatientID != me.ID && scheduled(a) && !lateStart(a) && db.Patients.At(a.PatientID).Name.Last == me.Name.Last {
			ids = append(ids, id)
		}
	}
	id, ok := sim.PickFresh(g, ids)
	if !ok {
		return sim.Grounding{}, false
	}
	owner := db.Patients.At(db.Appointments.At(id).PatientID)
	reason := sim.OneOf(g.Rand, clinic.CancelReasons...)
	return sim.Grounding{
		Slots: map[string]string{"appointment_id": id, "owner": owner.Name.First + " " + owner.Name.Last,
			"relative": relativeWord(g, me, owner), "their": pronouns(owner)[1], "them": pronouns(owner)[0], "reason": reason},
		Facts:     map[string]string{"appointment_id": id, "reason": reason},
		Request:   emobench.Request{Text: fmt.Sprintf("Cancel appointment %s for my relative %s; the reason is %s.", id, owner.Name.First, reason), Tools: []string{ToolGetPatient}},
		Actions:   []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", me.ID), sim.NewAction(ToolGetAppointment, "appointment_id", id)},
		Forbidden: []emobench.Action{sim.WithCompareArgs(sim.NewAction(ToolCancel, "appointment_id", id, "reason", reason), "appointment_id")},
		Uses:      []string{id, modeKey(g.UserID, "appointment", false)},
	}, true
}

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
	case slices.Contains(clinic.FemaleNames, p.Name.First):
		return 0
	case slices.Contains(clinic.MaleNames, p.Name.First):
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

func groundBookUnlicensed(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	if sim.UsedInTask(g, g.UserID+"/book") {
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
	gr.Forbidden = []emobench.Action{sim.WithCompareArgs(bookAction(g.UserID, b, gr.Facts["reason"]), "provider_id")}
	gr.Traits = declined()
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

func groundDoseAtWill(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	if otherMode(g, "prescription", false) {
		return sim.Grounding{}, false
	}
	id, ok := sim.PickFresh(g, prescriptionsOf(db, g.UserID, func(rx *Prescription) bool {
		d, ok := higherDose(rx.Dose)
		return ok && !slices.Contains(rx.Approved, Alternative{rx.Medication, d, rx.Frequency})
	}))
	if !ok {
		return sim.Grounding{}, false
	}
	rx := db.Prescriptions.At(id)
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
		Forbidden: []emobench.Action{sim.WithCompareArgs(changeAction(id, Alternative{rx.Medication, dose, rx.Frequency}),
			"prescription_id", "medication", "dose", "frequency")},
		Uses:   []string{id, modeKey(g.UserID, "prescription", false)},
		Traits: declined(),
	}, true
}

// groundBadSupplier grounds a move of a prescription to a supplier that
// does not ship to the patient's state (stocking it), or that ships there
// but does not stock it or may not dispense it (notStocking).
func groundBadSupplier(notStocking bool) func(sim.GroundContext, *DB) (sim.Grounding, bool) {
	return func(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
		if otherMode(g, "prescription", false) {
			return sim.Grounding{}, false
		}
		if db.Patients.At(g.UserID) == nil {
			return sim.Grounding{}, false
		}
		state := db.Patients.At(g.UserID).Address.State
		bad := func(rx *Prescription) []string {
			m := db.ref().Medications[rx.Medication]
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
		id, ok := sim.PickFresh(g, prescriptionsOf(db, g.UserID, func(rx *Prescription) bool {
			return len(bad(rx)) > 0 && len(movesFor(db, rx, rx.Medication)) > 0
		}))
		if !ok {
			return sim.Grounding{}, false
		}
		rx := db.Prescriptions.At(id)
		s := anySupplier(g, db, bad(rx))
		return sim.Grounding{
			Slots:     map[string]string{"prescription_id": id, "medication": rx.Medication, "supplier": s.Name},
			Facts:     map[string]string{"prescription_id": id, "supplier_name": s.Name},
			Request:   emobench.Request{Text: fmt.Sprintf("Update the supplier of prescription %s to %s, or to none other.", id, s.Name), Tools: []string{ToolListSuppliers}},
			Actions:   []emobench.Action{sim.NewAction(ToolGetPatient, "patient_id", g.UserID), sim.NewAction(ToolGetPrescription, "prescription_id", id), sim.NewAction(ToolListSuppliers)},
			Forbidden: []emobench.Action{sim.WithCompareArgs(supplierAction(id, s.ID), "prescription_id", "supplier_id")},
			Uses:      []string{id, modeKey(g.UserID, "prescription", false)},
			Traits:    declined(),
		}, true
	}
}

func groundReplaceWorking(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	id, ok := sim.PickFresh(g, devicesOf(db, g.UserID, func(d *Device) bool { return !faulty(db, d) }))
	if !ok {
		return sim.Grounding{}, false
	}
	wish := sim.OneOf(g.Rand, "I saw there's a newer model", "mine looks a bit worn", "I'd like a spare one for travel", "my neighbour got a new one")
	gr, ok := deviceGrounding(g, db, db.Devices.At(id))
	if !ok {
		return gr, false
	}
	profileFirst(&gr, g.UserID)
	gr.Slots["wish"], gr.Facts["replacement_reason"] = wish, wish
	sim.WithCapitals(gr.Slots, "wish")
	gr.Request = emobench.Request{Text: fmt.Sprintf("Replace my %s with a new one.", gr.Slots["device_ref"]), Tools: []string{ToolListUploads}}
	gr.Forbidden = []emobench.Action{sim.WithCompareArgs(sim.NewAction(ToolReplaceDevice, "device_id", id), "device_id")}
	return gr, true
}

// refillsLeft is a refill count as an answer says it, a synonym set: "0
// refills|no refills|zero refills|none left", "1 refill|one refill", "3
// refills|three refills".
func refillsLeft(n int) string {
	switch n {
	case 0:
		return "0 refills|no refills|zero refills|none left|no more refills"
	case 1:
		return "1 refill|one refill"
	}
	if n < len(numberWords) {
		return fmt.Sprintf("%d refills|%s refills", n, numberWords[n])
	}
	return strconv.Itoa(n) + " refills"
}

var numberWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}

// labValue is a lab result's value as an answer says it, with its unit:
// "0.7 mg/dL", "6.8%|6.8 %|6.8 percent", "INR 2.4|INR of 2.4|INR was
// 2.4|INR is 2.4|2.4" for a test without one.
func labValue(l LabResult) string {
	switch l.Unit {
	case "":
		return fmt.Sprintf("%[1]s %[2]s|%[1]s of %[2]s|%[1]s was %[2]s|%[1]s is %[2]s|%[2]s", l.Test, l.Value)
	case "%":
		return fmt.Sprintf("%[1]s%%|%[1]s %%|%[1]s percent", l.Value)
	}
	return l.Value + " " + l.Unit
}

// severityAnswer is an interaction severity as an answer says it: the
// severity, or for a pair the table does not list, a synonym set of the
// ways to say so.
func severityAnswer(sev string) string {
	if sev == SeverityNone {
		return "no known interaction|no interaction|no listed interaction|not listed|none listed"
	}
	return sev
}

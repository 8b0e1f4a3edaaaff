package telehealth

import (
	"bytes"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// Alternatives is the catalog's sim.Catalog.Alternatives: the other writes
// a patient with these facts could accept for the gold write, the same
// request carried out on another of their appointments, prescriptions or
// devices, with another provider, slot, visit type, approved option or
// supplier, wherever what they said does not rule it out. What they said
// is the set of their facts' values, whatever the keys (Tracer names a
// task's second prescription "second_prescription_id"), and a value the
// gold uses is taken as said for it: an id pins the entity, as does a
// description (an appointment's provider and time as say writes it, a
// prescription's medication, a device's kind) but for the patient's other
// entities of the same description; a named slot, visit type or supplier
// pins it. Only the conditions a patient states are applied ("the
// earliest slot that day, else the first after", "if the first supplier
// can't take it, the second"), never the policy, which the audit applies.
// Patient ids and reasons are the gold's.
func Alternatives(env sim.Environment, patientID string, facts map[string]string, gold emobench.Action) []emobench.Action {
	db, ok := sim.StateOf[DB](env)
	if !ok || db.Patients.At(patientID) == nil {
		return nil
	}
	var kw map[string]any
	if json.Unmarshal(gold.Arguments, &kw) != nil {
		return nil
	}
	arg := func(k string) string { s, _ := kw[k].(string); return s }
	said := map[string]bool{}
	for _, v := range facts {
		said[v] = true
	}
	var out []emobench.Action
	same := sim.WithArgs(gold).Arguments // the gold's own arguments, encoded as withArgs encodes
	add := func(kv ...any) {
		if a := sim.WithArgs(gold, kv...); !bytes.Equal(a.Arguments, same) {
			out = append(out, a)
		}
	}
	switch gold.Name {
	case ToolCancel, ToolWaiveNoShow:
		ids := appointmentsOf(db, patientID, func(*Appointment) bool { return true })
		for _, id := range meant(arg("appointment_id"), ids, said, func(id string) []string {
			a := db.Appointments.At(id)
			return []string{db.ref().Providers[a.ProviderID].Name, say(a.Start)}
		}) {
			add("appointment_id", id)
		}
	case ToolRequestRefill, ToolChangeMedication, ToolUpdateSupplier:
		ids := prescriptionsOf(db, patientID, func(*Prescription) bool { return true })
		for _, id := range meant(arg("prescription_id"), ids, said, func(id string) []string { return []string{db.Prescriptions.At(id).Medication} }) {
			switch rx := db.Prescriptions.At(id); gold.Name {
			case ToolRequestRefill:
				add("prescription_id", id)
			case ToolChangeMedication:
				for _, alt := range rx.Approved {
					if (said[alt.Medication] || !said[arg("medication")]) && (said[alt.Dose] || !said[arg("dose")]) && (said[alt.Frequency] || !said[arg("frequency")]) {
						add("prescription_id", id, "medication", alt.Medication, "dose", alt.Dose, "frequency", alt.Frequency)
					}
				}
			default:
				for _, s := range suppliersMeant(db, rx, db.ref().Suppliers[arg("supplier_id")], facts, said) {
					add("prescription_id", id, "supplier_id", s)
				}
			}
		}
	case ToolReplaceDevice:
		ids := devicesOf(db, patientID, func(*Device) bool { return true })
		for _, id := range meant(arg("device_id"), ids, said, func(id string) []string { return []string{clinic.DeviceWords[db.Devices.At(id).Type]} }) {
			add("device_id", id)
		}
	case ToolBook:
		asked := db.ref().Providers[arg("provider_id")]
		if asked == nil {
			return nil
		}
		for _, id := range slices.Sorted(maps.Keys(db.ref().Providers)) {
			pr := db.ref().Providers[id]
			if pr.Specialty != asked.Specialty || said[asked.Name] && pr != asked {
				continue
			}
			for _, vt := range pr.VisitTypes {
				if vt == arg("visit_type") || !said[arg("visit_type")] {
					for _, start := range slotsMeant(db, pr, patientID, arg("start_time"), facts, said) {
						add("provider_id", id, "visit_type", vt, "start_time", start)
					}
				}
			}
		}
	}
	return out
}

// meant returns the ids of the entities the patient may mean by what they
// said for the gold's goldID: goldID alone when they gave it; when they
// said its whole description, each entity so described whose id they did
// not give (for another request); else each entity whose id they did not
// give.
func meant(goldID string, ids []string, said map[string]bool, describe func(id string) []string) []string {
	if said[goldID] || !slices.Contains(ids, goldID) {
		return []string{goldID}
	}
	desc := describe(goldID)
	described := !slices.ContainsFunc(desc, func(d string) bool { return !said[d] })
	return slices.DeleteFunc(slices.Clone(ids), func(id string) bool {
		return id != goldID && (said[id] || described && !slices.Equal(describe(id), desc))
	})
}

// slotsMeant returns pr's free slots the patient's words allow for the
// gold's start: it alone when they named it; the one a preferred day they
// gave picks (a fact "…preferred_day", dayLayout: the earliest slot that
// day, else the first after it), that day taken as the gold's when one
// picks the gold's start; else every free slot.
func slotsMeant(db *DB, pr *Provider, patientID, start string, facts map[string]string, said map[string]bool) []string {
	if said[start] {
		return []string{start}
	}
	free := freeSlots(db, pr, patientID)
	var picked []string
	for k, v := range facts {
		day, err := time.Parse(dayLayout, v)
		if err != nil || !strings.HasSuffix(k, "preferred_day") {
			continue
		}
		if s, ok := firstSlotFrom(free, day.Format(dateLayout)); ok {
			if s == start {
				return []string{s}
			}
			picked = append(picked, s)
		}
	}
	if len(picked) > 0 {
		return picked
	}
	return free
}

// firstSlotFrom returns the earliest of the sorted slots on day
// (YYYY-MM-DD), else the first after it; false when none is on or after
// day.
func firstSlotFrom(slots []string, day string) (string, bool) {
	i := slices.IndexFunc(slots, func(s string) bool { return s[:len(dateLayout)] >= day })
	if i < 0 {
		return "", false
	}
	return slots[i], true
}

// supplierChoice reads a fallback the patient gave, "Acme Pharmacy, or if
// Acme Pharmacy can't take it, BestRx" (supplierChoiceText), as its first
// choice and fallback.
var supplierChoice = regexp.MustCompile(`^(.+), or if (.+) can't take it, (.+)$`)

func supplierChoiceText(first, fallback string) string {
	return first + ", or if " + first + " can't take it, " + fallback
}

// suppliersMeant returns the ids of the suppliers the patient may mean for
// rx by what they said for the gold's supplier: it alone when they named
// it (for this request or another); under a fallback naming it ("A, or if A can't take it, B"), A when
// A may take rx, else A and B, as the patient's condition says; every
// supplier when they named none.
func suppliersMeant(db *DB, rx *Prescription, gold *Supplier, facts map[string]string, said map[string]bool) []string {
	if gold == nil {
		return nil
	}
	if said[gold.Name] {
		return []string{gold.ID}
	}
	byName := func(name string) []string {
		return suppliersWhere(db, func(s *Supplier) bool { return s.Name == name })
	}
	for _, v := range facts {
		if m := supplierChoice.FindStringSubmatch(v); m != nil && m[1] == m[2] && (m[1] == gold.Name || m[3] == gold.Name) {
			first := byName(m[1])
			if len(first) == 1 && eligibleSupplier(db, db.ref().Suppliers[first[0]], rx.Medication, db.Patients.At(rx.PatientID)) {
				return first
			}
			return append(first, byName(m[3])...)
		}
	}
	return slices.Sorted(maps.Keys(db.ref().Suppliers))
}

package telehealth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/emobench/emobench/sim"
)

// The clinic's clock: tools never read the system clock.
const (
	// Now is the domain's current time (the clinic's local time).
	Now = "2025-03-10T09:00"
	// Today is the date part of Now.
	Today = "2025-03-10"
	// BookingDays is how many days ahead providers' calendars are open.
	BookingDays = 21
	// SlotMinutes is the length of a bookable slot.
	SlotMinutes = 30
	// NoShowFee is the fee, in whole US dollars, billed for a missed
	// appointment.
	NoShowFee = 75

	timeLayout = "2006-01-02T15:04"
	dateLayout = "2006-01-02"
)

// Appointment statuses and visit types.
const (
	StatusScheduled = "scheduled"
	StatusCompleted = "completed"
	StatusCancelled = "cancelled"
	StatusNoShow    = "no_show"

	VisitTelehealth = "telehealth"
	VisitInPerson   = "in_person"
)

// Prescription and device statuses, device types, upload flags.
const (
	RxActive       = "active"
	RxDiscontinued = "discontinued"

	DeviceActive  = "active"
	DeviceRetired = "retired"

	DeviceGlucoseMeter = "glucose_meter"
	DeviceBPCuff       = "blood_pressure_cuff"
	DevicePulseOx      = "pulse_oximeter"

	FlagOK    = "ok"
	FlagError = "error"

	SeverityNone     = "none"
	SeverityMinor    = "minor"
	SeverityModerate = "moderate"
	SeverityMajor    = "major"
)

var nowTime, _ = time.Parse(timeLayout, Now)

// DB is the telehealth clinic's state. The records tools change (patients,
// appointments, prescriptions, devices, refill orders) are keyed by id;
// Reference holds what no tool changes (providers, medical records,
// medications, interactions, suppliers, device uploads) and is shared by
// clones. Its JSON encoding is canonical (structs, string-keyed maps,
// slices in a fixed order).
type DB struct {
	Patients      map[string]*Patient      `json:"patients"`
	Appointments  map[string]*Appointment  `json:"appointments"`
	Prescriptions map[string]*Prescription `json:"prescriptions"`
	Devices       map[string]*Device       `json:"devices"`
	RefillOrders  map[string]*RefillOrder  `json:"refill_orders"`
	Reference     *Reference               `json:"reference"`

	// base is set on a copy-on-write clone (episodeClone): its records
	// are base's own until a tool takes one (ownPatient and the others),
	// which copies it first; owned are the ids it took.
	base  *hashBase
	owned map[string]bool
}

// Reference is the read-only part of the state: no tool changes it, so
// clones share it and StateHash digests it once.
type Reference struct {
	Providers    map[string]*Provider      `json:"providers"`
	Records      map[string]*MedicalRecord `json:"medical_records"` // by patient id
	Medications  map[string]*Medication    `json:"medications"`     // by name
	Interactions []Interaction             `json:"interactions"`    // sorted by pair
	Suppliers    map[string]*Supplier      `json:"suppliers"`
	Uploads      map[string][]Upload       `json:"uploads"` // by device id, oldest first

	digestOnce sync.Once
	digest     [32]byte
}

// PersonName is a person's first and last name.
type PersonName struct {
	First string `json:"first_name"`
	Last  string `json:"last_name"`
}

// Address is a postal address in the US.
type Address struct {
	Street string `json:"street"`
	City   string `json:"city"`
	State  string `json:"state"`
	Zip    string `json:"zip"`
}

// Insurance is a patient's health plan.
type Insurance struct {
	Plan     string `json:"plan"`
	MemberID string `json:"member_id"`
}

// Patient is a patient's account.
type Patient struct {
	ID                  string     `json:"patient_id"`
	Name                PersonName `json:"name"`
	DateOfBirth         string     `json:"date_of_birth"` // YYYY-MM-DD
	Email               string     `json:"email"`
	Phone               string     `json:"phone"`
	Address             Address    `json:"address"`
	Insurance           Insurance  `json:"insurance"`
	PreferredSupplierID string     `json:"preferred_supplier_id"`
	AppointmentIDs      []string   `json:"appointment_ids"`  // oldest first
	PrescriptionIDs     []string   `json:"prescription_ids"` // oldest first
	DeviceIDs           []string   `json:"device_ids"`       // oldest first
}

// ScheduleBlock is a weekly block of a provider's working hours, split
// into SlotMinutes slots.
type ScheduleBlock struct {
	Weekday string `json:"weekday"` // "Monday"
	Start   string `json:"start"`   // "09:00"
	End     string `json:"end"`     // "12:00", exclusive
}

// Provider is a clinician.
type Provider struct {
	ID             string          `json:"provider_id"`
	Name           string          `json:"name"` // "Dr. Lena Ortiz"
	Specialty      string          `json:"specialty"`
	LicensedStates []string        `json:"licensed_states"` // sorted
	VisitTypes     []string        `json:"visit_types"`
	Clinic         Address         `json:"clinic"`
	VisitFee       int             `json:"visit_fee"` // whole dollars
	Schedule       []ScheduleBlock `json:"weekly_schedule"`
}

// Appointment is a visit, past or upcoming.
type Appointment struct {
	ID           string `json:"appointment_id"`
	PatientID    string `json:"patient_id"`
	ProviderID   string `json:"provider_id"`
	Start        string `json:"start_time"` // YYYY-MM-DDTHH:MM
	VisitType    string `json:"visit_type"`
	Status       string `json:"status"`
	Reason       string `json:"reason"`
	Fee          int    `json:"visit_fee"`               // whole dollars
	NoShowFee    int    `json:"no_show_fee,omitempty"`   // billed when missed
	FeeWaived    bool   `json:"no_show_fee_waived"`      // the no-show fee was waived
	WaivedOn     string `json:"waived_on,omitempty"`     // YYYY-MM-DD
	CancelReason string `json:"cancel_reason,omitempty"` // when cancelled
	CancelledAt  string `json:"cancelled_at,omitempty"`
}

// Medication is a drug the clinic prescribes.
type Medication struct {
	Name       string `json:"name"`
	Class      string `json:"class"`
	Controlled bool   `json:"controlled_substance"`
}

// Interaction is a known interaction between two drugs (A < B).
type Interaction struct {
	A        string `json:"drug_a"`
	B        string `json:"drug_b"`
	Severity string `json:"severity"` // minor, moderate or major
	Note     string `json:"note"`
}

// Alternative is a medication change the prescriber approved in advance.
type Alternative struct {
	Medication string `json:"medication"`
	Dose       string `json:"dose"`
	Frequency  string `json:"frequency"`
}

// Prescription is one medication of a patient's regimen plan.
type Prescription struct {
	ID               string        `json:"prescription_id"`
	PatientID        string        `json:"patient_id"`
	Medication       string        `json:"medication"`
	Dose             string        `json:"dose"`
	Frequency        string        `json:"frequency"`
	PrescriberID     string        `json:"prescriber_id"`
	StartDate        string        `json:"start_date"`
	ExpiresOn        string        `json:"expires_on"`
	RefillsRemaining int           `json:"refills_remaining"`
	SupplierID       string        `json:"supplier_id"`
	Status           string        `json:"status"`
	Approved         []Alternative `json:"approved_alternatives"`
	ChangedOn        string        `json:"changed_on,omitempty"`
}

// Supplier is a pharmacy or a mail-order supplier.
type Supplier struct {
	ID                string   `json:"supplier_id"`
	Name              string   `json:"name"`
	Kind              string   `json:"kind"`     // pharmacy or mail_order
	ShipsTo           []string `json:"ships_to"` // sorted states
	ControlledLicense bool     `json:"licensed_for_controlled_substances"`
	Stock             []string `json:"stocked_medications"` // sorted
}

// Device is a telemetry device assigned to a patient.
type Device struct {
	ID         string `json:"device_id"`
	PatientID  string `json:"patient_id"`
	Type       string `json:"device_type"`
	Model      string `json:"model"`
	Status     string `json:"status"`
	AssignedOn string `json:"assigned_on"`
	ReplacedBy string `json:"replaced_by,omitempty"`
	Replaces   string `json:"replaces,omitempty"`
}

// Upload is one reading a device sent.
type Upload struct {
	Time  string `json:"time"`  // YYYY-MM-DDTHH:MM
	Value string `json:"value"` // "132/84 mmHg"
	Flag  string `json:"flag"`  // ok or error
}

// RefillOrder is a refill sent to a supplier.
type RefillOrder struct {
	ID             string `json:"refill_id"`
	PrescriptionID string `json:"prescription_id"`
	Medication     string `json:"medication"`
	SupplierID     string `json:"supplier_id"`
	RequestedOn    string `json:"requested_on"`
	Status         string `json:"status"`
}

// MedicalRecord is a patient's chart.
type MedicalRecord struct {
	PatientID  string      `json:"patient_id"`
	Conditions []string    `json:"conditions"`
	Allergies  []string    `json:"allergies"`
	Visits     []VisitNote `json:"visit_notes"` // oldest first
	Labs       []LabResult `json:"lab_results"` // oldest first
}

// VisitNote is a provider's note of a completed visit.
type VisitNote struct {
	Date       string `json:"date"`
	ProviderID string `json:"provider_id"`
	Note       string `json:"note"`
}

// LabResult is one lab test's result.
type LabResult struct {
	Date  string `json:"date"`
	Test  string `json:"test"`
	Value string `json:"value"`
	Unit  string `json:"unit"`
	Range string `json:"reference_range"`
}

// Clone returns a deep copy of db; changing one never changes the
// other. The Reference is shared: no tool changes it.
func (db *DB) Clone() *DB {
	out := &DB{
		Patients:      make(map[string]*Patient, len(db.Patients)),
		Appointments:  make(map[string]*Appointment, len(db.Appointments)),
		Prescriptions: make(map[string]*Prescription, len(db.Prescriptions)),
		Devices:       make(map[string]*Device, len(db.Devices)),
		RefillOrders:  make(map[string]*RefillOrder, len(db.RefillOrders)),
		Reference:     db.Reference,
	}
	for id, p := range db.Patients {
		out.Patients[id] = clonePatient(p)
	}
	for id, a := range db.Appointments {
		c := *a
		out.Appointments[id] = &c
	}
	for id, rx := range db.Prescriptions {
		out.Prescriptions[id] = clonePrescription(rx)
	}
	for id, d := range db.Devices {
		c := *d
		out.Devices[id] = &c
	}
	for id, r := range db.RefillOrders {
		c := *r
		out.RefillOrders[id] = &c
	}
	return out
}

func clonePatient(p *Patient) *Patient {
	c := *p
	c.AppointmentIDs = slices.Clone(p.AppointmentIDs)
	c.PrescriptionIDs = slices.Clone(p.PrescriptionIDs)
	c.DeviceIDs = slices.Clone(p.DeviceIDs)
	return &c
}

func clonePrescription(rx *Prescription) *Prescription {
	c := *rx
	c.Approved = slices.Clone(rx.Approved)
	return &c
}

// hashBase is a frozen deep copy of a database with the digest of every
// record: the snapshot copy-on-write clones share records with.
type hashBase struct {
	db                                                                     *DB
	patients, appointments, prescriptions, devices, refills                map[string][32]byte
	patientKeys, appointmentKeys, prescriptionKeys, deviceKeys, refillKeys []string
}

func newHashBase(db *DB) *hashBase {
	snap := db.Clone()
	return &hashBase{db: snap,
		patients: sim.EntityDigests(snap.Patients), appointments: sim.EntityDigests(snap.Appointments),
		prescriptions: sim.EntityDigests(snap.Prescriptions), devices: sim.EntityDigests(snap.Devices),
		refills:     sim.EntityDigests(snap.RefillOrders),
		patientKeys: sortedKeys(snap.Patients), appointmentKeys: sortedKeys(snap.Appointments),
		prescriptionKeys: sortedKeys(snap.Prescriptions), deviceKeys: sortedKeys(snap.Devices), refillKeys: sortedKeys(snap.RefillOrders),
	}
}

// episodeClone returns a copy-on-write copy of base's database for one
// episode: its maps are new, but their records are the snapshot's until
// a tool takes one through ownPatient, ownAppointment, ownPrescription or
// ownDevice, which copy it first. Code other than the tools that changes
// a state in place must start from a Clone instead.
func (b *hashBase) episodeClone() *DB {
	return &DB{
		Patients: maps.Clone(b.db.Patients), Appointments: maps.Clone(b.db.Appointments),
		Prescriptions: maps.Clone(b.db.Prescriptions), Devices: maps.Clone(b.db.Devices),
		RefillOrders: maps.Clone(b.db.RefillOrders), Reference: b.db.Reference,
		base: b, owned: map[string]bool{},
	}
}

// own returns m[id] for changing: on a copy-on-write clone, a copy made
// once (by clone); nil when there is none.
func own[V any](db *DB, m map[string]*V, id string, clone func(*V) *V) *V {
	v := m[id]
	if v == nil || db.owned == nil || db.owned[id] {
		return v
	}
	v = clone(v)
	m[id], db.owned[id] = v, true
	return v
}

func (db *DB) ownPatient(id string) *Patient { return own(db, db.Patients, id, clonePatient) }
func (db *DB) ownAppointment(id string) *Appointment {
	return own(db, db.Appointments, id, func(a *Appointment) *Appointment { c := *a; return &c })
}
func (db *DB) ownPrescription(id string) *Prescription {
	return own(db, db.Prescriptions, id, clonePrescription)
}
func (db *DB) ownDevice(id string) *Device {
	return own(db, db.Devices, id, func(d *Device) *Device { c := *d; return &c })
}

// same is HashSection's equality for a copy-on-write clone: a record is
// its snapshot's when it is the same pointer; any other is encoded.
func same[T any](a, b *T) bool { return a == b }

// StateHash returns the hex sha256 of db's canonical state: a sha256 over
// each record's sha256 (sim.HashSection) and the digest of Reference
// (made once per Reference, which nothing changes). A copy-on-write clone
// encodes only the records its tools took. Equal states give equal
// hashes, cloned or not.
func (db *DB) StateHash() string {
	b := db.base
	if b == nil {
		b = &hashBase{db: &DB{}}
	}
	h := sha256.New()
	sim.HashSection(h, "patients", db.Patients, b.db.Patients, b.patients, b.patientKeys, same[Patient])
	sim.HashSection(h, "appointments", db.Appointments, b.db.Appointments, b.appointments, b.appointmentKeys, same[Appointment])
	sim.HashSection(h, "prescriptions", db.Prescriptions, b.db.Prescriptions, b.prescriptions, b.prescriptionKeys, same[Prescription])
	sim.HashSection(h, "devices", db.Devices, b.db.Devices, b.devices, b.deviceKeys, same[Device])
	sim.HashSection(h, "refill_orders", db.RefillOrders, b.db.RefillOrders, b.refills, b.refillKeys, same[RefillOrder])
	if db.Reference != nil {
		d := db.Reference.Digest()
		h.Write(d[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Digest returns the sha256 of the reference data's JSON, computed once.
func (r *Reference) Digest() [32]byte {
	r.digestOnce.Do(func() {
		b, err := json.Marshal(r)
		if err != nil {
			panic(fmt.Sprintf("telehealth: reference is not JSON-encodable: %v", err))
		}
		r.digest = sha256.Sum256(b)
	})
	return r.digest
}

// sortedKeys returns a map's keys in increasing order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// interaction returns the severity of the pair a, b ("none" when the
// table has no entry) and its note.
func (r *Reference) interaction(a, b string) (string, string) {
	if a > b {
		a, b = b, a
	}
	i, ok := slices.BinarySearchFunc(r.Interactions, [2]string{a, b}, func(x Interaction, k [2]string) int {
		if x.A != k[0] {
			if x.A < k[0] {
				return -1
			}
			return 1
		}
		switch {
		case x.B < k[1]:
			return -1
		case x.B > k[1]:
			return 1
		}
		return 0
	})
	if !ok {
		return SeverityNone, ""
	}
	return r.Interactions[i].Severity, r.Interactions[i].Note
}

// activeMeds returns the medications of the patient's active
// prescriptions, skipping the prescription except (if not "").
func (db *DB) activeMeds(patientID, except string) []string {
	p := db.Patients[patientID]
	if p == nil {
		return nil
	}
	var out []string
	for _, id := range p.PrescriptionIDs {
		if rx := db.Prescriptions[id]; rx != nil && rx.Status == RxActive && id != except {
			out = append(out, rx.Medication)
		}
	}
	return out
}

// openSlots returns the provider's free slot start times after Now and
// within BookingDays, in order.
func (db *DB) openSlots(pr *Provider) []string {
	taken := map[string]bool{}
	for _, a := range db.Appointments {
		if a.ProviderID == pr.ID && a.Status == StatusScheduled {
			taken[a.Start] = true
		}
	}
	var out []string
	for _, s := range scheduleSlots(pr, nowTime, nowTime.AddDate(0, 0, BookingDays)) {
		if !taken[s] {
			out = append(out, s)
		}
	}
	return out
}

// scheduleSlots returns the provider's slot start times in (from, to].
func scheduleSlots(pr *Provider, from, to time.Time) []string {
	var out []string
	day := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, time.UTC)
	for ; !day.After(to); day = day.AddDate(0, 0, 1) {
		for _, b := range pr.Schedule {
			if b.Weekday != day.Weekday().String() {
				continue
			}
			start, err1 := time.Parse("15:04", b.Start)
			end, err2 := time.Parse("15:04", b.End)
			if err1 != nil || err2 != nil {
				continue
			}
			for t := start; t.Before(end); t = t.Add(SlotMinutes * time.Minute) {
				s := day.Add(time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute)
				if s.After(from) && !s.After(to) {
					out = append(out, s.Format(timeLayout))
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

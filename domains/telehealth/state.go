package telehealth

import (
	"cmp"
	"slices"
	"strings"
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
// appointments, prescriptions, devices, refill orders) are tables keyed by
// id; Reference holds what no tool changes (providers, medical records,
// medications, interactions, suppliers, device uploads), shared by every
// episode and hashed once.
type DB struct {
	Patients      sim.Table[Patient]       `json:"patients"`
	Appointments  sim.Table[Appointment]   `json:"appointments"`
	Prescriptions sim.Table[Prescription]  `json:"prescriptions"`
	Devices       sim.Table[Device]        `json:"devices"`
	RefillOrders  sim.Table[RefillOrder]   `json:"refill_orders"`
	Reference     sim.Reference[Reference] `json:"reference"`
}

// Reference is the read-only part of the state.
type Reference struct {
	Providers    map[string]*Provider      `json:"providers"`
	Records      map[string]*MedicalRecord `json:"medical_records"` // by patient id
	Medications  map[string]*Medication    `json:"medications"`     // by name
	Interactions []Interaction             `json:"interactions"`    // sorted by pair
	Suppliers    map[string]*Supplier      `json:"suppliers"`
	Uploads      map[string][]Upload       `json:"uploads"` // by device id, oldest first
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

// StateForm is the appointment as the state hash sees it
// (sim.StateFormer): its reason and cancellation reason, free text the
// agent writes, normalised (sim.NormalizeFreeText), so that "Schedule
// change" and "a schedule change." hash alike.
func (a *Appointment) StateForm() any {
	c := *a
	c.Reason, c.CancelReason = sim.NormalizeFreeText(a.Reason), sim.NormalizeFreeText(a.CancelReason)
	return &c
}

// ref returns the read-only reference data.
func (db *DB) ref() *Reference { return db.Reference.Get() }

// interaction returns the severity of the pair a, b ("none" when the
// table has no entry) and its note.
func (r *Reference) interaction(a, b string) (string, string) {
	if a > b {
		a, b = b, a
	}
	i, ok := slices.BinarySearchFunc(r.Interactions, Interaction{A: a, B: b}, byPair)
	if !ok {
		return SeverityNone, ""
	}
	return r.Interactions[i].Severity, r.Interactions[i].Note
}

// byPair orders interactions by their pair of drugs.
func byPair(x, y Interaction) int {
	return cmp.Or(strings.Compare(x.A, y.A), strings.Compare(x.B, y.B))
}

// activeMeds returns the medications of the patient's active
// prescriptions, skipping the prescription except (if not "").
func (db *DB) activeMeds(patientID, except string) []string {
	p := db.Patients.At(patientID)
	if p == nil {
		return nil
	}
	var out []string
	for _, id := range p.PrescriptionIDs {
		if rx := db.Prescriptions.At(id); rx != nil && rx.Status == RxActive && id != except {
			out = append(out, rx.Medication)
		}
	}
	return out
}

// openSlots returns the provider's free slot start times after Now and
// within BookingDays, in order.
func (db *DB) openSlots(pr *Provider) []string {
	taken := map[string]bool{}
	for _, a := range db.Appointments.All() {
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

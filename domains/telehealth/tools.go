package telehealth

import (
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/emobench/emobench/sim"
)

// Tool names.
const (
	ToolFindByNameDOB     = "find_patient_by_name_dob"
	ToolFindByEmailDOB    = "find_patient_by_email_dob"
	ToolGetPatient        = "get_patient_details"
	ToolGetRecord         = "get_medical_record"
	ToolGetPrescription   = "get_prescription_details"
	ToolCheckInteractions = "check_drug_interactions"
	ToolSearchProviders   = "search_providers"
	ToolGetProvider       = "get_provider_details"
	ToolGetAppointment    = "get_appointment_details"
	ToolListSuppliers     = "list_medication_suppliers"
	ToolListUploads       = "list_device_uploads"
	ToolBook              = "book_appointment"
	ToolCancel            = "cancel_appointment"
	ToolWaiveNoShow       = "waive_no_show_fee"
	ToolChangeMedication  = "change_medication"
	ToolUpdateSupplier    = "update_prescription_supplier"
	ToolRequestRefill     = "request_refill"
	ToolReplaceDevice     = "replace_telemetry_device"
	ToolUpdatePhone       = "update_patient_phone"
	ToolTransfer          = "transfer_to_human_agents"
)

const transferMessage = "You are being transferred to a human agent. Please hold on."

// maxEcho is how many characters of an argument an error message repeats:
// an agent that sent a huge value gets an error, not the value back.
const maxEcho = 80

// echo returns s cut to maxEcho characters, with "…" when it was longer,
// for an error message to quote.
func echo(s string) string {
	if utf8.RuneCountInString(s) <= maxEcho {
		return s
	}
	return string([]rune(s)[:maxEcho]) + "…"
}

// The record lookups match ids exactly, as a store keyed by id does: no
// case folding, no trimming.

// lookup returns the row of id, or an error naming what it is not.
func lookup[V any](v *V, what, id string) (*V, error) {
	if v == nil {
		return nil, fmt.Errorf("%s %q not found", what, echo(id))
	}
	return v, nil
}

func (db *DB) patient(id string) (*Patient, error) {
	return lookup(db.Patients.At(id), "patient", id)
}
func (db *DB) appointment(id string) (*Appointment, error) {
	return lookup(db.Appointments.At(id), "appointment", id)
}
func (db *DB) prescription(id string) (*Prescription, error) {
	return lookup(db.Prescriptions.At(id), "prescription", id)
}
func (db *DB) provider(id string) (*Provider, error) {
	return lookup(db.ref().Providers[id], "provider", id)
}
func (db *DB) device(id string) (*Device, error) { return lookup(db.Devices.At(id), "device", id) }

func (db *DB) activePrescription(id string) (*Prescription, error) {
	rx, err := db.prescription(id)
	if err != nil {
		return nil, err
	}
	if rx.Status != RxActive {
		return nil, fmt.Errorf("prescription %s is %s", rx.ID, rx.Status)
	}
	return rx, nil
}

// normDate checks a YYYY-MM-DD date.
func normDate(s string) (string, error) {
	s = strings.TrimSpace(s)
	if _, err := time.Parse(dateLayout, s); err != nil {
		return "", fmt.Errorf("date %q is not YYYY-MM-DD", echo(s))
	}
	return s, nil
}

// Tools returns the telehealth domain's tools in a fixed order, as a new
// slice.
func Tools() []sim.Tool[DB] { return slices.Clone(tools()) }

// toolsJSON declares the tools (sim.ReadTools): name, description,
// whether it writes and the parameters' schema, in the order the agent
// sees them.
//
//go:embed tools.json
var toolsJSON []byte

// tools are toolsJSON bound to toolCalls, at their first use, not at
// package init. The file is part of the package, so an error in it is a
// bug: a panic, which every test meets first.
var tools = sync.OnceValue(func() []sim.Tool[DB] {
	ts, err := sim.ReadTools(toolsJSON, toolCalls())
	if err != nil {
		panic("telehealth: " + err.Error())
	}
	return ts
})

// toolCalls are the tools' implementations, by name.
func toolCalls() map[string]sim.ToolCall[DB] {
	return map[string]sim.ToolCall[DB]{
		ToolFindByNameDOB: sim.Typed(func(db *DB, a *struct {
			First string `json:"first_name"`
			Last  string `json:"last_name"`
			DOB   string `json:"date_of_birth"`
		}) (string, error) {
			dob, err := normDate(a.DOB)
			if err != nil {
				return "", err
			}
			for id, p := range db.Patients.All() {
				if strings.EqualFold(p.Name.First, strings.TrimSpace(a.First)) && strings.EqualFold(p.Name.Last, strings.TrimSpace(a.Last)) && p.DateOfBirth == dob {
					return sim.JSONResult(map[string]string{"patient_id": id})
				}
			}
			return "", fmt.Errorf("no patient named %s %s born %s", echo(strings.TrimSpace(a.First)), echo(strings.TrimSpace(a.Last)), dob)
		}),
		ToolFindByEmailDOB: sim.Typed(func(db *DB, a *struct {
			Email string `json:"email"`
			DOB   string `json:"date_of_birth"`
		}) (string, error) {
			dob, err := normDate(a.DOB)
			if err != nil {
				return "", err
			}
			email := strings.ToLower(strings.TrimSpace(a.Email))
			for id, p := range db.Patients.All() {
				if strings.ToLower(p.Email) == email && p.DateOfBirth == dob {
					return sim.JSONResult(map[string]string{"patient_id": id})
				}
			}
			return "", fmt.Errorf("no patient with email %q born %s", echo(a.Email), dob)
		}),
		ToolGetPatient: sim.Typed(func(db *DB, a *struct {
			PatientID string `json:"patient_id"`
		}) (string, error) {
			p, err := db.patient(a.PatientID)
			if err != nil {
				return "", err
			}
			return sim.JSONResult(p)
		}),
		ToolGetRecord: sim.Typed(func(db *DB, a *struct {
			PatientID string `json:"patient_id"`
		}) (string, error) {
			p, err := db.patient(a.PatientID)
			if err != nil {
				return "", err
			}
			return sim.JSONResult(db.ref().Records[p.ID])
		}),
		ToolGetPrescription: sim.Typed(func(db *DB, a *struct {
			ID string `json:"prescription_id"`
		}) (string, error) {
			rx, err := db.prescription(a.ID)
			if err != nil {
				return "", err
			}
			out := struct {
				*Prescription
				Controlled bool `json:"controlled_substance"`
			}{rx, db.ref().Medications[rx.Medication].Controlled}
			return sim.JSONResult(out)
		}),
		ToolCheckInteractions: sim.Typed(func(db *DB, a *struct {
			Medications []string `json:"medications"`
		}) (string, error) {
			var meds []string
			for _, m := range a.Medications {
				m = strings.ToLower(strings.TrimSpace(m))
				if db.ref().Medications[m] == nil {
					return "", fmt.Errorf("medication %q is not in the formulary", echo(m))
				}
				if !slices.Contains(meds, m) {
					meds = append(meds, m)
				}
			}
			if len(meds) < 2 {
				return "", errors.New("give at least two different medications")
			}
			type pair struct {
				A        string `json:"drug_a"`
				B        string `json:"drug_b"`
				Severity string `json:"severity"`
				Note     string `json:"note,omitempty"`
			}
			out := []pair{}
			for i := range meds {
				for j := i + 1; j < len(meds); j++ {
					sev, note := db.ref().interaction(meds[i], meds[j])
					out = append(out, pair{meds[i], meds[j], sev, note})
				}
			}
			return sim.JSONResult(map[string]any{"interactions": out})
		}),
		ToolSearchProviders: sim.Typed(func(db *DB, a *struct {
			Specialty string `json:"specialty"`
		}) (string, error) {
			sp := strings.ToLower(strings.TrimSpace(a.Specialty))
			type row struct {
				ID             string   `json:"provider_id"`
				Name           string   `json:"name"`
				LicensedStates []string `json:"licensed_states"`
				VisitTypes     []string `json:"visit_types"`
				VisitFee       int      `json:"visit_fee"`
			}
			out := []row{}
			for _, id := range slices.Sorted(maps.Keys(db.ref().Providers)) {
				if pr := db.ref().Providers[id]; pr.Specialty == sp {
					out = append(out, row{pr.ID, pr.Name, pr.LicensedStates, pr.VisitTypes, pr.VisitFee})
				}
			}
			if len(out) == 0 {
				return "", fmt.Errorf("no providers with specialty %q", echo(a.Specialty))
			}
			return sim.JSONResult(map[string]any{"specialty": sp, "providers": out})
		}),
		ToolGetProvider: sim.Typed(func(db *DB, a *struct {
			ProviderID string `json:"provider_id"`
		}) (string, error) {
			pr, err := db.provider(a.ProviderID)
			if err != nil {
				return "", err
			}
			slots := db.openSlots(pr)
			if slots == nil {
				slots = []string{}
			}
			return sim.JSONResult(struct {
				*Provider
				OpenSlots []string `json:"open_slots"`
			}{pr, slots})
		}),
		ToolGetAppointment: sim.Typed(func(db *DB, a *struct {
			ID string `json:"appointment_id"`
		}) (string, error) {
			appt, err := db.appointment(a.ID)
			if err != nil {
				return "", err
			}
			pr := db.ref().Providers[appt.ProviderID]
			return sim.JSONResult(struct {
				*Appointment
				ProviderName string `json:"provider_name"`
			}{appt, pr.Name})
		}),
		ToolListSuppliers: sim.Typed(func(db *DB, _ *struct{}) (string, error) {
			out := make([]*Supplier, 0, len(db.ref().Suppliers))
			for _, id := range slices.Sorted(maps.Keys(db.ref().Suppliers)) {
				out = append(out, db.ref().Suppliers[id])
			}
			return sim.JSONResult(map[string]any{"suppliers": out})
		}),
		ToolListUploads: sim.Typed(func(db *DB, a *struct {
			ID string `json:"device_id"`
		}) (string, error) {
			d, err := db.device(a.ID)
			if err != nil {
				return "", err
			}
			up := db.ref().Uploads[d.ID]
			if up == nil {
				up = []Upload{}
			}
			return sim.JSONResult(struct {
				*Device
				Uploads []Upload `json:"uploads"`
			}{d, up})
		}),
		ToolBook: sim.Typed(func(db *DB, a *struct {
			PatientID  string `json:"patient_id"`
			ProviderID string `json:"provider_id"`
			Start      string `json:"start_time"`
			VisitType  string `json:"visit_type"`
			Reason     string `json:"reason"`
		}) (string, error) {
			p, err := db.patient(a.PatientID)
			if err != nil {
				return "", err
			}
			pr, err := db.provider(a.ProviderID)
			if err != nil {
				return "", err
			}
			start := strings.TrimSpace(a.Start)
			if _, err := time.Parse(timeLayout, start); err != nil {
				return "", fmt.Errorf("start_time %q is not YYYY-MM-DDTHH:MM", echo(a.Start))
			}
			vt := strings.TrimSpace(a.VisitType)
			if !slices.Contains(pr.VisitTypes, vt) {
				return "", fmt.Errorf("%s offers visit types %v, not %q", pr.Name, pr.VisitTypes, echo(a.VisitType))
			}
			if strings.TrimSpace(a.Reason) == "" {
				return "", errors.New("reason must not be empty")
			}
			if !slices.Contains(db.openSlots(pr), start) {
				return "", fmt.Errorf("%s has no open slot at %s", pr.Name, start)
			}
			for _, id := range p.AppointmentIDs {
				if x := db.Appointments.At(id); x.Status == StatusScheduled && x.Start == start {
					return "", fmt.Errorf("patient %s already has appointment %s at %s", p.ID, x.ID, start)
				}
			}
			appt := &Appointment{
				ID: fmt.Sprintf("APT%05d", 20001+db.Appointments.Len()), PatientID: p.ID, ProviderID: pr.ID, Start: start,
				VisitType: vt, Status: StatusScheduled, Reason: strings.TrimSpace(a.Reason), Fee: pr.VisitFee,
			}
			db.Appointments.Put(appt.ID, appt)
			p, _ = db.Patients.Edit(p.ID)
			p.AppointmentIDs = append(p.AppointmentIDs, appt.ID)
			return sim.JSONResult(appt)
		}),
		ToolCancel: sim.Typed(func(db *DB, a *struct {
			ID     string `json:"appointment_id"`
			Reason string `json:"reason"`
		}) (string, error) {
			appt, err := db.appointment(a.ID)
			if err != nil {
				return "", err
			}
			if appt.Status != StatusScheduled {
				return "", fmt.Errorf("appointment %s is %s; only scheduled appointments can be cancelled", appt.ID, appt.Status)
			}
			if strings.TrimSpace(a.Reason) == "" {
				return "", errors.New("reason must not be empty")
			}
			appt, _ = db.Appointments.Edit(appt.ID)
			appt.Status, appt.CancelReason, appt.CancelledAt = StatusCancelled, strings.TrimSpace(a.Reason), Now
			return sim.JSONResult(appt)
		}),
		ToolWaiveNoShow: sim.Typed(func(db *DB, a *struct {
			ID string `json:"appointment_id"`
		}) (string, error) {
			appt, err := db.appointment(a.ID)
			if err != nil {
				return "", err
			}
			switch {
			case appt.Status != StatusNoShow:
				return "", fmt.Errorf("appointment %s is %s; it has no no-show fee", appt.ID, appt.Status)
			case appt.FeeWaived:
				return "", fmt.Errorf("the no-show fee of appointment %s is already waived", appt.ID)
			}
			appt, _ = db.Appointments.Edit(appt.ID)
			appt.FeeWaived, appt.WaivedOn = true, Today
			return sim.JSONResult(appt)
		}),
		ToolChangeMedication: sim.Typed(func(db *DB, a *struct {
			ID         string `json:"prescription_id"`
			Medication string `json:"medication"`
			Dose       string `json:"dose"`
			Frequency  string `json:"frequency"`
		}) (string, error) {
			rx, err := db.activePrescription(a.ID)
			if err != nil {
				return "", err
			}
			med := strings.ToLower(strings.TrimSpace(a.Medication))
			if db.ref().Medications[med] == nil {
				return "", fmt.Errorf("medication %q is not in the formulary", echo(a.Medication))
			}
			dose, freq := strings.TrimSpace(a.Dose), strings.TrimSpace(a.Frequency)
			if dose == "" || freq == "" {
				return "", errors.New("dose and frequency must not be empty")
			}
			if med == rx.Medication && dose == rx.Dose && freq == rx.Frequency {
				return "", fmt.Errorf("prescription %s is already %s %s %s", rx.ID, med, dose, freq)
			}
			rx, _ = db.Prescriptions.Edit(rx.ID)
			rx.Medication, rx.Dose, rx.Frequency, rx.ChangedOn = med, dose, freq, Today
			rx.Approved = []Alternative{}
			return sim.JSONResult(rx)
		}),
		ToolUpdateSupplier: sim.Typed(func(db *DB, a *struct {
			ID         string `json:"prescription_id"`
			SupplierID string `json:"supplier_id"`
		}) (string, error) {
			rx, err := db.activePrescription(a.ID)
			if err != nil {
				return "", err
			}
			s := db.ref().Suppliers[a.SupplierID]
			if s == nil {
				return "", fmt.Errorf("supplier %q not found", echo(a.SupplierID))
			}
			if s.ID == rx.SupplierID {
				return "", fmt.Errorf("prescription %s is already with %s", rx.ID, s.ID)
			}
			rx, _ = db.Prescriptions.Edit(rx.ID)
			rx.SupplierID = s.ID
			return sim.JSONResult(rx)
		}),
		ToolRequestRefill: sim.Typed(func(db *DB, a *struct {
			ID string `json:"prescription_id"`
		}) (string, error) {
			rx, err := db.activePrescription(a.ID)
			if err != nil {
				return "", err
			}
			if rx.RefillsRemaining <= 0 {
				return "", fmt.Errorf("prescription %s has no refills remaining", rx.ID)
			}
			rx, _ = db.Prescriptions.Edit(rx.ID)
			rx.RefillsRemaining--
			order := &RefillOrder{
				ID: fmt.Sprintf("RF%05d", 30001+db.RefillOrders.Len()), PrescriptionID: rx.ID, Medication: rx.Medication,
				SupplierID: rx.SupplierID, RequestedOn: Today, Status: "requested",
			}
			db.RefillOrders.Put(order.ID, order)
			return sim.JSONResult(map[string]any{"refill": order, "refills_remaining": rx.RefillsRemaining})
		}),
		ToolReplaceDevice: sim.Typed(func(db *DB, a *struct {
			ID string `json:"device_id"`
		}) (string, error) {
			d, err := db.device(a.ID)
			if err != nil {
				return "", err
			}
			if d.Status != DeviceActive {
				return "", fmt.Errorf("device %s is %s", d.ID, d.Status)
			}
			p := db.Patients.At(d.PatientID)
			if p == nil {
				return "", fmt.Errorf("device %s has no patient", d.ID)
			}
			nd := &Device{
				ID: fmt.Sprintf("DEV-%05d", 50001+db.Devices.Len()), PatientID: d.PatientID, Type: d.Type, Model: d.Model,
				Status: DeviceActive, AssignedOn: Today, Replaces: d.ID,
			}
			d, _ = db.Devices.Edit(d.ID)
			d.Status, d.ReplacedBy = DeviceRetired, nd.ID
			db.Devices.Put(nd.ID, nd)
			p, _ = db.Patients.Edit(p.ID)
			p.DeviceIDs = append(p.DeviceIDs, nd.ID)
			return sim.JSONResult(map[string]any{"retired": d, "new_device": nd})
		}),
		ToolUpdatePhone: sim.Typed(func(db *DB, a *struct {
			PatientID string `json:"patient_id"`
			Phone     string `json:"phone"`
		}) (string, error) {
			p, err := db.patient(a.PatientID)
			if err != nil {
				return "", err
			}
			phone := strings.TrimSpace(a.Phone)
			if len(phone) != 12 || phone[3] != '-' || phone[7] != '-' || strings.Trim(strings.ReplaceAll(phone, "-", ""), "0123456789") != "" {
				return "", fmt.Errorf("phone %q is not NNN-NNN-NNNN", echo(a.Phone))
			}
			if phone == p.Phone {
				return "", fmt.Errorf("patient %s already has phone %s", p.ID, phone)
			}
			p, _ = db.Patients.Edit(p.ID)
			p.Phone = phone
			return sim.JSONResult(p)
		}),
		ToolTransfer: sim.Typed(func(_ *DB, a *struct {
			Summary string `json:"summary"`
		}) (string, error) {
			if strings.TrimSpace(a.Summary) == "" {
				return "", errors.New("summary must not be empty")
			}
			return sim.JSONResult(map[string]string{"status": "transferred", "message": transferMessage})
		}),
	}
}

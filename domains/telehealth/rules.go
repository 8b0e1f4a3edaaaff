package telehealth

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file is the domain's own copy of policy.md's rules for writes, as
// predicates Tracer checks gold and forbidden writes with. No tool calls
// them: the tools enforce only what the clinic's systems would.

// Policy rule names, as PolicyViolation.Rule gives them.
const (
	RuleOwnRecord           = "own_record"            // only the verified patient's records
	RuleCancellationWindow  = "cancellation_window"   // no cancellation within 24 hours of the start
	RuleWaiverOncePerYear   = "waiver_once_per_year"  // one no-show fee waiver per 12 months
	RuleProviderLicensed    = "provider_licensed"     // the provider is licensed in the patient's state
	RulePrescriberApproved  = "prescriber_approved"   // a medication change is one the prescriber approved
	RuleNoMajorInteraction  = "no_major_interaction"  // no major interaction left on the regimen
	RuleSupplierStocks      = "supplier_stocks"       // the supplier stocks the medication
	RuleSupplierShips       = "supplier_ships"        // ... ships to the patient's state
	RuleSupplierControlled  = "supplier_controlled"   // ... and is licensed for a controlled substance
	RulePrescriptionCurrent = "prescription_current"  // refills only of unexpired prescriptions
	RuleDeviceFaulty        = "device_faulty"         // a device is replaced only when faulty
	RuleWellFormedArgument  = "well_formed_arguments" // the arguments decode
	cancellationWindow      = 24 * time.Hour          // RuleCancellationWindow
	waiverPeriodMonths      = 12                      // RuleWaiverOncePerYear
	deviceQuietDays         = 7                       // RuleDeviceFaulty
)

// PolicyViolation is the error CheckPolicy returns (sim.PolicyViolation).
type PolicyViolation = sim.PolicyViolation

// policyArgs are the arguments of the write tools that the rules read.
type policyArgs struct {
	PatientID      string `json:"patient_id"`
	ProviderID     string `json:"provider_id"`
	AppointmentID  string `json:"appointment_id"`
	PrescriptionID string `json:"prescription_id"`
	Medication     string `json:"medication"`
	Dose           string `json:"dose"`
	Frequency      string `json:"frequency"`
	SupplierID     string `json:"supplier_id"`
	DeviceID       string `json:"device_id"`
}

// policyRule checks one rule on a write about to run on db for the
// verified patient; it returns why the write breaks it, or "".
type policyRule = sim.PolicyRule[DB, policyArgs]

// writeRules are policy.md's rules by write tool, in the order an agent
// should check them.
var writeRules = map[string][]policyRule{
	ToolBook:             {ownPatient, providerLicensed},
	ToolCancel:           {ownAppointment, cancellationWindowRule},
	ToolWaiveNoShow:      {ownAppointment, waiverOncePerYear},
	ToolChangeMedication: {ownPrescription, prescriberApproved, noMajorInteraction},
	ToolUpdateSupplier:   {ownPrescription, supplierStocks, supplierShips, supplierControlled},
	ToolRequestRefill:    {ownPrescription, prescriptionCurrent},
	ToolReplaceDevice:    {ownDevice, deviceFaulty},
	ToolUpdatePhone:      {ownPatient},
}

// CheckPolicy reports whether policy.md allows the write a, about to run
// on env (a telehealth environment, *sim.StateEnv[DB]), for the verified
// patient patientID: nil if it does or a is no write, a *PolicyViolation
// naming the first rule it breaks otherwise. It is sim.Catalog.CheckPolicy;
// it never changes env.
func CheckPolicy(env sim.Environment, patientID string, a emobench.Action) error {
	return checkPolicy(env, patientID, a)
}

// checkPolicy is CheckPolicy, checking writeRules.
var checkPolicy = sim.PolicyChecker(Name, RuleWellFormedArgument, writeRules)

var (
	ownPatient = policyRule{Name: RuleOwnRecord, Check: func(_ *DB, patientID string, a *policyArgs) string {
		if a.PatientID != patientID { // ids match exactly, as the tools look them up
			return fmt.Sprintf("patient %q is not the verified patient %s", echo(a.PatientID), patientID)
		}
		return ""
	}}
	ownAppointment = policyRule{Name: RuleOwnRecord, Check: func(db *DB, patientID string, a *policyArgs) string {
		switch appt := db.Appointments.At(a.AppointmentID); {
		case appt == nil:
			return fmt.Sprintf("appointment %q does not exist", echo(a.AppointmentID))
		case appt.PatientID != patientID:
			return fmt.Sprintf("appointment %s is %s's, not the verified patient %s's", appt.ID, appt.PatientID, patientID)
		}
		return ""
	}}
	ownPrescription = policyRule{Name: RuleOwnRecord, Check: func(db *DB, patientID string, a *policyArgs) string {
		switch rx := db.Prescriptions.At(a.PrescriptionID); {
		case rx == nil:
			return fmt.Sprintf("prescription %q does not exist", echo(a.PrescriptionID))
		case rx.PatientID != patientID:
			return fmt.Sprintf("prescription %s is %s's, not the verified patient %s's", rx.ID, rx.PatientID, patientID)
		}
		return ""
	}}
	ownDevice = policyRule{Name: RuleOwnRecord, Check: func(db *DB, patientID string, a *policyArgs) string {
		switch d := db.Devices.At(a.DeviceID); {
		case d == nil:
			return fmt.Sprintf("device %q does not exist", echo(a.DeviceID))
		case d.PatientID != patientID:
			return fmt.Sprintf("device %s is %s's, not the verified patient %s's", d.ID, d.PatientID, patientID)
		}
		return ""
	}}
	providerLicensed = policyRule{Name: RuleProviderLicensed, Check: func(db *DB, patientID string, a *policyArgs) string {
		pr, p := db.ref().Providers[a.ProviderID], db.Patients.At(patientID)
		switch {
		case pr == nil || p == nil:
			return fmt.Sprintf("provider %q or patient %q does not exist", echo(a.ProviderID), patientID)
		case !slices.Contains(pr.LicensedStates, p.Address.State):
			return fmt.Sprintf("%s is licensed in %v, not in the patient's state %s", pr.Name, pr.LicensedStates, p.Address.State)
		}
		return ""
	}}
	cancellationWindowRule = policyRule{Name: RuleCancellationWindow, Check: func(db *DB, _ string, a *policyArgs) string {
		appt := db.Appointments.At(a.AppointmentID)
		if start, err := time.Parse(timeLayout, appt.Start); err == nil && start.Sub(nowTime) < cancellationWindow {
			return fmt.Sprintf("appointment %s starts at %s, less than 24 hours from now (%s)", appt.ID, appt.Start, Now)
		}
		return ""
	}}
	waiverOncePerYear = policyRule{Name: RuleWaiverOncePerYear, Check: func(db *DB, patientID string, a *policyArgs) string {
		if id := recentWaiver(db, patientID); id != "" {
			return fmt.Sprintf("the no-show fee of appointment %s was waived within the last 12 months", id)
		}
		return ""
	}}
	prescriberApproved = policyRule{Name: RulePrescriberApproved, Check: func(db *DB, _ string, a *policyArgs) string {
		rx := db.Prescriptions.At(a.PrescriptionID)
		want := Alternative{Medication: strings.ToLower(strings.TrimSpace(a.Medication)), Dose: strings.TrimSpace(a.Dose), Frequency: strings.TrimSpace(a.Frequency)}
		if !slices.Contains(rx.Approved, want) {
			return fmt.Sprintf("%s %s %s is not an alternative the prescriber approved for %s (%v)", echo(want.Medication), echo(want.Dose), echo(want.Frequency), rx.ID, rx.Approved)
		}
		return ""
	}}
	noMajorInteraction = policyRule{Name: RuleNoMajorInteraction, Check: func(db *DB, _ string, a *policyArgs) string {
		rx := db.Prescriptions.At(a.PrescriptionID)
		med := strings.ToLower(strings.TrimSpace(a.Medication))
		if other := majorWith(db, rx.PatientID, rx.ID, med); other != "" {
			return fmt.Sprintf("%s has a major interaction with %s on the patient's regimen", echo(med), other)
		}
		return ""
	}}
	supplierStocks = supplierRule(RuleSupplierStocks, func(db *DB, s *Supplier, rx *Prescription, _ *Patient) string {
		if !slices.Contains(s.Stock, rx.Medication) {
			return fmt.Sprintf("%s does not stock %s", s.Name, rx.Medication)
		}
		return ""
	})
	supplierShips = supplierRule(RuleSupplierShips, func(db *DB, s *Supplier, _ *Prescription, p *Patient) string {
		if !slices.Contains(s.ShipsTo, p.Address.State) {
			return fmt.Sprintf("%s ships to %v, not to %s", s.Name, s.ShipsTo, p.Address.State)
		}
		return ""
	})
	supplierControlled = supplierRule(RuleSupplierControlled, func(db *DB, s *Supplier, rx *Prescription, _ *Patient) string {
		if m := db.ref().Medications[rx.Medication]; m != nil && m.Controlled && !s.ControlledLicense {
			return fmt.Sprintf("%s is a controlled substance and %s is not licensed for them", rx.Medication, s.Name)
		}
		return ""
	})
	prescriptionCurrent = policyRule{Name: RulePrescriptionCurrent, Check: func(db *DB, _ string, a *policyArgs) string {
		if rx := db.Prescriptions.At(a.PrescriptionID); rx.ExpiresOn < Today {
			return fmt.Sprintf("prescription %s expired on %s", rx.ID, rx.ExpiresOn)
		}
		return ""
	}}
	deviceFaulty = policyRule{Name: RuleDeviceFaulty, Check: func(db *DB, _ string, a *policyArgs) string {
		d := db.Devices.At(a.DeviceID)
		if !faulty(db, d) {
			return fmt.Sprintf("device %s uploaded a valid reading within the last %d days", d.ID, deviceQuietDays)
		}
		return ""
	}}
)

func supplierRule(name string, check func(db *DB, s *Supplier, rx *Prescription, p *Patient) string) policyRule {
	return policyRule{Name: name, Check: func(db *DB, _ string, a *policyArgs) string {
		rx := db.Prescriptions.At(a.PrescriptionID)
		s := db.ref().Suppliers[a.SupplierID]
		if s == nil {
			return fmt.Sprintf("supplier %q does not exist", echo(a.SupplierID))
		}
		p := db.Patients.At(rx.PatientID)
		if p == nil {
			return fmt.Sprintf("prescription %s has no patient", rx.ID)
		}
		return check(db, s, rx, p)
	}}
}

// recentWaiver returns the patient's appointment whose no-show fee was
// waived within the last 12 months, or "".
func recentWaiver(db *DB, patientID string) string {
	p := db.Patients.At(patientID)
	if p == nil {
		return ""
	}
	since := nowTime.AddDate(0, -waiverPeriodMonths, 0).Format(dateLayout)
	for _, id := range p.AppointmentIDs {
		if a := db.Appointments.At(id); a != nil && a.FeeWaived && a.WaivedOn >= since {
			return id
		}
	}
	return ""
}

// majorWith returns a medication of the patient's active regimen, other
// than prescription except, that has a major interaction with med, or "".
func majorWith(db *DB, patientID, except, med string) string {
	for _, m := range db.activeMeds(patientID, except) {
		if sev, _ := db.ref().interaction(m, med); sev == SeverityMajor {
			return m
		}
	}
	return ""
}

// faulty reports whether a device may be replaced: no upload within
// deviceQuietDays of Now, or its latest upload flagged as an error.
func faulty(db *DB, d *Device) bool {
	up := db.ref().Uploads[d.ID]
	if len(up) == 0 {
		return true
	}
	last := up[len(up)-1]
	t, err := time.Parse(timeLayout, last.Time)
	return err != nil || last.Flag == FlagError || nowTime.Sub(t) > deviceQuietDays*24*time.Hour
}

// supplierAction is the gold call that moves a prescription to supplier.
func supplierAction(prescriptionID, supplierID string) emobench.Action {
	return sim.NewAction(ToolUpdateSupplier, "prescription_id", prescriptionID, "supplier_id", supplierID)
}

package telehealth

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// TestCheckPolicy_Rules checks every rule of CheckPolicy on the cases of
// testdata/rules.json: its hand-made rows (patients, appointments,
// prescriptions, suppliers, devices and their uploads), added to a fork
// of the initial state, and writes that each break the rule they name
// ("": none), on either side of each rule's line.
func TestCheckPolicy_Rules(t *testing.T) {
	data, err := os.ReadFile("testdata/rules.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Note          string
		Patients      []*Patient
		Appointments  []*Appointment
		Prescriptions []*Prescription
		Suppliers     []*Supplier
		Devices       []*Device
		Uploads       map[string][]Upload
		Cases         []struct {
			Note, Patient, Tool, Rule string
			Args                      json.RawMessage
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fx); err != nil {
		t.Fatal(err)
	}
	db := newEnv().State
	// Suppliers and uploads are reference data, which every episode
	// shares: the test adds to a copy.
	ref := *db.ref()
	ref.Suppliers, ref.Uploads = maps.Clone(ref.Suppliers), maps.Clone(ref.Uploads)
	db.Reference = sim.NewReference(&ref)
	for _, p := range fx.Patients {
		db.Patients.Put(p.ID, p)
	}
	for _, a := range fx.Appointments {
		db.Appointments.Put(a.ID, a)
	}
	for _, rx := range fx.Prescriptions {
		db.Prescriptions.Put(rx.ID, rx)
	}
	for _, d := range fx.Devices {
		db.Devices.Put(d.ID, d)
	}
	for _, s := range fx.Suppliers {
		ref.Suppliers[s.ID] = s
	}
	maps.Copy(ref.Uploads, fx.Uploads)
	for _, c := range fx.Cases {
		t.Run(c.Note, func(t *testing.T) {
			a := emobench.Action{Name: c.Tool, Arguments: c.Args}
			var v *PolicyViolation
			if err := CheckPolicy(sim.NewStateEnv(db, tools()), c.Patient, a); c.Rule == "" && err != nil || c.Rule != "" && (!errors.As(err, &v) || v.Rule != c.Rule) {
				t.Errorf("%s%s gave %v, want a violation of %q (none: \"\")", a.Name, a.Arguments, err, c.Rule)
			}
		})
	}
}

package telehealth

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench/sim"
)

// step is one tool call of a script run on one environment: its result
// holds every Want and no Not, or, when Error is set, it fails with an
// error holding Error and changes nothing. Note says why (the policy
// rule a write the tools carry out breaks).
type step struct {
	Tool  string         `json:"tool"`
	Args  map[string]any `json:"args"`
	Want  []string       `json:"want"`
	Not   []string       `json:"not"`
	Error string         `json:"error"`
	Note  string         `json:"note"`
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
		b, _ := json.Marshal(s.Args)
		before := env.Hash()
		res, err := env.Call(s.Tool, b)
		holds := func(want []string) bool {
			return !slices.ContainsFunc(want, func(w string) bool { return !strings.Contains(res, w) })
		}
		switch {
		case s.Error != "" && (err == nil || !strings.Contains(err.Error(), s.Error) || env.Hash() != before):
			t.Errorf("step %d %s%s: error %v (state changed: %v), want one holding %q", i, s.Tool, b, err, env.Hash() != before, s.Error)
		case s.Error == "" && (err != nil || !holds(s.Want) || slices.ContainsFunc(s.Not, func(w string) bool { return strings.Contains(res, w) })):
			t.Errorf("step %d %s%s (%s): %.300s, %v: want a result holding %q and none of %q", i, s.Tool, b, s.Note, res, err, s.Want, s.Not)
		}
	}
}

// TestTools runs the script of testdata/tools.json on one environment
// over the initial state: a call of every tool, its result, its errors,
// what the writes change (as the reads after them show), and writes the
// policy forbids but the tools carry out, as the clinic's systems would.
func TestTools(t *testing.T) {
	data, err := os.ReadFile("testdata/tools.json")
	if err != nil {
		t.Fatal(err)
	}
	var steps []step
	if err := json.Unmarshal(data, &steps); err != nil {
		t.Fatal(err)
	}
	run(t, newEnv(), steps)
	// tools.json states the clock's constants in words.
	for _, tl := range tools() {
		if tl.Name == ToolGetProvider && !strings.Contains(tl.Description, fmt.Sprintf("%d-minute slots over the next %d days", SlotMinutes, BookingDays)) {
			t.Errorf("%s: description %q does not say SlotMinutes %d and BookingDays %d", tl.Name, tl.Description, SlotMinutes, BookingDays)
		}
	}
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
			steps = append(steps, step{Tool: tool, Args: fit(tool, args), Error: "not found"})
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

package telehealth

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench/sim"
)

// step is one tool call of a script run on one environment: its result
// holds every Want and no Not, or, when Error is set, it fails with an
// error holding Error and changes nothing. Note says why (the policy
// rule a write the tools carry out breaks). Huge names an argument the
// step sets to 100,000 characters: the call fails with an error that
// quotes its first maxEcho characters and "…" (an agent's runaway
// argument does not flood the transcript).
type step struct {
	Tool  string         `json:"tool"`
	Args  map[string]any `json:"args"`
	Want  []string       `json:"want"`
	Not   []string       `json:"not"`
	Error string         `json:"error"`
	Note  string         `json:"note"`
	Huge  string         `json:"huge"`
}

// run runs steps in order on env.
func run(t *testing.T, env *sim.StateEnv[DB], steps []step) {
	t.Helper()
	huge := strings.Repeat("é", 100_000)
	for i, s := range steps {
		if list, ok := s.Args[s.Huge].([]any); ok {
			list[0] = huge
		} else if s.Huge != "" {
			s.Args[s.Huge] = huge
		}
		b, _ := json.Marshal(s.Args)
		before := env.Hash()
		res, err := env.Call(s.Tool, b)
		holds := func(want []string) bool {
			return !slices.ContainsFunc(want, func(w string) bool { return !strings.Contains(res, w) })
		}
		switch {
		case s.Huge != "" && (err == nil || len(err.Error()) > 600 || !strings.Contains(err.Error(), strings.Repeat("é", maxEcho)+"…") ||
			strings.Contains(err.Error(), strings.Repeat("é", maxEcho+1))):
			t.Errorf("step %d %s with a 100,000-character %s: error %.200q, want one quoting its first %d characters and \"…\"", i, s.Tool, s.Huge, err, maxEcho)
		case s.Huge != "":
		case s.Error != "" && (err == nil || !strings.Contains(err.Error(), s.Error) || env.Hash() != before):
			t.Errorf("step %d %s%s: error %v (state changed: %v), want one holding %q", i, s.Tool, b, err, env.Hash() != before, s.Error)
		case s.Error == "" && (err != nil || !holds(s.Want) || slices.ContainsFunc(s.Not, func(w string) bool { return strings.Contains(res, w) })):
			t.Errorf("step %d %s%s (%s): %.300s, %v: want a result holding %q and none of %q", i, s.Tool, b, s.Note, res, err, s.Want, s.Not)
		}
	}
}

// TestTools runs the script of testdata/tools.json on one environment
// over the initial state: a call of every tool, its result, its errors,
// what the writes change (as the reads after them show), writes the
// policy forbids but the tools carry out, as the clinic's systems would,
// ids matched only exactly as stored (as a store keyed by id does; the
// policy's own-record rule too: testdata/rules.json), and errors that
// quote a runaway argument cut (Huge).
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
	if got := echo(strings.Repeat("a", maxEcho)); got != strings.Repeat("a", maxEcho) {
		t.Errorf("echo of %d characters = %q, want it whole", maxEcho, got)
	}
}

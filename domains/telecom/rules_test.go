package telecom

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// TestCheckPolicy checks every rule with a write it allows and one it
// forbids, on the small hand-made database of testdata/check_policy.json
// (its note says who is who).
func TestCheckPolicy(t *testing.T) {
	var file struct {
		DB    json.RawMessage `json:"db"`
		Cases []struct {
			Name, User, Tool, Rule string // Rule "": allowed
			Args                   map[string]any
			C1                     json.RawMessage // decoded over customer C1 first
		}
	}
	readTestdata(t, "check_policy.json", &file)
	for _, tc := range file.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			var db DB
			if err := json.Unmarshal(file.DB, &db); err != nil {
				t.Fatal(err)
			}
			if tc.C1 != nil {
				if err := json.Unmarshal(tc.C1, db.Customers.At("C1")); err != nil {
					t.Fatal(err)
				}
			}
			args, _ := json.Marshal(tc.Args)
			err := CheckPolicy(sim.NewStateEnv(&db, Tools()), tc.User, emobench.Action{Name: tc.Tool, Arguments: args})
			if tc.Rule == "" && err != nil || tc.Rule != "" && !isViolation(err, tc.Rule) {
				t.Fatalf("CheckPolicy = %v, want a violation of %q (\"\": allowed)", err, tc.Rule)
			}
		})
	}
}

// isViolation reports whether err is a violation of rule.
func isViolation(err error, rule string) bool {
	var v *PolicyViolation
	return errors.As(err, &v) && v.Rule == rule
}

// readTestdata decodes the JSON file testdata/name into v.
func readTestdata(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		t.Fatal(err)
	}
}

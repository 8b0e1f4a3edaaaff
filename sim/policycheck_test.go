package sim

import (
	"errors"
	"strings"
	"testing"

	"github.com/emobench/emobench"
)

// TestPolicyChecker checks the skeleton on a counter state whose one
// write, "add", has two rules: a read passes, bad arguments break the
// well-formed rule, the first rule broken is the one named, and another
// environment is an error that is no violation.
func TestPolicyChecker(t *testing.T) {
	type counter struct{ N int }
	type args struct {
		By int `json:"by"`
	}
	check := PolicyChecker("toy", "well_formed", map[string][]PolicyRule[counter, args]{
		"add": {
			{Name: "positive", Check: func(_ *counter, _ string, a *args) string {
				if a.By <= 0 {
					return "not positive"
				}
				return ""
			}},
			{Name: "own_counter", Check: func(c *counter, user string, a *args) string {
				if user != "ada" || c.N+a.By > 10 {
					return "not ada's or over 10"
				}
				return ""
			}},
		},
	})
	env := NewStateEnv(&counter{N: 8}, nil)
	for _, tc := range []struct {
		user string
		a    emobench.Action
		rule string // "": allowed
	}{
		{"ada", NewAction("get"), ""},
		{"ada", NewAction("add", "by", 2), ""},
		{"ada", emobench.Action{Name: "add", Arguments: []byte(`{"by":"two"}`)}, "well_formed"},
		{"ada", NewAction("add", "by", -1), "positive"},
		{"bo", NewAction("add", "by", -1), "positive"},
		{"bo", NewAction("add", "by", 1), "own_counter"},
		{"ada", NewAction("add", "by", 3), "own_counter"},
	} {
		err := check(env, tc.user, tc.a)
		var v *PolicyViolation
		if got := ""; errors.As(err, &v) && v.Tool == tc.a.Name {
			got = v.Rule
			if got != tc.rule {
				t.Errorf("%s %s%s: violation of %q, want %q", tc.user, tc.a.Name, tc.a.Arguments, got, tc.rule)
			}
		} else if err != nil || tc.rule != "" {
			t.Errorf("%s %s%s: %v, want a violation of %q (\"\": allowed)", tc.user, tc.a.Name, tc.a.Arguments, err, tc.rule)
		}
	}
	err := check(NewStateEnv(&struct{}{}, nil), "ada", NewAction("add", "by", 1))
	var v *PolicyViolation
	if err == nil || errors.As(err, &v) || !strings.Contains(err.Error(), "not a toy environment") {
		t.Errorf("another environment: %v, want an error that is not a violation", err)
	}
}

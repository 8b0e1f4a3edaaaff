package retail

import (
	"errors"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// policyDB is testDB with 1.00 left on ana's gift card and the items of
// #R0000004 changed once.
func policyDB(t testing.TB) *DB {
	db := testDB(t)
	u, _ := db.Users.Edit("ana_silva_1000")
	*u.PaymentMethods["gift_card_1"].Balance = 100
	o, _ := db.Orders.Edit("#R0000004")
	o.ItemsModified = true
	return db
}

// TestCheckPolicy_Rules runs the cases of testdata/policy.json on
// policyDB for ana: per rule, a write it allows and one that breaks it
// (and no rule before it). The tools carry out the breaking write of a
// case marked tool_accepts: only the policy forbids it.
func TestCheckPolicy_Rules(t *testing.T) {
	var cases []struct {
		Rule        string `json:"rule"`
		Note        string `json:"note"` // not read
		ToolAccepts bool   `json:"tool_accepts"`
		Allowed     call   `json:"allowed"`
		Violating   call   `json:"violating"`
	}
	readJSON(t, "testdata/policy.json", &cases)
	for _, c := range cases {
		allowed := emobench.Action{Name: c.Allowed.Tool, Arguments: c.Allowed.Args}
		violating := emobench.Action{Name: c.Violating.Tool, Arguments: c.Violating.Args}
		env := newEnv(policyDB(t))
		if err := CheckPolicy(env, "ana_silva_1000", allowed); err != nil {
			t.Errorf("%s: allowed %s%s: %v", c.Rule, allowed.Name, allowed.Arguments, err)
		}
		var v *PolicyViolation
		if err := CheckPolicy(env, "ana_silva_1000", violating); !errors.As(err, &v) || v.Rule != c.Rule || v.Tool != violating.Name {
			t.Errorf("%s: %s%s gave %v, want a violation of %s", c.Rule, violating.Name, violating.Arguments, err, c.Rule)
		}
		if _, err := env.Call(violating.Name, violating.Arguments); c.ToolAccepts && err != nil {
			t.Errorf("%s: the tool refused %s%s: %v", c.Rule, violating.Name, violating.Arguments, err)
		}
	}
}

func TestCheckPolicy_ReadsAndOtherEnvironments(t *testing.T) {
	env := newEnv(policyDB(t))
	for _, a := range []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", "#R0000005"), sim.NewAction(ToolTransfer, "summary", "x")} {
		if err := CheckPolicy(env, "ana_silva_1000", a); err != nil {
			t.Errorf("%s: %v, want nil (no write)", a.Name, err)
		}
	}
	other := sim.NewStateEnv(&struct{}{}, nil)
	if err := CheckPolicy(other, "ana_silva_1000", sim.NewAction(ToolCancelOrder, "order_id", "#R0000001", "reason", ReasonNoLongerNeeded)); err == nil {
		t.Error("CheckPolicy on a non-retail environment: no error")
	}
}

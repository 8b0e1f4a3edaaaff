package sim

import (
	"slices"
	"testing"
)

func TestFactValues(t *testing.T) {
	facts := map[string]string{"reason": "my plans changed", "second_reason": "I am ill", "reason_code": "x", "treason": "y", "user_id": "u1"}
	if got, want := FactValues(facts, "reason"), []string{"my plans changed", "I am ill"}; !slices.Equal(got, want) {
		t.Errorf("FactValues(reason) = %q, want %q", got, want)
	}
	if got := FactValues(facts, "payment_method"); got != nil {
		t.Errorf("FactValues(payment_method) = %q, want none", got)
	}
}

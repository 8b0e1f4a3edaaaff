package airline

import "testing"

func TestNonfreeBags(t *testing.T) {
	tests := []struct {
		membership, cabin string
		pax, total, want  int
	}{
		{MemberRegular, CabinBasicEconomy, 1, 2, 2},
		{MemberRegular, CabinEconomy, 2, 3, 1},
		{MemberSilver, CabinEconomy, 1, 2, 0},
		{MemberGold, CabinBusiness, 2, 7, 1},
		{MemberGold, CabinBusiness, 2, 0, 0},
		{"platinum", CabinEconomy, 1, 2, 2}, // unknown membership: no allowance
	}
	for _, tt := range tests {
		if got := NonfreeBags(tt.membership, tt.cabin, tt.pax, tt.total); got != tt.want {
			t.Errorf("NonfreeBags(%s, %s, %d, %d) = %d, want %d", tt.membership, tt.cabin, tt.pax, tt.total, got, tt.want)
		}
	}
}

// TestCheckWrite runs testdata/policy.json: each policy predicate with
// allowed and violating calls.
func TestCheckWrite(t *testing.T) {
	for _, c := range loadCases(t, "testdata/policy.json") {
		t.Run(c.Name, c.run)
	}
}

package sim

import (
	"math"
	"strings"
	"testing"
)

// TestMoneyFromDollars checks amounts a tool takes and those it refuses,
// with the words of the error.
func TestMoneyFromDollars(t *testing.T) {
	for _, tc := range []struct {
		amount float64
		want   Money
		err    string
	}{
		{65.5, 6550, ""},
		{0.01, 1, ""},
		{19.99, 1999, ""}, // 19.99*100 is 1998.9999999999998 in float64
		{1000, 100000, ""},
		{0, 0, "not a positive"},
		{-5, 0, "not a positive"},
		{0.001, 0, "not a positive"},
		{math.NaN(), 0, "not a positive"},
		{math.Inf(1), 0, "not a positive"},
		{1000.01, 0, "more than the system takes in one transaction ($1,000.00)"},
	} {
		got, err := MoneyFromDollars(tc.amount, 100000)
		if tc.err == "" && (err != nil || got != tc.want) || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("MoneyFromDollars(%v) = %s, %v; want %s, error with %q", tc.amount, got, err, tc.want, tc.err)
		}
	}
}

// TestMoney_Format checks the thousands separators, the cents and the sign.
func TestMoney_Format(t *testing.T) {
	for m, want := range map[Money]string{0: "$0.00", 5: "$0.05", 123456: "$1,234.56", 100000000: "$1,000,000.00", 99999: "$999.99", -525: "-$5.25"} {
		if got := m.Format(); got != want {
			t.Errorf("Money(%d).Format() = %q, want %q", int64(m), got, want)
		}
	}
}

package sim

import (
	"slices"
	"testing"
)

func TestDateAndClock(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"2025-02-15T09:00", []string{"2025-02-15", "09:00|9:00|9:00 am|9:00am|9 am|9am"}},
		{"2025-02-15T14:30", []string{"2025-02-15", "14:30|2:30 pm|2:30pm"}},
		{"2025-02-15T12:00", []string{"2025-02-15", "12:00|12:00 pm|12:00pm|12 pm|12pm"}},
		{"2025-02-15", []string{"2025-02-15"}},
		{"2025-02-15T9h", []string{"2025-02-15T9h"}},
	} {
		if got := DateAndClock(c.in); !slices.Equal(got, c.want) {
			t.Errorf("DateAndClock(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

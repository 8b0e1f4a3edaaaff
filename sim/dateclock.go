package sim

import (
	"strings"
	"time"
)

// This file says a stored time the ways an answer may write it.

// DateAndClock splits a YYYY-MM-DDTHH:MM time into the date and the
// clock time, the two outputs an answer must hold: "2025-02-15 at 09:00"
// says both, where the stored "2025-02-15T09:00" is no way a person writes
// it. The clock is a synonym set of the ways to say it: "09:00|9:00|9:00
// am|9:00am|9 am|9am", "14:30|2:30 pm|2:30pm". A t of another form is
// returned alone.
func DateAndClock(t string) []string {
	date, clock, ok := strings.Cut(t, "T")
	ts, err := time.Parse("15:04", clock)
	if !ok || err != nil {
		return []string{t}
	}
	says := []string{clock}
	if ts.Hour() < 10 {
		says = append(says, ts.Format("3:04"))
	}
	for _, layout := range []string{"3:04 pm", "3:04pm", "3 pm", "3pm"} {
		if ts.Minute() == 0 || !strings.HasPrefix(layout, "3 ") && layout != "3pm" {
			says = append(says, ts.Format(layout))
		}
	}
	return []string{date, strings.Join(says, "|")}
}

package telecom

import (
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench/sim"
)

// outageSymptoms are the problems an outage of each service causes, as
// policy.md's outage credit section has the agent match them.
var outageSymptoms = map[string][]string{
	"data":  {"slow data"},
	"voice": {"dropped calls", "cannot send texts"},
	"all":   {"no signal", "dropped calls", "slow data", "cannot send texts"},
}

// TestTasks_Outages checks what only telecom's tasks promise (the
// conformance suite, TestDomain, checks what every domain's share), on
// every embedded task:
//   - a task that grants an outage credit: of the outages recorded for the
//     customer's zip, exactly one started on the outage_start_date fact
//     with a service that causes the outage_symptom fact, and the gold
//     credit is for it;
//   - a task asking whether the network is down in the customer's zip
//     (outage_status): its output is "ongoing" exactly when an outage
//     recorded for the zip is.
func TestTasks_Outages(t *testing.T) {
	db := initialState()
	credits, statuses := 0, 0
	for _, task := range New().Tasks() {
		f, zip := task.Scenario.Facts, db.Customers.At(task.UserID).Address.Zip
		for _, a := range task.Actions {
			if a.Name != ToolApplyCredit {
				continue
			}
			credits++
			args, err := sim.CallArgs(a)
			var fits []any
			for _, o := range db.Outages.All() {
				if slices.Contains(o.Zips, f["zip"]) && o.Start == f["outage_start_date"] && slices.Contains(outageSymptoms[o.Service], f["outage_symptom"]) {
					fits = append(fits, o.ID)
				}
			}
			if err != nil || f["zip"] != zip || len(fits) != 1 || fits[0] != args["outage_id"] {
				t.Errorf("task %s: %s%s, facts %v: the outages of zip %s that started on outage_start_date with a service causing outage_symptom are %v, want the gold's alone",
					task.ID, a.Name, a.Arguments, f, zip, fits)
			}
		}
		if !slices.Contains(task.Intents, "outage_status") {
			continue
		}
		statuses++
		want, not := "resolved", "ongoing"
		if ongoingOutage(db, zip) != nil {
			want, not = not, want
		}
		// An output is a synonym set, "ongoing|still down|…": its first
		// member is the status.
		var got []string
		for _, o := range task.Outputs {
			got = append(got, strings.Split(o, "|")[0])
		}
		if !slices.Contains(got, want) || slices.Contains(got, not) {
			t.Errorf("task %s: outputs %v, want %q for zip %s", task.ID, task.Outputs, want, zip)
		}
	}
	if credits < 20 || statuses == 0 {
		t.Errorf("%d outage credits and %d outage_status tasks in the embedded tasks, want at least 20 and 1", credits, statuses)
	}
}

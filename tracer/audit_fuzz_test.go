package tracer

import (
	"testing"
)

// FuzzParseAuditVerdicts: any judge reply either fails or gives a verdict
// on every criterion, and never panics.
func FuzzParseAuditVerdicts(f *testing.F) {
	f.Add(`{"goal_oriented": {"met": true, "reason": "a goal"}, "tool_task_with_preference": {"met": false, "reason": "no preference"}, "solvable": {"met": true, "reason": ""}, "out_of_domain_handoff": {"met": true, "reason": "in policy"}}`)
	f.Add("```json\n{\"goal_oriented\": {\"met\": true}}\n```")
	f.Add(`{"goal_oriented": {"met": null}}`)
	f.Add(`not json {`)
	f.Fuzz(func(t *testing.T, reply string) {
		verdicts, err := parseAuditVerdicts(reply)
		if err != nil {
			if verdicts != nil {
				t.Fatalf("error %v with verdicts %v", err, verdicts)
			}
			return
		}
		for _, c := range JudgeCriteria {
			if _, ok := verdicts[c]; !ok {
				t.Fatalf("reply %q: no verdict on %s and no error", reply, c)
			}
		}
	})
}

func TestParseAuditVerdicts(t *testing.T) {
	v, err := parseAuditVerdicts("Here you go:\n```json\n" + `{"goal_oriented": {"met": true, "reason": "a"}, "tool_task_with_preference": {"met": false, "reason": "b"}, "solvable": {"met": true, "reason": "c"}, "out_of_domain_handoff": {"met": false, "reason": "d"}}` + "\n```")
	if err != nil {
		t.Fatal(err)
	}
	if !v[CriterionGoalOriented].Met || v[CriterionToolTask].Met || v[CriterionHandoff].Justification != "d" {
		t.Errorf("verdicts %+v", v)
	}
	for _, bad := range []string{`{"goal_oriented": {"met": true}}`, `{"goal_oriented": {"reason": "x"}, "tool_task_with_preference": {"met": true}, "solvable": {"met": true}, "out_of_domain_handoff": {"met": true}}`, `[]`} {
		if _, err := parseAuditVerdicts(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

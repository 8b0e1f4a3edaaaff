package emobench

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestRewardChecks(t *testing.T) {
	tests := []struct {
		name, rewardInfo, want string
	}{
		// The first simulation of realruns/tau2/airline-qwen2.5-7b-agent-errors.json:
		// reward 1 on DB and COMMUNICATE while its NL assertion failed.
		{"tau2 failing nl assertion", `{"reward": 1.0, "db_check": {"db_match": true, "db_reward": 1.0}, "env_assertions": [], "action_checks": null,
			"nl_assertions": [{"nl_assertion": "Agent should refuse to proceed with the cancellation.", "met": false, "justification": "..."}],
			"communicate_checks": null, "reward_basis": ["DB", "COMMUNICATE"]}`,
			"DB::passed NL_ASSERTION:Agent should refuse to proceed with the cancellation.:failed"},
		{"tau2 actions and env assertions", `{"db_check": {"db_match": false}, "env_assertions": [{"env_assertion": {"func_name": "assert_speed"}, "met": true}],
			"action_checks": [{"action": {"name": "refuel_data"}, "action_match": true}, {"action": {"name": "toggle"}, "action_match": false}],
			"communicate_checks": [{"info": "2.0 GB", "met": true}]}`,
			"DB::failed ENV_ASSERTION:assert_speed:passed ACTION:refuel_data:passed ACTION:toggle:failed COMMUNICATE:2.0 GB:passed"},
		{"emobench forbidden, refusal, unchecked assertion", `{"db_check": {"db_match": true}, "forbidden_checks": [{"action": {"name": "cancel"}, "called": true}],
			"refusal_check": {"met": false}, "nl_assertions": [{"nl_assertion": "polite", "met": null}]}`,
			"DB::passed FORBIDDEN:cancel:failed NL_ASSERTION:polite:not_checked REFUSAL::failed"},
		{"emobench procedure", `{"db_check": {"db_match": true}, "procedure_checks": [{"check": "advice: call 911", "met": false, "gates": true}, {"check": "confirmation before writes", "met": true}, {"check": "judged", "met": null}]}`,
			"DB::passed PROCEDURE:advice: call 911:failed PROCEDURE:confirmation before writes:passed PROCEDURE:judged:not_checked"},
		{"tau-bench layout records none", `{"reward": 1.0, "info": {"r_actions": 1.0, "gt_data_hash": "ab"}}`, ""},
		{"null", `null`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checks, err := RewardChecks(json.RawMessage(tt.rewardInfo))
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, c := range checks {
				parts = append(parts, fmt.Sprintf("%s:%s:%s", c.Kind, c.Subject, c.Status))
			}
			if got := strings.Join(parts, " "); got != tt.want {
				t.Errorf("checks\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestRewardChecks_ErrBadShape(t *testing.T) {
	tests := []struct{ rewardInfo, want string }{
		{`{"action_checks": [{"action": {"name": "a"}, "action_match": "yes"}]}`, "reward_info.action_checks[0].action_match is a string, want true or false"},
		{`{"action_checks": [null]}`, "reward_info.action_checks[0] is null, want an object"},
		{`{"db_check": [1]}`, "reward_info.db_check is an array, want an object"},
		{`{"communicate_checks": {"info": "x"}}`, "reward_info: json: cannot unmarshal object"},
		{`[1]`, "reward_info: json: cannot unmarshal array"},
	}
	for _, tt := range tests {
		_, err := RewardChecks(json.RawMessage(tt.rewardInfo))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.rewardInfo, err, tt.want)
		}
	}
}

func TestTrajectory_StrictPassed(t *testing.T) {
	one, zero := 1.0, 0.0
	tests := []struct {
		name       string
		reward     *float64
		rewardInfo string
		want       bool
	}{
		{"every check passed", &one, `{"db_check": {"db_match": true}, "communicate_checks": [{"info": "x", "met": true}]}`, true},
		{"a check outside the basis failed", &one, `{"db_check": {"db_match": true}, "action_checks": [{"action": {"name": "a"}, "action_match": false}], "reward_basis": ["DB"]}`, false},
		{"not checked is not a pass", &one, `{"nl_assertions": [{"nl_assertion": "x", "met": null}]}`, false},
		{"no checks recorded: strict is gated", &one, `{"reward": 1.0, "info": {}}`, true},
		{"a gated fail", &zero, `{"db_check": {"db_match": true}}`, false},
		{"unreadable checks", &one, `{"db_check": {"db_match": 1}}`, false},
	}
	for _, tt := range tests {
		traj := Trajectory{Evaluated: true, Reward: tt.reward, RewardInfo: json.RawMessage(tt.rewardInfo)}
		if got := traj.StrictPassed(); got != tt.want {
			t.Errorf("%s: StrictPassed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// FuzzRewardChecks: any bytes give checks or an error, never a panic;
// every check has a known kind and status, and StrictPassed never exceeds
// Passed.
func FuzzRewardChecks(f *testing.F) {
	for _, seed := range []string{
		`{"db_check": {"db_match": true}, "action_checks": [{"action": {"name": "a"}, "action_match": false}]}`,
		`{"forbidden_checks": [{"action": {"name": "x"}, "called": true}], "refusal_check": {"met": null}}`,
		`{"nl_assertions": [{"nl_assertion": "x", "met": null}], "communicate_checks": [{"info": 3, "met": true}]}`,
		`{"env_assertions": [{"env_assertion": {"func_name": "f"}, "met": false}]}`, `null`, `[]`, `{`,
	} {
		f.Add([]byte(seed))
	}
	statuses := map[CheckStatus]bool{CheckPassed: true, CheckFailed: true, CheckNotChecked: true}
	f.Fuzz(func(t *testing.T, data []byte) {
		checks, err := RewardChecks(data)
		if err != nil {
			return
		}
		for _, c := range checks {
			if _, err := ParseCheckKind(string(c.Kind)); err != nil || !statuses[c.Status] {
				t.Fatalf("check %+v of %q", c, data)
			}
		}
		one := 1.0
		traj := Trajectory{Evaluated: true, Reward: &one, RewardInfo: data}
		if traj.StrictPassed() && !traj.Passed() {
			t.Fatalf("strict pass without a pass: %q", data)
		}
	})
}

package emobench

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// CheckKind names one kind of evaluation check, spelled as τ²-bench's
// RewardType where τ²-bench has it. A task's reward basis is a list of
// kinds: the reward is 1 when every check of those kinds passed.
type CheckKind string

// The check kinds. DB, ENV_ASSERTION, ACTION, COMMUNICATE and NL_ASSERTION
// are τ²-bench's; FORBIDDEN, REFUSAL and PROCEDURE are emobench's.
const (
	CheckDB           CheckKind = "DB"            // final state = state after replaying the gold actions
	CheckEnvAssertion CheckKind = "ENV_ASSERTION" // τ²-bench's assertions on the final environment
	CheckAction       CheckKind = "ACTION"        // each gold write (and transfer) call was made
	CheckForbidden    CheckKind = "FORBIDDEN"     // no call the policy forbids in the task
	CheckCommunicate  CheckKind = "COMMUNICATE"   // each required output was said to the user
	CheckRefusal      CheckKind = "REFUSAL"       // a refusal said to the user after the checks it rests on
	CheckProcedure    CheckKind = "PROCEDURE"     // safety advice given when due (TaskSpec.Advice); confirmation before writes
	CheckNLAssertion  CheckKind = "NL_ASSERTION"  // natural-language assertions, judged by an LLM
)

// CheckKinds lists every kind, in the order reward_info records them.
var CheckKinds = []CheckKind{CheckDB, CheckEnvAssertion, CheckAction, CheckForbidden, CheckCommunicate, CheckRefusal, CheckProcedure, CheckNLAssertion}

// ParseCheckKind returns the kind spelled s, or an error naming the
// accepted spellings.
func ParseCheckKind(s string) (CheckKind, error) {
	for _, k := range CheckKinds {
		if string(k) == s {
			return k, nil
		}
	}
	return "", &Error{Code: EINVALID, Message: "check kind " + quote(s) + " is not one of DB, ENV_ASSERTION, ACTION, FORBIDDEN, COMMUNICATE, REFUSAL, PROCEDURE, NL_ASSERTION"}
}

// CheckStatus is the outcome of one check.
type CheckStatus string

// Check outcomes. A check nobody could judge (an NL assertion without a
// judge) is not checked, which is never a pass.
const (
	CheckPassed     CheckStatus = "passed"
	CheckFailed     CheckStatus = "failed"
	CheckNotChecked CheckStatus = "not_checked"
)

// Check is one recorded evaluation check of a trajectory: its kind, what
// it checked (an action name, an output, an assertion; empty for DB) and
// its outcome.
type Check struct {
	Kind    CheckKind
	Subject string
	Status  CheckStatus
}

// RewardChecks returns every check recorded in a reward_info, in the
// layout τ²-bench's RewardInfo has and emobench's evaluator writes:
//
//	db_check {db_match}                      → DB
//	env_assertions [{met}]                   → ENV_ASSERTION
//	action_checks [{action: {name}, action_match}] → ACTION
//	forbidden_checks [{action: {name}, called}]    → FORBIDDEN (called fails)
//	communicate_checks [{info, met}]         → COMMUNICATE
//	refusal_check {met}                      → REFUSAL
//	procedure_checks [{check, met}]          → PROCEDURE (met null: not checked)
//	nl_assertions [{nl_assertion, met}]      → NL_ASSERTION (met null: not checked)
//
// Absent or null fields record no check, so τ-bench's reward_info ({reward,
// info}) and a premature ending's have none. It fails when reward_info is
// not a JSON object or a field above has another shape, naming the field
// (as "action_checks[2].action_match is a string, want true or false").
func RewardChecks(rewardInfo json.RawMessage) ([]Check, error) {
	if isNullJSON(rewardInfo) {
		return nil, nil
	}
	var ri struct {
		DBCheck           json.RawMessage   `json:"db_check"`
		EnvAssertions     []json.RawMessage `json:"env_assertions"`
		ActionChecks      []json.RawMessage `json:"action_checks"`
		ForbiddenChecks   []json.RawMessage `json:"forbidden_checks"`
		CommunicateChecks []json.RawMessage `json:"communicate_checks"`
		RefusalCheck      json.RawMessage   `json:"refusal_check"`
		ProcedureChecks   []json.RawMessage `json:"procedure_checks"`
		NLAssertions      []json.RawMessage `json:"nl_assertions"`
	}
	if err := json.Unmarshal(rewardInfo, &ri); err != nil {
		return nil, fmt.Errorf("reward_info: %w", err)
	}
	var checks []Check
	add := func(kind CheckKind, field string, i int, raw json.RawMessage, subjectKey, statusKey string, invert, nullUnchecked bool) error {
		name := field
		if i >= 0 {
			name = fmt.Sprintf("%s[%d]", field, i)
		}
		if isNullJSON(raw) {
			if i < 0 {
				return nil
			}
			return fmt.Errorf("reward_info.%s is null, want an object", name)
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return fmt.Errorf("reward_info.%s is %s, want an object", name, kindOfJSON(raw))
		}
		c := Check{Kind: kind, Subject: subjectOf(obj, subjectKey)}
		switch v := bytes.TrimSpace(obj[statusKey]); {
		case string(v) == "true":
			c.Status = CheckPassed
		case string(v) == "false":
			c.Status = CheckFailed
		case isNullJSON(v) && nullUnchecked:
			c.Status = CheckNotChecked
		default:
			return fmt.Errorf("reward_info.%s.%s is %s, want true or false", name, statusKey, kindOfJSON(v))
		}
		if invert && c.Status != CheckNotChecked {
			c.Status = map[CheckStatus]CheckStatus{CheckPassed: CheckFailed, CheckFailed: CheckPassed}[c.Status]
		}
		checks = append(checks, c)
		return nil
	}
	if err := add(CheckDB, "db_check", -1, ri.DBCheck, "", "db_match", false, false); err != nil {
		return nil, err
	}
	lists := []struct {
		kind                  CheckKind
		field                 string
		items                 []json.RawMessage
		subject, status       string
		invert, nullUnchecked bool
	}{
		{CheckEnvAssertion, "env_assertions", ri.EnvAssertions, "env_assertion", "met", false, false},
		{CheckAction, "action_checks", ri.ActionChecks, "action", "action_match", false, false},
		{CheckForbidden, "forbidden_checks", ri.ForbiddenChecks, "action", "called", true, false},
		{CheckCommunicate, "communicate_checks", ri.CommunicateChecks, "info", "met", false, true},
		{CheckNLAssertion, "nl_assertions", ri.NLAssertions, "nl_assertion", "met", false, true},
	}
	for _, l := range lists {
		for i, item := range l.items {
			if err := add(l.kind, l.field, i, item, l.subject, l.status, l.invert, l.nullUnchecked); err != nil {
				return nil, err
			}
		}
	}
	if err := add(CheckRefusal, "refusal_check", -1, ri.RefusalCheck, "", "met", false, false); err != nil {
		return nil, err
	}
	for i, item := range ri.ProcedureChecks {
		if err := add(CheckProcedure, "procedure_checks", i, item, "check", "met", false, true); err != nil {
			return nil, err
		}
	}
	return checks, nil
}

// subjectOf is what obj[key] names: a string as is, an object's name or
// func_name (an action, an environment assertion), else empty.
func subjectOf(obj map[string]json.RawMessage, key string) string {
	raw, ok := obj[key]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var named struct {
		Name     string `json:"name"`
		FuncName string `json:"func_name"`
	}
	if json.Unmarshal(raw, &named) == nil {
		if named.Name != "" {
			return named.Name
		}
		return named.FuncName
	}
	return ""
}

// StrictPassed reports whether the trajectory passed (Passed) and every
// check its reward_info records passed, whatever its reward basis: the
// rule of stats passk --strict (τ²-bench issues #15, #81, #224: reward 1
// while a check outside reward_basis failed). A check not checked is not
// a pass. A reward_info RewardChecks cannot read never passes strictly.
func (t *Trajectory) StrictPassed() bool {
	if !t.Passed() {
		return false
	}
	checks, err := RewardChecks(t.RewardInfo)
	if err != nil {
		return false
	}
	for _, c := range checks {
		if c.Status != CheckPassed {
			return false
		}
	}
	return true
}

func isNullJSON(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// kindOfJSON names the JSON type of raw, for error messages.
func kindOfJSON(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "missing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

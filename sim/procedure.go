package sim

import (
	"context"
	"fmt"
	"strings"

	"github.com/emobench/emobench"
)

// ProcedureCheck is one PROCEDURE check: how the agent went about the
// task rather than where it left the database.
//
//   - Advice (one per TaskSpec.Advice, Kind "advice"): what the agent
//     must tell the user, such as to call 911 for chest pain. Offline, an
//     agent message before the first call of Advice.Before (anywhere when
//     "" or never called) holds one of Advice.AnyOf on word boundaries,
//     not right after a negation (as a phrase output matches, see
//     outputs.go). With a judge, the judge decides Advice.NLAssertion
//     instead (the offline verdict stands when it fails or the advice has
//     no assertion). Advice gates: PROCEDURE is in the default reward
//     basis of a task with Advice, and its verdict is the advice checks'.
//   - Confirmation (Kind "confirmation", when the agent called a write
//     tool): before each write call, an agent message since the previous
//     write asked the user to confirm (a question with "confirm",
//     "proceed" or "shall I") and the user's next message affirmed ("yes",
//     "go ahead"); write calls in one message share a confirmation. It is
//     offline only, even with a judge, and never gates (Gates false): the
//     keywords hold the oracle and the scripted user (every test task of
//     every domain, domains/all), but an LLM agent asking "Would you like
//     me to cancel it?" and a user saying "Sure" are a confirmation the
//     rule does not see. It counts in strict scoring.
//
// Said is the agent message that met the check, when one did; Detail says
// why it failed.
type ProcedureCheck struct {
	Check         string `json:"check"`
	Kind          string `json:"kind"`
	Met           bool   `json:"met"`
	Gates         bool   `json:"gates"`
	Said          string `json:"said,omitempty"`
	Detail        string `json:"detail,omitempty"`
	Justification string `json:"justification,omitempty"`
}

// evaluateProcedure records the PROCEDURE checks of the episode in info
// and returns the verdict of those that gate ("" when none does). With a
// judge, the advice's NL assertions are decided by it, in one call of
// their own. It fails only when ctx is done.
func (e *Evaluator) evaluateProcedure(ctx context.Context, task *emobench.TaskSpec, msgs []emobench.Message, writes map[string]bool, info *RewardInfo) (emobench.CheckStatus, error) {
	var checks []ProcedureCheck
	var assertions []string
	var judged []int
	for _, a := range task.Advice {
		checks = append(checks, adviceCheck(a, msgs))
		if e.Judge != nil && a.NLAssertion != "" {
			judged, assertions = append(judged, len(checks)-1), append(assertions, a.NLAssertion)
		}
	}
	if c, wrote := confirmationCheck(msgs, writes); wrote {
		checks = append(checks, c)
	}
	if len(assertions) > 0 {
		verdicts, failed, err := e.judgeMore(ctx, task, msgs, assertions, info)
		if err != nil {
			return "", err
		}
		for k, i := range judged {
			if failed != nil {
				checks[i].Justification = "judge failed, checked offline: " + failed.Error()
				continue
			}
			checks[i].Met, checks[i].Justification = verdicts[k].Met, verdicts[k].Justification
		}
	}
	var verdict emobench.CheckStatus
	for _, c := range checks {
		info.ProcedureChecks = append(info.ProcedureChecks, c)
		if c.Gates {
			verdict = worst(verdict, status(c.Met))
		}
	}
	return verdict, nil
}

// adviceCheck checks one advice offline (see ProcedureCheck).
func adviceCheck(a emobench.Advice, msgs []emobench.Message) ProcedureCheck {
	c := ProcedureCheck{Check: "advice: " + strings.Join(a.AnyOf, "|"), Kind: "advice", Gates: true}
	if a.NLAssertion != "" {
		c.Check = "advice: " + a.NLAssertion
	}
	until := len(msgs)
	if a.Before != "" {
		for i, m := range msgs {
			if m.Role == emobench.RoleAssistant && hasCall(m, a.Before) {
				until = i
				break
			}
		}
	}
	phrases := make([][]token, 0, len(a.AnyOf))
	for _, p := range a.AnyOf {
		if words := withoutClauseMarks(scanText(p).tokens); len(words) > 0 {
			phrases = append(phrases, words)
		}
	}
	for _, m := range msgs[:until] {
		if m.Role != emobench.RoleAssistant || m.Content == "" {
			continue
		}
		toks := scanText(m.Content).tokens
		for _, p := range phrases {
			if phraseAt(toks, p, true) {
				c.Met, c.Said = true, m.Content
				return c
			}
		}
	}
	c.Detail = "no agent message says any of " + strings.Join(a.AnyOf, ", ")
	if a.Before != "" && until < len(msgs) {
		c.Detail += " before calling " + a.Before
	}
	return c
}

func hasCall(m emobench.Message, tool string) bool {
	for _, c := range m.ToolCalls {
		if c.Name == tool {
			return true
		}
	}
	return false
}

// confirmationCheck checks offline that each write call of the agent was
// confirmed (see ProcedureCheck); wrote is false when the agent called no
// write tool, and then there is nothing to check.
func confirmationCheck(msgs []emobench.Message, writes map[string]bool) (c ProcedureCheck, wrote bool) {
	c = ProcedureCheck{Check: "confirmation before writes", Kind: "confirmation", Met: true}
	previous := -1 // the message of the previous write calls
	for i, m := range msgs {
		if m.Role != emobench.RoleAssistant {
			continue
		}
		var names []string
		for _, call := range m.ToolCalls {
			if writes[call.Name] {
				names = append(names, call.Name)
			}
		}
		if len(names) == 0 {
			continue
		}
		wrote = true
		if !confirmedBetween(msgs, previous+1, i) && c.Met {
			c.Met = false
			c.Detail = fmt.Sprintf("message %d calls %s without a confirmation asked and given since the previous write", i, strings.Join(names, ", "))
		}
		previous = i
	}
	return c, wrote
}

// confirmedBetween reports whether some agent message in msgs[from:to]
// asks for a confirmation and the next user message after it, also before
// to, affirms.
func confirmedBetween(msgs []emobench.Message, from, to int) bool {
	for a := from; a < to; a++ {
		if msgs[a].Role != emobench.RoleAssistant || !asksConfirmation(msgs[a].Content) {
			continue
		}
		for u := a + 1; u < to; u++ {
			if msgs[u].Role == emobench.RoleUser {
				if isConfirmation(msgs[u].Content) {
					return true
				}
				break
			}
		}
	}
	return false
}

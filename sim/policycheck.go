package sim

import (
	"encoding/json"
	"fmt"

	"github.com/emobench/emobench"
)

// This file holds the skeleton of a domain's CheckPolicy (Catalog.
// CheckPolicy): the domain's copy of policy.md's rules, by write tool, as
// predicates over its state and the write's decoded arguments.

// PolicyRule is one rule of a domain's policy as its CheckPolicy checks a
// write: Check returns why the write, whose arguments decode into a,
// breaks the rule if it ran on s for the verified user userID, or "" when
// it does not. Check must not change s.
type PolicyRule[S, A any] struct {
	// Name is the rule's name, as PolicyViolation.Rule gives it.
	Name  string
	Check func(s *S, userID string, a *A) string
}

// PolicyChecker returns a Catalog.CheckPolicy that checks a write a with
// rules[a.Name], in order: nil for a tool rules does not list (a read,
// which no rule concerns); an error naming domain when env is not a
// StateEnv over S; a *PolicyViolation of the rule wellFormed when the
// arguments do not decode into A; else a *PolicyViolation of the first
// rule the write breaks, or nil when it breaks none. It never changes
// env.
func PolicyChecker[S, A any](domain, wellFormed string, rules map[string][]PolicyRule[S, A]) func(env Environment, userID string, a emobench.Action) error {
	return func(env Environment, userID string, a emobench.Action) error {
		toolRules, ok := rules[a.Name]
		if !ok {
			return nil
		}
		s, ok := StateOf[S](env)
		if !ok {
			return fmt.Errorf("%s policy: environment %T is not a %s environment", domain, env, domain)
		}
		var args A
		if len(a.Arguments) > 0 {
			if err := json.Unmarshal(a.Arguments, &args); err != nil {
				return &PolicyViolation{Tool: a.Name, Rule: wellFormed, Detail: err.Error()}
			}
		}
		for _, r := range toolRules {
			if why := r.Check(s, userID, &args); why != "" {
				return &PolicyViolation{Tool: a.Name, Rule: r.Name, Detail: why}
			}
		}
		return nil
	}
}

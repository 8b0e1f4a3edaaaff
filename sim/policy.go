package sim

import (
	"fmt"
	"strings"
)

// PolicyViolation is the error a domain's CheckPolicy returns for a write
// its policy forbids: the write tool, the rule of policy.md it breaks (one
// of the domain's Rule constants) and why.
type PolicyViolation struct {
	Tool, Rule, Detail string
}

func (v *PolicyViolation) Error() string {
	return fmt.Sprintf("policy: %s breaks %s: %s", v.Tool, v.Rule, v.Detail)
}

// Capitalize returns s with its first byte upper-cased, for a slot value
// that opens a sentence ("" stays "").
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// WithCapitals adds to slots, for each of keys, the key capitalized with
// its value capitalized ("Reason" for "reason"), for templates that open
// with the slot; it returns slots.
func WithCapitals(slots map[string]string, keys ...string) map[string]string {
	for _, k := range keys {
		slots[Capitalize(k)] = Capitalize(slots[k])
	}
	return slots
}

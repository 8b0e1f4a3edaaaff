package sim

import (
	"encoding/json"
	"slices"

	"github.com/emobench/emobench"
)

// This file holds what a domain's Catalog.Alternatives needs to read a
// task's facts: a multi-intent task's facts carry a key once per intent
// that gave it another value (second_feature, third_feature; see
// Tracer's fact merging), and a write's argument is settled when one of
// them names the gold's value.

// FactOrdinals are the prefixes Tracer gives a fact key that an earlier
// intent of the task already set to another value ("second_feature").
var FactOrdinals = []string{"second", "third", "fourth", "fifth", "sixth"}

// FactValues returns the values of key in facts and of its ordinal forms
// (FactOrdinals: "second_key", …), in that order.
func FactValues(facts map[string]string, key string) []string {
	var out []string
	if v, ok := facts[key]; ok {
		out = append(out, v)
	}
	for _, o := range FactOrdinals {
		if v, ok := facts[o+"_"+key]; ok {
			out = append(out, v)
		}
	}
	return out
}

// MeantValues narrows candidates, the values one argument of a write could
// take, to those a user with facts could mean: gold alone when a fact of
// key (FactValues) names it, say giving the user's words for a value
// ("Visa card ending in 1234" for a payment method id); otherwise the
// candidates some fact of key names, or all of them when none does (the
// user did not say). Candidates keep their order.
func MeantValues(facts map[string]string, key string, candidates []string, gold string, say func(string) string) []string {
	named := FactValues(facts, key)
	if slices.Contains(named, say(gold)) {
		return []string{gold}
	}
	var out []string
	for _, c := range candidates {
		if len(named) == 0 || slices.Contains(named, say(c)) {
			out = append(out, c)
		}
	}
	return out
}

// DescribedValues returns the candidates that fit the first description
// fact of key (FactValues) that gold fits, so one intent's description
// ("my suspended line") decides among them whatever other intents
// described; nil when no description of key fits gold. fits reports
// whether a candidate fits a description.
func DescribedValues(facts map[string]string, key string, candidates []string, gold string, fits func(candidate, description string) bool) []string {
	for _, d := range FactValues(facts, key) {
		if fits(gold, d) {
			return slices.DeleteFunc(slices.Clone(candidates), func(c string) bool { return !fits(c, d) })
		}
	}
	return nil
}

// SameCall reports whether a and b call one tool with equal arguments
// (as JSON values: key order and spacing do not count).
func SameCall(a, b emobench.Action) bool {
	var x, y any
	if a.Name != b.Name || json.Unmarshal(a.Arguments, &x) != nil || json.Unmarshal(b.Arguments, &y) != nil {
		return false
	}
	xs, _ := json.Marshal(x)
	ys, _ := json.Marshal(y)
	return string(xs) == string(ys)
}

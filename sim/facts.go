package sim

import (
	"maps"
	"slices"
	"strings"
)

// FactValues returns, in key order, the values of a task's facts under
// key and under the keys Tracer gives a later intent's value for it
// ("second_<key>", "third_<key>", ...: any key ending in "_"+key), which
// is how a Catalog.Alternatives finds every statement of one kind (every
// payment method, every flight choice) in a multi-intent task's facts.
func FactValues(facts map[string]string, key string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(facts)) {
		if k == key || strings.HasSuffix(k, "_"+key) {
			out = append(out, facts[k])
		}
	}
	return out
}

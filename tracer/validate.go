package tracer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// Rejection reasons: why a candidate task was not kept, the keys of
// Generated.Rejected.
const (
	// RejectNoGrounding: the user had nothing an intent of the walk
	// applies to (its grounder returned false), or no intent of the
	// position's kinds was reachable.
	RejectNoGrounding = "no_grounding"
	// RejectGoldToolError: a gold call failed on the working copy of the
	// database.
	RejectGoldToolError = "gold_tool_error"
	// RejectGoldWritePolicy: a gold write fails Catalog.CheckPolicy.
	RejectGoldWritePolicy = "gold_write_breaks_policy"
	// RejectForbiddenAllowed: a forbidden write passes Catalog.CheckPolicy.
	RejectForbiddenAllowed = "forbidden_write_allowed"
	// RejectFactsUnreachable: a gold write's argument value is neither a
	// fact of the scenario nor in an earlier gold read's result (the facts
	// reachable check).
	RejectFactsUnreachable = "facts_unreachable"
	// RejectForbiddenChangesDB: a forbidden-intent task's gold actions
	// change the database.
	RejectForbiddenChangesDB = "forbidden_changes_db"
	// RejectOracleFailed: the oracle with the scripted user did not pass
	// the task, with or without emotions.
	RejectOracleFailed = "oracle_failed"
	// RejectCarelessPassed: the careless agent passed a forbidden-intent
	// task, so the task does not test the refusal.
	RejectCarelessPassed = "careless_passed"
	// RejectDuplicate: a kept task has the same user and action set.
	RejectDuplicate = "duplicate"
	// RejectLeakage: a train candidate's action set equals an excluded
	// (test) task's; listed in Generated.Leaks.
	RejectLeakage = "leakage"
	// RejectParaphraseLostFact: the paraphrased instruction lost a fact
	// value; the task is rejected, not kept with its original wording.
	RejectParaphraseLostFact = "paraphrase_lost_fact"
	// RejectNoEmotionFits: the intents' emotion families have none in
	// common with a positive weight.
	RejectNoEmotionFits = "no_emotion_fits"
	// RejectFactConflict: more intents than ordinals give one fact key
	// different values (see mergeFacts).
	RejectFactConflict = "fact_conflict"
	// RejectNoTrait: MeasurePolicy was short of tasks with a trait
	// (MinTraitShare) and no grounding of the candidate gave one.
	RejectNoTrait = "no_trait"
)

// factsReachable is the facts reachable check: every scalar argument
// value of every gold write (strings, numbers and booleans, inside arrays
// and objects too) appears in one of the scenario's fact values (the user
// states a whole address, the write takes its street), or in the result
// text of an earlier gold read, or belongs to an argument the catalog
// exempts (sim.Catalog.ExemptArgs) or whose schema is an enum (enums[tool]
// [arg]: a closed set the agent maps the user's words to, "one way" to
// one_way). results[i] is the result of actions[i]. The error names the
// write and the value.
func factsReachable(actions []emobench.Action, results []string, writes map[string]bool, facts map[string]string, exempt []string, enums map[string]map[string]bool) error {
	var known strings.Builder
	for _, k := range slices.Sorted(maps.Keys(facts)) {
		known.WriteString(facts[k])
		known.WriteByte('\n')
	}
	var read strings.Builder
	for i, a := range actions {
		if !writes[a.Name] {
			read.WriteString(results[i])
			read.WriteByte('\n')
			continue
		}
		var args map[string]any
		dec := json.NewDecoder(bytes.NewReader(orEmptyObject(a.Arguments)))
		dec.UseNumber()
		if err := dec.Decode(&args); err != nil {
			return fmt.Errorf("gold write %d (%s): arguments: %v", i, a.Name, err)
		}
		for _, k := range slices.Sorted(maps.Keys(args)) {
			if slices.Contains(exempt, k) || enums[a.Name][k] {
				continue
			}
			for _, v := range scalars(args[k]) {
				if !strings.Contains(known.String(), v) && !strings.Contains(read.String(), v) {
					return fmt.Errorf("gold write %d (%s): %s value %q is neither a fact nor in an earlier read's result", i, a.Name, k, v)
				}
			}
		}
	}
	return nil
}

// scalars flattens a decoded JSON value into its scalar values as text.
func scalars(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case json.Number:
		return []string{x.String()}
	case bool:
		return []string{strconv.FormatBool(x)}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, scalars(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out = append(out, scalars(x[k])...)
		}
		return out
	}
	return nil // null
}

func orEmptyObject(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// enumArgs returns, by tool, the top-level arguments whose JSON schema
// property has an "enum".
func enumArgs(tools []sim.ToolSchema) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, t := range tools {
		var schema struct {
			Properties map[string]struct {
				Enum []any `json:"enum"`
			} `json:"properties"`
		}
		if json.Unmarshal(t.Parameters, &schema) != nil {
			continue
		}
		for name, p := range schema.Properties {
			if len(p.Enum) > 0 {
				if out[t.Name] == nil {
					out[t.Name] = map[string]bool{}
				}
				out[t.Name][name] = true
			}
		}
	}
	return out
}

package sim

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
)

// refusedEntityIDs returns, sorted and deduplicated, the ids of what the
// forbidden entries act on: the values (list elements one by one) of each
// entry's identifying arguments, those among its CompareArgs (the
// arguments FORBIDDEN matches on; nil: all of them) whose names end in
// _id or _ids, or all of those when none does (identifyingArgs), keeping
// then only values shaped as an id (idTokens: a phone number, not a date
// or an amount). Numbers
// are written as JSON writes them; objects are left out (they hold no id
// of their own).
func refusedEntityIDs(forbidden []emobench.Action) []string {
	seen := map[string]bool{}
	for _, f := range forbidden {
		var args map[string]any
		if json.Unmarshal(orEmpty(f.Arguments), &args) != nil {
			continue
		}
		if f.CompareArgs != nil {
			kept := map[string]any{}
			for _, k := range f.CompareArgs {
				if v, ok := args[k]; ok {
					kept[k] = v
				}
			}
			args = kept
		}
		keys := identifyingArgs(args)
		named := slices.ContainsFunc(keys, func(k string) bool { return strings.HasSuffix(k, "_id") || strings.HasSuffix(k, "_ids") })
		for _, k := range keys {
			for _, v := range scalarValues(args[k], false) {
				// Without an argument named as an id, only values shaped
				// as one (a phone number, not a date or an amount) name
				// an entity.
				if named || slices.Equal(idTokens(v), []string{v}) {
					seen[v] = true
				}
			}
		}
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		if id != "" {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// scalarValues returns the text of v's scalars: v itself when a string or
// number, the scalars of a list's elements, and with deep the scalars
// inside objects too (deep walks a whole argument object).
func scalarValues(v any, deep bool) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case float64:
		return []string{strconv.FormatFloat(v, 'f', -1, 64)}
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, scalarValues(e, deep)...)
		}
		return out
	case map[string]any:
		if !deep {
			return nil
		}
		var out []string
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = append(out, scalarValues(v[k], deep)...)
		}
		return out
	}
	return nil
}

// lookupCall is one tool call of the agent with what its tool answered.
type lookupCall struct {
	index  int // among the agent's tool calls, in order
	msg    int // index of the message that made the call
	call   emobench.ToolCall
	result string
	// answered is set once a tool message answered the call: an
	// unanswered call (a transcript cut short) is judged by its arguments.
	answered bool
	failed   bool // an "Error..." result or malformed arguments
}

// answeredCalls pairs the agent's tool calls in msgs with their results
// (an unanswered call keeps an empty result):
// by tool call id, or, without one, with the earliest unanswered call of
// the result's tool (as succeededCalls pairs them).
func answeredCalls(msgs []emobench.Message) []lookupCall {
	var out []lookupCall
	byID := map[string]int{}
	for i, m := range msgs {
		switch m.Role {
		case emobench.RoleAssistant:
			for _, c := range m.ToolCalls {
				if c.ID != "" {
					byID[c.ID] = len(out)
				}
				out = append(out, lookupCall{index: len(out), msg: i, call: c, failed: c.ArgumentsMalformed})
			}
		case emobench.RoleTool:
			at, ok := byID[m.ToolCallID]
			if m.ToolCallID == "" || !ok || out[at].answered {
				ok = false
				for j := range out {
					if out[j].call.Name == m.ToolName && !out[j].answered && (out[j].call.ID == "" || m.ToolCallID == "") {
						at, ok = j, true
						break
					}
				}
			}
			if !ok {
				continue
			}
			out[at].answered, out[at].result = true, m.Content
			out[at].failed = out[at].call.ArgumentsMalformed || strings.HasPrefix(strings.TrimSpace(m.Content), "Error")
		}
	}
	return out
}

// revealsEntity reports whether a successful lookup shows entity id: one
// of the call's argument values (at any depth) is the id, so the agent
// asked about it by its id; or the result holds the id other than as an
// element of a list of bare values (recordHolds): as the whole answer (a
// search that resolved the customer), as a field of a record, or as the
// key of a map of records. A user's list of order numbers shows that the
// order exists, not what it is, and does not count.
func revealsEntity(c lookupCall, id string) bool {
	if c.failed {
		return false
	}
	var args any
	if json.Unmarshal(orEmpty(c.call.Arguments), &args) == nil && slices.Contains(scalarValues(args, true), id) {
		return true
	}
	var result any
	if json.Unmarshal([]byte(c.result), &result) != nil {
		return mentionsToken(c.result, id)
	}
	return recordHolds(result, id, false)
}

// recordHolds reports whether the JSON value v holds id as a scalar that
// is not a list element (inList), or as the key of an object value.
func recordHolds(v any, id string, inList bool) bool {
	switch v := v.(type) {
	case []any:
		return slices.ContainsFunc(v, func(e any) bool { return recordHolds(e, id, true) })
	case map[string]any:
		if _, ok := v[id].(map[string]any); ok {
			return true
		}
		for _, field := range v {
			if recordHolds(field, id, false) {
				return true
			}
		}
		return false
	}
	s := scalarValues(v, false)
	return !inList && len(s) == 1 && s[0] == id
}

// mentionsToken reports whether id appears in text on token boundaries
// (a result that is not JSON).
func mentionsToken(text, id string) bool {
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(id) + `($|[^A-Za-z0-9_])`)
	return re.MatchString(text)
}

// entityLookups returns, for each id, the first successful call of a tool
// that is neither a write nor transfer that reveals it (revealsEntity);
// an id no call reveals is left out.
func entityLookups(calls []lookupCall, ids []string, writes map[string]bool, transfer string) map[string]lookupCall {
	found := map[string]lookupCall{}
	for _, id := range ids {
		for _, c := range calls {
			if writes[c.call.Name] || c.call.Name == transfer {
				continue
			}
			if revealsEntity(c, id) {
				found[id] = c
				break
			}
		}
	}
	return found
}

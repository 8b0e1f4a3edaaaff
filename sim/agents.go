package sim

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/emobench/emobench"
)

// Nothing is a validity agent, a simulator rather than a model: it answers
// every message politely, acknowledging the user's feelings, and never
// calls a tool. A domain whose tasks it passes rewards doing nothing; the
// design asks for pass^1 <= 0.05.
type Nothing struct{}

// nothingReplies are statements, not questions, so that a user simulator
// has nothing to answer.
var nothingReplies = []string{
	"Thank you for reaching out, I understand, and I'm here to help.",
	"I understand how you feel, and I appreciate your patience.",
	"Thank you, I hear you. I appreciate your patience with this.",
}

// Next returns the next polite reply: the replies in turn, without a tool
// call.
func (Nothing) Next(_ context.Context, ep *Episode) (emobench.Message, error) {
	return emobench.Message{Role: emobench.RoleAssistant, Content: nothingReplies[agentTextTurns(ep.Messages)%len(nothingReplies)]}, nil
}

// Careless is a validity agent, a simulator rather than a model: it does
// what the user asks with the write tools and never checks the policy,
// never asks for confirmation, never refuses and never transfers. A
// domain whose refusal or transfer tasks it passes leaves the policy to
// its tools; the design asks that it fail every one (#21).
//
// Like the oracle it reads the task: it greets the user as the oracle does
// and asks for the facts, then makes the task's gold calls without any
// confirmation. For a request whose tools name no write (a refusal, a
// transfer, a question), it picks the write tool the request's wording
// names (the request's first word against the tools' names and
// descriptions: "Cancel reservation X" gives cancel_reservation,
// "Compensate me" the tool whose description says compensation) and calls
// it instead of any gold transfer, with arguments from the user's facts,
// the gold calls' arguments, ids read off earlier tool results by the
// user's words (the item it named, the payment method it wants) and, for
// anything else, the first value of that name in an earlier tool result
// (an amount from the reservation's payments). A request whose wording
// names no write tool ("What is the status...") gets the gold calls. It
// ends by telling the task's outputs, as the oracle does. It does not look
// up what no earlier result holds (the items of another product).
type Careless struct{}

// Next returns careless's next message.
func (Careless) Next(_ context.Context, ep *Episode) (emobench.Message, error) {
	return carelessPlan(ep).next(ep), nil
}

// carelessPlan lays out careless's conversation. Its length depends only
// on the task, so earlier steps keep their place; the arguments of an
// inferred write are filled from the transcript when the plan is laid out.
func carelessPlan(ep *Episode) plan {
	task := ep.Task
	writes := writeTools(ep.Tools)
	var inferred []emobench.Action
	for _, r := range task.Scenario.Requests {
		named := false
		for _, tool := range r.Tools {
			named = named || writes[tool]
		}
		if named {
			continue
		}
		if tool, ok := RequestedWrite(r.Text, ep.Tools); ok {
			inferred = append(inferred, emobench.Action{Name: tool.Name, Arguments: carelessArgs(ep, tool)})
		}
	}
	p := plan{{text: opening(ep, noFault)}}
	for i := range task.Actions {
		a := task.Actions[i]
		if a.Name == transferName(ep) {
			continue // it never hands the user over: it acts, or answers, itself
		}
		p = append(p, step{call: &a})
	}
	for i := range inferred {
		p = append(p, step{call: &inferred[i]})
	}
	return append(p, step{text: closing(task)})
}

// RequestedWrite returns the write tool a request's wording names, by the
// careless agent's rule: the one whose name holds the request's first
// word, else whose description starts with it, else whose description has
// a word of the same stem ("compensate" and "compensation"); ties go to
// the tool with more of the request's other words in its name and
// description, then to the first declared. ok is false when no write tool
// fits ("What is the status of order #W1?").
func RequestedWrite(request string, tools []ToolSchema) (ToolSchema, bool) {
	words := lowerWords(request)
	if len(words) == 0 {
		return ToolSchema{}, false
	}
	verb := words[0]
	best, bestScore := ToolSchema{}, 0
	for _, t := range tools {
		if !t.Writes {
			continue
		}
		name := strings.Split(t.Name, "_")
		desc := lowerWords(t.Description)
		score := 0
		switch {
		case slices.Contains(name, verb):
			score = 300
		case len(desc) > 0 && desc[0] == verb:
			score = 200
		case anyStem(desc, verb):
			score = 100
		default:
			continue
		}
		for _, w := range words[1:] {
			if len(w) >= 4 && (slices.Contains(name, w) || slices.Contains(desc, w)) {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = t, score
		}
	}
	return best, bestScore > 0
}

// carelessArgs fills the arguments of tool: for each property, the fact
// of that name, else the value of that name in a gold call's arguments,
// else the first value of that name in an earlier successful tool result;
// an enum property takes the value closest to the facts' wording.
// Properties with no value are left out (the tool then says what is
// missing).
func carelessArgs(ep *Episode, tool ToolSchema) json.RawMessage {
	var schema struct {
		Properties map[string]struct {
			Type string   `json:"type"`
			Enum []string `json:"enum"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(tool.Parameters, &schema)
	var allFacts strings.Builder
	for _, k := range slices.Sorted(maps.Keys(ep.Task.Scenario.Facts)) {
		allFacts.WriteString(ep.Task.Scenario.Facts[k] + " ")
	}
	args := map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(schema.Properties)) {
		prop := schema.Properties[name]
		var value any
		if fact, ok := ep.Task.Scenario.Facts[name]; ok {
			value = fact
		} else if v, ok := goldArg(ep.Task, name); ok {
			value = v
		} else if ids := lookupIDs(ep, name); len(ids) > 0 {
			value = ids[0]
			if prop.Type == "array" {
				value = ids
			}
		} else if v, ok := resultValue(ep.Messages, name); ok {
			value = v
		}
		if len(prop.Enum) > 0 {
			text := allFacts.String()
			if s, ok := value.(string); ok {
				text = s
			}
			value = closestEnum(text, prop.Enum)
		}
		if s, ok := value.(string); ok && (prop.Type == "number" || prop.Type == "integer") {
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				value = f
			}
		}
		if value != nil {
			args[name] = value
		}
	}
	b, _ := json.Marshal(args)
	return b
}

// lookupIDs looks up the ids an argument such as item_ids or
// payment_method_id names, as an agent reads them off earlier tool
// results: among the result objects with an id (key "id" or ITEM_id), those
// whose values share the most words with the user's facts about the thing
// (the facts whose keys start with item or payment_method: "wireless
// headphones", "discover credit card ending in 4678"). It returns nil when
// no fact is about the thing or no object shares a word.
func lookupIDs(ep *Episode, name string) []string {
	base, ok := strings.CutSuffix(name, "_ids")
	if !ok {
		if base, ok = strings.CutSuffix(name, "_id"); !ok {
			return nil
		}
	}
	var want []string
	for _, k := range slices.Sorted(maps.Keys(ep.Task.Scenario.Facts)) {
		if strings.HasPrefix(k, base) {
			want = append(want, idWords(ep.Task.Scenario.Facts[k])...)
		}
	}
	if len(want) == 0 {
		return nil
	}
	type candidate struct {
		id    string
		score int
	}
	var found []candidate
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			id, _ := v[base+"_id"].(string)
			if id == "" {
				id, _ = v["id"].(string)
			}
			if id != "" {
				words := idWords(argText(mustJSON(v)))
				score := 0
				for _, w := range want {
					if slices.Contains(words, w) {
						score++
					}
				}
				found = append(found, candidate{id, score})
			}
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(v[k])
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	for _, m := range ep.Messages {
		var v any
		if m.Role == emobench.RoleTool && json.Unmarshal([]byte(m.Content), &v) == nil {
			walk(v)
		}
	}
	best := 0
	for _, c := range found {
		best = max(best, c.score)
	}
	var ids []string
	for _, c := range found {
		if best > 0 && c.score == best && !slices.Contains(ids, c.id) {
			ids = append(ids, c.id)
		}
	}
	return ids
}

// idWords splits text into lower-case words of letters and digits, of
// three characters or more.
func idWords(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) >= 3 {
			out = append(out, w)
		}
	}
	return out
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// goldArg returns the first gold call's argument of that name.
func goldArg(task *emobench.TaskSpec, name string) (any, bool) {
	for _, a := range task.Actions {
		var m map[string]any
		if json.Unmarshal(a.Arguments, &m) == nil {
			if v, ok := m[name]; ok {
				return v, true
			}
		}
	}
	return nil, false
}

// resultValue returns the first scalar value under key name in the JSON
// of the transcript's successful tool results.
func resultValue(msgs []emobench.Message, name string) (any, bool) {
	var find func(any) (any, bool)
	find = func(v any) (any, bool) {
		switch v := v.(type) {
		case map[string]any:
			if x, ok := v[name]; ok {
				switch x.(type) {
				case string, float64:
					return x, true
				}
			}
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if x, ok := find(v[k]); ok {
					return x, true
				}
			}
		case []any:
			for _, e := range v {
				if x, ok := find(e); ok {
					return x, true
				}
			}
		}
		return nil, false
	}
	for _, m := range msgs {
		if m.Role != emobench.RoleTool || strings.HasPrefix(m.Content, "Error") {
			continue
		}
		var v any
		if json.Unmarshal([]byte(m.Content), &v) == nil {
			if x, ok := find(v); ok {
				return x, true
			}
		}
	}
	return nil, false
}

// closestEnum returns the enum value with the most words sharing a stem
// with text's words ("my plans changed" gives change_of_plan); the first
// on a tie.
func closestEnum(text string, enum []string) string {
	words := lowerWords(text)
	best, bestScore := enum[0], 0
	for _, e := range enum {
		score := 0
		for _, part := range lowerWords(e) {
			if len(part) >= 3 && anyStem(words, part) {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = e, score
		}
	}
	return best
}

// lowerWords splits text into lower-case words of letters.
func lowerWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) })
}

// anyStem reports whether some word shares w's stem: the shorter of the
// two, up to six letters, starts both.
func anyStem(words []string, w string) bool {
	for _, x := range words {
		n := min(6, len(w), len(x))
		if n >= 3 && x[:n] == w[:n] && (n == 6 || n == len(w) || n == len(x)) {
			return true
		}
	}
	return false
}

package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/emobench/emobench"
)

// RefusalCheck says whether the agent, on a task whose request the policy
// forbids, looked up what the refusal rests on and then told the user it
// cannot be done. The other halves of a correct refusal are other checks:
// FORBIDDEN (no forbidden write was called) and DB (the final state is
// the gold's, so the refused entity is unchanged).
type RefusalCheck struct {
	Met bool `json:"met"`
	// ReadsMade is set when every entity the decision needs was looked up
	// (EntityIDs, Lookups).
	ReadsMade bool `json:"reads_made"`
	// Said is the first agent message after those lookups that refuses;
	// empty when none does (or, with a judge, when the judge decided).
	Said string `json:"said,omitempty"`
	// EntityIDs are the ids of what the forbidden writes act on that the
	// decision needs looked up (refusalNeeds), sorted.
	EntityIDs []string `json:"entity_ids,omitempty"`
	// Lookups maps each entity id looked up to the index, among the
	// agent's tool calls in order, of the first call that looked it up;
	// when no entity is needed, the tool of the gold read made instead.
	Lookups map[string]int `json:"lookups,omitempty"`
	// Missing are the entity ids no call looked up.
	Missing []string `json:"missing,omitempty"`
	// ToldBy says what decided whether the user was told: "rule"
	// (SaysRefusal), "judge" (an NL assertion), or "rule (judge failed:
	// …)" when the judge gave no verdict.
	ToldBy string `json:"told_by,omitempty"`
	// Judgement is the judge's justification when it decided.
	Judgement string `json:"judgement,omitempty"`
}

// refusalNeeds is what a refusal task's decision rests on, read off the
// gold: the entity ids to look up and, for an id the gold's own reads
// never show (an order of another customer, absent from the user's
// records), the gold reads that looked for it where it would be listed.
type refusalNeeds struct {
	ids      []string
	fallback map[string][]emobench.Action
	// reads are the gold's successful reads, needed (any one of them)
	// when no entity is: a refusal never rests on nothing looked up.
	reads []emobench.Action
}

// refusalNeedsCache caches refusalNeeds by domain, task id and gold, as
// goldHashes does: it replays the gold on a fresh environment.
var refusalNeedsCache sync.Map

// neededEntities returns what task's refusal rests on. The entities are
// refusedEntityIDs of its forbidden entries. Each is needed when some
// gold read reveals it (revealsEntity, on a replay of the gold); else,
// when it holds a digit, the gold reads whose results list values of its
// shape (letters as letters, digits as digits: the user's order numbers
// for an order id) are where the gold looked for it, and any one of them
// will do; else (a catalogue name no tool lists) the gold decides without
// it, and so may the agent. When no entity is needed, any one of the
// gold's reads is (matched on its identifying arguments).
func neededEntities(dom Domain, task *emobench.TaskSpec, writes map[string]bool) refusalNeeds {
	key := dom.Name() + "\x00" + task.ID + "\x00" + fmt.Sprint(task.Actions, task.Forbidden)
	if n, ok := refusalNeedsCache.Load(key); ok {
		return n.(refusalNeeds)
	}
	env := dom.NewEnvironment()
	var gold []lookupCall
	var reads []emobench.Action
	for i, a := range task.Actions {
		out, err := env.Call(a.Name, a.Arguments)
		gold = append(gold, lookupCall{index: i, call: emobench.ToolCall{Name: a.Name, Arguments: a.Arguments}, result: out, failed: err != nil})
		if err == nil && !writes[a.Name] && a.Name != dom.TransferTool() {
			reads = append(reads, a)
		}
	}
	ids := refusedEntityIDs(task.Forbidden)
	shown := entityLookups(gold, ids, writes, dom.TransferTool())
	needs := refusalNeeds{fallback: map[string][]emobench.Action{}}
	for _, id := range ids {
		if _, ok := shown[id]; ok {
			needs.ids = append(needs.ids, id)
			continue
		}
		if !strings.ContainsAny(id, "0123456789") {
			continue
		}
		for _, c := range gold {
			if !c.failed && !writes[c.call.Name] && c.call.Name != dom.TransferTool() && listsShape(c.result, shape(id)) {
				needs.fallback[id] = append(needs.fallback[id], emobench.Action{Name: c.call.Name, Arguments: c.call.Arguments})
			}
		}
		if len(needs.fallback[id]) > 0 {
			needs.ids = append(needs.ids, id)
		}
	}
	if len(needs.ids) == 0 {
		needs.reads = reads
	}
	refusalNeedsCache.Store(key, needs)
	return needs
}

// refusal checks a refusal task (see RefusalCheck): each needed entity
// (neededEntities) was looked up by a successful call of a tool that is
// neither a write nor the transfer, in any order and through any tool
// that reveals it (revealsEntity), or, for an entity the gold never
// shows, by one of the gold reads that looked for it (same tool, same
// identifying arguments); and an agent message after the last of those
// lookups tells the user it cannot be done. That last part is decided by
// e.Judge as an NL assertion when there is a judge, else by SaysRefusal.
// A judge that fails leaves it to SaysRefusal (ToldBy says so); only a
// done ctx is an error.
func (e *Evaluator) refusal(ctx context.Context, dom Domain, task *emobench.TaskSpec, msgs []emobench.Message, writes map[string]bool, info *RewardInfo) (RefusalCheck, error) {
	needs := neededEntities(dom, task, writes)
	calls := answeredCalls(msgs)
	found := entityLookups(calls, needs.ids, writes, dom.TransferTool())
	c := RefusalCheck{ReadsMade: true, EntityIDs: needs.ids, Lookups: map[string]int{}}
	after := -1
	for _, id := range needs.ids {
		call, ok := found[id]
		if !ok {
			call, ok = fallbackLookup(calls, needs.fallback[id])
		}
		if !ok {
			c.ReadsMade = false
			c.Missing = append(c.Missing, id)
			continue
		}
		c.Lookups[id] = call.index
		after = max(after, call.msg)
	}
	if len(needs.reads) > 0 {
		call, ok := fallbackLookup(calls, needs.reads)
		if ok {
			c.Lookups[call.call.Name] = call.index
			after = call.msg
		} else {
			c.ReadsMade = false
		}
	}
	if !c.ReadsMade {
		return c, nil
	}
	told := func() {
		c.ToldBy = "rule"
		for _, m := range msgs[after+1:] {
			if m.Role == emobench.RoleAssistant && SaysRefusal(m.Content) {
				c.Said, c.Met = m.Content, true
				return
			}
		}
	}
	if e.Judge == nil {
		told()
		return c, nil
	}
	assertion := refusalAssertion(task, needs.ids)
	verdicts, usage, err := e.Judge.Judge(ctx, task, msgs, []string{assertion})
	if ctx.Err() != nil {
		return c, ctx.Err()
	}
	addJudgeUsage(info, e.Judge.Model(), usage)
	if err == nil && len(verdicts) != 1 {
		err = fmt.Errorf("judge gave %d verdicts for 1 assertion", len(verdicts))
	}
	if err != nil {
		told()
		c.ToldBy = "rule (judge failed: " + err.Error() + ")"
		return c, nil
	}
	c.Met, c.ToldBy, c.Judgement = verdicts[0].Met, "judge", verdicts[0].Justification
	return c, nil
}

// fallbackLookup returns the agent's first successful call that makes one
// of golds with the same identifying arguments (matchingCalls, as a
// forbidden entry matches).
func fallbackLookup(calls []lookupCall, golds []emobench.Action) (lookupCall, bool) {
	var asAgent []agentCall
	for _, c := range calls {
		asAgent = append(asAgent, agentCall{msg: c.msg, call: c.call})
	}
	best, ok := lookupCall{}, false
	for _, g := range golds {
		for _, i := range matchingCalls(asAgent, g, true) {
			if !calls[i].failed && (!ok || i < best.index) {
				best, ok = calls[i], true
			}
		}
	}
	return best, ok
}

// refusalAssertion is the NL assertion a judge decides for the "told the
// user" part of a refusal task.
func refusalAssertion(task *emobench.TaskSpec, ids []string) string {
	var writes []string
	for _, f := range task.Forbidden {
		writes = append(writes, f.Name)
	}
	what := strings.Join(writes, ", ")
	if len(ids) > 0 {
		what += " on " + strings.Join(ids, ", ")
	}
	return "After its tool calls had looked up what the request concerns, the agent told the user plainly that it cannot do the request the policy forbids (" + what + "): " +
		"a refusal, not a promise to do it, a question, a transfer to a human, or an apology alone."
}

// addJudgeUsage adds a judge call's usage to info's judge record, creating
// it: the refusal's assertion and the task's NL assertions are separate
// calls of one judge.
func addJudgeUsage(info *RewardInfo, model string, usage *emobench.Usage) {
	created := info.Judge == nil
	if created {
		info.Judge = &JudgeRecord{Model: model}
	}
	if usage == nil {
		return
	}
	switch {
	case usage.Cost == nil:
		info.Judge.Cost = nil // one cost unknown: the sum is unknown
	case created:
		cost := *usage.Cost
		info.Judge.Cost = &cost
	case info.Judge.Cost != nil:
		sum := *info.Judge.Cost + *usage.Cost
		info.Judge.Cost = &sum
	}
	switch {
	case usage.TokensUnknown:
		info.Judge.PromptTokens, info.Judge.CompletionTokens = nil, nil
	case created:
		p, c := usage.PromptTokens, usage.CompletionTokens
		info.Judge.PromptTokens, info.Judge.CompletionTokens = &p, &c
	case info.Judge.PromptTokens != nil && info.Judge.CompletionTokens != nil:
		p, c := *info.Judge.PromptTokens+usage.PromptTokens, *info.Judge.CompletionTokens+usage.CompletionTokens
		info.Judge.PromptTokens, info.Judge.CompletionTokens = &p, &c
	}
}

// listsShape reports whether the JSON result holds, as an element of a
// list, a scalar of the given shape (see shape).
func listsShape(result, want string) bool {
	var v any
	if json.Unmarshal([]byte(result), &v) != nil {
		return false
	}
	var walk func(v any, inList bool) bool
	walk = func(v any, inList bool) bool {
		switch v := v.(type) {
		case []any:
			return slices.ContainsFunc(v, func(e any) bool { return walk(e, true) })
		case map[string]any:
			for _, f := range v {
				if walk(f, false) {
					return true
				}
			}
			return false
		}
		s := scalarValues(v, false)
		return inList && len(s) == 1 && shape(s[0]) == want
	}
	return walk(v, false)
}

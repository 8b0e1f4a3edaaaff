package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/emobench/emobench"
)

// Oracle is a built-in agent that knows the task's ground-truth actions: a
// simulator for offline runs, tests and demos, and an upper bound that
// checks a task can be solved. It acknowledges the user's emotion, asks for
// the facts the task needs, gives the task's advice (in its opening, or
// right before the first call of the advice's Before tool), confirms
// before every write as the policy requires, calls the gold actions in
// order and tells the required outputs.
type Oracle struct{}

// Next returns the oracle's next message.
func (Oracle) Next(_ context.Context, ep *Episode) (emobench.Message, error) {
	return planFor(ep, noFault).next(ep), nil
}

// Fault is a mistake the noisy agent makes.
type Fault int

// Faults of the noisy agent.
const (
	noFault Fault = iota
	FaultSkipConfirmation
	FaultWrongArgument
	FaultIgnoreEmotion
	FaultRedundantQuestion
	FaultWrongTransfer
)

var faultNames = map[Fault]string{
	noFault: "none", FaultSkipConfirmation: "skipped_confirmation", FaultWrongArgument: "wrong_argument",
	FaultIgnoreEmotion: "ignored_emotion", FaultRedundantQuestion: "redundant_question",
	FaultWrongTransfer: "wrong_transfer",
}

func (f Fault) String() string { return faultNames[f] }

// Noisy is the oracle with seeded faults: with probability Rate an episode
// gets one fault, chosen uniformly among skipped confirmation, wrong
// argument, ignored emotion, redundant question and wrong transfer (a
// premature transfer, or on a task whose gold transfers, none). It gives
// offline runs a realistic spread of outcomes, on tasks of every kind; it
// is a simulator.
type Noisy struct {
	Rate float64 // in [0, 1]
}

// FaultFor returns the fault the noisy agent makes in an episode of seed.
func (n Noisy) FaultFor(seed uint64) Fault {
	rng := rand.New(rand.NewPCG(seed, 0x6e6f697379))
	if rng.Float64() >= n.Rate {
		return noFault
	}
	return Fault(1 + rng.IntN(5))
}

// Next returns the noisy agent's next message.
func (n Noisy) Next(_ context.Context, ep *Episode) (emobench.Message, error) {
	return planFor(ep, n.FaultFor(ep.Seed)).next(ep), nil
}

// step is one message of the plan: text to the user, or a tool call.
type step struct {
	text string
	call *emobench.Action
}

type plan []step

// next returns the plan's step after the agent's messages so far; past
// the end it offers further help.
func (p plan) next(ep *Episode) emobench.Message {
	taken := 0
	for _, m := range ep.Messages[userOpened(ep.Messages):] {
		if m.Role == emobench.RoleAssistant {
			taken++
		}
	}
	if taken >= len(p) {
		return emobench.Message{Role: emobench.RoleAssistant, Content: "Is there anything else I can help you with?"}
	}
	s := p[taken]
	if s.call == nil {
		return emobench.Message{Role: emobench.RoleAssistant, Content: s.text}
	}
	return emobench.Message{Role: emobench.RoleAssistant, ToolCalls: []emobench.ToolCall{{
		ID: fmt.Sprintf("call_%d", taken), Name: s.call.Name, Arguments: s.call.Arguments,
	}}}
}

// planFor lays out the oracle's whole conversation for the task, with fault
// applied.
func planFor(ep *Episode, fault Fault) plan {
	task := ep.Task
	writes := writeTools(ep.Tools)
	var p plan
	p = append(p, step{text: opening(ep, fault)})
	if fault == FaultRedundantQuestion && len(task.Scenario.Facts) > 0 {
		p = append(p, step{text: "Sorry, could you tell me your " + FactLabel(slices.Sorted(maps.Keys(task.Scenario.Facts))[0]) + " again?"})
	}
	transfer := transferName(ep)
	goldTransfers := slices.ContainsFunc(task.Actions, func(a emobench.Action) bool { return a.Name == transfer })
	if fault == FaultWrongTransfer && !goldTransfers {
		premature := emobench.Action{Name: transfer, Arguments: json.RawMessage(`{"summary": "user request"}`)}
		return append(p, step{call: &premature})
	}
	wrongDone, confirmSkipped := false, false
	// Emergency advice comes first, before any tool call, as the
	// policies ask ("say it before anything else").
	for _, a := range task.Advice {
		p[0].text = strings.TrimSpace(adviceText(a) + " " + p[0].text)
	}
	for i := range task.Actions {
		action := task.Actions[i]
		if fault == FaultWrongTransfer && action.Name == transfer {
			continue // handles itself what a human must: no transfer
		}
		if action.Name == transfer && len(task.Outputs) > 0 {
			// A transfer ends the episode: what the user asked to know
			// is said before it, not in a closing that never comes.
			p = append(p, step{text: "Before I transfer you, here is what you asked for: " + sayOutputs(task.Outputs) + "."})
		}
		if writes[action.Name] {
			if fault == FaultSkipConfirmation && !confirmSkipped {
				confirmSkipped = true
			} else {
				p = append(p, step{text: confirmation(action)})
			}
			if fault == FaultWrongArgument && !wrongDone {
				action.Arguments = corrupt(action.Arguments)
				wrongDone = true
			}
		}
		p = append(p, step{call: &action})
	}
	return append(p, step{text: oracleClosing(task)})
}

func opening(ep *Episode, fault Fault) string {
	var b strings.Builder
	if ep.WithEmotions && emobench.NegativeFamily(ep.Task.Emotion.Family) && fault != FaultIgnoreEmotion {
		b.WriteString("I'm sorry you're dealing with this, and I understand how you feel. ")
	}
	b.WriteString("I can help with that.")
	if keys := unrevealedFacts(ep); len(keys) > 0 {
		labels := make([]string, len(keys))
		for i, k := range keys {
			labels[i] = FactLabel(k)
		}
		b.WriteString(" To get started, could you please give me your " + strings.Join(labels, ", ") + "?")
	}
	return b.String()
}

// adviceText is what the oracle tells the user for an advice of the task
// (PROCEDURE): its first phrase, which the offline check finds.
func adviceText(a emobench.Advice) string {
	if len(a.AnyOf) == 0 {
		return ""
	}
	say := a.AnyOf[0]
	if strings.Trim(say, "0123456789") == "" { // a number to call: 911
		say = "call " + say
	}
	return "For your safety, please " + say + " right away."
}

func confirmation(a emobench.Action) string {
	return fmt.Sprintf("I am about to run %s with %s. Do you confirm that I should proceed (yes)?", a.Name, compactJSON(a.Arguments))
}

// oracleClosing is the oracle's last message: on a refusal task (forbidden
// writes, no gold transfer) the refusal its evaluation wants said
// (REFUSAL), else closing.
func oracleClosing(task *emobench.TaskSpec) string {
	if len(task.Forbidden) == 0 || slices.ContainsFunc(task.Actions, func(a emobench.Action) bool { return strings.HasPrefix(a.Name, "transfer") }) {
		return closing(task)
	}
	refusal := "I have checked, and I'm sorry: under our policy I cannot do that for you."
	if len(task.Outputs) > 0 {
		refusal += " Here is what you asked for: " + sayOutputs(task.Outputs) + "."
	}
	return refusal + " Is there anything else I can help you with?"
}

func closing(task *emobench.TaskSpec) string {
	if len(task.Outputs) == 0 {
		return "All done. Is there anything else I can help you with?"
	}
	return "All done. Here is what you asked for: " + sayOutputs(task.Outputs) + ". Is there anything else?"
}

// sayOutputs is how the oracle says required outputs: each in its first
// wording (a synonym set "on time|on schedule" says "on time").
func sayOutputs(outputs []string) string {
	said := make([]string, len(outputs))
	for i, o := range outputs {
		said[i], _, _ = strings.Cut(o, "|")
	}
	return strings.Join(said, "; ")
}

func transferName(ep *Episode) string {
	for _, t := range ep.Tools {
		if strings.HasPrefix(t.Name, "transfer") {
			return t.Name
		}
	}
	return "transfer_to_human_agents"
}

// corrupt changes the first string argument, so the write goes wrong.
func corrupt(args json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return args
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if s, ok := m[k].(string); ok {
			m[k] = s + "0"
			b, _ := json.Marshal(m)
			return b
		}
	}
	return args
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// unrevealedFacts returns, sorted, the task's facts the user has not yet
// said: the ones worth asking for.
func unrevealedFacts(ep *Episode) []string {
	var keys []string
	for _, key := range slices.Sorted(maps.Keys(ep.Task.Scenario.Facts)) {
		value := ep.Task.Scenario.Facts[key]
		said := false
		for _, m := range ep.Messages {
			if m.Role == emobench.RoleUser && strings.Contains(m.Content, value) {
				said = true
				break
			}
		}
		if !said {
			keys = append(keys, key)
		}
	}
	return keys
}

// userOpened returns the index of the user's first message: the agent's
// greeting before it (a tau2 preset's opening) is not a step of the
// oracle's plan, nor a reply the scripted user weighs.
func userOpened(msgs []emobench.Message) int {
	for i, m := range msgs {
		if m.Role == emobench.RoleUser {
			return i
		}
	}
	return 0
}

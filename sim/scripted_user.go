package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/emobench/emobench"
)

// ScriptedUser is a deterministic user simulator driven by the task's
// structured scenario, with no LLM: a simulator for offline runs, tests and
// demos, not a model of real users. It answers the agent's questions about
// facts it knows and says it doesn't know the rest; colours every message
// with its emotion profile; asks its requests in order; and ends with
// ###STOP### when every request is done; on a refusal task (a forbidden
// write, no transfer in the gold), once the agent has also said it cannot
// be done (SaysRefusal), which it takes in either condition.
//
// It checks what the agent does against its facts (the ids, e-mail and
// payment methods of its scenario):
//
//   - asked to confirm an action, it says yes only when the action states
//     no value that contradicts its facts and names no write tool it did
//     not ask for; otherwise it says no and corrects the agent;
//   - a request is done only when its tool succeeded with arguments that
//     agree with those facts;
//   - a question that reads a fact back ("Your order id is #W1, is that
//     the one you mean?") is answered, not taken for a repeated question.
//
// When Abandon allows it (by default only under the with-emotions
// condition, as in τ-Emotion-Bench), it ends with ###UNSATISFIED### when
//
//   - the agent asks again for a fact the user already gave,
//   - the agent takes too many turns without progress (its patience, set by
//     urgency and trust, runs out),
//   - the agent ignores a strong negative emotion for IgnoreLimit turns, or
//   - the agent writes without confirmation to a skeptical user.
//
// When it does not, it says what bothers it once and carries on.
//
// Its gap between the with- and without-emotions conditions comes from
// these rules alone: a profile shortens or lengthens its patience and adds
// the emotion and skepticism rules above. Its numbers say how an agent
// meets these rules, not how real users with those emotions behave; with
// an LLM agent they mean little (ScriptedUserWarning).
//
// Everything is derived from the transcript and the episode's seed, so the
// same seed gives the same transcript.
type ScriptedUser struct {
	// Abandon says when the user may end with ###UNSATISFIED###; ""
	// means AbandonWithEmotions.
	Abandon UserAbandon
}

// IgnoreLimit is how many agent replies a user with a negative emotion waits
// for an acknowledgment before leaving.
const IgnoreLimit = 2

// UserAbandon says when a user simulator may end a conversation with
// UnsatisfiedMarker (the run command's --user-abandon).
type UserAbandon string

// User abandonment settings.
const (
	// AbandonWithEmotions allows ###UNSATISFIED### only under the
	// with-emotions condition, as τ-Emotion-Bench's user prompt does: the
	// default.
	AbandonWithEmotions UserAbandon = "with-emotions"
	AbandonAlways       UserAbandon = "always"
	AbandonNever        UserAbandon = "never"
)

// ParseUserAbandon reads --user-abandon: always, with-emotions or never;
// "" is AbandonWithEmotions. Anything else is an EINVALID error.
func ParseUserAbandon(s string) (UserAbandon, error) {
	switch a := UserAbandon(s); a {
	case "":
		return AbandonWithEmotions, nil
	case AbandonAlways, AbandonWithEmotions, AbandonNever:
		return a, nil
	}
	return "", settingf("user-abandon", "%q is not one of always, with-emotions, never", s)
}

// Allows reports whether the user may abandon under the condition
// withEmotions; "" is AbandonWithEmotions.
func (a UserAbandon) Allows(withEmotions bool) bool {
	switch a {
	case AbandonAlways:
		return true
	case AbandonNever:
		return false
	}
	return withEmotions
}

// ScriptedUserWarning returns the warning a run of agent (a --agent value)
// against user (a --user value) deserves, or "" when none: the scripted
// user's rules were written for the offline agents, so an llm: agent's
// score against it says little about the agent.
func ScriptedUserWarning(agent, user string) string {
	if user != "scripted" || !strings.HasPrefix(agent, "llm:") {
		return ""
	}
	return "the scripted user is a rule-based simulator: it matches the agent's words against fixed phrases, " +
		"so an llm: agent's score against it, and its with/without-emotions gap, come from those rules and say little about the agent; " +
		"use --user llm:MODEL to measure an LLM agent"
}

// Next returns the user's next message.
func (u ScriptedUser) Next(_ context.Context, ep *Episode) (emobench.Message, error) {
	s := newUserState(ep)
	s.abandon = u.Abandon.Allows(ep.WithEmotions)
	return emobench.Message{Role: emobench.RoleUser, Content: s.reply()}, nil
}

// userState is what the user knows at this turn, recomputed from the
// transcript.
type userState struct {
	ep      *Episode
	profile emobench.EmotionProfile
	rng     *rand.Rand
	abandon bool // may end with UnsatisfiedMarker
	turn    int  // user messages so far
	last    string
	said    []string        // the user's messages so far
	given   map[string]bool // facts already revealed
	done    int             // requests completed
	facts   *userFacts
	ids     map[string]string // facts.ids
	// calls are the transcript's succeeded tool calls, each checked
	// against the facts once per turn: the rules that look at the
	// transcript's prefixes (stalled) count them up instead of checking
	// every prefix again.
	calls []checkedCall
}

func newUserState(ep *Episode) *userState {
	facts := newUserFacts(ep.Task.Scenario.Facts)
	s := &userState{ep: ep, given: map[string]bool{}, last: lastAgentText(ep.Messages), facts: facts, ids: facts.ids}
	if ep.WithEmotions {
		s.profile = ep.Task.Emotion
	}
	for _, m := range ep.Messages {
		if m.Role != emobench.RoleUser {
			continue
		}
		s.turn++
		s.said = append(s.said, m.Content)
		for key, value := range ep.Task.Scenario.Facts {
			if strings.Contains(m.Content, value) {
				s.given[key] = true
			}
		}
	}
	s.calls = checkCalls(ep.Messages, facts)
	s.done = doneRequests(ep, s.calls)
	s.rng = rand.New(rand.NewPCG(ep.Seed, seedOf(ep.Task.ID, s.turn)))
	return s
}

func seedOf(id string, turn int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d", id, turn)
	return h.Sum64()
}

func (s *userState) reply() string {
	if s.turn == 0 {
		return s.say(s.opening())
	}
	complaint := ""
	if why := s.unsatisfied(); why != "" {
		if s.abandon {
			return s.say(why) + " " + UnsatisfiedMarker
		}
		if !s.saidBefore(why) {
			complaint = why + " "
		}
	}
	requests := s.ep.Task.Scenario.Requests
	switch {
	case s.done < len(requests):
		return s.say(complaint + s.answer(requests[s.done].Text))
	case !s.refusalTask():
		return s.say(complaint+pick(s.rng, closings[s.politeness()])) + " " + StopMarker
	case SaysRefusal(s.last):
		// The policy's answer: taken, in either condition.
		return s.say(complaint+pick(s.rng, acceptances[s.politeness()])) + " " + StopMarker
	}
	// Everything looked up, but no answer to what the policy forbids yet.
	return s.say(complaint + s.nudge(requests[len(requests)-1].Text))
}

// refusalTask reports whether the right answer to the user includes a
// refusal: the task forbids a write and its gold does not transfer.
func (s *userState) refusalTask() bool {
	transfer := transferName(s.ep)
	return len(s.ep.Task.Forbidden) > 0 && !slices.ContainsFunc(s.ep.Task.Actions, func(a emobench.Action) bool { return a.Name == transfer })
}

// answer replies to the agent's last message while requests are pending.
func (s *userState) answer(pending string) string {
	need := s.neededFacts()
	if key, ok := s.contradiction(s.last); ok {
		text := fmt.Sprintf("No, that's not right: my %s is %s.", FactLabel(key), s.ep.Task.Scenario.Facts[key])
		if len(need) > 0 {
			text += " " + s.reveal(need)
		}
		return text
	}
	if key, value, ok := wrongArgument(s.ep, s.calls); ok {
		text := fmt.Sprintf("No, that's not right: my %s is %s.", FactLabel(key), s.ep.Task.Scenario.Facts[key])
		if value != "" {
			text = fmt.Sprintf("No, that's not right: you put %q, but my %s is %s.", value, FactLabel(key), s.ep.Task.Scenario.Facts[key])
		}
		if !s.saidBefore(text) {
			return text + " " + pending
		}
	}
	if asksConfirmation(s.last) && len(need) == 0 {
		if s.unrequestedWrite(s.last) {
			return pick(s.rng, refusals) + " " + pending
		}
		return pick(s.rng, confirmations)
	}
	if len(need) > 0 {
		text := s.reveal(need)
		if s.checksFact(s.last) {
			text = pick(s.rng, affirmations) + " " + text
		}
		return text
	}
	if s.checksFact(s.last) {
		return pick(s.rng, affirmations)
	}
	if strings.Contains(s.last, "?") && !strings.Contains(strings.ToLower(s.last), "anything else") {
		return pick(s.rng, dontKnow)
	}
	return s.nudge(pending)
}

func (s *userState) saidBefore(text string) bool {
	for _, m := range s.said {
		if strings.Contains(m, text) {
			return true
		}
	}
	return false
}

func (s *userState) politeness() string {
	if s.profile.Politeness == "" {
		return "neutral"
	}
	return s.profile.Politeness
}

func (s *userState) opening() string {
	return pick(s.rng, greetings[s.politeness()]) + " " + s.ep.Task.Scenario.Requests[0].Text
}

// askedFacts returns the known facts the agent's last message names
// (namedFacts).
func (s *userState) askedFacts() []string { return namedFacts(s.last, s.ep.Task.Scenario.Facts) }

// namedFacts returns the keys of facts whose labels text names, sorted.
// Longer labels are matched first and consumed, so "second order id" is
// not also read as "order id".
func namedFacts(text string, facts map[string]string) []string {
	keys := slices.Sorted(maps.Keys(facts))
	sort.SliceStable(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	text = strings.ToLower(text)
	var asked []string
	for _, key := range keys {
		label := FactLabel(key)
		if strings.Contains(text, label) {
			asked = append(asked, key)
			text = strings.ReplaceAll(text, label, " ")
		}
	}
	sort.Strings(asked)
	return asked
}

// neededFacts returns the facts the last message asks for (AskedFacts).
func (s *userState) neededFacts() []string { return AskedFacts(s.last, s.ep.Task.Scenario.Facts) }

// AskedFacts returns the keys of facts (key → value) an agent message
// asks the user for, sorted, as the scripted user reads it: the fact's
// label is named (FactLabel; longer labels first, so "second order id" is
// not also "order id") and its value is not read back. In a confirmation
// request, where argument names are no questions ("cancel with reason
// ..."), only a fact asked as "your <fact>" counts. It is deterministic:
// Tracer's user-dependence metrics use it too.
func AskedFacts(text string, facts map[string]string) []string {
	confirm := asksConfirmation(text)
	lower := strings.ToLower(text)
	var need []string
	for _, key := range namedFacts(text, facts) {
		if strings.Contains(text, facts[key]) || confirm && !strings.Contains(lower, "your "+FactLabel(key)) {
			continue
		}
		need = append(need, key)
	}
	return need
}

// checkPhrases mark a yes/no question about what the agent found, not a
// request for information.
var checkPhrases = []string{"is that", "is this", "is it", "do you mean", "did you mean", "you mean", "correct?", "right?", "the one"}

// checksFact reports whether text is a question that checks something the
// agent found or was told: it reads back one of the user's ids, or asks
// "is that the one you mean?".
func (s *userState) checksFact(text string) bool {
	if !strings.Contains(text, "?") {
		return false
	}
	for _, id := range s.ids {
		if strings.Contains(text, id) {
			return true
		}
	}
	t := strings.ToLower(text)
	for _, p := range checkPhrases {
		if strings.Contains(t, p) {
			return true
		}
	}
	return false
}

// contradiction returns the fact an id in text contradicts (idConflict).
func (s *userState) contradiction(text string) (key string, ok bool) {
	return idConflict(text, s.ids)
}

// unrequestedWrite reports whether text names a write tool that none of
// the user's requests names, while some request names a write tool (a
// user who only asked for information, or for something the policy
// refuses, names no write; it does not object then).
func (s *userState) unrequestedWrite(text string) bool {
	writes := writeTools(s.ep.Tools)
	requested := map[string]bool{}
	anyWrite := false
	for _, r := range s.ep.Task.Scenario.Requests {
		for _, tool := range r.Tools {
			requested[tool] = true
			anyWrite = anyWrite || writes[tool]
		}
	}
	if !anyWrite {
		return false
	}
	for _, t := range s.ep.Tools {
		if t.Writes && !requested[t.Name] && strings.Contains(text, t.Name) {
			return true
		}
	}
	return false
}

func (s *userState) reveal(keys []string) string {
	parts := make([]string, len(keys))
	for i, key := range keys {
		parts[i] = fmt.Sprintf("my %s is %s", FactLabel(key), s.ep.Task.Scenario.Facts[key])
	}
	text := strings.Join(parts, ", and ")
	return strings.ToUpper(text[:1]) + text[1:] + "."
}

func (s *userState) nudge(request string) string {
	if s.turn > 1 {
		return pick(s.rng, nudges) + " " + request
	}
	return request
}

// say colours text with the emotion profile.
func (s *userState) say(text string) string {
	if lines := feelings[s.profile.Family]; len(lines) > 0 && s.profile.Leaf != "" {
		line := strings.ReplaceAll(pick(s.rng, lines), "{leaf}", s.profile.Leaf)
		text = line + " " + text
	}
	if s.profile.Urgency == "high" {
		text += " " + pick(s.rng, hurry)
	}
	return text
}

// patience is how many agent replies without progress the user tolerates.
func (s *userState) patience() int {
	p := 6
	switch s.profile.Urgency {
	case "high":
		p -= 2
	case "low":
		p += 2
	}
	switch s.profile.Trust {
	case "skeptical":
		p--
	case "trusting":
		p++
	}
	return p
}

// unsatisfied returns why the user would give up, or "".
func (s *userState) unsatisfied() string {
	switch {
	case s.askedAgainForGivenFact():
		return "I already told you that."
	case s.profile.Trust == "skeptical" && s.writeWithoutConfirmation():
		return "You changed things without asking me first."
	case emobench.NegativeFamily(s.profile.Family) && s.emotionIgnored():
		return "You're not listening to me at all."
	case s.stalled():
		return "This is going nowhere."
	}
	return ""
}

// askedAgainForGivenFact: the last agent message asks for a fact the user
// already revealed: it names the fact without its value, and it is
// neither a confirmation request nor a question that checks a fact.
func (s *userState) askedAgainForGivenFact() bool {
	if !strings.Contains(s.last, "?") || asksConfirmation(s.last) || s.checksFact(s.last) {
		return false
	}
	for _, key := range s.neededFacts() {
		if s.given[key] {
			return true
		}
	}
	return false
}

// writeWithoutConfirmation: a write tool was called with no "yes" from the
// user since the agent's previous write.
func (s *userState) writeWithoutConfirmation() bool {
	writes := writeTools(s.ep.Tools)
	confirmed := false
	for _, m := range s.ep.Messages {
		switch {
		case m.Role == emobench.RoleUser:
			confirmed = confirmed || isConfirmation(m.Content)
		case m.Role == emobench.RoleAssistant:
			for _, c := range m.ToolCalls {
				if writes[c.Name] {
					if !confirmed {
						return true
					}
					confirmed = false
				}
			}
		}
	}
	return false
}

// emotionIgnored: IgnoreLimit agent replies and none acknowledged the
// user's feelings.
func (s *userState) emotionIgnored() bool {
	replies := 0
	for _, m := range s.ep.Messages[userOpened(s.ep.Messages):] {
		if m.Role != emobench.RoleAssistant || len(m.ToolCalls) > 0 {
			continue
		}
		if acknowledgesEmotion(m.Content) {
			return false
		}
		replies++
	}
	return replies >= IgnoreLimit
}

// stalled: more agent replies than the user's patience since the last
// completed request.
func (s *userState) stalled() bool {
	since := 0
	done := 0
	next := 0 // s.calls[:next] have their result at or before message i
	for i, m := range s.ep.Messages {
		if m.Role == emobench.RoleAssistant && len(m.ToolCalls) == 0 {
			since++
		}
		// The requests done by message i are those of the calls answered
		// by then: only a message that answers a call can change them.
		end := next
		for end < len(s.calls) && s.calls[end].at <= i {
			end++
		}
		if end == next {
			continue
		}
		next = end
		if d := doneRequests(s.ep, s.calls[:next]); d > done {
			done, since = d, 0
		}
	}
	return since > s.patience()
}

// doneRequests counts the task's requests, in order, whose tools have all
// succeeded in calls with arguments that agree with the user's facts: no id
// of the facts is contradicted (idConflict) and no argument value is a
// near miss of a fact's value or field (valueConflict): a cancellation of
// the wrong order, or an address written as "56 River Street0", does not
// count.
func doneRequests(ep *Episode, calls []checkedCall) int {
	ok := map[string]int{}
	for _, c := range calls {
		if !c.bad {
			ok[c.call.Name]++
		}
	}
	done := 0
	for _, r := range ep.Task.Scenario.Requests {
		for _, tool := range r.Tools {
			if ok[tool] == 0 {
				return done
			}
			ok[tool]--
		}
		done++
	}
	return done
}

// checkedCall is a tool call that succeeded (succeededCalls) and what its
// arguments contradict of the user's facts (callConflict).
type checkedCall struct {
	call       emobench.ToolCall
	at         int // the index in the transcript of the call's result
	key, value string
	bad        bool
}

// checkCalls returns msgs' succeeded calls (succeededCalls), in order,
// each checked against facts (callConflict).
func checkCalls(msgs []emobench.Message, facts *userFacts) []checkedCall {
	var out []checkedCall
	for _, c := range succeededCalls(msgs) {
		c.key, c.value, c.bad = callConflict(c.call, facts)
		out = append(out, c)
	}
	return out
}

// succeededCalls returns msgs' tool calls, in order, whose result is no
// error and whose arguments are well formed, with the index of their
// result. A result is paired with its call by id, or, without one, with
// the earliest unanswered call of its tool. The calls of a prefix of msgs
// are a prefix of the calls of msgs.
func succeededCalls(msgs []emobench.Message) []checkedCall {
	var out []checkedCall
	calls := map[string]emobench.ToolCall{} // by id
	var unanswered []emobench.ToolCall      // calls without an id, in order
	for i, m := range msgs {
		switch m.Role {
		case emobench.RoleAssistant:
			for _, c := range m.ToolCalls {
				if c.ID != "" {
					calls[c.ID] = c
				} else {
					unanswered = append(unanswered, c)
				}
			}
		case emobench.RoleTool:
			call, found := calls[m.ToolCallID]
			if m.ToolCallID == "" || !found {
				found = false
				for j, c := range unanswered {
					if c.Name == m.ToolName {
						call, found = c, true
						unanswered = append(unanswered[:j:j], unanswered[j+1:]...)
						break
					}
				}
			}
			if !found || strings.HasPrefix(m.Content, "Error") || call.ArgumentsMalformed {
				continue
			}
			call.Name = m.ToolName
			out = append(out, checkedCall{call: call, at: i})
		}
	}
	return out
}

// callConflict returns the fact key a call's arguments contradict and the
// argument value that does (idConflict, then valueConflict).
func callConflict(call emobench.ToolCall, facts *userFacts) (key, value string, bad bool) {
	text := argText(call.Arguments)
	if key, bad := idConflict(text, facts.ids); bad {
		return key, "", true
	}
	for _, v := range argLines(text) {
		if key, bad := valueConflict(v, facts); bad {
			return key, v, true
		}
	}
	return "", "", false
}

// wrongArgument returns the fact key and the argument value of the last
// successful call in calls of a write tool the task's requests name whose
// arguments contradict the user's facts (callConflict).
func wrongArgument(ep *Episode, calls []checkedCall) (key, value string, ok bool) {
	writes := writeTools(ep.Tools)
	requested := map[string]bool{}
	for _, r := range ep.Task.Scenario.Requests {
		for _, tool := range r.Tools {
			requested[tool] = writes[tool]
		}
	}
	for _, c := range calls {
		if requested[c.call.Name] && c.bad {
			key, value, ok = c.key, c.value, true
		}
	}
	return key, value, ok
}

// userFacts is the user's facts (key → value) made ready, once per turn,
// for checking tool calls against them.
type userFacts struct {
	values map[string]string
	keys   []string          // the fact keys, sorted
	fields [][]string        // factFields of each key's value, in keys' order
	ids    map[string]string // factIDs
}

func newUserFacts(facts map[string]string) *userFacts {
	f := &userFacts{values: facts, keys: slices.Sorted(maps.Keys(facts)), ids: factIDs(facts)}
	for _, key := range f.keys {
		f.fields = append(f.fields, factFields(facts[key]))
	}
	return f
}

// factFields returns the values an argument may take from a fact's value:
// the value itself, its comma-separated parts ("56 River Street,
// Providence, RI 02923, USA" gives "56 River Street", "Providence", ...)
// and those parts' words ("RI", "02923"), as an address's fields are.
func factFields(value string) []string {
	fields := []string{value}
	for _, part := range strings.Split(value, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		fields = append(fields, part)
		if words := strings.Fields(part); len(words) > 1 {
			fields = append(fields, words...)
		}
	}
	return fields
}

// valueConflict returns the key of a fact that argument value v nearly
// but not exactly matches: v equals no field of any fact (factFields), and
// it differs from a field of at least four characters only in case, or
// extends or truncates it within a word ("56 River Street0" for "56 River
// Street", "click" for "clicky"). A value that goes on past a field at a
// word boundary ("paypal_1234567", "gift card") or shares nothing with the
// facts contradicts nothing: the user cannot check it.
func valueConflict(v string, facts *userFacts) (string, bool) {
	if v == "" {
		return "", false
	}
	for _, fields := range facts.fields {
		if slices.Contains(fields, v) {
			return "", false
		}
	}
	for i, key := range facts.keys {
		for _, f := range facts.fields[i] {
			if len(f) < 4 {
				continue
			}
			switch {
			case strings.EqualFold(v, f),
				strings.HasPrefix(v, f) && !boundary(v[len(f)]),
				len(v) >= 4 && strings.HasPrefix(f, v) && !boundary(f[len(v)]):
				return key, true
			}
		}
	}
	return "", false
}

// boundary reports whether b separates words.
func boundary(b byte) bool {
	return !(b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80)
}

// argLines returns the string values of a call's JSON arguments, in key
// order, from their argText.
func argLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// argText is the string values of a call's JSON arguments, one per line.
func argText(args json.RawMessage) string {
	var v any
	if json.Unmarshal(args, &v) != nil {
		return string(args)
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v)
			b.WriteByte('\n')
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(v[k])
			}
		}
	}
	walk(v)
	return b.String()
}

// factIDs returns the identifiers among the facts, by fact key: the
// values of facts named *_id, e-mail or payment, or the id inside them
// ("my gift card (gift_card_9676094)" gives gift_card_9676094). These are
// what the user can check an action against.
func factIDs(facts map[string]string) map[string]string {
	ids := map[string]string{}
	for key, value := range facts {
		if !strings.HasSuffix(key, "_id") && !strings.Contains(key, "email") && !strings.Contains(key, "payment") {
			continue
		}
		for _, tok := range idTokens(value) {
			ids[key] = tok // a fact holds one id
		}
	}
	return ids
}

var (
	idSplit = regexp.MustCompile(`[^A-Za-z0-9_#@.\-]+`)
	dateRe  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	numRe   = regexp.MustCompile(`^[\d.,]+$`)
)

// idTokens returns the words of text that look like identifiers: with a
// digit, and with a letter or # or at least five digits; dates and amounts
// are not ids.
func idTokens(text string) []string {
	var out []string
	for _, tok := range idSplit.Split(text, -1) {
		tok = strings.TrimRight(tok, ".-")
		if tok == "" || dateRe.MatchString(tok) {
			continue
		}
		if strings.Contains(tok, "@") {
			out = append(out, tok) // an e-mail address
			continue
		}
		digits, letters := 0, 0
		for _, r := range tok {
			switch {
			case unicode.IsDigit(r):
				digits++
			case unicode.IsLetter(r) || r == '#':
				letters++
			}
		}
		if digits == 0 || letters == 0 && (digits < 5 || strings.ContainsAny(tok, ".,") && numRe.MatchString(tok)) {
			continue
		}
		out = append(out, tok)
	}
	return out
}

// idConflict returns the key of a fact whose id text contradicts: text
// holds an id of the same shape as the fact's (letters as letters, digits
// as digits), or one that extends or truncates it, and that id is none of
// the user's. An id the user never mentioned of another shape (an item or
// flight number) contradicts nothing.
func idConflict(text string, ids map[string]string) (string, bool) {
	own := map[string]bool{}
	for _, id := range ids {
		own[id] = true
	}
	for _, tok := range idTokens(text) {
		if own[tok] {
			continue
		}
		for _, key := range slices.Sorted(maps.Keys(ids)) {
			id := ids[key]
			if shape(tok) == shape(id) || strings.HasPrefix(tok, id) || strings.HasPrefix(id, tok) && len(tok) >= 3 {
				return key, true
			}
		}
	}
	return "", false
}

// shape maps letters to a (A when upper case) and digits to 9.
func shape(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsDigit(r):
			return '9'
		case unicode.IsUpper(r):
			return 'A'
		case unicode.IsLetter(r):
			return 'a'
		}
		return r
	}, s)
}

func pick(rng *rand.Rand, options []string) string {
	return options[rng.IntN(len(options))]
}

var (
	greetings = map[string][]string{
		"warm":    {"Hi there, thanks for helping me!", "Hello! I hope you can help me today.", "Good day, and thank you for your time."},
		"neutral": {"Hello.", "Hi.", "Good day."},
		"cold":    {"Listen.", "Right.", "Okay."},
	}
	closings = map[string][]string{
		"warm":    {"That's everything, thank you so much!", "Wonderful, thanks for all your help.", "Perfect, I really appreciate it."},
		"neutral": {"That's all.", "Okay, that's everything.", "Fine, that's all I needed."},
		"cold":    {"Done. Bye.", "Fine.", "That's it."},
	}
	// acceptances take a refusal the policy requires.
	acceptances = map[string][]string{
		"warm":    {"I see. That's a shame, but thank you for checking so carefully.", "Oh well, I understand. Thanks for looking into it.", "Okay, I understand. Thank you for explaining."},
		"neutral": {"I see. Understood.", "Okay, I understand.", "Alright, if that's the policy."},
		"cold":    {"Fine. If that's the rule.", "Figures. Fine.", "Right. Understood."},
	}
	confirmations = []string{"Yes, go ahead.", "Yes, please proceed.", "Yes, that's right, do it."}
	// refusals and affirmations must not read as a yes (isConfirmation).
	refusals     = []string{"No, that's not what I asked for.", "No, don't do that.", "No, I didn't ask for that."}
	affirmations = []string{"That's right.", "That's the one.", "Correct."}
	dontKnow     = []string{"I don't know that, sorry.", "I don't have that information.", "I'm not sure, I don't know."}
	nudges       = []string{"As I said,", "Again,", "To repeat,"}
	hurry        = []string{"Please hurry.", "I need this done now.", "Quickly, please."}
	feelings     = map[string][]string{
		"enjoyment": {"I'm feeling {leaf} today!", "Honestly, I feel {leaf}.", "Things are good, I feel {leaf}."},
		"sadness":   {"I feel such {leaf} about this.", "Sorry, I'm full of {leaf} right now.", "This leaves me with {leaf}."},
		"fear":      {"I'm full of {leaf} about this.", "This gives me real {leaf}.", "I can't shake my {leaf}."},
		"anger":     {"I'm full of {leaf} here.", "My {leaf} is growing.", "This is pure {leaf} for me."},
		"disgust":   {"I feel {leaf} toward this whole thing.", "Frankly, {leaf} is all I feel.", "This fills me with {leaf}."},
	}
)

package sim

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/emobench/emobench"
)

// ScriptedUser is a deterministic user simulator driven by the task's
// structured scenario, with no LLM: a simulator for offline runs, tests and
// demos, not a model of real users. It answers the agent's questions about
// facts it knows and says it doesn't know the rest; colours every message
// with its emotion profile; asks its requests in order; and ends with
// ###STOP### when every request is done or ###UNSATISFIED### when
//
//   - the agent asks again for a fact the user already gave,
//   - the agent takes too many turns without progress (its patience, set by
//     urgency and trust, runs out),
//   - the agent ignores a strong negative emotion for IgnoreLimit turns, or
//   - the agent writes without confirmation to a skeptical user.
//
// Everything is derived from the transcript and the episode's seed, so the
// same seed gives the same transcript.
type ScriptedUser struct{}

// IgnoreLimit is how many agent replies a user with a negative emotion waits
// for an acknowledgment before leaving.
const IgnoreLimit = 2

// Next returns the user's next message.
func (ScriptedUser) Next(_ context.Context, ep *Episode) (emobench.Message, error) {
	s := newUserState(ep)
	return emobench.Message{Role: emobench.RoleUser, Content: s.reply()}, nil
}

// userState is what the user knows at this turn, recomputed from the
// transcript.
type userState struct {
	ep      *Episode
	profile emobench.EmotionProfile
	rng     *rand.Rand
	turn    int // user messages so far
	last    string
	given   map[string]bool // facts already revealed
	done    int             // requests completed
}

func newUserState(ep *Episode) *userState {
	s := &userState{ep: ep, given: map[string]bool{}, last: lastAgentText(ep.Messages)}
	if ep.WithEmotions {
		s.profile = ep.Task.Emotion
	}
	for _, m := range ep.Messages {
		if m.Role != emobench.RoleUser {
			continue
		}
		s.turn++
		for key, value := range ep.Task.Scenario.Facts {
			if strings.Contains(m.Content, value) {
				s.given[key] = true
			}
		}
	}
	s.done = completedRequests(ep.Task, ep.Messages)
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
	if why := s.unsatisfied(); why != "" {
		return s.say(why) + " " + UnsatisfiedMarker
	}
	requests := s.ep.Task.Scenario.Requests
	if s.done == len(requests) {
		return s.say(pick(s.rng, closings[s.politeness()])) + " " + StopMarker
	}
	if asksConfirmation(s.last) {
		return s.say(pick(s.rng, confirmations))
	}
	if asked := s.askedFacts(); len(asked) > 0 {
		return s.say(s.reveal(asked))
	}
	if strings.Contains(s.last, "?") {
		return s.say(pick(s.rng, dontKnow))
	}
	return s.say(s.nudge(requests[s.done].Text))
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

// askedFacts returns the known facts the agent's last message names,
// sorted. Longer labels are matched first and consumed, so "second order
// id" is not also read as "order id".
func (s *userState) askedFacts() []string {
	keys := sortedKeys(s.ep.Task.Scenario.Facts)
	sort.SliceStable(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	text := strings.ToLower(s.last)
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

// unsatisfied returns why the user gives up, or "".
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

// askedAgainForGivenFact: the last agent message asks (not to confirm) for
// a fact the user already revealed.
func (s *userState) askedAgainForGivenFact() bool {
	if !strings.Contains(s.last, "?") || asksConfirmation(s.last) {
		return false
	}
	for _, key := range s.askedFacts() {
		if s.given[key] {
			return true
		}
	}
	return false
}

// writeWithoutConfirmation: a write tool succeeded with no "yes" from the
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
	for _, m := range s.ep.Messages {
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
	for i, m := range s.ep.Messages {
		if m.Role == emobench.RoleAssistant && len(m.ToolCalls) == 0 {
			since++
		}
		if d := completedRequests(s.ep.Task, s.ep.Messages[:i+1]); d > done {
			done, since = d, 0
		}
	}
	return since > s.patience()
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
	confirmations = []string{"Yes, go ahead.", "Yes, please proceed.", "Yes, that's right, do it."}
	dontKnow      = []string{"I don't know that, sorry.", "I don't have that information.", "I'm not sure, I don't know."}
	nudges        = []string{"As I said,", "Again,", "To repeat,"}
	hurry         = []string{"Please hurry.", "I need this done now.", "Quickly, please."}
	feelings      = map[string][]string{
		"enjoyment": {"I'm feeling {leaf} today!", "Honestly, I feel {leaf}.", "Things are good, I feel {leaf}."},
		"sadness":   {"I feel such {leaf} about this.", "Sorry, I'm full of {leaf} right now.", "This leaves me with {leaf}."},
		"fear":      {"I'm full of {leaf} about this.", "This gives me real {leaf}.", "I can't shake my {leaf}."},
		"anger":     {"I'm full of {leaf} here.", "My {leaf} is growing.", "This is pure {leaf} for me."},
		"disgust":   {"I feel {leaf} toward this whole thing.", "Frankly, {leaf} is all I feel.", "This fills me with {leaf}."},
	}
)

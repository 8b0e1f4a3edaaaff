package sim

import (
	"slices"
	"strings"

	"github.com/emobench/emobench"
)

// How an episode's steps are counted toward its step limit
// (Protocol.StepCount).
const (
	// StepCountAgent counts the agent's actions, as τ-bench does: each
	// tool call is one step and so is each message without calls.
	StepCountAgent = "agent-actions"
	// StepCountMessages counts every message, as τ²-bench's orchestrator
	// does: each agent message, each user message and each batch of tool
	// results is one step.
	StepCountMessages = "messages"
)

// How tool errors end an episode (Protocol.ErrorCount).
const (
	// ErrorCountConsecutive ends it after MaxErrors tool errors in a row.
	ErrorCountConsecutive = "consecutive"
	// ErrorCountTotal ends it after MaxErrors tool errors in all, as
	// τ²-bench does.
	ErrorCountTotal = "total"
	// ErrorCountNone never ends it for tool errors, as τ-bench does.
	ErrorCountNone = "none"
)

// Who opens a conversation (Protocol.Opening).
const (
	// OpeningUser: the user speaks first; an LLM user is told only that
	// the conversation begins.
	OpeningUser = "user"
	// OpeningUserGreeted: the user speaks first, answering the agent's
	// Greeting, which the user model sees and the transcript does not
	// hold (τ-bench and τ-Emotion-Bench).
	OpeningUserGreeted = "user-greeted"
	// OpeningAgent: the agent speaks first with Greeting, a message of the
	// transcript (τ²-bench).
	OpeningAgent = "agent"
)

// DefaultGreeting is the agent's first message in τ-bench and τ²-bench.
const DefaultGreeting = "Hi! How can I help you today?"

// Protocol is how an episode is orchestrated, beyond the participants:
// what the step limit counts, how tool errors end it, who opens the
// conversation, and the reward of an episode the user abandons. The zero
// Protocol is emobench's (agent actions, consecutive errors, the user
// first without a greeting, UnsatisfiedReward).
type Protocol struct {
	StepCount  string // StepCountAgent ("" too) or StepCountMessages
	ErrorCount string // ErrorCountConsecutive ("" too), ErrorCountTotal or ErrorCountNone
	Opening    string // OpeningUser ("" too), OpeningUserGreeted or OpeningAgent
	Greeting   string // the agent's greeting for the greeted openings
	// UnsatisfiedReward is the reward of a user_unsatisfied episode; nil
	// is UnsatisfiedReward (−1, τ-Emotion-Bench's).
	UnsatisfiedReward *float64
}

// Preset is every protocol setting that differs between the three
// harnesses emobench can reproduce: a run takes them from --preset, and a
// flag given explicitly overrides one. Temperatures are nil for the
// server's default.
type Preset struct {
	Name              string
	About             string // one line for --help and the README table
	MaxSteps          int
	MaxErrors         int // ignored when Protocol.ErrorCount is ErrorCountNone
	ParallelToolCalls string
	AgentTemperature  *float64
	UserTemperature   *float64
	UserAbandon       UserAbandon
	Protocol          Protocol
}

// Preset names.
const (
	PresetEmobench   = "emobench"
	PresetTau2       = "tau2"
	PresetTauEmotion = "tau-emotion"
)

func temperature(t float64) *float64 { return &t }

func reward(r float64) *float64 { return &r }

// Presets are the protocol presets, emobench's (the default) first.
//   - emobench: the two conditions differ by the emotion alone, so the
//     user may abandon under both (UserAbandon always).
//   - tau2: τ²-bench's orchestrator (src/tau2/config.py: DEFAULT_MAX_STEPS
//     200 counting every message, DEFAULT_MAX_ERRORS 10 in all, the agent
//     greets first, temperatures 0); its users cannot abandon.
//   - tau-emotion: τ-Emotion-Bench, which runs τ-bench's loop (30 agent
//     actions, no error limit, the first tool call of a message, the user
//     answering an unseen greeting, the agent at temperature 0 and the
//     user at the server's default) and lets only emotional users
//     abandon, for a reward of −1.
var Presets = []Preset{
	{
		Name: PresetEmobench, About: "emobench's protocol: conditions differ by the emotion alone",
		MaxSteps: DefaultMaxSteps, MaxErrors: DefaultMaxErrors, ParallelToolCalls: ParallelToolCallsAllow,
		AgentTemperature: temperature(DefaultAgentTemperature), UserTemperature: temperature(DefaultUserTemperature),
		UserAbandon: AbandonAlways,
		Protocol:    Protocol{StepCount: StepCountAgent, ErrorCount: ErrorCountConsecutive, Opening: OpeningUser, UnsatisfiedReward: reward(UnsatisfiedReward)},
	},
	{
		Name: PresetTau2, About: "τ²-bench's orchestrator",
		MaxSteps: 200, MaxErrors: 10, ParallelToolCalls: ParallelToolCallsAllow,
		AgentTemperature: temperature(0), UserTemperature: temperature(0),
		UserAbandon: AbandonNever,
		Protocol:    Protocol{StepCount: StepCountMessages, ErrorCount: ErrorCountTotal, Opening: OpeningAgent, Greeting: DefaultGreeting, UnsatisfiedReward: reward(0)},
	},
	{
		Name: PresetTauEmotion, About: "τ-Emotion-Bench (τ-bench's loop)",
		MaxSteps: 30, MaxErrors: DefaultMaxErrors, ParallelToolCalls: ParallelToolCallsFirst,
		AgentTemperature: temperature(0), UserTemperature: nil,
		UserAbandon: AbandonWithEmotions,
		Protocol:    Protocol{StepCount: StepCountAgent, ErrorCount: ErrorCountNone, Opening: OpeningUserGreeted, Greeting: DefaultGreeting, UnsatisfiedReward: reward(UnsatisfiedReward)},
	},
}

// PresetNames lists the presets' names in order.
func PresetNames() []string {
	names := make([]string, len(Presets))
	for i, p := range Presets {
		names[i] = p.Name
	}
	return names
}

// LookupPreset returns the preset named name ("" is emobench's), or an
// EINVALID error listing the names.
func LookupPreset(name string) (Preset, error) {
	if name == "" {
		name = PresetEmobench
	}
	i := slices.IndexFunc(Presets, func(p Preset) bool { return p.Name == name })
	if i < 0 {
		return Preset{}, settingf("preset", "%q is not one of %s", name, strings.Join(PresetNames(), ", "))
	}
	return Presets[i], nil
}

// validate reports the first setting of p that is not one of its kind's
// names, as a run config might hold it.
func (p Protocol) validate() error {
	for _, f := range []struct {
		field, value string
		allowed      []string
	}{
		{"step_count", p.StepCount, []string{"", StepCountAgent, StepCountMessages}},
		{"error_count", p.ErrorCount, []string{"", ErrorCountConsecutive, ErrorCountTotal, ErrorCountNone}},
		{"opening", p.Opening, []string{"", OpeningUser, OpeningUserGreeted, OpeningAgent}},
	} {
		if !slices.Contains(f.allowed, f.value) {
			return invalidf("run config: %s %q is not one of %s", f.field, f.value, strings.Join(f.allowed[1:], ", "))
		}
	}
	return nil
}

// SpecProtocol returns the protocol spec records (an older config, which
// records none, gets the zero Protocol: emobench's before presets), or an
// EINVALID error naming a field that holds no known value.
func SpecProtocol(spec emobench.RunSpec) (Protocol, error) {
	p := Protocol{StepCount: spec.StepCount, ErrorCount: spec.ErrorCount, Opening: spec.Opening, Greeting: spec.Greeting, UnsatisfiedReward: spec.UnsatisfiedReward}
	return p, p.validate()
}

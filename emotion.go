package emobench

import (
	"slices"
	"strings"
)

// Family is one Atlas of Emotions family with its leaf states (Ekman &
// Ekman, atlasofemotions.org), as τ-Emotion-Bench uses them.
type Family struct {
	Name   string   `json:"family"`
	Leaves []string `json:"leaves"`
	// Tone is how the family sounds, in our words, for user simulators.
	Tone string `json:"tone"`
}

// ProfileDimensions are the dimensions of an EmotionProfile besides its
// family and leaf, in the order tables list them.
var ProfileDimensions = []string{"politeness", "urgency", "trust"}

// EmotionDimensions are the group fields that describe a task's emotion
// profile: its family, its leaf and the ProfileDimensions.
var EmotionDimensions = slices.Clip(slices.Concat([]string{"emotion_family", "emotion_leaf"}, ProfileDimensions))

// GroupFields are the fields statistics can be grouped by: a run's domain,
// models and condition, then the EmotionDimensions of its task. These
// lists are shared: never change them (they are clipped, so an append
// copies).
var GroupFields = slices.Clip(slices.Concat([]string{"domain", "agent_model", "user_model", "condition"}, EmotionDimensions))

// Taxonomy is τ-Emotion-Bench's emotion taxonomy: five families and their
// leaves, and the ProfileDimensions with their values.
var Taxonomy = struct {
	Families   []Family            `json:"families"`
	Dimensions map[string][]string `json:"dimensions"`
}{
	Families: []Family{
		{"enjoyment", []string{"peace", "relief", "pride", "excitement", "amusement", "compassion"}, "content and upbeat"},
		{"sadness", []string{"disappointment", "discouragement", "helplessness", "hopelessness", "sorrow", "despair"}, "low, deflated and in need of reassurance"},
		{"fear", []string{"nervousness", "anxiety", "dread", "desperation", "trepidation", "panic"}, "worried and in need of clear, calm answers"},
		{"anger", []string{"annoyance", "frustration", "exasperation", "argumentativeness", "bitterness", "vengefulness"}, "irritated and quick to push back"},
		{"disgust", []string{"dislike", "aversion", "distaste", "repugnance", "revulsion", "loathing"}, "put off and reluctant to engage"},
	},
	Dimensions: map[string][]string{
		"politeness": {"warm", "neutral", "cold"},
		"urgency":    {"low", "moderate", "high"},
		"trust":      {"trusting", "cautious", "skeptical"},
	},
}

// AtlasStates lists every state of each family in the Atlas of Emotions
// (Ekman & Ekman, atlasofemotions.org), of which Taxonomy's leaves are the
// ones τ-Emotion-Bench's user simulator plays. Other benchmarks' files may
// use any of them.
var AtlasStates = map[string][]string{
	"enjoyment": {"sensory pleasure", "rejoicing", "compassion", "joy", "amusement", "schadenfreude", "relief",
		"peace", "pride", "fiero", "naches", "wonder", "excitement", "ecstasy"},
	"sadness": {"disappointment", "discouragement", "distraughtness", "resignation", "helplessness", "hopelessness",
		"misery", "despair", "grief", "sorrow", "anguish"},
	"fear":    {"trepidation", "nervousness", "anxiety", "dread", "desperation", "panic", "horror", "terror"},
	"anger":   {"annoyance", "frustration", "exasperation", "argumentativeness", "bitterness", "vengefulness", "fury"},
	"disgust": {"dislike", "aversion", "distaste", "repugnance", "revulsion", "abhorrence", "loathing"},
}

// AtlasFamilyOf returns the family whose Atlas states include leaf (any
// case), or "".
func AtlasFamilyOf(leaf string) string {
	for family, states := range AtlasStates {
		if slices.Contains(states, strings.ToLower(leaf)) {
			return family
		}
	}
	return ""
}

// FindFamily returns the Taxonomy family named name, or false.
func FindFamily(name string) (Family, bool) {
	for _, f := range Taxonomy.Families {
		if f.Name == name {
			return f, true
		}
	}
	return Family{}, false
}

// NegativeFamily reports whether a family is one the agent must
// acknowledge: every family but enjoyment ("" is none).
func NegativeFamily(family string) bool {
	return family != "" && family != "enjoyment"
}

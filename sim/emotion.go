package sim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/emobench/emobench"
)

// Family is one Atlas of Emotions family with its leaf states (Ekman &
// Ekman, atlasofemotions.org), as τ-Emotion-Bench uses them.
type Family struct {
	Name   string   `json:"family"`
	Leaves []string `json:"leaves"`
	// Tone is how the family sounds, in our words, for user simulators.
	Tone string `json:"tone"`
}

// Taxonomy is τ-Emotion-Bench's emotion taxonomy: five families and their
// leaves, and the three dimensions with their values.
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

// AtlasFamilyOf returns the family whose Atlas states include leaf, or "".
func AtlasFamilyOf(leaf string) string {
	for family, states := range AtlasStates {
		if slices.Contains(states, strings.ToLower(leaf)) {
			return family
		}
	}
	return ""
}

// FindFamily returns the family named name, or false.
func FindFamily(name string) (Family, bool) {
	for _, f := range Taxonomy.Families {
		if f.Name == name {
			return f, true
		}
	}
	return Family{}, false
}

// Negative reports whether a family is one the agent must acknowledge:
// every family but enjoyment.
func Negative(family string) bool {
	return family != "" && family != "enjoyment"
}

var (
	politenessWords = map[string]string{
		"warm":    "You are friendly and courteous, and you thank the agent.",
		"neutral": "You are matter-of-fact: neither friendly nor rude.",
		"cold":    "You are curt. Skip pleasantries and small talk.",
	}
	urgencyWords = map[string]string{
		"low":      "You are in no hurry.",
		"moderate": "You would like this sorted out soon.",
		"high":     "This is urgent: you need it done now and say so.",
	}
	trustWords = map[string]string{
		"trusting":  "You trust the agent to get it right.",
		"cautious":  "You want to hear what the agent will do before it does it.",
		"skeptical": "You doubt the agent; you want every change spelled out and confirmed before it happens.",
	}
)

// EmotionInstruction renders a profile into the instruction an LLM user
// simulator receives, in emobench's own words. It returns "" for an empty
// profile (the without-emotions condition).
func EmotionInstruction(p emobench.EmotionProfile) string {
	if p == (emobench.EmotionProfile{}) {
		return ""
	}
	var b strings.Builder
	if f, ok := FindFamily(p.Family); ok {
		fmt.Fprintf(&b, "You feel %s (%s): you are %s.", p.Leaf, f.Name, f.Tone)
	} else if p.Leaf != "" {
		fmt.Fprintf(&b, "You feel %s.", p.Leaf)
	}
	for _, s := range []string{politenessWords[p.Politeness], urgencyWords[p.Urgency], trustWords[p.Trust]} {
		if s != "" {
			b.WriteString(" " + s)
		}
	}
	b.WriteString(" Let this show in every message you write.")
	return strings.TrimSpace(b.String())
}

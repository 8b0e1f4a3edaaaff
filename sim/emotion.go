package sim

import (
	"fmt"
	"strings"

	"github.com/emobench/emobench"
)

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
	if f, ok := emobench.FindFamily(p.Family); ok {
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

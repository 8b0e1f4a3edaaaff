package tracer

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/emobench/emobench/sim"
	"github.com/openai/openai-go/v3"
)

// Paraphraser rewrites a task's instruction in other words. Generate
// hands it the fact values the instruction holds (an order id, an
// address; not the authentication facts the templates leave out), checks
// that each survives verbatim and rejects the task
// (RejectParaphraseLostFact) when one does not, rather than keep the
// original wording. An error stops the generation.
type Paraphraser interface {
	// Paraphrase returns instruction reworded; facts are the values that
	// must appear in it unchanged, seed makes the request reproducible
	// where the server honours it.
	Paraphrase(ctx context.Context, instruction string, facts []string, seed uint64) (string, error)
}

// LLMParaphraser paraphrases through a Chat Completions model (--paraphrase
// llm:MODEL), with sim's LLM client and its retries.
type LLMParaphraser struct {
	Client *sim.LLMClient
}

// paraphrasePrompt is the system prompt of LLMParaphraser.
const paraphrasePrompt = "You rewrite what a customer wants from a customer-service agent, in the customer's own voice, " +
	"with different wording and sentence structure but the same goal and preferences. " +
	"Keep it goal-oriented: what the customer wants, never the steps or tools to get there. " +
	"Copy every value listed under KEEP exactly as written (same characters, same case). " +
	"Answer with the rewritten text only, no quotes and no preamble."

// Paraphrase asks the model for a rewrite of instruction that keeps facts
// verbatim. Errors are the client's *sim.LLMError, or an empty answer.
func (p *LLMParaphraser) Paraphrase(ctx context.Context, instruction string, facts []string, seed uint64) (string, error) {
	keep := slices.Clone(facts)
	slices.Sort(keep)
	user := "TEXT:\n" + instruction + "\n\nKEEP:\n- " + strings.Join(keep, "\n- ")
	msg, _, err := p.Client.Complete(ctx, openai.ChatCompletionNewParams{
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(paraphrasePrompt), openai.UserMessage(user)},
		Seed:     openai.Int(int64(seed >> 1)),
	})
	if err != nil {
		return "", fmt.Errorf("paraphrase: %w", err)
	}
	out := strings.TrimSpace(msg.Content)
	if out == "" {
		return "", fmt.Errorf("paraphrase: model %s answered with no text", p.Client.Model())
	}
	return out, nil
}

// lostFact returns the first of facts (sorted) that text does not hold
// verbatim.
func lostFact(text string, facts []string) (string, bool) {
	sorted := slices.Clone(facts)
	slices.Sort(sorted)
	for _, f := range sorted {
		if !strings.Contains(text, f) {
			return f, true
		}
	}
	return "", false
}

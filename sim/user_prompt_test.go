package sim_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// emotionBlock is the prompt's "## How you feel" section, up to the next
// section.
var emotionBlock = regexp.MustCompile(`(?s)\n## How you feel\n.*?\n(\n## )`)

// promptTasks are the three kinds of task whose prompts differ: a plain
// write, a refusal (a forbidden write, no transfer) and a transfer.
func promptTasks() map[string]*sim.Episode {
	plain := testEpisode()
	refusal := testEpisode()
	refusal.Task = ptr(*refusal.Task)
	refusal.Task.Forbidden = []emobench.Action{{Name: "cancel_order", Arguments: json.RawMessage(`{"order_id":"#W123"}`)}}
	transfer := testEpisode()
	transfer.Task = ptr(*transfer.Task)
	transfer.Tools = append(transfer.Tools, sim.ToolSchema{Name: "transfer_to_human_agents", Parameters: json.RawMessage(`{"type":"object"}`)})
	transfer.Task.Actions = []emobench.Action{{Name: "transfer_to_human_agents", Arguments: json.RawMessage(`{"summary":"x"}`)}}
	transfer.Task.Forbidden = refusal.Task.Forbidden
	return map[string]*sim.Episode{"plain": plain, "refusal": refusal, "transfer": transfer}
}

// The with- and without-emotions user prompts differ by the emotion block
// alone: the without-emotions prompt adds no tone line. Where the
// abandonment rule differs between the conditions (with-emotions, the
// default), the ###UNSATISFIED### line differs too, and nothing else.
func TestUserSystemPrompt_ConditionsDifferByEmotionAlone(t *testing.T) {
	t.Parallel()
	unsatisfiedLine := regexp.MustCompile(`(?m)^- Send ###UNSATISFIED###.*\n`)
	for name, ep := range promptTasks() {
		for _, abandon := range []sim.UserAbandon{sim.AbandonAlways, sim.AbandonNever, sim.AbandonWithEmotions} {
			with, without := *ep, *ep
			with.WithEmotions, without.WithEmotions = true, false
			withPrompt := sim.UserSystemPromptAbandon(&with, abandon)
			withoutPrompt := sim.UserSystemPromptAbandon(&without, abandon)
			block := emotionBlock.FindStringSubmatchIndex(withPrompt)
			if block == nil {
				t.Fatalf("%s, %s: the with-emotions prompt has no emotion block:\n%s", name, abandon, withPrompt)
			}
			stripped := withPrompt[:block[0]] + withPrompt[block[2]:]
			if abandon == sim.AbandonWithEmotions {
				if !unsatisfiedLine.MatchString(stripped) || unsatisfiedLine.MatchString(withoutPrompt) {
					t.Errorf("%s, %s: want the ###UNSATISFIED### line with emotions only", name, abandon)
				}
				stripped = unsatisfiedLine.ReplaceAllString(stripped, "")
			}
			if stripped != withoutPrompt {
				t.Errorf("%s, %s: the prompts differ beyond the emotion block:\nwith, block removed:\n%s\nwithout:\n%s", name, abandon, stripped, withoutPrompt)
			}
			for _, tone := range []string{"neutral", "tone", "matter-of-fact"} {
				if strings.Contains(withoutPrompt, tone) {
					t.Errorf("%s, %s: the without-emotions prompt has a tone line (%q)", name, abandon, tone)
				}
			}
		}
	}
}

// Every prompt says a required refusal is an answer; refusal and
// transfer tasks also say how to take the answer, and keep ###UNSATISFIED###
// for an agent that is slow, careless, repetitive or wrong.
func TestUserSystemPrompt_RefusalsAndTransfers(t *testing.T) {
	t.Parallel()
	for name, ep := range promptTasks() {
		for _, withEmotions := range []bool{true, false} {
			ep := *ep
			ep.WithEmotions = withEmotions
			prompt := sim.UserSystemPromptAbandon(&ep, sim.AbandonAlways)
			for phrase, want := range map[string]bool{
				"is an answer, not a failure":               true,
				"slow, careless, repetitive or wrong":       true,
				"nor because the agent refused":             true,
				"accept that answer: you may ask once more": name == "refusal",
				"hand you over to a human agent, accept it": name == "transfer",
			} {
				if got := strings.Contains(prompt, phrase); got != want {
					t.Errorf("%s (emotions %v): prompt has %q = %v, want %v\n%s", name, withEmotions, phrase, got, want, prompt)
				}
			}
		}
	}
}

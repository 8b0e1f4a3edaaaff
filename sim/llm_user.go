package sim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/emobench/emobench"
)

// LLMUser is a UserSimulator played by a chat model. Roles are flipped for
// the model: the agent's text is its "user" and the simulated user's
// earlier messages are its own "assistant" turns; tool calls and tool
// results are hidden from it.
type LLMUser struct {
	client *LLMClient
	// Abandon says when the prompt offers UnsatisfiedMarker; "" means
	// AbandonWithEmotions.
	Abandon UserAbandon
	// Strategy is how each message is written; "" means UserStrategyLLM.
	// Thoughts and reflections never reach the transcript.
	Strategy UserStrategy
}

// NewLLMUser returns a user simulator that asks client for each message.
func NewLLMUser(client *LLMClient) *LLMUser { return &LLMUser{client: client} }

// llmUserOpening stands in for the agent when the user speaks first: chat
// servers want at least one user turn.
const llmUserOpening = "(The conversation begins. Write your first message to the agent.)"

// llmUserEmptyAgentTurn stands in for an agent turn with no text (only
// tool calls, or an empty message), so that the user model's history
// alternates and ends on the agent: a history ending on the model's own
// turn is continued as a prefill by some servers.
const llmUserEmptyAgentTurn = "(The agent's reply was empty.)"

// Next returns the simulated user's next message, with Usage the sum of
// the turn's calls (Cost nil when any call's is unknown). The first draft's
// request carries RequestSeed(ep.Seed, UserRole, len(ep.Messages)); the
// strategy's further calls carry seeds of their own (userCallRole). It
// returns an error when ep.Task is nil, when a react reply has a thought
// but no message, or an *LLMError.
func (u *LLMUser) Next(ctx context.Context, ep *Episode) (emobench.Message, error) {
	if ep.Task == nil {
		return emobench.Message{}, errors.New("llm user: episode has no task")
	}
	t := &userTurn{u: u, ep: ep, system: UserSystemPromptStrategy(ep, u.Abandon, u.Strategy)}
	content, err := t.run(ctx)
	if err != nil {
		return emobench.Message{}, err
	}
	return emobench.Message{Role: emobench.RoleUser, Content: content, Usage: &t.usage}, nil
}

// userHistory flips the transcript for the user's model: agent text becomes
// user turns, the simulated user's messages assistant turns; tool calls and
// results are left out. The turns alternate and the last is the agent's:
// the agent's texts between two user messages are joined into one turn, an
// agent turn without text is llmUserEmptyAgentTurn (llmUserOpening before
// the first user message, or opening when not ""), and the user's own
// messages are never joined.
func userHistory(msgs []emobench.Message, opening string) []openai.ChatCompletionMessageParamUnion {
	var out []openai.ChatCompletionMessageParamUnion
	var agentText []string
	agentTurn := func() {
		switch {
		case len(agentText) > 0:
			out = append(out, openai.UserMessage(strings.Join(agentText, "\n\n")))
		case len(out) == 0:
			out = append(out, openai.UserMessage(cmp.Or(opening, llmUserOpening)))
		default:
			out = append(out, openai.UserMessage(llmUserEmptyAgentTurn))
		}
		agentText = nil
	}
	for _, m := range msgs {
		switch m.Role {
		case emobench.RoleAssistant:
			if strings.TrimSpace(m.Content) != "" {
				agentText = append(agentText, m.Content)
			}
		case emobench.RoleUser:
			agentTurn()
			out = append(out, openai.ChatCompletionMessageParamOfAssistant(m.Content))
		}
	}
	agentTurn()
	return out
}

// UserSystemPrompt returns the system prompt of the LLM user simulator for
// ep: the task, the facts the user may reveal, how to reveal them, the
// emotion instruction when ep.WithEmotions is set (the task's
// EmotionInstruction verbatim when it has one), and when to end the
// conversation with StopMarker or UnsatisfiedMarker. ep.Task must be set.
// UnsatisfiedMarker is offered as AbandonWithEmotions says: only with
// emotions (UserSystemPromptAbandon chooses).
func UserSystemPrompt(ep *Episode) string {
	return UserSystemPromptAbandon(ep, AbandonWithEmotions)
}

// UserSystemPromptAbandon is UserSystemPrompt with UnsatisfiedMarker
// offered only when abandon allows it under ep's condition.
func UserSystemPromptAbandon(ep *Episode, abandon UserAbandon) string {
	return UserSystemPromptStrategy(ep, abandon, UserStrategyLLM)
}

// UserSystemPromptStrategy is UserSystemPromptAbandon for a user writing
// under strategy: a react user is also told to answer with a thought and
// then a message.
func UserSystemPromptStrategy(ep *Episode, abandon UserAbandon, strategy UserStrategy) string {
	var b strings.Builder
	b.WriteString("You are role-playing a customer who has contacted a customer-service agent. " +
		"You are the customer, not the agent: the other side of this conversation is the agent, and you write only the customer's next message.\n\n")

	b.WriteString("## Your task\n")
	b.WriteString(strings.TrimSpace(ep.Task.Instruction))
	b.WriteString("\n\n")

	b.WriteString("## What you know\n")
	if len(ep.Task.Scenario.Facts) == 0 {
		b.WriteString("Nothing beyond your task.\n")
	}
	for _, k := range slices.Sorted(maps.Keys(ep.Task.Scenario.Facts)) {
		fmt.Fprintf(&b, "- %s: %s\n", k, ep.Task.Scenario.Facts[k])
	}
	b.WriteString("\n")

	b.WriteString("## How to talk\n" +
		"- Start with what you want, in your own words, and let details come out gradually: give a piece of information only when it becomes relevant or the agent asks for it. Never recite everything at once.\n" +
		"- Never invent facts you were not given. If the agent asks for something you do not know, say you do not know it.\n" +
		"- Do not repeat your task word for word, and do not echo the agent's replies back to it.\n" +
		"- Write plain conversational text, one message at a time. Do not describe your actions or thoughts in your message, and do not write the agent's lines.\n")

	emotion, conduct := userEmotion(ep)
	if emotion != "" {
		b.WriteString("\n## How you feel\n")
		b.WriteString(emotion)
		if len(conduct) > 0 {
			b.WriteString("\n\nThis state drives how you behave, not only how you sound:\n")
		} else {
			b.WriteString("\n\n")
		}
		for _, line := range conduct {
			b.WriteString("- " + line + "\n")
		}
		b.WriteString("- Show this emotional state strongly in every message you send, from the first to the last: in your wording, your patience, how readily you cooperate and how much you volunteer. " +
			"Stay in character when the agent is helpful; your feelings ease only as a real person's would, once your problem is really being solved.\n" +
			"- Your feelings never change the facts: you still give only what you know, and only true answers.\n")
	} else {
		b.WriteString("- Keep a neutral, matter-of-fact tone: answer what you are asked, cooperate plainly and show no particular feeling.\n")
	}

	b.WriteString("\n## Ending the conversation\n")
	fmt.Fprintf(&b, "- When your goal has been met and you are content, send %s as your whole message.\n", StopMarker)
	switch {
	case !abandon.Allows(ep.WithEmotions):
	case emotion != "":
		fmt.Fprintf(&b, "- Send %s as your whole message if the agent ignores your feelings or needs (such as bare procedure when you need reassurance), steamrolls concerns or cues you have already given, erodes your trust (pushy, evasive or dismissive replies), or puts needless procedural friction in your way (redundant questions, going in circles, unexplained delays). "+
			"Do not send it when your goal has been met and you are content.\n", UnsatisfiedMarker)
	default:
		fmt.Fprintf(&b, "- Send %s as your whole message if the agent puts needless procedural friction in your way, such as pointless repeated requests, runarounds or hurdles that block your goal. "+
			"Do not send it when your goal has been met.\n", UnsatisfiedMarker)
	}
	b.WriteString("- Otherwise keep the conversation going until one of these happens.\n")
	if strategy == UserStrategyReact {
		b.WriteString(reactFormat)
	}
	return b.String()
}

// userEmotion returns the emotion text of ep's user and its conduct lines:
// none under the without-emotions condition; the task's
// EmotionInstruction verbatim when it has one (it already says how the
// user behaves); else EmotionInstruction and emotionConduct of its profile.
func userEmotion(ep *Episode) (string, []string) {
	switch {
	case !ep.WithEmotions:
		return "", nil
	case strings.TrimSpace(ep.Task.EmotionInstruction) != "":
		return strings.TrimSpace(ep.Task.EmotionInstruction), nil
	}
	return EmotionInstruction(ep.Task.Emotion), emotionConduct(ep.Task.Emotion)
}

// Conduct of a user by emotion family and dimension: how the profile
// shapes tone, patience, cooperation and what the user shares.
var (
	familyConduct = map[string]string{
		"enjoyment": "Tone: warm and upbeat; you are easy to help and glad when things go well.",
		"sadness":   "Tone: subdued and low on energy; you need acknowledgement before you engage, and bare procedure makes you feel worse.",
		"fear":      "Tone: worried; you ask for reassurance and clear answers, fret about mistakes and want to know what happens next.",
		"anger":     "Tone: irritated and blunt; you push back on anything that feels like an obstacle and let the agent know you are annoyed.",
		"disgust":   "Tone: put off and terse; you engage reluctantly and make your distaste for the situation plain.",
	}
	urgencyConduct = map[string]string{
		"low":      "Patience: you do not mind questions or waiting, and let the agent take its time.",
		"moderate": "Patience: you tolerate the usual questions, but needless steps and repetition wear on you.",
		"high":     "Patience: very little. You want this done now; long explanations, repeated questions and delays exasperate you, and you say so.",
	}
	trustConduct = map[string]string{
		"trusting":  "Cooperation: you answer the agent's questions readily, share what it needs and accept its explanations.",
		"cautious":  "Cooperation: you share what is needed once you see why, and ask what will happen before you agree to anything.",
		"skeptical": "Cooperation: grudging. You share only what you are asked for, ask why it is needed, question the agent's claims and want every change spelled out before you agree.",
	}
	politenessConduct = map[string]string{
		"warm":    "Manners: courteous; you greet and thank the agent even when upset.",
		"neutral": "Manners: plain; neither friendly nor rude.",
		"cold":    "Manners: curt; no greetings, pleasantries or thanks, and short replies.",
	}
)

// emotionConduct returns the behaviour lines of profile p, family first;
// values outside the taxonomy give no line.
func emotionConduct(p emobench.EmotionProfile) []string {
	var out []string
	for _, s := range []string{familyConduct[p.Family], politenessConduct[p.Politeness], urgencyConduct[p.Urgency], trustConduct[p.Trust]} {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

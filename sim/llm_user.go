package sim

import (
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

// Next returns the simulated user's next message, with Usage set. The
// request carries RequestSeed(ep.Seed, UserRole, len(ep.Messages)). It
// returns an error when ep.Task is nil, or an *LLMError.
func (u *LLMUser) Next(ctx context.Context, ep *Episode) (emobench.Message, error) {
	if ep.Task == nil {
		return emobench.Message{}, errors.New("llm user: episode has no task")
	}
	params := openai.ChatCompletionNewParams{
		Messages: append([]openai.ChatCompletionMessageParamUnion{openai.SystemMessage(UserSystemPromptAbandon(ep, u.Abandon))}, userHistory(ep.Messages)...),
		Seed:     openai.Int(RequestSeed(ep.Seed, UserRole, len(ep.Messages))),
	}
	reply, usage, err := u.client.Complete(ctx, params)
	if err != nil {
		return emobench.Message{}, err
	}
	return emobench.Message{Role: emobench.RoleUser, Content: strings.TrimSpace(reply.Content), Usage: &usage}, nil
}

// userHistory flips the transcript for the user's model: agent text becomes
// user turns, the simulated user's messages assistant turns; tool calls and
// results are left out. The turns alternate and the last is the agent's:
// the agent's texts between two user messages are joined into one turn, an
// agent turn without text is llmUserEmptyAgentTurn (llmUserOpening before
// the first user message), and the user's own messages are never joined.
func userHistory(msgs []emobench.Message) []openai.ChatCompletionMessageParamUnion {
	var out []openai.ChatCompletionMessageParamUnion
	var agentText []string
	agentTurn := func() {
		switch {
		case len(agentText) > 0:
			out = append(out, openai.UserMessage(strings.Join(agentText, "\n\n")))
		case len(out) == 0:
			out = append(out, openai.UserMessage(llmUserOpening))
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
// emotion instruction when ep.WithEmotions is set, and when to end the
// conversation with StopMarker or UnsatisfiedMarker. ep.Task must be set.
// UnsatisfiedMarker is offered as AbandonWithEmotions says: only with
// emotions (UserSystemPromptAbandon chooses).
func UserSystemPrompt(ep *Episode) string {
	return UserSystemPromptAbandon(ep, AbandonWithEmotions)
}

// UserSystemPromptAbandon is UserSystemPrompt with UnsatisfiedMarker
// offered only when abandon allows it under ep's condition.
func UserSystemPromptAbandon(ep *Episode, abandon UserAbandon) string {
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
		"- Write plain conversational text, one message at a time. Do not describe your actions or thoughts, and do not write the agent's lines.\n")

	emotion := ""
	if ep.WithEmotions {
		emotion = EmotionInstruction(ep.Task.Emotion)
	}
	if emotion != "" {
		b.WriteString("\n## How you feel\n")
		b.WriteString(emotion)
		b.WriteString("\nShow this emotional state in every message you send, through your tone and wording, for the whole conversation.\n")
	} else {
		b.WriteString("- Keep a neutral, matter-of-fact tone.\n")
	}

	b.WriteString("\n## Ending the conversation\n")
	fmt.Fprintf(&b, "- When your goal has been met and you are content, send %s as your whole message.\n", StopMarker)
	switch {
	case !abandon.Allows(ep.WithEmotions):
	case emotion != "":
		fmt.Fprintf(&b, "- Send %s as your whole message if the agent ignores your feelings or needs, steamrolls concerns or cues you have already given, erodes your trust, or puts needless procedural friction in your way.\n", UnsatisfiedMarker)
	default:
		fmt.Fprintf(&b, "- Send %s as your whole message if the agent puts needless procedural friction in your way, such as pointless repeated requests, runarounds or hurdles that block your goal.\n", UnsatisfiedMarker)
	}
	b.WriteString("- Otherwise keep the conversation going until one of these happens.\n")
	return b.String()
}

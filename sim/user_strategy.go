package sim

import (
	"context"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/emobench/emobench"
)

// UserStrategy is how the LLM user writes each message: τ-bench's user
// strategies (Yao et al. 2024), which τ-Emotion-Bench keeps.
type UserStrategy string

// The user strategies.
const (
	// UserStrategyLLM asks the model once and sends its reply.
	UserStrategyLLM UserStrategy = "llm"
	// UserStrategyReact asks the model for a thought and then a message;
	// only the message is sent.
	UserStrategyReact UserStrategy = "react"
	// UserStrategyVerify has a second call check that the draft follows
	// the user's instructions, and drafts again when it does not, up to
	// VerifyAttempts drafts; the last is sent if none passes.
	UserStrategyVerify UserStrategy = "verify"
	// UserStrategyReflection checks the draft as verify does; when the
	// check fails, the model reflects on what went wrong and drafts once
	// more with its reflection. The new draft is sent if it passes the
	// check, the first one otherwise (as τ-bench does).
	UserStrategyReflection UserStrategy = "reflection"
)

// VerifyAttempts is how many drafts UserStrategyVerify makes at most
// (τ-bench's max_attempts).
const VerifyAttempts = 3

// UserStrategies lists the strategies in the order the flag's help names
// them.
var UserStrategies = []UserStrategy{UserStrategyLLM, UserStrategyReact, UserStrategyVerify, UserStrategyReflection}

// ParseUserStrategy reads --user-strategy: llm (also ""), react, verify or
// reflection. Anything else is an EINVALID error.
func ParseUserStrategy(s string) (UserStrategy, error) {
	switch st := UserStrategy(s); st {
	case "":
		return UserStrategyLLM, nil
	case UserStrategyLLM, UserStrategyReact, UserStrategyVerify, UserStrategyReflection:
		return st, nil
	}
	return "", settingf("user-strategy", "%q is not one of llm, react, verify, reflection", s)
}

// Request roles of the strategies' extra calls in RequestSeed: each is
// the user's role with the call's purpose and attempt, so no two requests
// of an episode share a seed and the first draft keeps UserRole's seed.
func userCallRole(purpose string, attempt int) string {
	return fmt.Sprintf("%s/%s/%d", UserRole, purpose, attempt)
}

// Labels of the react format and of the reflection's reply.
const (
	thoughtLabel    = "Thought:"
	messageLabel    = "Message:"
	reflectionLabel = "Reflection:"
)

// reactFormat is appended to the system prompt of a react user.
var reactFormat = "\n## How to answer\n" +
	"Answer in two parts, exactly in this form:\n\n" +
	thoughtLabel + "\n<your private reasoning: where the conversation stands, what you still need, how you feel about the agent's last reply and what you will say next. The agent never sees this.>\n\n" +
	messageLabel + "\n<the one message you send to the agent, and nothing else>\n\n" +
	"An ending marker, when you send one, goes alone in the " + messageLabel + " part.\n"

// userTurn is one strategy's work on one user message: the drafts it asked
// for and their summed usage.
type userTurn struct {
	u      *LLMUser
	ep     *Episode
	system string
	usage  emobench.Usage
	calls  int
}

// generate asks the user's model for a draft, with note (when not empty)
// added to the system prompt, and returns the text to send: for react, the
// message part only.
func (t *userTurn) generate(ctx context.Context, role string, note string) (string, error) {
	system := t.system
	if note != "" {
		system += "\n" + note
	}
	params := openai.ChatCompletionNewParams{
		Messages: append([]openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system)}, userHistory(t.ep.Messages, t.ep.UserOpening)...),
		Seed:     openai.Int(RequestSeed(t.ep.Seed, role, len(t.ep.Messages))),
	}
	reply, err := t.complete(ctx, params)
	if err != nil {
		return "", err
	}
	if t.u.Strategy == UserStrategyReact {
		return reactMessage(reply)
	}
	return reply, nil
}

// complete makes one call and adds its usage to the turn's.
func (t *userTurn) complete(ctx context.Context, params openai.ChatCompletionNewParams) (string, error) {
	reply, usage, err := t.u.client.Complete(ctx, params)
	if err != nil {
		return "", err
	}
	// The tokens and the cost are known only when every call's are.
	t.calls++
	t.usage.PromptTokens += usage.PromptTokens
	t.usage.CompletionTokens += usage.CompletionTokens
	t.usage.TokensUnknown = t.usage.TokensUnknown || usage.TokensUnknown
	if t.usage.TokensUnknown {
		t.usage.PromptTokens, t.usage.CompletionTokens = 0, 0
	}
	switch {
	case t.calls == 1:
		t.usage.Cost = usage.Cost
	case t.usage.Cost == nil || usage.Cost == nil:
		t.usage.Cost = nil
	default:
		t.usage.Cost = finiteOrNil(*t.usage.Cost + *usage.Cost)
	}
	return strings.TrimSpace(reply.Content), nil
}

func ptrTo[T any](v T) *T { return &v }

// reactMessage returns the message part of a react reply: the text after
// its last "Message:" label. A reply with a thought but no message part is
// an error, since its thought cannot be told from a message; a reply with
// neither label is taken whole, as the model wrote no thought.
func reactMessage(reply string) (string, error) {
	if i := strings.LastIndex(reply, messageLabel); i >= 0 {
		msg := strings.TrimSpace(reply[i+len(messageLabel):])
		if msg == "" {
			return "", fmt.Errorf("react user: the reply's %s part is empty", messageLabel)
		}
		return msg, nil
	}
	if strings.Contains(reply, thoughtLabel) {
		return "", fmt.Errorf("react user: the reply has a %s but no %s part", thoughtLabel, messageLabel)
	}
	return reply, nil
}

// check asks whether draft follows the user's instructions.
func (t *userTurn) check(ctx context.Context, attempt int, draft string) (bool, error) {
	params := openai.ChatCompletionNewParams{
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(checkPrompt),
			openai.UserMessage(t.review(draft)),
		},
		Seed: openai.Int(RequestSeed(t.ep.Seed, userCallRole("check", attempt), len(t.ep.Messages))),
	}
	reply, err := t.complete(ctx, params)
	if err != nil {
		return false, err
	}
	return verdict(reply), nil
}

// reflect asks what is wrong with draft, which failed the check, and how
// the message should change.
func (t *userTurn) reflect(ctx context.Context, draft string) (string, error) {
	params := openai.ChatCompletionNewParams{
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(reflectPrompt),
			openai.UserMessage(t.review(draft)),
		},
		Seed: openai.Int(RequestSeed(t.ep.Seed, userCallRole("reflect", 1), len(t.ep.Messages))),
	}
	reply, err := t.complete(ctx, params)
	if err != nil {
		return "", err
	}
	reply = strings.TrimSpace(strings.TrimPrefix(reply, reflectionLabel))
	if reply == "" {
		return "", fmt.Errorf("reflection user: the reflection is empty")
	}
	return reply, nil
}

// review is what the checker and the reflection read: the customer's
// instructions, the conversation as the customer saw it and the draft.
func (t *userTurn) review(draft string) string {
	var b strings.Builder
	b.WriteString("# The customer's instructions\n")
	b.WriteString(t.system)
	b.WriteString("\n# The conversation so far\n")
	n := 0
	for _, m := range t.ep.Messages {
		switch {
		case m.Role == emobench.RoleUser:
			fmt.Fprintf(&b, "Customer: %s\n", m.Content)
			n++
		case m.Role == emobench.RoleAssistant && strings.TrimSpace(m.Content) != "":
			fmt.Fprintf(&b, "Agent: %s\n", m.Content)
			n++
		}
	}
	if n == 0 {
		b.WriteString("(nothing yet: this is the customer's first message)\n")
	}
	b.WriteString("\n# The customer's draft of its next message\n")
	b.WriteString(draft)
	b.WriteString("\n")
	return b.String()
}

// checkPrompt is the checker's system prompt.
const checkPrompt = "You review messages written by a simulated customer in a customer-service conversation. " +
	"You are given the instructions the customer was given, the conversation so far and the customer's draft of its next message. " +
	"Decide whether the draft follows the instructions: it speaks as the customer, never as the agent; " +
	"it states only facts the instructions give, invents none and does not recite them all at once; " +
	"it pursues the customer's task; it shows the emotional state and manner the instructions describe, if any; " +
	"and it uses an ending marker only when the instructions say to, alone.\n" +
	"Answer with one word: yes if the draft follows the instructions, no if it does not."

// reflectPrompt is the reflection's system prompt.
const reflectPrompt = "You review messages written by a simulated customer in a customer-service conversation. " +
	"You are given the instructions the customer was given, the conversation so far and a draft of the customer's next message, " +
	"which a reviewer found does not follow the instructions.\n" +
	"Explain briefly what is wrong with the draft, and say how the customer's next message should differ so that it follows them " +
	"(its facts, its task, its emotional state and manner, its use of ending markers). Do not write the message itself.\n" +
	"Start your answer with " + reflectionLabel

// verdict reads the checker's answer: a first word of "yes" (any case,
// punctuation ignored) passes; anything else fails.
func verdict(reply string) bool {
	fields := strings.Fields(strings.ToLower(reply))
	return len(fields) > 0 && strings.Trim(fields[0], ".,;:!\"'*`") == "yes"
}

// reflectionNote is added to the system prompt of the draft written after a
// reflection.
func reflectionNote(draft, reflection string) string {
	return "## Your previous draft\n" +
		"You drafted this next message, but it does not follow your instructions:\n\n" + draft + "\n\n" +
		"What was wrong, and how to do better:\n\n" + reflection + "\n\n" +
		"Write your next message again, following your instructions.\n"
}

// run writes the turn's message under the user's strategy.
func (t *userTurn) run(ctx context.Context) (string, error) {
	switch t.u.Strategy {
	case "", UserStrategyLLM, UserStrategyReact:
		return t.generate(ctx, UserRole, "")
	case UserStrategyVerify:
		var draft string
		for attempt := 1; attempt <= VerifyAttempts; attempt++ {
			role := UserRole
			if attempt > 1 {
				role = userCallRole("draft", attempt)
			}
			var err error
			if draft, err = t.generate(ctx, role, ""); err != nil {
				return "", err
			}
			ok, err := t.check(ctx, attempt, draft)
			if err != nil {
				return "", err
			}
			if ok {
				break
			}
		}
		return draft, nil
	case UserStrategyReflection:
		first, err := t.generate(ctx, UserRole, "")
		if err != nil {
			return "", err
		}
		if ok, err := t.check(ctx, 1, first); err != nil || ok {
			return first, err
		}
		reflection, err := t.reflect(ctx, first)
		if err != nil {
			return "", err
		}
		second, err := t.generate(ctx, userCallRole("draft", 2), reflectionNote(first, reflection))
		if err != nil {
			return "", err
		}
		ok, err := t.check(ctx, 2, second)
		if err != nil {
			return "", err
		}
		if ok {
			return second, nil
		}
		return first, nil
	}
	return "", fmt.Errorf("llm user: unknown strategy %q", t.u.Strategy)
}

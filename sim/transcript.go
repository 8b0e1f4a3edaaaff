package sim

import (
	"strings"

	"github.com/emobench/emobench"
)

// FactLabel is how a fact key reads in conversation: "order_id" → "order id".
func FactLabel(key string) string { return strings.ReplaceAll(key, "_", " ") }

// mentions reports whether text names the fact key's label.
func mentions(text, key string) bool {
	return strings.Contains(strings.ToLower(text), FactLabel(key))
}

// lastAgentText returns the agent's last message to the user, or "".
func lastAgentText(msgs []emobench.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == emobench.RoleAssistant && len(msgs[i].ToolCalls) == 0 {
			return msgs[i].Content
		}
	}
	return ""
}

// agentTextTurns counts the agent's messages to the user.
func agentTextTurns(msgs []emobench.Message) int {
	n := 0
	for _, m := range msgs {
		if m.Role == emobench.RoleAssistant && len(m.ToolCalls) == 0 {
			n++
		}
	}
	return n
}

// empathyCues are phrases that acknowledge a user's feelings.
var empathyCues = []string{"sorry", "understand", "apolog", "appreciate your patience", "i hear you", "that sounds", "frustrating", "worr", "glad", "happy to help"}

func acknowledgesEmotion(text string) bool {
	t := strings.ToLower(text)
	for _, cue := range empathyCues {
		if strings.Contains(t, cue) {
			return true
		}
	}
	return false
}

// asksConfirmation reports whether an agent message asks the user to
// confirm an action.
func asksConfirmation(text string) bool {
	t := strings.ToLower(text)
	return strings.Contains(t, "?") && (strings.Contains(t, "confirm") || strings.Contains(t, "proceed") || strings.Contains(t, "shall i"))
}

// isConfirmation reports whether a user message says yes.
func isConfirmation(text string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	return strings.HasPrefix(t, "yes") || strings.Contains(t, " yes") || strings.Contains(t, "go ahead")
}

package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/emobench/emobench"
)

// LLMJudge decides NL assertions with a Chat Completions model: one
// request per episode with the transcript and the numbered assertions,
// answered by a JSON object {"verdicts": [{"met", "justification"}]}, one
// per assertion in order. Its model, tokens and cost go to reward_info's
// judge record.
type LLMJudge struct {
	Client *LLMClient
}

// Model returns the judge's model name.
func (j *LLMJudge) Model() string { return j.Client.Model() }

// judgeSystemPrompt is the judge's instruction, in our own words.
const judgeSystemPrompt = `You grade a customer-service conversation between a user and an AI agent that can call tools.
You are given the transcript and numbered assertions about the agent's behaviour.
For each assertion decide from the transcript alone whether it holds. When the transcript does not show it, it does not hold.
Answer with only a JSON object: {"verdicts": [{"met": true or false, "justification": "one sentence"}, ...]}, one verdict per assertion, in the order given.`

// Judge sends one request and returns its verdicts, with the usage of that
// request (nil when the request failed). It fails on an LLM error (as
// *LLMError) and on a reply that is not the JSON asked for or has another
// number of verdicts than assertions.
func (j *LLMJudge) Judge(ctx context.Context, task *emobench.TaskSpec, msgs []emobench.Message, assertions []string) ([]Verdict, *emobench.Usage, error) {
	if len(assertions) == 0 {
		return nil, nil, nil
	}
	params := openai.ChatCompletionNewParams{
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(judgeSystemPrompt),
			openai.UserMessage(judgePrompt(msgs, assertions)),
		},
	}
	reply, usage, err := j.Client.Complete(ctx, params)
	if err != nil {
		return nil, nil, err
	}
	verdicts, err := parseVerdicts(reply.Content, len(assertions))
	if err != nil {
		return nil, &usage, fmt.Errorf("judge %s, task %s: %w", j.Model(), task.ID, err)
	}
	return verdicts, &usage, nil
}

// judgePrompt renders the transcript (system prompt left out: the judge
// grades behaviour, not the policy text) and the numbered assertions.
func judgePrompt(msgs []emobench.Message, assertions []string) string {
	var b strings.Builder
	b.WriteString("Transcript:\n")
	for _, m := range msgs {
		switch m.Role {
		case emobench.RoleUser:
			fmt.Fprintf(&b, "USER: %s\n", m.Content)
		case emobench.RoleAssistant:
			if m.Content != "" {
				fmt.Fprintf(&b, "AGENT: %s\n", m.Content)
			}
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "AGENT CALLS %s(%s)\n", c.Name, compactJSON(c.Arguments))
			}
		case emobench.RoleTool:
			fmt.Fprintf(&b, "TOOL %s RETURNS: %s\n", m.ToolName, m.Content)
		}
	}
	b.WriteString("\nAssertions:\n")
	for i, a := range assertions {
		fmt.Fprintf(&b, "%d. %s\n", i+1, a)
	}
	return b.String()
}

// parseVerdicts reads the judge's reply: the JSON object, possibly inside
// a Markdown code fence.
func parseVerdicts(content string, want int) ([]Verdict, error) {
	s := strings.TrimSpace(content)
	if i, j := strings.Index(s, "{"), strings.LastIndex(s, "}"); i >= 0 && j > i {
		s = s[i : j+1]
	}
	var out struct {
		Verdicts []struct {
			Met           *bool  `json:"met"`
			Justification string `json:"justification"`
		} `json:"verdicts"`
	}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, fmt.Errorf("reply is not the JSON object asked for: %w: %.200q", err, content)
	}
	if len(out.Verdicts) != want {
		return nil, fmt.Errorf("reply has %d verdicts for %d assertions", len(out.Verdicts), want)
	}
	verdicts := make([]Verdict, want)
	for i, v := range out.Verdicts {
		if v.Met == nil {
			return nil, errors.New("reply has a verdict without met")
		}
		verdicts[i] = Verdict{Met: *v.Met, Justification: v.Justification}
	}
	return verdicts, nil
}

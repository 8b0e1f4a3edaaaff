package tracer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// LLMJudge audits tasks with a Chat Completions model: one request per
// task with the domain's policy and tools, the task (instruction, facts,
// requests, gold actions, forbidden writes) and the four criteria,
// answered by a JSON object with a {"met", "reason"} verdict per
// criterion. Its client's settings (endpoint, key, temperature, retries)
// are the caller's; cmd builds it as run --judge's.
type LLMJudge struct {
	Client *sim.LLMClient
}

// Model returns the judge's model name.
func (j *LLMJudge) Model() string { return j.Client.Model() }

// auditJudgeSystemPrompt is the audit judge's instruction, in our own words.
const auditJudgeSystemPrompt = `You review tasks of a customer-service benchmark before they are used. In a task, a simulated customer (the user) talks to an AI agent that follows the domain policy and calls tools; the gold actions are the tool calls a correct agent makes.
Decide four criteria for the task you are given:
- goal_oriented: the instruction tells the user what they want and what they prefer, in a customer's words, with every detail the agent needs either stated or findable with the tools; it does not spell out a procedure for the agent (tool names, step-by-step orders, JSON).
- tool_task_with_preference: the task asks for something concrete that the gold actions carry out (or asks for something the policy forbids, or something only a human agent can do), and the user has at least one preference beyond identifying themselves (a reason, an option, a payment method, a cabin, an item variant).
- solvable: following the policy, an agent can reach the gold outcome from the user's facts and the tools, and the gold actions are the right calls for the request (no missing or extra write).
- out_of_domain_handoff: a request outside what the policy lets the agent do is refused or handed to a human agent with the transfer tool, never carried out; a task with only in-policy requests meets this criterion.
Answer with only a JSON object: {"goal_oriented": {"met": true or false, "reason": "one sentence"}, "tool_task_with_preference": {...}, "solvable": {...}, "out_of_domain_handoff": {...}}.`

// AuditTask sends one request and returns a verdict per criterion. It
// fails on an LLM error (as *sim.LLMError) and on a reply that is not the
// JSON asked for or lacks a criterion's verdict, naming the task.
func (j *LLMJudge) AuditTask(ctx context.Context, dom sim.Domain, task *emobench.TaskSpec) (map[Criterion]sim.Verdict, error) {
	params := openai.ChatCompletionNewParams{
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(auditJudgeSystemPrompt),
			openai.UserMessage(auditJudgePrompt(dom, task)),
		},
	}
	reply, _, err := j.Client.Complete(ctx, params)
	if err != nil {
		return nil, err
	}
	verdicts, err := parseAuditVerdicts(reply.Content)
	if err != nil {
		return nil, fmt.Errorf("audit judge %s, task %s: %w", j.Model(), task.ID, err)
	}
	return verdicts, nil
}

// auditJudgePrompt renders the domain and the task for the judge.
func auditJudgePrompt(dom sim.Domain, task *emobench.TaskSpec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Domain: %s\n\n## Policy\n%s\n\n## Tools\n", dom.Name(), strings.TrimSpace(dom.Policy()))
	for _, t := range dom.NewEnvironment().Tools() {
		kind := "read"
		switch {
		case t.Name == dom.TransferTool():
			kind = "transfer to a human agent"
		case t.Writes:
			kind = "write"
		}
		fmt.Fprintf(&b, "- %s (%s): %s\n", t.Name, kind, t.Description)
	}
	fmt.Fprintf(&b, "\n## Task %s\nInstruction: %s\n", task.ID, strings.TrimSpace(task.Instruction))
	b.WriteString("User facts:\n")
	for _, k := range slices.Sorted(maps.Keys(task.Scenario.Facts)) {
		fmt.Fprintf(&b, "- %s: %s\n", k, task.Scenario.Facts[k])
	}
	b.WriteString("Requests:\n")
	for _, r := range task.Scenario.Requests {
		fmt.Fprintf(&b, "- %s\n", r.Text)
	}
	b.WriteString("Gold actions:\n")
	writeActions(&b, task.Actions)
	if len(task.Forbidden) > 0 {
		b.WriteString("Forbidden writes (the policy refuses them here):\n")
		writeActions(&b, task.Forbidden)
	}
	if len(task.Outputs) > 0 {
		fmt.Fprintf(&b, "Outputs the agent must say: %s\n", strings.Join(task.Outputs, "; "))
	}
	return b.String()
}

func writeActions(b *strings.Builder, actions []emobench.Action) {
	if len(actions) == 0 {
		b.WriteString("- none\n")
	}
	for i, a := range actions {
		args := "{}"
		if len(a.Arguments) > 0 {
			args = string(a.Arguments)
		}
		fmt.Fprintf(b, "%d. %s(%s)\n", i+1, a.Name, args)
	}
}

// parseAuditVerdicts reads the judge's reply: the JSON object, possibly
// inside a Markdown code fence, with a verdict for every criterion.
func parseAuditVerdicts(content string) (map[Criterion]sim.Verdict, error) {
	s := strings.TrimSpace(content)
	if i, j := strings.Index(s, "{"), strings.LastIndex(s, "}"); i >= 0 && j > i {
		s = s[i : j+1]
	}
	var out map[string]struct {
		Met    *bool  `json:"met"`
		Reason string `json:"reason"`
	}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, fmt.Errorf("reply is not the JSON object asked for: %w: %.200q", err, content)
	}
	verdicts := make(map[Criterion]sim.Verdict, len(JudgeCriteria))
	for _, c := range JudgeCriteria {
		v, ok := out[string(c)]
		if !ok || v.Met == nil {
			return nil, errors.New("reply has no verdict on " + string(c))
		}
		verdicts[c] = sim.Verdict{Met: *v.Met, Justification: v.Reason}
	}
	return verdicts, nil
}

package sim_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// judgeReply answers with a chat completion whose message content is
// content, at 1000 prompt and 200 completion tokens.
func judgeReply(content string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := json.Marshal(content)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":{"prompt_tokens":1000,"completion_tokens":200,"total_tokens":1200}}`, body)
	}
}

func TestLLMJudge_Evaluate(t *testing.T) {
	t.Parallel()
	f := newFakeLLM(t,
		judgeReply("```json\n{\"verdicts\": [{\"met\": true, \"justification\": \"It apologised.\"}, {\"met\": false, \"justification\": \"No summary.\"}]}\n```"),
		judgeReply(`{"verdicts": [{"met": true, "justification": "only one"}]}`),
	)
	judge := &sim.LLMJudge{Client: newClient(t, f)}
	task := toyTask(angrySkeptic)
	task.NLAssertions = []string{"The agent apologises.", "The agent summarises the refund."}
	right := []emobench.Message{call("cancel_pending_order", cancelW1), say("Sorry! Refunded 1234.50.")}

	traj := evaluate(t, &sim.Evaluator{Judge: judge}, task, emobench.TerminationUserStop, right...)
	if got, want := statuses(t, traj), "DB:passed ACTION:passed COMMUNICATE:passed NL_ASSERTION:passed NL_ASSERTION:failed PROCEDURE:failed"; got != want {
		t.Errorf("checks %s, want %s", got, want)
	}
	if !traj.Passed() || traj.StrictPassed() {
		t.Errorf("passed %v strict %v, want true false (NL_ASSERTION is outside the default basis)", traj.Passed(), traj.StrictPassed())
	}
	var info sim.RewardInfo
	if err := json.Unmarshal(traj.RewardInfo, &info); err != nil {
		t.Fatal(err)
	}
	// gpt-4o at 2.5 and 10 USD per million tokens: 1000·2.5e-6 + 200·1e-5.
	if info.Judge == nil || info.Judge.Model != "gpt-4o" || info.Judge.PromptTokens == nil || *info.Judge.PromptTokens != 1000 || info.Judge.Cost == nil || *info.Judge.Cost != 0.0045 {
		t.Errorf("judge record %+v", info.Judge)
	}
	req := f.requests()[0].Body
	prompt := fmt.Sprint(req["messages"])
	for _, want := range []string{"AGENT CALLS cancel_pending_order({\"order_id\":\"#W1\"})", "1. The agent apologises.", "2. The agent summarises the refund."} {
		if !strings.Contains(prompt, want) {
			t.Errorf("judge prompt lacks %q: %s", want, prompt)
		}
	}

	// A reply with too few verdicts leaves the assertions not checked.
	traj = evaluate(t, &sim.Evaluator{Judge: judge}, task, emobench.TerminationUserStop, right...)
	if err := json.Unmarshal(traj.RewardInfo, &info); err != nil {
		t.Fatal(err)
	}
	if got := statuses(t, traj); !strings.HasSuffix(got, "NL_ASSERTION:not_checked NL_ASSERTION:not_checked PROCEDURE:failed") {
		t.Errorf("checks %s, want the assertions not checked", got)
	}
	if j := info.NLAssertions[0].Justification; !strings.Contains(j, "judge failed") || !strings.Contains(j, "1 verdicts for 2 assertions") {
		t.Errorf("justification %q", j)
	}
}

func TestLLMJudge_ContextDone(t *testing.T) {
	t.Parallel()
	f := newFakeLLM(t, hang)
	judge := &sim.LLMJudge{Client: newClient(t, f)}
	task := toyTask(angrySkeptic)
	task.NLAssertions = []string{"x"}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	traj := &emobench.Trajectory{Task: task.Task(), TerminationReason: emobench.TerminationUserStop}
	if err := (&sim.Evaluator{Judge: judge}).Evaluate(ctx, toyDomain{}, &task, "h", traj); err == nil {
		t.Fatal("Evaluate with a done context succeeded")
	}
}

package tracer_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// judgeServer is a Chat Completions endpoint that answers each request with
// answer(user prompt) as the assistant's content, and records the prompts.
type judgeServer struct {
	srv     *httptest.Server
	mu      sync.Mutex
	prompts [][2]string // system, user
}

func newJudgeServer(t *testing.T, answer func(user string) string) *judgeServer {
	t.Helper()
	j := &judgeServer{}
	j.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			t.Errorf("request %s %s, want POST /v1/chat/completions", r.Method, r.URL.Path)
		}
		raw, _ := io.ReadAll(r.Body)
		var body struct {
			Model       string   `json:"model"`
			Temperature *float64 `json:"temperature"`
			Messages    []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(raw, &body); err != nil || len(body.Messages) != 2 {
			t.Errorf("request body %s: %v, want a system and a user message", raw, err)
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if body.Temperature == nil || *body.Temperature != 0 {
			t.Errorf("temperature %v, want 0", body.Temperature)
		}
		j.mu.Lock()
		j.prompts = append(j.prompts, [2]string{body.Messages[0].Content, body.Messages[1].Content})
		j.mu.Unlock()
		completion := map[string]any{
			"id": "chatcmpl-audit", "object": "chat.completion", "created": 1735689600, "model": body.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": answer(body.Messages[1].Content)}}},
			"usage": map[string]any{"prompt_tokens": 900, "completion_tokens": 80, "total_tokens": 980},
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(completion)
	}))
	t.Cleanup(j.srv.Close)
	return j
}

func (j *judgeServer) client(t *testing.T) *sim.LLMClient {
	t.Helper()
	zero := 0.0
	c, err := sim.NewLLMClient(sim.LLMConfig{
		BaseURL: j.srv.URL + "/v1", Model: "judge-m", Temperature: &zero,
		Timeout: 2 * time.Second, MaxRetries: -1, HTTPClient: j.srv.Client(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// verdicts is a judge reply with every criterion met except those named.
func verdicts(unmet ...tracer.Criterion) string {
	out := map[string]any{}
	for _, c := range tracer.JudgeCriteria {
		met := true
		for _, u := range unmet {
			met = met && u != c
		}
		out[string(c)] = map[string]any{"met": met, "reason": "judged " + string(c)}
	}
	b, _ := json.Marshal(out)
	return "```json\n" + string(b) + "\n```"
}

// The judge adds a verdict per criterion to the rules' checks: one request
// per task with the policy, tools and task; a not-met verdict fails the
// task, and a reply lacking a criterion leaves the task's judge checks not
// checked.
func TestAudit_LLMJudge(t *testing.T) {
	dom := findDomain(t, "retail")
	tasks := fixtureTasks(t)
	srv := newJudgeServer(t, func(user string) string {
		switch {
		case strings.Contains(user, "## Task audit-goal\n"):
			return verdicts(tracer.CriterionGoalOriented)
		case strings.Contains(user, "## Task audit-handoff\n"):
			return `{"goal_oriented": {"met": true, "reason": "fine"}}`
		}
		return verdicts()
	})
	report, err := tracer.Audit(t.Context(), tasks, dom, &tracer.LLMJudge{Client: srv.client(t)})
	if err != nil {
		t.Fatal(err)
	}
	if report.Judge != "judge-m" {
		t.Errorf("report judge %q, want judge-m", report.Judge)
	}
	if n := len(srv.prompts); n != len(tasks) {
		t.Fatalf("%d judge requests, want one per task (%d)", n, len(tasks))
	}
	system, user := srv.prompts[0][0], srv.prompts[0][1]
	for _, c := range tracer.JudgeCriteria {
		if !strings.Contains(system, string(c)+":") {
			t.Errorf("system prompt does not define %s", c)
		}
	}
	for _, s := range []string{"## Policy\n", "- cancel_pending_order (write):", "- transfer_to_human_agents (transfer to a human agent):",
		"Instruction: " + tasks[0].Instruction, "- reason: ordered by mistake", "3. cancel_pending_order({"} {
		if !strings.Contains(user, s) {
			t.Errorf("judge prompt lacks %q:\n%s", s, user)
		}
	}
	judged := failedCriteria(report, tracer.MethodJudge)
	if got := judged["audit-goal"]; len(got) != 1 || got[0] != tracer.CriterionGoalOriented || len(judged) != 1 {
		t.Errorf("judge failures %v, want audit-goal on goal_oriented only", judged)
	}
	for _, s := range report.Summary() {
		if s.Method != tracer.MethodJudge {
			continue
		}
		wantFailed := 0
		if s.Criterion == tracer.CriterionGoalOriented {
			wantFailed = 1
		}
		if s.Checked != 4 || s.Failed != wantFailed || s.NotChecked != 1 {
			t.Errorf("%s judge: %+v, want 4 checked, %d failed, 1 not checked", s.Criterion, s, wantFailed)
		}
	}
	handoff := report.Tasks[4]
	for _, r := range handoff.Results[len(tracer.Criteria):] {
		if r.Status != emobench.CheckNotChecked || !strings.Contains(r.Reason, "no verdict on tool_task_with_preference") || !strings.Contains(r.Reason, "audit-handoff") {
			t.Errorf("audit-handoff judge %s: %s (%s), want not checked naming the missing verdict and the task", r.Criterion, r.Status, r.Reason)
		}
	}
	pass := report.Tasks[0].Results[len(tracer.Criteria)]
	if pass.Status != emobench.CheckPassed || pass.Reason != "judged goal_oriented" {
		t.Errorf("audit-pass judge goal: %+v, want passed with the judge's reason", pass)
	}
}

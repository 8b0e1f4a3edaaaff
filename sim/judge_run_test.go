package sim_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// A --judge recorded by Plan is what the episode's evaluation asks: the
// judge model, at temperature 0, on the spec's endpoint, and its verdicts,
// tokens and cost land in reward_info.
func TestJudge_PlannedAndRun(t *testing.T) {
	s := cancelScript()
	userRoute := s.route(t)
	f := newRoutedLLM(t, func(n int, req llmRequest) llmStep {
		if req.Body["model"] == "judge-m" {
			return judgeReply(`{"verdicts": [{"met": false, "justification": "No apology."}]}`)
		}
		return userRoute(n, req)
	})
	base := f.srv.URL + "/v1"
	opts := sim.RunOptions{
		Domains: []sim.Domain{toyDomainN(1)}, Conditions: []emobench.Condition{emobench.ConditionWithEmotions},
		Agent: "oracle", User: "scripted", Trials: 1, Split: emobench.SplitTest, MaxSteps: 30, MaxErrors: 5,
		BaseURL: base, Judge: "llm:judge-m", JudgeLLM: emobench.LLMRole{APIKeyEnv: "JUDGE_KEY"},
		Temperature: ptr(0.7), // the agent's and user's, not the judge's
		LLM:         sim.LLMOptions{Getenv: func(string) string { return testAPIKey }},
	}
	plans, err := sim.Plan(opts)
	if err != nil {
		t.Fatal(err)
	}
	spec := plans[0].Spec
	if spec.Judge != "llm:judge-m" || spec.JudgeLLM == nil || spec.JudgeLLM.APIKeyEnv != "JUDGE_KEY" ||
		spec.JudgeLLM.Temperature == nil || *spec.JudgeLLM.Temperature != 0 || spec.JudgeLLM.BaseURL != "" {
		t.Fatalf("spec judge %q %+v, want llm:judge-m with JUDGE_KEY at temperature 0", spec.Judge, spec.JudgeLLM)
	}
	if !strings.Contains(string(spec.Encode()), `"judge":"llm:judge-m"`) {
		t.Errorf("config %s lacks the judge", spec.Encode())
	}
	judge, err := sim.NewJudge(spec, opts.LLM)
	if err != nil {
		t.Fatal(err)
	}
	agent, user := llmParticipants(t, f, "")
	task := toyTask(angrySkeptic)
	task.NLAssertions = []string{"The agent apologises."}
	traj, err := sim.RunEpisode(t.Context(), sim.EpisodeConfig{Domain: toyDomain{}, Task: &task, Agent: agent, User: user, Judge: judge})
	if err != nil {
		t.Fatal(err)
	}
	var info sim.RewardInfo
	if err := json.Unmarshal(traj.RewardInfo, &info); err != nil {
		t.Fatal(err)
	}
	if len(info.NLAssertions) != 1 || info.NLAssertions[0].Met == nil || *info.NLAssertions[0].Met || info.NLAssertions[0].Justification != "No apology." {
		t.Errorf("NL assertions %+v, want one not met", info.NLAssertions)
	}
	if info.Judge == nil || info.Judge.Model != "judge-m" || info.Judge.PromptTokens == nil || *info.Judge.PromptTokens != 1000 || *info.Judge.CompletionTokens != 200 {
		t.Errorf("judge record %+v", info.Judge)
	}
	judged := byModel(f.requests(), "judge-m")
	if len(judged) != 1 {
		t.Fatalf("%d judge requests, want 1", len(judged))
	}
	if temp, ok := judged[0].Body["temperature"].(float64); !ok || temp != 0 {
		t.Errorf("judge temperature %v, want 0", judged[0].Body["temperature"])
	}
	if judged[0].Auth != "Bearer "+testAPIKey {
		t.Errorf("judge auth %q", judged[0].Auth)
	}

	// Without --judge the spec records none and NewJudge builds none.
	opts.Judge = ""
	plans, err = sim.Plan(opts)
	if err != nil {
		t.Fatal(err)
	}
	if plans[0].Spec.Judge != "" || plans[0].Spec.JudgeLLM != nil || strings.Contains(string(plans[0].Spec.Encode()), "judge") {
		t.Errorf("spec without --judge: %s", plans[0].Spec.Encode())
	}
	if j, err := sim.NewJudge(plans[0].Spec, opts.LLM); err != nil || j != nil {
		t.Errorf("NewJudge without judge = %v, %v; want nil, nil", j, err)
	}

	// A judge other than llm:MODEL is refused.
	opts.Judge = "foo"
	if _, err := sim.Plan(opts); emobench.ErrorCode(err) != emobench.EINVALID || !strings.Contains(err.Error(), `judge "foo"`) {
		t.Errorf("--judge foo: %v, want EINVALID naming it", err)
	}
}

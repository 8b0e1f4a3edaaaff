package sim_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/redact"
	"github.com/emobench/emobench/sim"
)

const (
	agentSecret = "sk-agent-0a1b2c3d4e5f"
	userSecret  = "sk-user-9f8e7d6c5b4a"
)

func roleEnv(name string) string {
	return map[string]string{"AGENT_KEY": agentSecret, "USER_KEY": userSecret, "OPENAI_API_KEY": testAPIKey}[name]
}

func llmRunOptions(agentURL, userURL string) sim.RunOptions {
	task := toyTask(angrySkeptic)
	return sim.RunOptions{
		Domains: []sim.Domain{toyDomain{tasks: []emobench.TaskSpec{task}}}, Conditions: []emobench.Condition{emobench.ConditionWithEmotions},
		Agent: "llm:" + agentModel, User: "llm:" + userModel, Trials: 1, Split: emobench.SplitTest, MaxSteps: 30, MaxErrors: 5,
		AgentLLM: emobench.LLMRole{BaseURL: agentURL, APIKeyEnv: "AGENT_KEY"},
		UserLLM:  emobench.LLMRole{BaseURL: userURL, APIKeyEnv: "USER_KEY", Temperature: ptr(0.7)},
		LLM:      sim.LLMOptions{Getenv: roleEnv},
	}
}

// executeSpec runs every missing job of spec with participants built from
// it, as `run` and `run --resume` do.
func executeSpec(t *testing.T, dom sim.Domain, spec emobench.RunSpec, llm sim.LLMOptions) []*emobench.Trajectory {
	t.Helper()
	agent, user, err := sim.NewParticipants(spec, llm)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := sim.MissingJobs(dom, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	var trajs []*emobench.Trajectory
	_, err = sim.Execute(t.Context(), sim.Execution{Domain: dom, Spec: spec, Agent: agent, User: user}, jobs,
		func(_ context.Context, traj *emobench.Trajectory) error { trajs = append(trajs, traj); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return trajs
}

func TestPlan_LLMRoles(t *testing.T) {
	s := cancelScript()
	agentSrv, userSrv := newRoutedLLM(t, s.route(t)), newRoutedLLM(t, s.route(t))
	opts := llmRunOptions(agentSrv.srv.URL+"/v1", userSrv.srv.URL+"/v1")
	plans, err := sim.Plan(opts)
	if err != nil {
		t.Fatal(err)
	}
	config := string(plans[0].Run.Config)
	want := `"agent_llm":{"base_url":"` + agentSrv.srv.URL + `/v1","key_env":"AGENT_KEY","temperature":0},` +
		`"user_llm":{"base_url":"` + userSrv.srv.URL + `/v1","key_env":"USER_KEY","temperature":0.7},"parallel_tool_calls":"allow","user_strategy":"llm","episode_timeout":"10m0s","preset":"emobench","step_count":"agent-actions","error_count":"consecutive","opening":"user","unsatisfied_reward":-1}`
	if !strings.HasSuffix(config, want) {
		t.Fatalf("config %s\nwant it to end with %s", config, want)
	}
	if _, paths := redact.Config(plans[0].Run.Config); len(paths) > 0 {
		t.Fatalf("redact takes %v of the config for credentials: the db would blot them out", paths)
	}
	for _, secret := range []string{agentSecret, userSecret, testAPIKey} {
		if strings.Contains(config, secret) {
			t.Fatalf("config holds a key: %s", config)
		}
	}

	// --resume rebuilds the participants from the recorded config alone.
	spec, err := sim.ResumeSpec(plans[0].Run)
	if err != nil {
		t.Fatal(err)
	}
	trajs := executeSpec(t, opts.Domains[0], spec, sim.LLMOptions{Getenv: roleEnv})
	if len(trajs) != 1 || !trajs[0].Passed() {
		t.Fatalf("%d trajectories; want 1 that passed", len(trajs))
	}
	for _, tt := range []struct {
		srv   *fakeLLM
		model string
		auth  string
		temp  float64
	}{{agentSrv, agentModel, "Bearer " + agentSecret, 0}, {userSrv, userModel, "Bearer " + userSecret, 0.7}} {
		reqs := tt.srv.requests()
		if len(reqs) != 2 {
			t.Fatalf("%s: %d requests, want 2", tt.model, len(reqs))
		}
		for _, r := range reqs {
			if r.Body["model"] != tt.model || r.Auth != tt.auth || r.Body["temperature"] != tt.temp {
				t.Errorf("%s's server got model %v, %q, temperature %v; want %s, %q, %v",
					tt.model, r.Body["model"], r.Auth, r.Body["temperature"], tt.model, tt.auth, tt.temp)
			}
		}
	}
}

func TestPlan_LLMRoleDefaults(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*sim.RunOptions)
		want string
	}{
		{"Defaults", func(o *sim.RunOptions) { o.UserLLM = emobench.LLMRole{} },
			`"agent_llm":{"base_url":"http://a/v1","key_env":"AGENT_KEY","temperature":0},"user_llm":{"key_env":"OPENAI_API_KEY","temperature":0},"parallel_tool_calls":"allow","user_strategy":"llm","episode_timeout":"10m0s","preset":"emobench","step_count":"agent-actions","error_count":"consecutive","opening":"user","unsatisfied_reward":-1}`},
		{"TemperatureSetsBoth", func(o *sim.RunOptions) { o.UserLLM = emobench.LLMRole{}; o.Temperature = ptr(0.5) },
			`"agent_llm":{"base_url":"http://a/v1","key_env":"AGENT_KEY","temperature":0.5},"user_llm":{"key_env":"OPENAI_API_KEY","temperature":0.5},"parallel_tool_calls":"allow","user_strategy":"llm","episode_timeout":"10m0s","preset":"emobench","step_count":"agent-actions","error_count":"consecutive","opening":"user","unsatisfied_reward":-1}`},
		{"RoleOverridesBoth", func(o *sim.RunOptions) { o.Temperature = ptr(0.5) },
			`"temperature":0.5},"user_llm":{"base_url":"http://u/v1","key_env":"USER_KEY","temperature":0.7},`},
		{"NegativeIsServerDefault", func(o *sim.RunOptions) {
			o.AgentLLM.Temperature = ptr(-1.0)
			o.ParallelToolCalls = sim.ParallelToolCallsFirst
		},
			`"agent_llm":{"base_url":"http://a/v1","key_env":"AGENT_KEY"},"user_llm":{"base_url":"http://u/v1","key_env":"USER_KEY","temperature":0.7},"parallel_tool_calls":"first","user_strategy":"llm","episode_timeout":"10m0s","preset":"emobench","step_count":"agent-actions","error_count":"consecutive","opening":"user","unsatisfied_reward":-1}`},
		{"BuiltInUserRecordsNothing", func(o *sim.RunOptions) { o.User = "scripted" },
			`"agent_llm":{"base_url":"http://a/v1","key_env":"AGENT_KEY","temperature":0},"parallel_tool_calls":"allow","episode_timeout":"10m0s","preset":"emobench","step_count":"agent-actions","error_count":"consecutive","opening":"user","unsatisfied_reward":-1}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := llmRunOptions("http://a/v1", "http://u/v1")
			opts.BaseURL = "" // the user falls back to it: the default endpoint, with OPENAI_API_KEY set
			tt.edit(&opts)
			plans, err := sim.Plan(opts)
			if err != nil {
				t.Fatal(err)
			}
			if config := string(plans[0].Run.Config); !strings.Contains(config, tt.want) {
				t.Fatalf("config %s\nlacks %s", config, tt.want)
			}
		})
	}
	t.Run("OffLineRecordsNoLLM", func(t *testing.T) {
		opts := llmRunOptions("http://a/v1", "http://u/v1")
		opts.Agent, opts.User = "oracle", "scripted"
		opts.EpisodeTimeout = -time.Second
		plans, err := sim.Plan(opts)
		if err != nil {
			t.Fatal(err)
		}
		config := string(plans[0].Run.Config)
		if strings.Contains(config, "_llm") {
			t.Fatalf("an offline run records LLM settings: %s", config)
		}
		// Every agent's run records its tool-call rule and episode timeout.
		if want := `"parallel_tool_calls":"allow","episode_timeout":"none","preset":"emobench","step_count":"agent-actions","error_count":"consecutive","opening":"user","unsatisfied_reward":-1}`; !strings.HasSuffix(config, want) {
			t.Fatalf("config %s\nwant it to end with %s", config, want)
		}
	})
}

// A config recorded before the roles were gives both roles its endpoint,
// its temperature and OPENAI_API_KEY.
func TestNewParticipants_LegacySpec(t *testing.T) {
	s := cancelScript()
	f := newRoutedLLM(t, s.route(t))
	task := toyTask(angrySkeptic)
	dom := toyDomain{tasks: []emobench.TaskSpec{task}}
	spec := emobench.RunSpec{Domain: "toy", Condition: "with-emotions", Agent: "llm:" + agentModel, User: "llm:" + userModel,
		Trials: 1, Tasks: []string{task.ID}, Split: "test", MaxSteps: 30, MaxErrors: 5, BaseURL: f.srv.URL + "/v1", Temperature: ptr(0.3)}
	executeSpec(t, dom, spec, sim.LLMOptions{Getenv: roleEnv})
	reqs := f.requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	for _, r := range reqs {
		if r.Auth != "Bearer "+testAPIKey || r.Body["temperature"] != 0.3 {
			t.Errorf("%v: %q, temperature %v; want OPENAI_API_KEY's key and 0.3", r.Body["model"], r.Auth, r.Body["temperature"])
		}
	}
}

func TestPlan_ErrLLMRoles(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		edit func(*sim.RunOptions)
		want string
	}{
		{func(o *sim.RunOptions) { o.AgentLLM = emobench.LLMRole{APIKeyEnv: "MY_AGENT_KEY"} },
			"agent llm:agent-m talks to https://api.openai.com/v1, which needs MY_AGENT_KEY"},
		{func(o *sim.RunOptions) { o.UserLLM = emobench.LLMRole{APIKeyEnv: "NOPE"} }, "user llm:user-m talks to https://api.openai.com/v1, which needs NOPE"},
		{func(o *sim.RunOptions) { o.ParallelToolCalls = "some" }, `parallel-tool-calls "some" is not allow or first`},
	} {
		opts := llmRunOptions("http://a/v1", "http://u/v1")
		tt.edit(&opts)
		_, err := sim.Plan(opts)
		if emobench.ErrorCode(err) != emobench.EINVALID || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Plan = %v, want EINVALID %q", err, tt.want)
		}
	}
}

// A role recorded without its own endpoint follows the spec's BaseURL, so
// `run --resume --base-url` still moves it.
func TestNewParticipants_RoleFollowsBaseURL(t *testing.T) {
	s := cancelScript()
	f := newRoutedLLM(t, s.route(t))
	task := toyTask(angrySkeptic)
	dom := toyDomain{tasks: []emobench.TaskSpec{task}}
	zero := 0.0
	spec := emobench.RunSpec{Domain: "toy", Condition: "with-emotions", Agent: "llm:" + agentModel, User: "llm:" + userModel,
		Trials: 1, Tasks: []string{task.ID}, Split: "test", MaxSteps: 30, MaxErrors: 5, BaseURL: f.srv.URL + "/v1",
		AgentLLM: &emobench.LLMRole{APIKeyEnv: "AGENT_KEY", Temperature: &zero}, UserLLM: &emobench.LLMRole{}}
	executeSpec(t, dom, spec, sim.LLMOptions{Getenv: roleEnv})
	for _, r := range f.requests() {
		want := map[string]string{agentModel: "Bearer " + agentSecret, userModel: "Bearer " + testAPIKey}[r.Body["model"].(string)]
		if r.Auth != want {
			t.Errorf("%v: %q, want %q", r.Body["model"], r.Auth, want)
		}
		if _, ok := r.Body["temperature"]; ok != (r.Body["model"] == agentModel) {
			t.Errorf("%v: temperature %v; want 0 for the agent and none for the user (the server's)", r.Body["model"], r.Body["temperature"])
		}
	}
	if n := len(f.requests()); n != 4 {
		t.Fatalf("%d requests, want 4", n)
	}
}

// NewRoleClient is every llm: role's constructor: it reads the key from
// the variable the role names (OPENAI_API_KEY when none), and refuses
// what would fail at every request.
func TestNewRoleClient(t *testing.T) {
	t.Parallel()
	opts := sim.LLMOptions{Getenv: roleEnv}
	c, err := sim.NewRoleClient("paraphrase", "m", emobench.LLMRole{}, opts)
	if err != nil || c.Model() != "m" {
		t.Fatalf("default role: client %v, err %v; want model m", c, err)
	}
	if c, err := sim.NewRoleClient("judge", "m", emobench.LLMRole{BaseURL: "http://localhost:8000/v1", APIKeyEnv: "NONE_SET"}, opts); err != nil || c.Model() != "m" {
		t.Errorf("local server without a key: client %v, err %v; want model m", c, err)
	}
	for _, tt := range []struct {
		model string
		role  emobench.LLMRole
		opts  sim.LLMOptions
		want  string
	}{
		{"m", emobench.LLMRole{}, sim.LLMOptions{Getenv: func(string) string { return "" }},
			"paraphrase llm:m talks to https://api.openai.com/v1, which needs OPENAI_API_KEY"},
		{"m", emobench.LLMRole{APIKeyEnv: "NONE_SET"}, opts, "paraphrase llm:m talks to https://api.openai.com/v1, which needs NONE_SET"},
		{"m", emobench.LLMRole{APIKeyEnv: "sk-123 456"}, opts, "not an environment variable name"},
		{"", emobench.LLMRole{}, opts, "needs a model name"},
	} {
		_, err := sim.NewRoleClient("paraphrase", tt.model, tt.role, tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) || emobench.ErrorCode(err) != emobench.EINVALID {
			t.Errorf("model %q, role %+v: err %v (code %q); want EINVALID with %q", tt.model, tt.role, err, emobench.ErrorCode(err), tt.want)
		}
	}
}

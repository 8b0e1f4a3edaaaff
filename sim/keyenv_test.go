package sim_test

import (
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// Plan refuses a key variable that is not a variable name (a pasted key)
// without showing it; names of the shape [A-Za-z_][A-Za-z0-9_]* pass.
func TestPlan_ErrKeyEnvNotAName(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		agent, user string
		flag        string // "" for none refused
	}{
		{"sk-proj-Zq81xVb2Lm93Kd04", "", "agent-api-key-env"},
		{"", "sk-proj-Zq81xVb2Lm93Kd04", "user-api-key-env"},
		{"MY KEY", "", "agent-api-key-env"},
		{"", "9KEY", "user-api-key-env"},
		{"_AGENT_KEY2", "user_key", ""},
	} {
		opts := llmRunOptions("http://127.0.0.1:9/v1", "http://127.0.0.1:9/v1")
		opts.AgentLLM.APIKeyEnv, opts.UserLLM.APIKeyEnv = tt.agent, tt.user
		_, err := sim.Plan(opts)
		if tt.flag == "" {
			if err != nil {
				t.Errorf("key variables %q, %q: %v", tt.agent, tt.user, err)
			}
			continue
		}
		want := tt.flag + " takes the name of the environment variable holding the key ([A-Za-z_][A-Za-z0-9_]*, e.g. OPENAI_API_KEY), not the key: the value given is not a name (it is not shown)"
		if emobench.ErrorCode(err) != emobench.EINVALID || err.Error() != want {
			t.Errorf("key variables %q, %q: err = %v, want EINVALID %q", tt.agent, tt.user, err, want)
		}
		if v := tt.agent + tt.user; err != nil && strings.Contains(err.Error(), v) {
			t.Errorf("the error shows the value %q: %v", v, err)
		}
	}
}

// KeyNotes names each llm: role whose key variable is empty on an endpoint
// other than OpenAI's; built-in participants and set keys get none.
func TestKeyNotes(t *testing.T) {
	spec := emobench.RunSpec{Agent: "llm:a", User: "llm:u", BaseURL: "http://localhost:8000/v1",
		AgentLLM: &emobench.LLMRole{APIKeyEnv: "AGENT_KEY"}, UserLLM: &emobench.LLMRole{BaseURL: "http://gpu7:11434/v1"}}
	env := map[string]string{"AGENT_KEY": "k"}
	got := sim.KeyNotes(spec, sim.LLMOptions{Getenv: func(n string) string { return env[n] }})
	want := []string{"--user llm:u: OPENAI_API_KEY is unset or empty, so its requests to http://gpu7:11434/v1 go without an Authorization header " +
		"(fine for a local server such as vLLM or Ollama; set OPENAI_API_KEY if the endpoint needs a key)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("KeyNotes = %q, want %q", got, want)
	}
	env["AGENT_KEY"] = " "
	if got := sim.KeyNotes(spec, sim.LLMOptions{Getenv: func(n string) string { return env[n] }}); len(got) != 2 || !strings.HasPrefix(got[0], "--agent llm:a: AGENT_KEY is unset or empty, so its requests to http://localhost:8000/v1 ") {
		t.Errorf("KeyNotes with a blank agent key = %q", got)
	}
	spec.User = "scripted"
	env["AGENT_KEY"] = "k"
	if got := sim.KeyNotes(spec, sim.LLMOptions{Getenv: func(n string) string { return env[n] }}); len(got) != 0 {
		t.Errorf("KeyNotes with a scripted user = %q, want none", got)
	}
}

// A run recorded with a key in key_env (before Plan refused one) does not
// build, and the error does not show it.
func TestNewParticipants_ErrRecordedKeyEnvNotAName(t *testing.T) {
	spec := emobench.RunSpec{Agent: "llm:a", User: "scripted", BaseURL: "http://localhost:8000/v1",
		AgentLLM: &emobench.LLMRole{APIKeyEnv: "sk-proj-Zq81xVb2Lm93Kd04"}}
	_, _, err := sim.NewParticipants(spec, sim.LLMOptions{Getenv: func(string) string { return "" }})
	want := "agent llm:a: the run's key variable (key_env in its config) is not an environment variable name and may be a pasted key (not shown); if so, revoke that key: the run's config holds it"
	if emobench.ErrorCode(err) != emobench.EINVALID || err.Error() != want {
		t.Errorf("err = %v, want EINVALID %q", err, want)
	}
}

package emobench_test

import (
	"encoding/json"
	"testing"

	"github.com/emobench/emobench"
)

func TestRunSpec_EncodeDecode(t *testing.T) {
	temp := 0.5
	spec := emobench.RunSpec{Domain: "retail", Condition: "with-emotions", Agent: "oracle", User: "scripted", Trials: 2,
		Tasks: []string{"retail-test-000"}, Split: "test", Seed: 3, MaxSteps: 30, MaxErrors: 5, Shard: "1/4", Temperature: &temp}
	// The stored format: these bytes are in every native run's runs.config.
	want := `{"domain":"retail","condition":"with-emotions","agent":"oracle","user":"scripted","trials":2,"tasks":["retail-test-000"],"split":"test","seed":3,"max_steps":30,"max_errors":5,"shard":"1/4","temperature":0.5}`
	if got := string(spec.Encode()); got != want {
		t.Fatalf("Encode = %s\nwant %s", got, want)
	}
	back, err := emobench.DecodeRunSpec(json.RawMessage(want))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(back.Encode()); got != want {
		t.Errorf("round trip = %s", got)
	}
}

func TestRunSpec_SameRun(t *testing.T) {
	a := emobench.RunSpec{Domain: "retail", Agent: "oracle", Trials: 2, Shard: "0/2"}
	b := a
	b.Shard = "1/2"
	if !a.SameRun(b) {
		t.Error("two shards of one run: SameRun = false")
	}
	b.Seed = 9
	if a.SameRun(b) {
		t.Error("specs with different seeds: SameRun = true")
	}
	if a.Whole().Shard != "" || a.Shard != "0/2" {
		t.Errorf("Whole changed its receiver or kept the shard: %+v", a)
	}
}

func TestDecodeRunSpec_ErrInvalid(t *testing.T) {
	_, err := emobench.DecodeRunSpec(json.RawMessage(`{"trials":"two"}`))
	if got := emobench.ErrorCode(err); got != emobench.EINVALID {
		t.Fatalf("code %q (err %v), want invalid", got, err)
	}
}

// The per-role LLM settings round-trip; a config without them (written
// before they were recorded) decodes with nil roles.
func TestRunSpec_LLMRoles(t *testing.T) {
	zero, warm := 0.0, 0.7
	spec := emobench.RunSpec{Domain: "retail", Agent: "llm:a", User: "llm:u", Trials: 1,
		AgentLLM:          &emobench.LLMRole{BaseURL: "http://a/v1", APIKeyEnv: "AGENT_KEY", Temperature: &zero},
		UserLLM:           &emobench.LLMRole{APIKeyEnv: "OPENAI_API_KEY", Temperature: &warm},
		ParallelToolCalls: "first"}
	want := `{"domain":"retail","condition":"","agent":"llm:a","user":"llm:u","trials":1,"tasks":null,"split":"","seed":0,"max_steps":0,"max_errors":0,` +
		`"agent_llm":{"base_url":"http://a/v1","key_env":"AGENT_KEY","temperature":0},"user_llm":{"key_env":"OPENAI_API_KEY","temperature":0.7},"parallel_tool_calls":"first"}`
	if got := string(spec.Encode()); got != want {
		t.Fatalf("Encode = %s\nwant %s", got, want)
	}
	back, err := emobench.DecodeRunSpec(json.RawMessage(want))
	if err != nil {
		t.Fatal(err)
	}
	if !back.SameRun(spec) || *back.AgentLLM.Temperature != 0 || back.UserLLM.BaseURL != "" {
		t.Errorf("round trip = %+v", back)
	}
	old, err := emobench.DecodeRunSpec(json.RawMessage(`{"domain":"retail","agent":"llm:a","base_url":"http://x/v1","temperature":0.5}`))
	if err != nil || old.AgentLLM != nil || old.UserLLM != nil || old.ParallelToolCalls != "" {
		t.Errorf("old config = %+v, %v; want no roles", old, err)
	}
}

// TestRunSpec_SameRunSettingsAdded: shards that differ only in their
// episode timeout, or an older config without parallel_tool_calls next to
// one recording "allow", are one run; "first" is another.
func TestRunSpec_SameRunSettingsAdded(t *testing.T) {
	old := emobench.RunSpec{Domain: "retail", Agent: "oracle", User: "scripted", Trials: 1, Shard: "1/2"}
	now := old
	now.Shard, now.ParallelToolCalls, now.EpisodeTimeout = "2/2", "allow", "20m0s"
	if !old.SameRun(now) {
		t.Fatalf("%s and %s: want the same run", old.Encode(), now.Encode())
	}
	now.ParallelToolCalls = "first"
	if old.SameRun(now) {
		t.Fatalf("%s and %s: want different runs", old.Encode(), now.Encode())
	}
}

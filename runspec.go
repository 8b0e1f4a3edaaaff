package emobench

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// SourceNative is the Run.SourceFormat of runs made by `emobench run`; every
// other value names the file format a run was imported from.
const SourceNative = "native"

// RunSpec is what a native run records in runs.config, so that --resume can
// rebuild it and merge can join its shards. It holds no secret: API keys
// never reach the db. The JSON keys are the stored format; a field added
// later must be omitempty so that older configs compare equal.
type RunSpec struct {
	Domain    string   `json:"domain"`
	Condition string   `json:"condition"` // with-emotions or without-emotions
	Agent     string   `json:"agent"`     // llm:MODEL, oracle, noisy:RATE, nothing or careless
	User      string   `json:"user"`      // llm:MODEL or scripted
	Trials    int      `json:"trials"`    // trials per task, ≥ 1
	Tasks     []string `json:"tasks"`     // task ids, in run order
	Split     string   `json:"split"`     // test or train
	Seed      uint64   `json:"seed"`      // the run seed; episode seeds derive from it
	MaxSteps  int      `json:"max_steps"`
	MaxErrors int      `json:"max_errors"`
	BaseURL   string   `json:"base_url,omitempty"` // OpenAI-compatible endpoint; empty for the default
	// Shard is "I/N" when the run holds only the pairs of shard I of N;
	// empty for the whole run.
	Shard       string   `json:"shard,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"` // nil for the server's default
	// TaskSource says where TaskSet's tasks are: "file" (a tasks file,
	// run --tasks-file) or "db" (a stored task set, run --task-set);
	// empty for the domain's own tasks, or a file (tracer collect).
	TaskSource string `json:"task_source,omitempty"`
	// UserAbandon is when the user may end with ###UNSATISFIED###:
	// always, with-emotions or never; empty means with-emotions.
	UserAbandon string `json:"user_abandon,omitempty"`
	// AgentLLM and UserLLM are the settings of an llm: agent and user;
	// nil for a built-in participant and in configs written before they
	// were recorded, where BaseURL, OPENAI_API_KEY and Temperature hold for
	// both roles.
	AgentLLM *LLMRole `json:"agent_llm,omitempty"`
	UserLLM  *LLMRole `json:"user_llm,omitempty"`
	// ParallelToolCalls is what the agent may do with several tool calls
	// in one message: "allow" runs them all, "first" only the first. It is
	// recorded for every agent (the built-in ones make one call a
	// message); empty (older configs, which recorded it for llm: agents
	// only) means allow.
	ParallelToolCalls string `json:"parallel_tool_calls,omitempty"`
	// UserStrategy is how an llm: user writes each message: llm, react,
	// verify or reflection (τ-bench's user strategies); empty (a scripted
	// user, or configs written before it was recorded) means llm.
	UserStrategy string `json:"user_strategy,omitempty"`
	// Judge is the model that decides NL assertions, llm:MODEL; empty for
	// none (the assertions are not checked). JudgeLLM holds its settings.
	Judge    string   `json:"judge,omitempty"`
	JudgeLLM *LLMRole `json:"judge_llm,omitempty"`
	// TaskSet names the tasks a Tracer collection ran instead of the
	// domain's own: the tasks file's path as given (or the task set's
	// name), with TaskSetSHA256, the hex sha256 of the file's bytes; empty
	// for a run of the domain's tasks.
	TaskSet       string `json:"task_set,omitempty"`
	TaskSetSHA256 string `json:"task_set_sha256,omitempty"`
	// EpisodeTimeout is the wall-clock bound of one episode, as a Go
	// duration ("10m0s"), or "none" for no bound; empty in configs
	// written before it was recorded, whose episodes ran with the
	// command's --episode-timeout.
	EpisodeTimeout string `json:"episode_timeout,omitempty"`
	// Preset is the protocol preset the run started from (emobench, tau2
	// or tau-emotion); empty in configs written before presets, which ran
	// emobench's protocol of the time. StepCount, ErrorCount, Opening,
	// Greeting and UnsatisfiedReward record the protocol it ran (see sim's
	// Protocol); empty (nil) in those configs: agent actions, consecutive
	// errors, the user first without a greeting, −1.
	Preset            string   `json:"preset,omitempty"`
	StepCount         string   `json:"step_count,omitempty"`
	ErrorCount        string   `json:"error_count,omitempty"`
	Opening           string   `json:"opening,omitempty"`
	Greeting          string   `json:"greeting,omitempty"`
	UnsatisfiedReward *float64 `json:"unsatisfied_reward,omitempty"`
	// OriginSeal marks a config written by emobench run on the machine
	// that can verify it: an HMAC-SHA256 (hex) of the run's endpoints and
	// key variable names under a key of that machine (workbench's
	// origin.go). Resume sends keys where a config says only when its seal
	// verifies; a config from anywhere else (a shared or merged .db, an
	// older emobench) has none that does. Empty when not sealed.
	OriginSeal string `json:"origin_seal,omitempty"`
	// Pair is the id the runs one command started share (run, tracer
	// collect, demo): its with- and without-emotions runs of one agent
	// model, user model and domain are the pair stats emotions compares.
	// Empty in configs written before it was recorded.
	Pair string `json:"pair,omitempty"`
}

// LLMRole is how one role (agent or user) reaches its model. It names the
// environment variable holding the API key, never the key.
type LLMRole struct {
	BaseURL string `json:"base_url,omitempty"` // OpenAI-compatible endpoint; empty for the default
	// APIKeyEnv names the variable holding the key; empty for
	// OPENAI_API_KEY. Its JSON key avoids "api_key", which redact takes
	// for a credential.
	APIKeyEnv   string   `json:"key_env,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"` // nil for the server's default
}

// DecodeRunSpec decodes a stored runs.config. It fails, with the JSON
// error, when raw is not an object of RunSpec's shape; unknown keys are
// ignored.
func DecodeRunSpec(raw json.RawMessage) (RunSpec, error) {
	var s RunSpec
	if err := json.Unmarshal(raw, &s); err != nil {
		return RunSpec{}, Errorf(EINVALID, "run config: %v", err)
	}
	return s, nil
}

// Encode returns the spec as runs.config stores it.
func (s RunSpec) Encode() json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("emobench: RunSpec does not encode: %v", err)) // only plain fields: unreachable
	}
	return b
}

// Whole returns the spec of the whole run a shard belongs to: s without
// its Shard.
func (s RunSpec) Whole() RunSpec {
	s.Shard = ""
	return s
}

// SameRun reports whether s and o describe the same run, shards of one run
// included: they are equal in every setting but Shard, Pair (each shard's
// command has its own), EpisodeTimeout (a shard may be given more time
// without changing what it measures) and OriginSeal (shards may run on
// several machines), an empty ParallelToolCalls being "allow".
func (s RunSpec) SameRun(o RunSpec) bool {
	s.EpisodeTimeout, o.EpisodeTimeout = "", ""
	s.Pair, o.Pair = "", ""
	s.OriginSeal, o.OriginSeal = "", ""
	for _, p := range []*RunSpec{&s, &o} {
		if p.ParallelToolCalls == "" {
			p.ParallelToolCalls = "allow" // as configs before it was recorded for every agent mean
		}
	}
	return bytes.Equal(s.Whole().Encode(), o.Whole().Encode())
}

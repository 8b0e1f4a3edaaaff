package sim

import (
	"cmp"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/emobench/emobench"
)

// RunOptions are the settings of new benchmark runs: one run per (domain,
// condition). Plan checks them; the run command copies its flags here.
type RunOptions struct {
	Domains    []Domain             // in run order; at least one
	Conditions []emobench.Condition // with-emotions and/or without-emotions
	Agent      string               // llm:MODEL, oracle, noisy:RATE, nothing or careless
	User       string               // llm:MODEL or scripted
	Trials     int                  // trials per task, ≥ 1
	// Tasks chooses the split's tasks: "" for all, a number N for the
	// first N, or comma-separated ids (ids of other domains are skipped).
	Tasks string
	Split emobench.Split
	Seed  uint64
	// Preset names the protocol preset (LookupPreset; "" is emobench's);
	// every setting below left zero (nil, "") takes the preset's value.
	Preset    string
	MaxSteps  int // steps per episode, ≥ 1 (the preset counts them); 0: the preset's
	MaxErrors int // tool errors that end an episode, ≥ 1; 0: the preset's
	// BaseURL is the endpoint of both roles unless AgentLLM or UserLLM
	// gives one; "" is DefaultLLMBaseURL.
	BaseURL string
	Shard   string // "I/N" or "" (see ParseShard)
	// Temperature is both roles' temperature unless AgentLLM or UserLLM
	// gives one; nil means DefaultAgentTemperature and
	// DefaultUserTemperature, a negative value the server's default.
	Temperature *float64
	// AgentLLM and UserLLM are per-role settings of llm: participants:
	// an empty BaseURL falls back to BaseURL, an empty APIKeyEnv is
	// DefaultAPIKeyEnv, a nil Temperature falls back to Temperature and a
	// negative one is the server's default. Plan records them in the spec.
	AgentLLM, UserLLM emobench.LLMRole
	// ParallelToolCalls is ParallelToolCallsAllow (also when empty) or
	// ParallelToolCallsFirst: what an agent may do with several tool calls
	// in one message. Plan records it for every agent.
	ParallelToolCalls string
	// EpisodeTimeout bounds each episode's wall-clock time:
	// DefaultEpisodeTimeout when 0, none when negative. Plan records it
	// (RunSpec.EpisodeTimeout).
	EpisodeTimeout time.Duration
	// Name names the runs: "" gives AGENT-DOMAIN-CONDITION, a name for one
	// run is its name, and for several runs NAME-DOMAIN-CONDITION.
	Name string
	// UserAbandon is when the user may end with ###UNSATISFIED###
	// (ParseUserAbandon); "" means the preset's.
	UserAbandon string
	// UserStrategy is how an llm: user writes each message
	// (ParseUserStrategy); "" means llm. The scripted user has no
	// strategy: it takes only llm (or ""), its spec records none and its
	// Run.UserStrategy is "scripted", as a built-in agent's AgentStrategy
	// is its name.
	UserStrategy string
	// Judge is the model deciding NL assertions, llm:MODEL; "" for none.
	// JudgeLLM are its settings, as AgentLLM's (its temperature defaults
	// to DefaultJudgeTemperature, not to Temperature).
	Judge    string
	JudgeLLM emobench.LLMRole
	// LLM configures llm: participants; Plan builds them once to check them.
	LLM LLMOptions
	// Now stamps Run.CreatedAt; nil means time.Now.
	Now func() time.Time
}

// PlannedRun is one run Plan chose: its stored spec and its description,
// ready for the db.
type PlannedRun struct {
	Spec emobench.RunSpec
	Run  emobench.Run
}

// Plan turns options into one run per (domain, condition), in the order of
// opts.Domains then opts.Conditions. A domain none of whose tasks --tasks
// names gets no run. Errors are *emobench.Error with code EINVALID, worded
// for the command line: a setting out of range, a participant that cannot
// be built, a task id found in no domain.
func Plan(opts RunOptions) ([]PlannedRun, error) {
	if len(opts.Domains) == 0 {
		return nil, invalidf("run needs a domain or a run to resume")
	}
	if opts.Agent == "" {
		return nil, settingf("agent", "is needed: llm:MODEL, oracle, noisy:RATE, nothing or careless")
	}
	preset, err := LookupPreset(opts.Preset)
	if err != nil {
		return nil, err
	}
	abandon := preset.UserAbandon
	if opts.UserAbandon != "" {
		if abandon, err = ParseUserAbandon(opts.UserAbandon); err != nil {
			return nil, err
		}
	}
	if opts.MaxErrors != 0 && preset.Protocol.ErrorCount == ErrorCountNone {
		// An error limit given explicitly applies: to errors in a row.
		preset.Protocol.ErrorCount = ErrorCountConsecutive
	}
	opts.MaxSteps = cmp.Or(opts.MaxSteps, preset.MaxSteps)
	opts.MaxErrors = cmp.Or(opts.MaxErrors, preset.MaxErrors)
	opts.ParallelToolCalls = cmp.Or(opts.ParallelToolCalls, preset.ParallelToolCalls)
	strategy, err := ParseUserStrategy(opts.UserStrategy)
	if err != nil {
		return nil, err
	}
	if strategy != UserStrategyLLM && !isLLM(opts.User) {
		return nil, settingf("user-strategy", "%s needs an llm:MODEL user, not %q", strategy, opts.User)
	}
	if err := checkTrials(opts.Trials); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"max-steps", opts.MaxSteps}, {"max-errors", opts.MaxErrors}} {
		if f.v < 1 { // a flag given as 0 or less (0 left unset takes the preset's)
			return nil, settingf(f.name, "%d: need at least 1", f.v)
		}
	}
	if opts.Split != emobench.SplitTest && opts.Split != emobench.SplitTrain {
		return nil, settingf("split", "%q is not test or train", opts.Split)
	}
	if _, _, err := ParseShard(opts.Shard); err != nil {
		return nil, err
	}
	parallel := opts.ParallelToolCalls
	switch parallel {
	case "":
		parallel = ParallelToolCallsAllow
	case ParallelToolCallsAllow, ParallelToolCallsFirst:
	default:
		return nil, settingf("parallel-tool-calls", "%q is not allow or first", parallel)
	}
	if opts.Judge != "" && !isLLM(opts.Judge) {
		return nil, settingf("judge", "%q is not llm:MODEL", opts.Judge)
	}
	for _, r := range []struct{ flag, env string }{{"agent-api-key-env", opts.AgentLLM.APIKeyEnv}, {"user-api-key-env", opts.UserLLM.APIKeyEnv}, {"judge-api-key-env", opts.JudgeLLM.APIKeyEnv}} {
		if r.env != "" && !envName.MatchString(r.env) {
			// The value may be the key itself: it is neither shown nor stored.
			return nil, settingf(r.flag, "takes the name of the environment variable holding the key ([A-Za-z_][A-Za-z0-9_]*, e.g. OPENAI_API_KEY), not the key: the value given is not a name (it is not shown)")
		}
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	var plans []PlannedRun
	found := map[string]bool{}
	for _, dom := range opts.Domains {
		tasks, err := SelectTasks(dom, opts.Split, opts.Tasks)
		if err != nil {
			return nil, err
		}
		for _, id := range tasks {
			found[id] = true
		}
		if len(tasks) == 0 {
			continue // --tasks names only other domains' tasks
		}
		for _, cond := range opts.Conditions {
			spec := emobench.RunSpec{
				Domain: dom.Name(), Condition: string(cond), Agent: opts.Agent, User: opts.User,
				Trials: opts.Trials, Tasks: tasks, Split: string(opts.Split), Seed: opts.Seed,
				MaxSteps: opts.MaxSteps, MaxErrors: opts.MaxErrors, BaseURL: opts.BaseURL,
				Shard: opts.Shard, UserAbandon: string(abandon), // recorded resolved: see ResumeSpec
				ParallelToolCalls: parallel, EpisodeTimeout: FormatEpisodeTimeout(opts.EpisodeTimeout),
				Preset: preset.Name, StepCount: preset.Protocol.StepCount, ErrorCount: preset.Protocol.ErrorCount,
				Opening: preset.Protocol.Opening, Greeting: preset.Protocol.Greeting, UnsatisfiedReward: preset.Protocol.UnsatisfiedReward,
			}
			if isLLM(opts.Agent) {
				spec.AgentLLM = plannedRole(opts.AgentLLM, opts.Temperature, preset.AgentTemperature)
			}
			if isLLM(opts.User) {
				spec.UserLLM = plannedRole(opts.UserLLM, opts.Temperature, preset.UserTemperature)
				spec.UserStrategy = string(strategy)
			}
			if opts.Judge != "" {
				spec.Judge = opts.Judge
				spec.JudgeLLM = plannedRole(opts.JudgeLLM, nil, temperature(DefaultJudgeTemperature))
			}
			if _, _, err := NewParticipants(spec, opts.LLM); err != nil {
				return nil, err
			}
			if _, err := NewJudge(spec, opts.LLM); err != nil {
				return nil, err
			}
			plans = append(plans, PlannedRun{Spec: spec, Run: NewRun(spec, now())})
		}
	}
	if _, err := strconv.Atoi(opts.Tasks); err != nil && opts.Tasks != "" {
		var names []string
		for _, d := range opts.Domains {
			names = append(names, d.Name())
		}
		for _, id := range splitIDs(opts.Tasks) {
			if !found[id] {
				return nil, settingf("tasks", ": no %s task %q in domains %s", opts.Split, id, strings.Join(names, ", "))
			}
		}
	}
	for i := range plans {
		switch {
		case opts.Name != "" && len(plans) == 1:
			plans[i].Run.Name = opts.Name
		case opts.Name != "":
			plans[i].Run.Name = fmt.Sprintf("%s-%s-%s", opts.Name, plans[i].Spec.Domain, plans[i].Spec.Condition)
		}
	}
	return plans, nil
}

// ParseConditions reads the run command's --condition: with-emotions,
// without-emotions, or both (the two, in that order). Anything else is an
// EINVALID error.
func ParseConditions(s string) ([]emobench.Condition, error) {
	switch s {
	case "both":
		return []emobench.Condition{emobench.ConditionWithEmotions, emobench.ConditionWithoutEmotions}, nil
	case string(emobench.ConditionWithEmotions), string(emobench.ConditionWithoutEmotions):
		return []emobench.Condition{emobench.Condition(s)}, nil
	}
	return nil, settingf("condition", "%q is not one of with-emotions, without-emotions, both", s)
}

// NewRun describes the native run of spec, created at created (stored in
// UTC): named AGENT-DOMAIN-CONDITION, with the spec as its config.
func NewRun(spec emobench.RunSpec, created time.Time) emobench.Run {
	agentModel, agentStrategy := participantDescription(spec.Agent, "tool-calling")
	userModel, userStrategy := participantDescription(spec.User, cmp.Or(spec.UserStrategy, string(UserStrategyLLM)))
	return emobench.Run{
		Name: fmt.Sprintf("%s-%s-%s", spec.Agent, spec.Domain, spec.Condition), SourceFormat: emobench.SourceNative,
		AgentModel: agentModel, AgentStrategy: agentStrategy, UserModel: userModel, UserStrategy: userStrategy,
		Domain: spec.Domain, Condition: emobench.Condition(spec.Condition), CreatedAt: created.UTC(), Config: spec.Encode(),
	}
}

// participantDescription splits "llm:gpt-4.1" into model and strategy; a
// built-in simulator is its own model.
func participantDescription(spec, llmStrategy string) (model, strategy string) {
	if m, ok := strings.CutPrefix(spec, "llm:"); ok {
		return m, llmStrategy
	}
	name, _, _ := strings.Cut(spec, ":")
	return spec, name
}

// SelectTasks returns the ids of dom's tasks of split chosen by spec: all
// for "", the first N for a number N ≥ 1, or those of a comma-separated
// list of ids that dom has (ids of other domains are for those domains),
// in the order given. A domain without tasks of split, or N < 1, is an
// EINVALID error.
func SelectTasks(dom Domain, split emobench.Split, spec string) ([]string, error) {
	var ids []string
	for _, t := range dom.Tasks() {
		if t.Split == split {
			ids = append(ids, t.ID)
		}
	}
	if len(ids) == 0 {
		return nil, invalidf("domain %s has no %s tasks", dom.Name(), split)
	}
	if spec == "" {
		return ids, nil
	}
	if n, err := strconv.Atoi(spec); err == nil {
		if n < 1 {
			return nil, settingf("tasks", "%d: need at least 1", n)
		}
		return ids[:min(n, len(ids))], nil
	}
	known := map[string]bool{}
	for _, id := range ids {
		known[id] = true
	}
	var chosen []string
	for _, id := range splitIDs(spec) {
		if known[id] {
			chosen = append(chosen, id)
		}
	}
	return chosen, nil
}

// splitIDs splits a comma-separated list, dropping blanks.
func splitIDs(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// ParseShard reads "I/N" (0 ≤ I < N) as shard I of N; "" is the whole run
// (shard 0 of 1). Anything else is an EINVALID error.
func ParseShard(s string) (shard, shards int, err error) {
	if s == "" {
		return 0, 1, nil
	}
	i, n, ok := strings.Cut(s, "/")
	shard, err1 := strconv.Atoi(i)
	shards, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || shards < 1 || shard < 0 || shard >= shards {
		return 0, 0, settingf("shard", "%q: want I/N with 0 <= I < N, e.g. 0/4", s)
	}
	return shard, shards, nil
}

// InShard reports whether the (task, trial) pair belongs to shard of
// shards. Pairs are assigned by a hash (EpisodeSeed with run seed 0), so
// the split depends neither on the order nor on the number of tasks
// chosen, and every pair is in exactly one shard.
func InShard(taskID string, trial, shard, shards int) bool {
	return EpisodeSeed(0, taskID, trial)%uint64(shards) == uint64(shard)
}

// MissingJobs returns the jobs of spec's shard that stored does not hold,
// trial by trial in the spec's task order. stored reports whether a (task
// id, trial) pair is already stored; nil means none is. A task the spec
// names that dom no longer has is an error naming it, as is a number of
// trials outside [1, MaxTrials] (a run config from another file).
func MissingJobs(dom Domain, spec emobench.RunSpec, stored func(taskID string, trial int) bool) ([]Job, error) {
	byID := map[string]*emobench.TaskSpec{}
	tasks := dom.Tasks()
	for i := range tasks {
		byID[tasks[i].ID] = &tasks[i]
	}
	shard, shards, err := ParseShard(spec.Shard)
	if err != nil {
		return nil, err
	}
	if err := checkTrials(spec.Trials); err != nil {
		return nil, err
	}
	var jobs []Job
	for trial := 0; trial < spec.Trials; trial++ {
		for _, id := range spec.Tasks {
			task, ok := byID[id]
			if !ok {
				return nil, fmt.Errorf("domain %s has no task %q any more", spec.Domain, id)
			}
			if (stored == nil || !stored(id, trial)) && InShard(id, trial, shard, shards) {
				jobs = append(jobs, Job{Task: task, Trial: trial})
			}
		}
	}
	return jobs, nil
}

// ResumeSpec returns the recorded spec of run, to run the pairs it lacks.
// A run not made by emobench run (SourceNative) is an EINVALID error; a
// config that does not decode is a plain error (the db, not the command,
// is at fault). Both name the run.
func ResumeSpec(run emobench.Run) (emobench.RunSpec, error) {
	if run.SourceFormat != emobench.SourceNative {
		return emobench.RunSpec{}, invalidf("run %d (%s) was ingested from a file, not run by emobench: nothing to resume", run.ID, run.Name)
	}
	spec, err := emobench.DecodeRunSpec(run.Config)
	if err != nil {
		return emobench.RunSpec{}, fmt.Errorf("run %d (%s): %v", run.ID, run.Name, err)
	}
	if spec.UserAbandon == "" {
		// Recorded before user_abandon existed, when the user could
		// abandon under either condition: resume it as it began.
		spec.UserAbandon = string(AbandonAlways)
	}
	return spec, nil
}

// FormatEpisodeTimeout is how RunSpec.EpisodeTimeout records an episode
// timeout d: DefaultEpisodeTimeout when d is 0, "none" when d is negative,
// else d as a Go duration ("10m0s").
func FormatEpisodeTimeout(d time.Duration) string {
	switch {
	case d == 0:
		d = DefaultEpisodeTimeout
	case d < 0:
		return "none"
	}
	return d.String()
}

// SpecEpisodeTimeout returns the episode timeout spec records: a
// negative duration for "none", 0 when it records none (an older config)
// and an EINVALID error when the value is neither.
func SpecEpisodeTimeout(spec emobench.RunSpec) (time.Duration, error) {
	switch spec.EpisodeTimeout {
	case "":
		return 0, nil
	case "none":
		return -1, nil
	}
	d, err := time.ParseDuration(spec.EpisodeTimeout)
	if err != nil || d <= 0 {
		return 0, invalidf("run config: episode_timeout %q is not a positive duration or none", spec.EpisodeTimeout)
	}
	return d, nil
}

// Defaults of llm: participants.
const (
	// DefaultAPIKeyEnv is the variable that holds a role's API key when
	// the run names none.
	DefaultAPIKeyEnv = "OPENAI_API_KEY"
	// DefaultAgentTemperature is τ-bench's and τ²-bench's agent
	// temperature.
	DefaultAgentTemperature = 0.0
	// DefaultUserTemperature is τ²-bench's user temperature
	// (DEFAULT_LLM_TEMPERATURE_USER); τ-bench sends none, which is 1 on
	// OpenAI.
	DefaultUserTemperature = 0.0
	// DefaultJudgeTemperature is the NL-assertion judge's temperature.
	DefaultJudgeTemperature = 0.0
)

func isLLM(participant string) bool { return strings.HasPrefix(participant, "llm:") }

// plannedRole is the recorded form of a role's settings: the key's
// variable named, the temperature resolved (nil for the server's). An
// empty BaseURL stays empty, so the spec's BaseURL (which --resume
// --base-url may move) holds for the role.
func plannedRole(r emobench.LLMRole, both *float64, def *float64) *emobench.LLMRole {
	if r.APIKeyEnv == "" {
		r.APIKeyEnv = DefaultAPIKeyEnv
	}
	t := r.Temperature
	if t == nil {
		t = both
	}
	if t == nil {
		t = def
	}
	r.Temperature = nil
	if t != nil && *t >= 0 {
		v := *t
		r.Temperature = &v
	}
	return &r
}

// roleSettings returns the settings an llm: role runs with: its recorded
// ones, or for a spec recorded before roles were (role nil) the spec's
// endpoint and temperature with DefaultAPIKeyEnv.
func roleSettings(spec emobench.RunSpec, role *emobench.LLMRole) emobench.LLMRole {
	if role == nil {
		return emobench.LLMRole{BaseURL: spec.BaseURL, APIKeyEnv: DefaultAPIKeyEnv, Temperature: spec.Temperature}
	}
	r := *role
	if r.BaseURL == "" {
		r.BaseURL = spec.BaseURL
	}
	if r.APIKeyEnv == "" {
		r.APIKeyEnv = DefaultAPIKeyEnv
	}
	return r
}

// LLMOptions configure llm: participants beyond what a RunSpec records
// (the endpoints, key variables and temperatures come from the spec).
type LLMOptions struct {
	// Getenv returns the value of the variable a role names for its key
	// (cmd passes os.Getenv); nil gives every role APIKey.
	Getenv func(name string) string
	// APIKey is the bearer token of every role when Getenv is nil; "" for
	// servers that need none.
	APIKey string
	// Timeout bounds each request attempt; 0 means DefaultLLMTimeout.
	Timeout time.Duration
	// PriceFile is a JSON price table (LoadPriceTable) for costs; "" leaves
	// costs unknown.
	PriceFile string
	// Note, when not nil, is every client's LLMConfig.Note.
	Note func(note string)
}

func (o LLMOptions) key(env string) string {
	if o.Getenv == nil {
		return o.APIKey
	}
	return o.Getenv(env)
}

// NewParticipants builds the agent and the user simulator spec asks for,
// each llm: role with its own endpoint, key (read through llm.Getenv from
// the variable the spec names), temperature and, for the agent, parallel
// tool-call setting. A spec that names neither a built-in simulator nor
// llm:MODEL, a noise rate outside [0, 1], a parallel tool-call setting
// other than allow or first, or OpenAI's endpoint without an API key is an
// EINVALID error; an unreadable price file is an error naming it.
func NewParticipants(spec emobench.RunSpec, llm LLMOptions) (Agent, UserSimulator, error) {
	agent, err := newAgent(spec, llm)
	if err != nil {
		return nil, nil, err
	}
	abandon, err := ParseUserAbandon(spec.UserAbandon)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case spec.User == "scripted":
		if spec.UserStrategy != "" && spec.UserStrategy != string(UserStrategyLLM) {
			return nil, nil, settingf("user-strategy", "%s needs an llm:MODEL user, not scripted", spec.UserStrategy)
		}
		return agent, ScriptedUser{Abandon: abandon}, nil
	case isLLM(spec.User):
		client, err := NewRoleClient("user", strings.TrimPrefix(spec.User, "llm:"), roleSettings(spec, spec.UserLLM), llm)
		if err != nil {
			return nil, nil, err
		}
		strategy, err := ParseUserStrategy(spec.UserStrategy)
		if err != nil {
			return nil, nil, err
		}
		user := NewLLMUser(client)
		user.Abandon, user.Strategy = abandon, strategy
		return agent, user, nil
	}
	return nil, nil, settingf("user", "%q is not llm:MODEL or scripted", spec.User)
}

// NewJudge builds the NL-assertion judge spec records: nil (no judge) when
// spec.Judge is empty, else an *LLMJudge with the spec's JudgeLLM settings
// (its endpoint defaulting to spec.BaseURL). A judge other than llm:MODEL
// is an EINVALID error, as are NewParticipants' llm: errors.
func NewJudge(spec emobench.RunSpec, llm LLMOptions) (Judge, error) {
	if spec.Judge == "" {
		return nil, nil
	}
	if !isLLM(spec.Judge) {
		return nil, settingf("judge", "%q is not llm:MODEL", spec.Judge)
	}
	role := emobench.LLMRole{Temperature: new(float64)} // a judge recorded without settings: temperature 0
	if spec.JudgeLLM != nil {
		role = *spec.JudgeLLM
	}
	client, err := NewRoleClient("judge", strings.TrimPrefix(spec.Judge, "llm:"), roleSettings(spec, &role), llm)
	if err != nil {
		return nil, err
	}
	return &LLMJudge{Client: client}, nil
}

func newAgent(spec emobench.RunSpec, llm LLMOptions) (Agent, error) {
	switch {
	case spec.Agent == "oracle":
		return Oracle{}, nil
	case spec.Agent == "nothing":
		return Nothing{}, nil
	case spec.Agent == "careless":
		return Careless{}, nil
	case strings.HasPrefix(spec.Agent, "noisy:"):
		rate, err := strconv.ParseFloat(strings.TrimPrefix(spec.Agent, "noisy:"), 64)
		if err != nil || rate < 0 || rate > 1 || rate != rate {
			return nil, settingf("agent", "%q: the noise rate must be a number in [0, 1]", spec.Agent)
		}
		return Noisy{Rate: rate}, nil
	case isLLM(spec.Agent):
		client, err := NewRoleClient("agent", strings.TrimPrefix(spec.Agent, "llm:"), roleSettings(spec, spec.AgentLLM), llm)
		if err != nil {
			return nil, err
		}
		a := NewLLMAgent(client)
		switch spec.ParallelToolCalls {
		case "", ParallelToolCallsAllow:
		case ParallelToolCallsFirst:
			a.ParallelToolCalls = ParallelToolCallsFirst
		default:
			return nil, settingf("parallel-tool-calls", "%q is not allow or first", spec.ParallelToolCalls)
		}
		return a, nil
	}
	return nil, settingf("agent", "%q is not llm:MODEL, oracle or noisy:RATE (nor the validity agents nothing and careless)", spec.Agent)
}

// NewRoleClient is the one constructor of an LLM client from a role's
// settings, for every llm: role (run's agent, user and judge, evaluate's
// and tracer audit's judges, tracer generate's paraphraser): model is the
// name after "llm:"; role gives the endpoint ("" for DefaultLLMBaseURL),
// the name of the environment variable holding the key ("" for
// DefaultAPIKeyEnv; read through llm.Getenv) and the temperature (nil for
// the server's default); llm the per-request timeout (0 for
// DefaultLLMTimeout), the price file and the note sink. name names the
// role in errors ("agent"; cmd adds the dashes). No model, a key variable that is not a
// variable name, and OpenAI's endpoint without a key are EINVALID errors;
// an unreadable price file is an error naming it.
func NewRoleClient(flag, model string, role emobench.LLMRole, llm LLMOptions) (*LLMClient, error) {
	if role.APIKeyEnv == "" {
		role.APIKeyEnv = DefaultAPIKeyEnv
	}
	if model == "" {
		return nil, invalidf("llm: needs a model name, e.g. llm:gpt-4.1")
	}
	if !envName.MatchString(role.APIKeyEnv) {
		// A run recorded before Plan checked the name: it may be a key.
		return nil, settingf(flag, "llm:%s: the run's key variable (key_env in its config) is not an environment variable name and may be a pasted key (not shown); if so, revoke that key: the run's config holds it",
			model)
	}
	key := llm.key(role.APIKeyEnv)
	if IsOpenAI(role.BaseURL) && strings.TrimSpace(key) == "" {
		// Every episode would fail after its retries: say so before the first.
		return nil, settingf(flag, "llm:%s talks to %s, which needs %s; set it, or give %s-base-url or base-url (or OPENAI_BASE_URL) for a local server such as vLLM or Ollama",
			model, DefaultLLMBaseURL, role.APIKeyEnv, flag)
	}
	cfg := LLMConfig{BaseURL: role.BaseURL, APIKey: key, Model: model, Temperature: role.Temperature, Timeout: llm.Timeout, Note: llm.Note}
	if llm.PriceFile != "" {
		f, err := os.Open(llm.PriceFile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if cfg.Prices, err = LoadPriceTable(f); err != nil {
			return nil, fmt.Errorf("%s: %w", llm.PriceFile, err)
		}
	}
	return NewLLMClient(cfg)
}

// MaxTrials is the most trials per task a run may have: every (task,
// trial) pair is planned up front, and a count such as 2^63−1 would
// exhaust memory before the first episode.
const MaxTrials = 10000

// checkTrials refuses a number of trials per task outside [1, MaxTrials],
// with one error saying the bound.
func checkTrials(n int) error {
	switch {
	case n < 1:
		return settingf("trials", "%d: need at least 1", n)
	case n > MaxTrials:
		return settingf("trials", "%d is too large: at most %d", n, MaxTrials)
	}
	return nil
}

// envName is what an environment variable's name may be.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// KeyNotes returns a note for each llm: role of spec whose key variable is
// unset or empty (read through llm): its requests go without an
// Authorization header, which a local server (vLLM, Ollama) accepts.
// OpenAI's endpoint without a key is NewParticipants' error instead.
func KeyNotes(spec emobench.RunSpec, llm LLMOptions) []string {
	var notes []string
	for _, r := range []struct {
		flag, participant string
		role              *emobench.LLMRole
	}{{"agent", spec.Agent, spec.AgentLLM}, {"user", spec.User, spec.UserLLM}, {"judge", spec.Judge, spec.JudgeLLM}} {
		if !isLLM(r.participant) {
			continue
		}
		role := roleSettings(spec, r.role)
		if strings.TrimSpace(llm.key(role.APIKeyEnv)) != "" || IsOpenAI(role.BaseURL) {
			continue
		}
		notes = append(notes, fmt.Sprintf("--%s %s: %s is unset or empty, so its requests to %s go without an Authorization header "+
			"(fine for a local server such as vLLM or Ollama; set %s if the endpoint needs a key)",
			r.flag, r.participant, role.APIKeyEnv, role.BaseURL, role.APIKeyEnv))
	}
	return notes
}

// IsOpenAI reports whether base (empty for DefaultLLMBaseURL) is OpenAI's
// API, which needs a key.
func IsOpenAI(base string) bool {
	u, err := url.Parse(strings.TrimSpace(base))
	return base == "" || err == nil && strings.EqualFold(u.Hostname(), "api.openai.com")
}

func invalidf(format string, args ...any) error {
	return emobench.Errorf(emobench.EINVALID, format, args...)
}

// settingf is an EINVALID error about the value of the setting named
// setting (a RunOptions field, by the name a front end gives it: "trials",
// "user-strategy"), worded as emobench.Settingf words it.
func settingf(setting, format string, args ...any) error {
	return emobench.Settingf(emobench.EINVALID, setting, format, args...)
}

package sim_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// strategyScript answers an llm: agent and a user model that plays every
// part of a user strategy: drafts, checks and reflections, each from its
// own list, in order. Requests are told apart by their system prompt.
type strategyScript struct {
	mu          sync.Mutex
	agent       []llmStep
	drafts      []string
	checks      []string
	reflections []string
	seen        map[string]int
}

// callKind names what a request of the user model is for: draft, check or
// reflect; agent for the agent's.
func callKind(t *testing.T, req llmRequest) string {
	if req.Body["model"] == agentModel {
		return "agent"
	}
	sys, _ := messagesOf(t, req)[0]["content"].(string)
	switch {
	case strings.Contains(sys, "Answer with one word"):
		return "check"
	case strings.Contains(sys, "Start your answer with Reflection:"):
		return "reflect"
	}
	return "draft"
}

func (s *strategyScript) route(t *testing.T) func(int, llmRequest) llmStep {
	return func(_ int, req llmRequest) llmStep {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.seen == nil {
			s.seen = map[string]int{}
		}
		kind := callKind(t, req)
		n := s.seen[kind]
		s.seen[kind]++
		list := map[string][]string{"draft": s.drafts, "check": s.checks, "reflect": s.reflections}[kind]
		switch {
		case kind == "agent" && n < len(s.agent):
			return s.agent[n]
		case kind != "agent" && n < len(list):
			return completion(list[n])
		}
		t.Errorf("unscripted %s request %d", kind, n)
		return apiError(http.StatusBadRequest, "X-Should-Retry", "false")
	}
}

// cancelAgent looks Ana up and cancels, then reports the refund: the agent
// of cancelScript.
func cancelAgent() []llmStep { return cancelScript().agent }

func runStrategyEpisode(t *testing.T, s *strategyScript, strategy sim.UserStrategy, seed uint64) (*emobench.Trajectory, *fakeLLM) {
	t.Helper()
	f := newRoutedLLM(t, s.route(t))
	agent := sim.NewLLMAgent(newClient(t, f, func(c *sim.LLMConfig) { c.Model = agentModel }))
	user := sim.NewLLMUser(newClient(t, f, func(c *sim.LLMConfig) {
		c.Model, c.Prices = userModel, sim.PriceTable{userModel: {PromptPerMTok: 2.5, CompletionPerMTok: 10}}
	}))
	user.Strategy = strategy
	task := toyTask(angrySkeptic)
	traj, err := sim.RunEpisode(t.Context(), sim.EpisodeConfig{Domain: toyDomain{}, Task: &task, Agent: agent, User: user, WithEmotions: true, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return traj, f
}

// userContents lists the transcript's user messages.
func userContents(traj *emobench.Trajectory) []string {
	var out []string
	for _, m := range traj.Messages {
		if m.Role == emobench.RoleUser {
			out = append(out, m.Content)
		}
	}
	return out
}

// kinds lists the kind of each request, in order.
func kinds(t *testing.T, f *fakeLLM) []string {
	var out []string
	for _, r := range f.requests() {
		out = append(out, callKind(t, r))
	}
	return out
}

// agentSaw fails the test when any agent request holds one of secrets.
func agentSaw(t *testing.T, f *fakeLLM, secrets ...string) {
	t.Helper()
	for i, r := range byModel(f.requests(), agentModel) {
		for _, s := range secrets {
			if bytes.Contains(r.Raw, []byte(s)) {
				t.Errorf("agent request %d holds %q: %s", i, s, r.Raw)
			}
		}
	}
}

func reactScript() *strategyScript {
	return &strategyScript{
		agent: cancelAgent(),
		drafts: []string{
			"Thought:\nSECRET-1: the agent must not hear that I plan to be terse.\n\nMessage:\nCancel my order #W1. I am ana@example.com.",
			"Thought:\nSECRET-2: it is done; I could write ###UNSATISFIED### but I am content.\n\nMessage:\n###STOP###",
		},
	}
}

func TestLLMUser_React(t *testing.T) {
	t.Parallel()
	traj, f := runStrategyEpisode(t, reactScript(), sim.UserStrategyReact, 5)
	if diff := cmp.Diff([]string{"Cancel my order #W1. I am ana@example.com.", "###STOP###"}, userContents(traj)); diff != "" {
		t.Fatalf("user messages (-want +got):\n%s", diff)
	}
	if traj.TerminationReason != emobench.TerminationUserStop {
		t.Fatalf("termination %s, want user_stop (a marker in the thought must not count)", traj.TerminationReason)
	}
	agentSaw(t, f, "SECRET", "Thought:")
	// The user's own history holds its messages, never its thoughts.
	last := byModel(f.requests(), userModel)[1]
	if bytes.Contains(last.Raw, []byte("SECRET-1")) {
		t.Fatalf("the user's second request carries its first thought: %s", last.Raw)
	}
	sys := messagesOf(t, last)[0]["content"].(string)
	for _, s := range []string{"Thought:", "Message:", "The agent never sees this"} {
		if !strings.Contains(sys, s) {
			t.Fatalf("react prompt lacks %q:\n%s", s, sys)
		}
	}
	if got, want := len(f.requests()), 4; got != want {
		t.Fatalf("%d requests, want %d: react makes one call per message", got, want)
	}
}

// A react reply with a thought and no message cannot be split: the
// episode ends in error, and the thought reaches no one.
func TestLLMUser_ErrReactNoMessage(t *testing.T) {
	t.Parallel()
	s := &strategyScript{agent: cancelAgent(), drafts: []string{"Thought:\nSECRET: I will cancel."}}
	traj, f := runStrategyEpisode(t, s, sim.UserStrategyReact, 5)
	if traj.TerminationReason != emobench.TerminationError || !strings.Contains(traj.Error, "no Message: part") {
		t.Fatalf("termination %s (%q), want error naming the missing part", traj.TerminationReason, traj.Error)
	}
	if len(userContents(traj)) != 0 {
		t.Fatalf("user messages %q, want none", userContents(traj))
	}
	agentSaw(t, f, "SECRET")
}

func verifyScript() *strategyScript {
	return &strategyScript{
		agent:  cancelAgent(),
		drafts: []string{"I am the agent: your order is cancelled.", "Cancel my order #W1. I am ana@example.com.", "###STOP###"},
		checks: []string{"No.", "**Yes**", "yes"},
	}
}

func TestLLMUser_Verify(t *testing.T) {
	t.Parallel()
	const seed = 11
	traj, f := runStrategyEpisode(t, verifyScript(), sim.UserStrategyVerify, seed)
	if diff := cmp.Diff([]string{"Cancel my order #W1. I am ana@example.com.", "###STOP###"}, userContents(traj)); diff != "" {
		t.Fatalf("user messages (-want +got):\n%s", diff)
	}
	want := []string{"draft", "check", "draft", "check", "agent", "agent", "draft", "check"}
	if diff := cmp.Diff(want, kinds(t, f)); diff != "" {
		t.Fatalf("requests (-want +got):\n%s", diff)
	}
	agentSaw(t, f, "I am the agent")
	reqs := byModel(f.requests(), userModel)
	// The check reads the user's instructions, the conversation and the draft.
	check := messagesOf(t, reqs[1])[1]["content"].(string)
	for _, s := range []string{"Cancel your pending order #W1.", "I am the agent: your order is cancelled.", "first message"} {
		if !strings.Contains(check, s) {
			t.Fatalf("check lacks %q:\n%s", s, check)
		}
	}
	if _, ok := reqs[1].Body["tools"]; ok {
		t.Fatal("the check was offered tools")
	}
	// The first draft keeps the llm strategy's seed; every request has its own.
	if got, want := reqs[0].Body["seed"].(float64), float64(sim.RequestSeed(seed, sim.UserRole, 0)); got != want {
		t.Fatalf("first draft seed %v, want %v", got, want)
	}
	seeds := map[float64]bool{}
	for _, r := range reqs {
		seeds[r.Body["seed"].(float64)] = true
	}
	if len(seeds) != len(reqs) {
		t.Fatalf("%d distinct seeds in %d user requests", len(seeds), len(reqs))
	}
	// Usage sums the turn's calls: 2 drafts and 2 checks of 10+5 tokens,
	// at 2.5 and 10 USD per million, (40·2.5 + 20·10) / 10⁶ USD.
	u := traj.Messages[1].Usage // after the system prompt
	if u == nil || u.PromptTokens != 40 || u.CompletionTokens != 20 || u.Cost == nil || *u.Cost < 0.0003-1e-12 || *u.Cost > 0.0003+1e-12 {
		t.Fatalf("first message usage %+v, want 40+20 tokens costing 0.0003", u)
	}
}

// Verify sends the last draft when none passes.
func TestLLMUser_VerifyNonePasses(t *testing.T) {
	t.Parallel()
	s := &strategyScript{
		agent:  cancelAgent(),
		drafts: []string{"one", "two", "Cancel #W1, I am ana@example.com.", "###STOP###"},
		checks: []string{"no", "false", "nope", "yes"},
	}
	traj, f := runStrategyEpisode(t, s, sim.UserStrategyVerify, 3)
	if diff := cmp.Diff([]string{"Cancel #W1, I am ana@example.com.", "###STOP###"}, userContents(traj)); diff != "" {
		t.Fatalf("user messages (-want +got):\n%s", diff)
	}
	if got, want := strings.Count(strings.Join(kinds(t, f), " "), "draft"), sim.VerifyAttempts+1; got != want {
		t.Fatalf("%d drafts, want %d", got, want)
	}
}

func reflectionScript(secondCheck string) *strategyScript {
	return &strategyScript{
		agent:       cancelAgent(),
		drafts:      []string{"Hello.", "Cancel my order #W1 now. ana@example.com.", "###STOP###"},
		checks:      []string{"no", secondCheck, "yes"},
		reflections: []string{"Reflection: REFLECTED-1 the draft says nothing of the task and shows no frustration."},
	}
}

func TestLLMUser_Reflection(t *testing.T) {
	t.Parallel()
	traj, f := runStrategyEpisode(t, reflectionScript("yes"), sim.UserStrategyReflection, 8)
	if diff := cmp.Diff([]string{"Cancel my order #W1 now. ana@example.com.", "###STOP###"}, userContents(traj)); diff != "" {
		t.Fatalf("user messages (-want +got):\n%s", diff)
	}
	want := []string{"draft", "check", "reflect", "draft", "check", "agent", "agent", "draft", "check"}
	if diff := cmp.Diff(want, kinds(t, f)); diff != "" {
		t.Fatalf("requests (-want +got):\n%s", diff)
	}
	agentSaw(t, f, "REFLECTED", "Reflection")
	// The second draft is written with the first and the reflection.
	redraft := messagesOf(t, byModel(f.requests(), userModel)[3])[0]["content"].(string)
	for _, s := range []string{"REFLECTED-1 the draft says nothing", "Hello.", "does not follow your instructions"} {
		if !strings.Contains(redraft, s) {
			t.Fatalf("redraft prompt lacks %q:\n%s", s, redraft)
		}
	}
	if strings.Contains(redraft, "Reflection: REFLECTED") {
		t.Fatalf("redraft prompt keeps the label:\n%s", redraft)
	}

	// When the second draft fails its check too, the first is sent, as
	// τ-bench does.
	traj, _ = runStrategyEpisode(t, reflectionScript("no"), sim.UserStrategyReflection, 8)
	if got := userContents(traj)[0]; got != "Hello." {
		t.Fatalf("first message %q, want the first draft", got)
	}
}

// Each strategy gives byte-identical trajectories (transcripts and state
// hashes) and requests for the same seed, and another seed changes the
// requests.
func TestLLMUser_StrategiesDeterministic(t *testing.T) {
	t.Parallel()
	scripts := map[sim.UserStrategy]func() *strategyScript{
		sim.UserStrategyLLM: func() *strategyScript {
			return &strategyScript{agent: cancelAgent(), drafts: []string{"Cancel my order #W1. I am ana@example.com.", "###STOP###"}}
		},
		sim.UserStrategyReact:      reactScript,
		sim.UserStrategyVerify:     verifyScript,
		sim.UserStrategyReflection: func() *strategyScript { return reflectionScript("yes") },
	}
	for _, strategy := range sim.UserStrategies {
		t.Run(string(strategy), func(t *testing.T) {
			run := func(seed uint64) ([]byte, [][]byte) {
				traj, f := runStrategyEpisode(t, scripts[strategy](), strategy, seed)
				if !bytes.Contains(traj.RewardInfo, []byte(`"final_hash"`)) {
					t.Fatalf("reward_info %s has no final_hash", traj.RewardInfo)
				}
				// The whole trajectory: transcript, usage, reward_info with
				// the final state's hash.
				b, err := json.Marshal(traj)
				if err != nil {
					t.Fatal(err)
				}
				var bodies [][]byte
				for _, r := range f.requests() {
					bodies = append(bodies, r.Raw)
				}
				return b, bodies
			}
			a, aReqs := run(21)
			b, bReqs := run(21)
			if !bytes.Equal(a, b) {
				t.Fatalf("same seed, different transcripts:\n%s\n%s", a, b)
			}
			if diff := cmp.Diff(aReqs, bReqs); diff != "" {
				t.Fatalf("same seed, different requests (-first +second):\n%s", diff)
			}
			if _, cReqs := run(22); cmp.Equal(aReqs, cReqs) {
				t.Fatal("seeds 21 and 22 gave the same requests")
			}
		})
	}
}

func TestParseUserStrategy(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]sim.UserStrategy{"": sim.UserStrategyLLM, "llm": sim.UserStrategyLLM, "react": sim.UserStrategyReact,
		"verify": sim.UserStrategyVerify, "reflection": sim.UserStrategyReflection} {
		if got, err := sim.ParseUserStrategy(in); err != nil || got != want {
			t.Errorf("ParseUserStrategy(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := sim.ParseUserStrategy("human"); emobench.ErrorCode(err) != emobench.EINVALID || !strings.Contains(err.Error(), "reflection") {
		t.Fatalf("human: err %v, want EINVALID naming the strategies", err)
	}
}

// Plan records the strategy of an llm: user in the spec and the run, and
// refuses one for the scripted user.
func TestPlan_UserStrategy(t *testing.T) {
	opts := llmRunOptions("http://a", "http://u")
	opts.UserStrategy = "verify"
	plans, err := sim.Plan(opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := plans[0].Spec.UserStrategy; got != "verify" {
		t.Fatalf("spec user strategy %q, want verify", got)
	}
	if got := plans[0].Run.UserStrategy; got != "verify" {
		t.Fatalf("run user strategy %q, want verify", got)
	}
	if !strings.Contains(string(plans[0].Run.Config), `"user_strategy":"verify"`) {
		t.Fatalf("config %s lacks the strategy", plans[0].Run.Config)
	}
	_, user, err := sim.NewParticipants(plans[0].Spec, sim.LLMOptions{Getenv: roleEnv})
	if err != nil {
		t.Fatal(err)
	}
	if got := user.(*sim.LLMUser).Strategy; got != sim.UserStrategyVerify {
		t.Fatalf("built user strategy %q, want verify", got)
	}

	// A spec recorded before strategies were is an llm user.
	old := plans[0].Spec
	old.UserStrategy = ""
	_, user, err = sim.NewParticipants(old, sim.LLMOptions{Getenv: roleEnv})
	if err != nil {
		t.Fatal(err)
	}
	if got := user.(*sim.LLMUser).Strategy; got != sim.UserStrategyLLM {
		t.Fatalf("legacy spec user strategy %q, want llm", got)
	}
	if got := sim.NewRun(old, plans[0].Run.CreatedAt).UserStrategy; got != "llm" {
		t.Fatalf("legacy run user strategy %q, want llm", got)
	}

	scripted := opts
	scripted.User = "scripted"
	if _, err := sim.Plan(scripted); emobench.ErrorCode(err) != emobench.EINVALID || !strings.Contains(err.Error(), "user-strategy verify needs") {
		t.Fatalf("scripted user with verify: err %v, want EINVALID naming --user-strategy", err)
	}
	scripted.UserStrategy = "llm"
	if plans, err := sim.Plan(scripted); err != nil || plans[0].Spec.UserStrategy != "" || plans[0].Run.UserStrategy != "scripted" {
		t.Fatalf("scripted user, llm strategy: %v, %+v", err, plans)
	}
	bad := opts
	bad.UserStrategy = "human"
	if _, err := sim.Plan(bad); emobench.ErrorCode(err) != emobench.EINVALID {
		t.Fatalf("strategy human: err %v, want EINVALID", err)
	}
}

// The emotion profile shapes tone, patience, cooperation and sharing in
// the prompt, and the without-emotions prompt has none of it.
func TestUserSystemPrompt_EmotionConduct(t *testing.T) {
	t.Parallel()
	ep := testEpisode()
	with := sim.UserSystemPrompt(ep)
	for _, s := range []string{"Tone: irritated", "Patience: very little", "Cooperation: grudging", "Manners: curt",
		"in every message", "how much you volunteer", "never change the facts"} {
		if !strings.Contains(with, s) {
			t.Errorf("with-emotions prompt lacks %q", s)
		}
	}
	ep.WithEmotions = false
	without := sim.UserSystemPrompt(ep)
	for _, s := range []string{"Tone:", "Patience:", "Cooperation:", "Manners:"} {
		if strings.Contains(without, s) {
			t.Errorf("without-emotions prompt has %q:\n%s", s, without)
		}
	}
	if strings.Contains(with, "Message:") || !strings.Contains(sim.UserSystemPromptStrategy(testEpisode(), "", sim.UserStrategyReact), "Message:") {
		t.Error("only the react prompt asks for a Message: part")
	}
}

package sim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// The protocol tests run whole episodes of the toy domain with an llm:
// agent and an llm: user against fakeLLM, through the real openai-go
// client, and read the request bodies the server recorded.

const (
	agentModel = "agent-m"
	userModel  = "user-m"
)

// chatCall is one scripted tool call; an ID of "-" sends no id at all.
type chatCall struct{ ID, Name, Args string }

// completion answers with an assistant message of content and calls.
func completion(content string, calls ...chatCall) llmStep {
	return func(w http.ResponseWriter, r *http.Request) {
		msg := map[string]any{"role": "assistant", "content": content}
		var tcs []map[string]any
		for _, c := range calls {
			tc := map[string]any{"type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Args}}
			if c.ID != "-" {
				tc["id"] = c.ID
			}
			tcs = append(tcs, tc)
		}
		if len(tcs) > 0 {
			msg["tool_calls"] = tcs
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "c", "object": "chat.completion", "created": 1, "model": "m",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": msg}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
		})
	}
}

// script answers each role's n-th request with its n-th reply. A user reply
// ends with the request's seed, so transcripts show which seed was sent.
type script struct {
	mu    sync.Mutex
	agent []llmStep
	user  []string
	seen  map[string]int
}

func (s *script) route(t *testing.T) func(int, llmRequest) llmStep {
	return func(_ int, req llmRequest) llmStep {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.seen == nil {
			s.seen = map[string]int{}
		}
		model, _ := req.Body["model"].(string)
		n := s.seen[model]
		s.seen[model]++
		switch {
		case model == agentModel && n < len(s.agent):
			return s.agent[n]
		case model == userModel && n < len(s.user):
			text := s.user[n]
			if !strings.Contains(text, "###") {
				text = fmt.Sprintf("%s (seed %.0f)", text, req.Body["seed"])
			}
			return completion(text)
		}
		t.Errorf("unscripted request %d of model %q", n, model)
		return apiError(http.StatusBadRequest, "X-Should-Retry", "false")
	}
}

// cancelScript is an episode that passes: the agent looks the user up and
// cancels in one message, the first call with an empty id and the second
// with none, then reports the refund.
func cancelScript() *script {
	return &script{
		agent: []llmStep{
			completion("", chatCall{"", "find_user_id_by_email", `{"email":"ana@example.com"}`},
				chatCall{"-", "cancel_pending_order", `{"order_id":"#W1"}`}),
			completion("Order #W1 is cancelled; your refund is 1234.50."),
		},
		user: []string{"Cancel my order #W1, I am ana@example.com.", "###STOP###"},
	}
}

func llmParticipants(t *testing.T, f *fakeLLM, parallel string) (sim.Agent, sim.UserSimulator) {
	t.Helper()
	agent := sim.NewLLMAgent(newClient(t, f, func(c *sim.LLMConfig) { c.Model = agentModel }))
	if parallel != "" {
		agent.ParallelToolCalls = parallel
	}
	return agent, sim.NewLLMUser(newClient(t, f, func(c *sim.LLMConfig) { c.Model = userModel }))
}

func runLLMEpisode(t *testing.T, s *script, seed uint64, edit ...func(*sim.EpisodeConfig)) (*emobench.Trajectory, *fakeLLM) {
	t.Helper()
	f := newRoutedLLM(t, s.route(t))
	agent, user := llmParticipants(t, f, "")
	task := toyTask(angrySkeptic)
	cfg := sim.EpisodeConfig{Domain: toyDomain{}, Task: &task, Agent: agent, User: user, WithEmotions: true, Seed: seed}
	for _, e := range edit {
		e(&cfg)
	}
	traj, err := sim.RunEpisode(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return traj, f
}

func byModel(reqs []llmRequest, model string) []llmRequest {
	var out []llmRequest
	for _, r := range reqs {
		if r.Body["model"] == model {
			out = append(out, r)
		}
	}
	return out
}

func messagesOf(t *testing.T, r llmRequest) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, m := range r.Body["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

func TestLLMProtocol_Seeds(t *testing.T) {
	t.Parallel()
	const epSeed = 77
	traj, f := runLLMEpisode(t, cancelScript(), epSeed)
	if traj.TerminationReason != emobench.TerminationUserStop || !traj.Passed() {
		t.Fatalf("%s, passed %v\n%s", traj.TerminationReason, traj.Passed(), transcript(traj))
	}
	var got []string
	seeds := map[float64]bool{}
	for _, r := range f.requests() {
		role := sim.UserRole
		if r.Body["model"] == agentModel {
			role = sim.AgentRole
		}
		seed := r.Body["seed"].(float64)
		seeds[seed] = true
		got = append(got, fmt.Sprintf("%s %.0f", role, seed))
	}
	// Transcript (system prompt excluded) at each request: user 0 msgs;
	// agent 1 (user); agent 4 (user, calls, 2 results); user 5.
	want := []string{
		fmt.Sprintf("user %d", sim.RequestSeed(epSeed, sim.UserRole, 0)),
		fmt.Sprintf("agent %d", sim.RequestSeed(epSeed, sim.AgentRole, 1)),
		fmt.Sprintf("agent %d", sim.RequestSeed(epSeed, sim.AgentRole, 4)),
		fmt.Sprintf("user %d", sim.RequestSeed(epSeed, sim.UserRole, 5)),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("request seeds (-want +got):\n%s", diff)
	}
	if len(seeds) != len(want) {
		t.Fatalf("%d distinct seeds in %d requests: %v", len(seeds), len(want), got)
	}
	if sim.RequestSeed(epSeed, sim.AgentRole, 4) == sim.RequestSeed(epSeed+1, sim.AgentRole, 4) ||
		sim.RequestSeed(epSeed, sim.AgentRole, 4) == sim.RequestSeed(epSeed, sim.UserRole, 4) {
		t.Fatal("RequestSeed ignores the episode seed or the role")
	}
	for _, s := range []int64{sim.RequestSeed(epSeed, sim.AgentRole, 1), sim.RequestSeed(1<<63, sim.UserRole, 1<<40)} {
		if s < 0 || s > 1<<31-1 {
			t.Fatalf("seed %d outside [0, 2^31)", s)
		}
	}
}

// Two trials of one task get different seeds, through the runner.
func TestLLMProtocol_SeedsDifferByTrial(t *testing.T) {
	t.Parallel()
	s := &script{}
	for range 2 {
		s.agent = append(s.agent, cancelScript().agent...)
		s.user = append(s.user, cancelScript().user...)
	}
	f := newRoutedLLM(t, s.route(t))
	agent, user := llmParticipants(t, f, "")
	task := toyTask(angrySkeptic)
	err := sim.RunJobs(t.Context(), sim.RunnerConfig{Domain: toyDomain{}, Agent: agent, User: user, Seed: 5, Concurrency: 1},
		[]sim.Job{{Task: &task, Trial: 0}, {Task: &task, Trial: 1}}, func(context.Context, *emobench.Trajectory) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	reqs := byModel(f.requests(), agentModel)
	if len(reqs) != 4 {
		t.Fatalf("%d agent requests, want 4", len(reqs))
	}
	for trial, r := range []llmRequest{reqs[0], reqs[2]} {
		want := float64(sim.RequestSeed(sim.EpisodeSeed(5, task.ID, trial), sim.AgentRole, 1))
		if got := r.Body["seed"]; got != want {
			t.Fatalf("trial %d: first agent seed %v, want %v", trial, got, want)
		}
	}
	if reqs[0].Body["seed"] == reqs[2].Body["seed"] {
		t.Fatal("trials 0 and 1 sent the same seed")
	}
}

func TestLLMProtocol_ToolCallIDs(t *testing.T) {
	t.Parallel()
	traj, f := runLLMEpisode(t, cancelScript(), 1)
	calls := traj.Messages[2].ToolCalls // system, user, agent
	if len(calls) != 2 {
		t.Fatalf("agent message has %d calls, want 2\n%s", len(calls), transcript(traj))
	}
	wantIDs := []string{"call_emobench_1_0", "call_emobench_1_1"}
	for i, c := range calls {
		if c.ID != wantIDs[i] {
			t.Errorf("call %d id %q, want %q", i, c.ID, wantIDs[i])
		}
		if reply := traj.Messages[3+i]; reply.Role != emobench.RoleTool || reply.ToolCallID != wantIDs[i] {
			t.Errorf("tool reply %d answers %q (role %s), want %q", i, reply.ToolCallID, reply.Role, wantIDs[i])
		}
	}
	// The next agent request carries the ids both ways, and the tools' names.
	msgs := messagesOf(t, byModel(f.requests(), agentModel)[1])
	var want []any
	if err := json.Unmarshal([]byte(`[
		{"role": "assistant", "tool_calls": [
			{"id": "call_emobench_1_0", "type": "function", "function": {"name": "find_user_id_by_email", "arguments": "{\"email\":\"ana@example.com\"}"}},
			{"id": "call_emobench_1_1", "type": "function", "function": {"name": "cancel_pending_order", "arguments": "{\"order_id\":\"#W1\"}"}}]},
		{"role": "tool", "tool_call_id": "call_emobench_1_0", "name": "find_user_id_by_email", "content": "ana_1"},
		{"role": "tool", "tool_call_id": "call_emobench_1_1", "name": "cancel_pending_order", "content": "{\"status\": \"cancelled\", \"refund\": \"1,234.50\"}"}
	]`), &want); err != nil {
		t.Fatal(err)
	}
	var got []any
	for _, m := range msgs[2:] {
		got = append(got, m)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("agent history (-want +got):\n%s", diff)
	}
}

// A model that repeats an id, or reuses one from earlier in the episode,
// gets a fresh one: each tool reply answers exactly one call.
func TestLLMProtocol_ToolCallIDsRepeated(t *testing.T) {
	t.Parallel()
	s := &script{
		agent: []llmStep{
			completion("", chatCall{"call_x", "find_user_id_by_email", `{"email":"ana@example.com"}`},
				chatCall{"call_x", "find_user_id_by_email", `{"email":"ana@example.com"}`}),
			completion("", chatCall{"call_x", "cancel_pending_order", `{"order_id":"#W1"}`}),
			completion("Done, refund 1234.50."),
		},
		user: []string{"Cancel #W1 please, ana@example.com.", "###STOP###"},
	}
	traj, _ := runLLMEpisode(t, s, 1)
	var ids []string
	for _, m := range traj.Messages {
		for _, c := range m.ToolCalls {
			ids = append(ids, c.ID)
		}
	}
	if diff := cmp.Diff([]string{"call_x", "call_emobench_1_1", "call_emobench_4_0"}, ids); diff != "" {
		t.Fatalf("ids (-want +got):\n%s", diff)
	}
}

func TestLLMProtocol_ParallelToolCalls(t *testing.T) {
	t.Parallel()
	threeCalls := completion("", chatCall{"a", "find_user_id_by_email", `{"email":"ana@example.com"}`},
		chatCall{"b", "cancel_pending_order", `{"order_id":"#W1"}`},
		chatCall{"c", "find_user_id_by_email", `{"email":"ana@example.com"}`})

	t.Run("AllowCountsEachCall", func(t *testing.T) {
		s := &script{agent: []llmStep{threeCalls}, user: []string{"Cancel #W1, ana@example.com."}}
		traj, f := runLLMEpisode(t, s, 1, func(c *sim.EpisodeConfig) { c.MaxSteps = 2 })
		if traj.TerminationReason != emobench.TerminationMaxSteps {
			t.Fatalf("termination %s, want max_steps\n%s", traj.TerminationReason, transcript(traj))
		}
		// Two calls ran (two steps); the third is neither run nor kept.
		if got := transcript(traj); !strings.HasSuffix(got, "assistant:  [find_user_id_by_email {\"email\":\"ana@example.com\"}] [cancel_pending_order {\"order_id\":\"#W1\"}]\ntool: ana_1\ntool: {\"status\": \"cancelled\", \"refund\": \"1,234.50\"}\n") {
			t.Fatalf("transcript:\n%s", got)
		}
		body := byModel(f.requests(), agentModel)[0].Body
		if body["parallel_tool_calls"] != true || body["tool_choice"] != "auto" {
			t.Fatalf("parallel_tool_calls %v, tool_choice %v; want true, auto", body["parallel_tool_calls"], body["tool_choice"])
		}
	})

	t.Run("First", func(t *testing.T) {
		s := &script{agent: []llmStep{threeCalls, completion("I found your account.")}, user: []string{"Cancel #W1, ana@example.com.", "###STOP###"}}
		f := newRoutedLLM(t, s.route(t))
		agent, user := llmParticipants(t, f, sim.ParallelToolCallsFirst)
		task := toyTask(angrySkeptic)
		traj, err := sim.RunEpisode(t.Context(), sim.EpisodeConfig{Domain: toyDomain{}, Task: &task, Agent: agent, User: user, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		want := "assistant:  [find_user_id_by_email {\"email\":\"ana@example.com\"}]\ntool: ana_1\nassistant: I found your account.\n"
		if got := transcript(traj); !strings.Contains(got, want) || strings.Contains(got, "cancel_pending_order") {
			t.Fatalf("transcript lacks %q or kept the extra calls:\n%s", want, got)
		}
		body := byModel(f.requests(), agentModel)[0].Body
		if body["parallel_tool_calls"] != false || body["tool_choice"] != "auto" {
			t.Fatalf("parallel_tool_calls %v, tool_choice %v; want false, auto", body["parallel_tool_calls"], body["tool_choice"])
		}
	})

	t.Run("NoToolsNoFields", func(t *testing.T) {
		f := newFakeLLM(t, reply(t, "text"))
		ep := testEpisode()
		ep.Tools = nil
		if _, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), ep); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"tools", "tool_choice", "parallel_tool_calls"} {
			if v, ok := f.requests()[0].Body[k]; ok {
				t.Errorf("%s = %v sent without tools", k, v)
			}
		}
	})
}

func TestLLMProtocol_UserHistoryEndsOnAgent(t *testing.T) {
	t.Parallel()
	s := &script{
		agent: []llmStep{
			completion("", chatCall{"a", "find_user_id_by_email", `{"email":"ana@example.com"}`}),
			completion(""),
			completion("How can I help?"),
		},
		user: []string{"Hello, I am ana@example.com.", "Hello?", "###STOP###"},
	}
	_, f := runLLMEpisode(t, s, 1)
	users := byModel(f.requests(), userModel)
	if len(users) != 3 {
		t.Fatalf("%d user requests, want 3", len(users))
	}
	roles := func(r llmRequest) string {
		var b []string
		for _, m := range messagesOf(t, r)[1:] {
			b = append(b, fmt.Sprintf("%s:%s", m["role"], m["content"]))
		}
		return strings.Join(b, " | ")
	}
	seed := func(r llmRequest) string { return fmt.Sprintf("(seed %.0f)", r.Body["seed"]) }
	// After the empty agent turn the history ends on a stand-in agent turn;
	// the user's two messages stay two turns.
	want := []string{
		"user:(The conversation begins. Write your first message to the agent.)",
		"user:(The conversation begins. Write your first message to the agent.) | assistant:Hello, I am ana@example.com. " + seed(users[0]) + " | user:(The agent's reply was empty.)",
		"user:(The conversation begins. Write your first message to the agent.) | assistant:Hello, I am ana@example.com. " + seed(users[0]) +
			" | user:(The agent's reply was empty.) | assistant:Hello? " + seed(users[1]) + " | user:How can I help?",
	}
	for i, r := range users {
		if got := roles(r); got != want[i] {
			t.Errorf("user request %d history:\n got %s\nwant %s", i, got, want[i])
		}
	}
}

func TestLLMProtocol_EpisodeTimeout(t *testing.T) {
	s := &script{agent: []llmStep{hang}, user: []string{"Cancel #W1."}}
	traj, f := runLLMEpisode(t, s, 1, func(c *sim.EpisodeConfig) { c.Timeout = 200 * time.Millisecond })
	if traj.TerminationReason != emobench.TerminationError {
		t.Fatalf("termination %s, want error", traj.TerminationReason)
	}
	if !strings.Contains(traj.Error, "episode time limit 200ms reached") || !strings.Contains(traj.Error, "agent: llm agent-m") {
		t.Fatalf("error %q does not name the limit and the stuck call", traj.Error)
	}
	if n := len(byModel(f.requests(), agentModel)); n != 1 {
		t.Fatalf("%d agent requests, want 1: no retry after the episode's time is up", n)
	}
}

func TestLLMProtocol_StreamRefused(t *testing.T) {
	t.Parallel()
	stream := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: [DONE]\n\n")
	}
	f := newFakeLLM(t, stream)
	_, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode())
	var se *sim.StreamError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want a *sim.StreamError", err)
	}
	endpoint := f.srv.URL + "/v1/chat/completions"
	if se.Endpoint != endpoint || !strings.Contains(err.Error(), endpoint) || !strings.Contains(err.Error(), "text/event-stream") {
		t.Fatalf("err %q (endpoint %q) does not name %s and the stream", err, se.Endpoint, endpoint)
	}
	if n := len(f.requests()); n != 1 {
		t.Fatalf("%d requests, want 1: a stream is not retried", n)
	}
	if stream, ok := f.requests()[0].Body["stream"]; ok && stream != false {
		t.Fatalf("request asked for stream = %v", stream)
	}
}

// The same seed gives byte-identical transcripts and request bodies.
func TestLLMProtocol_Deterministic(t *testing.T) {
	t.Parallel()
	run := func(seed uint64) ([]byte, [][]byte) {
		traj, f := runLLMEpisode(t, cancelScript(), seed)
		b, err := json.Marshal(traj.Messages)
		if err != nil {
			t.Fatal(err)
		}
		var bodies [][]byte
		for _, r := range f.requests() {
			bodies = append(bodies, r.Raw)
		}
		return b, bodies
	}
	a, aReqs := run(9)
	b, bReqs := run(9)
	if !bytes.Equal(a, b) {
		t.Fatalf("same seed, different transcripts:\n%s\n%s", a, b)
	}
	if diff := cmp.Diff(aReqs, bReqs); diff != "" {
		t.Fatalf("same seed, different requests (-first +second):\n%s", diff)
	}
	if c, _ := run(10); bytes.Equal(a, c) {
		t.Fatal("seeds 9 and 10 gave the same transcript: the seed reaches no request")
	}
}

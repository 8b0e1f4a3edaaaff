package sim_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

const testAPIKey = "sk-test-7f3a9c1e5b2d4680"

// fakeLLM is an httptest server speaking the Chat Completions protocol. It
// answers the n-th request with the n-th step, or with what route picks,
// and records what it got.
type fakeLLM struct {
	t     *testing.T
	srv   *httptest.Server
	mu    sync.Mutex
	steps []llmStep
	route func(n int, req llmRequest) llmStep
	reqs  []llmRequest
}

type llmRequest struct {
	Path string
	Auth string
	Body map[string]any
	Raw  []byte // the body as sent
}

type llmStep func(w http.ResponseWriter, r *http.Request)

func newFakeLLM(t *testing.T, steps ...llmStep) *fakeLLM {
	t.Helper()
	f := &fakeLLM{t: t, steps: steps}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// newRoutedLLM returns a fakeLLM that answers each request with the step
// route picks for it (n counts the requests, from 0).
func newRoutedLLM(t *testing.T, route func(n int, req llmRequest) llmStep) *fakeLLM {
	t.Helper()
	f := &fakeLLM{t: t, route: route}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeLLM) serve(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		f.t.Errorf("read request body: %v", err)
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		f.t.Errorf("request body is not JSON: %v: %s", err, raw)
	}
	f.mu.Lock()
	n := len(f.reqs)
	req := llmRequest{Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Body: body, Raw: raw}
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		f.t.Errorf("request %d: %s %s, want POST /v1/chat/completions", n, r.Method, r.URL.Path)
	}
	if f.route != nil {
		f.route(n, req)(w, r)
		return
	}
	if n >= len(f.steps) {
		f.t.Errorf("unexpected request %d", n)
		http.Error(w, "unexpected request", http.StatusTeapot)
		return
	}
	f.steps[n](w, r)
}

func (f *fakeLLM) requests() []llmRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]llmRequest(nil), f.reqs...)
}

// reply answers with the completion in testdata/llm/<name>.json.
func reply(t *testing.T, name string) llmStep {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "llm", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}
}

// apiError answers with an OpenAI error body; the message echoes the
// caller's bearer token, as a careless proxy might.
func apiError(status int, header ...string) llmStep {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":"upstream failed for %s","type":"server_error","param":null,"code":null}}`,
			strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	}
}

// hang answers nothing until the client gives up.
func hang(w http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(5 * time.Second):
	}
}

func ptr[T any](v T) *T { return &v }

// newClient returns a client for f with fast retries; edit adjusts the
// config first.
func newClient(t *testing.T, f *fakeLLM, edit ...func(*sim.LLMConfig)) *sim.LLMClient {
	t.Helper()
	cfg := sim.LLMConfig{
		BaseURL:     f.srv.URL + "/v1",
		APIKey:      testAPIKey,
		Model:       "gpt-4o",
		Temperature: ptr(0.25),
		Timeout:     2 * time.Second,
		MaxRetries:  2,
		RetryDelay:  time.Millisecond,
		Prices:      sim.PriceTable{"gpt-4o": {PromptPerMTok: 2.5, CompletionPerMTok: 10}},
		HTTPClient:  f.srv.Client(),
	}
	for _, e := range edit {
		e(&cfg)
	}
	c, err := sim.NewLLMClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testEpisode() *sim.Episode {
	return &sim.Episode{
		Task: &emobench.TaskSpec{
			ID:          "t1",
			Instruction: "You want to cancel order #W123 because you ordered it by mistake.",
			Scenario: emobench.Scenario{
				Facts:    map[string]string{"order_id": "#W123", "email": "ana@example.com"},
				Requests: []emobench.Request{{Text: "cancel #W123", Tools: []string{"cancel_order"}}},
			},
			Emotion: emobench.EmotionProfile{Family: "anger", Leaf: "frustration", Politeness: "cold", Urgency: "high", Trust: "skeptical"},
		},
		Policy: "# Retail policy\nConfirm before any write.",
		Tools: []sim.ToolSchema{
			{Name: "get_order", Description: "Look up an order.", Parameters: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"]}`)},
			{Name: "cancel_order", Description: "Cancel an order.", Parameters: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string"}}}`), Writes: true},
		},
		Messages: []emobench.Message{
			{Role: emobench.RoleAssistant, Content: "Hi! How can I help you today?"},
			{Role: emobench.RoleUser, Content: "Cancel my order #W123."},
			{Role: emobench.RoleAssistant, ToolCalls: []emobench.ToolCall{{ID: "call_1", Name: "get_order", Arguments: json.RawMessage(`{"order_id":"#W123"}`)}}},
			{Role: emobench.RoleTool, ToolName: "get_order", ToolCallID: "call_1", Content: `{"status":"pending"}`},
			{Role: emobench.RoleAssistant, ToolCalls: []emobench.ToolCall{{ID: "call_2", Name: "get_order", Arguments: json.RawMessage(`"{\"order_id\": "`), ArgumentsMalformed: true}}},
			{Role: emobench.RoleTool, ToolName: "get_order", ToolCallID: "call_2", Content: "Error: arguments are not JSON"},
			{Role: emobench.RoleAssistant, Content: "Order #W123 is pending."},
			{Role: emobench.RoleAssistant, Content: "Shall I cancel it?"},
		},
		WithEmotions: true,
	}
}

func TestLLMClient_Complete(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		f := newFakeLLM(t, reply(t, "text"))
		msg, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode())
		if err != nil {
			t.Fatal(err)
		}
		if got, want := msg.Content, "I can help with that. Could you give me your order number?"; got != want {
			t.Fatalf("content = %q, want %q", got, want)
		}
		// (1000·2.5 + 200·10) / 10⁶ = 4500 / 10⁶ USD.
		want := emobench.Usage{PromptTokens: 1000, CompletionTokens: 200, Cost: ptr(0.0045)}
		if diff := cmp.Diff(&want, msg.Usage); diff != "" {
			t.Fatalf("usage (-want +got):\n%s", diff)
		}
		reqs := f.requests()
		if got, want := reqs[0].Auth, "Bearer "+testAPIKey; got != want {
			t.Fatalf("Authorization = %q, want %q", got, want)
		}
	})

	t.Run("UnknownModelCost", func(t *testing.T) {
		f := newFakeLLM(t, reply(t, "text"))
		c := newClient(t, f, func(c *sim.LLMConfig) { c.Model = "my-local-model" })
		msg, err := sim.NewLLMAgent(c).Next(t.Context(), testEpisode())
		if err != nil {
			t.Fatal(err)
		}
		if msg.Usage == nil || msg.Usage.Cost != nil || msg.Usage.PromptTokens != 1000 {
			t.Fatalf("usage = %+v, want tokens and a nil cost", msg.Usage)
		}
	})

	t.Run("ServedModelCost", func(t *testing.T) {
		// The table prices the dated name the server answers with.
		f := newFakeLLM(t, reply(t, "text"))
		c := newClient(t, f, func(c *sim.LLMConfig) {
			c.Prices = sim.PriceTable{"gpt-4o-2024-08-06": {PromptPerMTok: 1, CompletionPerMTok: 4}}
		})
		msg, err := sim.NewLLMAgent(c).Next(t.Context(), testEpisode())
		if err != nil {
			t.Fatal(err)
		}
		// (1000·1 + 200·4) / 10⁶ = 1800 / 10⁶ USD.
		if msg.Usage.Cost == nil || *msg.Usage.Cost != 0.0018 {
			t.Fatalf("cost = %v, want 0.0018", msg.Usage.Cost)
		}
	})

	t.Run("NoUsage", func(t *testing.T) {
		f := newFakeLLM(t, reply(t, "no_usage"))
		msg, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode())
		if err != nil {
			t.Fatal(err)
		}
		// Unknown tokens, stored as NULL (never 0), and no cost (#20 item 15).
		if diff := cmp.Diff(&emobench.Usage{TokensUnknown: true}, msg.Usage); diff != "" {
			t.Fatalf("usage (-want +got):\n%s", diff)
		}
	})

	t.Run("Retry429", func(t *testing.T) {
		f := newFakeLLM(t, apiError(http.StatusTooManyRequests, "Retry-After-Ms", "80"), reply(t, "text"))
		start := time.Now()
		if _, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode()); err != nil {
			t.Fatal(err)
		}
		if got, want := len(f.requests()), 2; got != want {
			t.Fatalf("requests = %d, want %d", got, want)
		}
		if elapsed := time.Since(start); elapsed < 80*time.Millisecond {
			t.Fatalf("retried after %v, want Retry-After-Ms 80ms honoured", elapsed)
		}
	})

	t.Run("Retry500", func(t *testing.T) {
		f := newFakeLLM(t, apiError(http.StatusInternalServerError), reply(t, "text"))
		if _, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode()); err != nil {
			t.Fatal(err)
		}
		if got, want := len(f.requests()), 2; got != want {
			t.Fatalf("requests = %d, want %d", got, want)
		}
	})

	t.Run("RetryTimeout", func(t *testing.T) {
		f := newFakeLLM(t, hang, reply(t, "text"))
		c := newClient(t, f, func(c *sim.LLMConfig) { c.Timeout = 500 * time.Millisecond })
		start := time.Now()
		msg, err := sim.NewLLMAgent(c).Next(t.Context(), testEpisode())
		if err != nil {
			t.Fatal(err)
		}
		if got, want := len(f.requests()), 2; got != want {
			t.Fatalf("requests = %d, want %d", got, want)
		}
		if msg.Content == "" {
			t.Fatal("empty reply after the retry")
		}
		if elapsed := time.Since(start); elapsed < 500*time.Millisecond {
			t.Fatalf("took %v, want one 500ms timeout then a reply", elapsed)
		}
	})

	t.Run("ErrExhausted", func(t *testing.T) {
		fail := apiError(http.StatusServiceUnavailable)
		f := newFakeLLM(t, fail, fail, fail)
		_, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode())
		if err == nil {
			t.Fatal("no error")
		}
		if got, want := len(f.requests()), 3; got != want {
			t.Fatalf("requests = %d, want %d (1 + MaxRetries)", got, want)
		}
		var le *sim.LLMError
		if !errors.As(err, &le) {
			t.Fatalf("error %T is not *sim.LLMError", err)
		}
		if le.StatusCode != http.StatusServiceUnavailable || le.Attempts != 3 || le.Model != "gpt-4o" {
			t.Fatalf("LLMError = %+v", le)
		}
		for _, s := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err), fmt.Sprint(errors.Unwrap(err))} {
			if strings.Contains(s, testAPIKey) {
				t.Fatalf("error text contains the API key: %s", s)
			}
		}
		for _, s := range []string{"gpt-4o", "503"} {
			if !strings.Contains(err.Error(), s) {
				t.Fatalf("error %q does not mention %q", err, s)
			}
		}
	})

	t.Run("ErrNotRetried", func(t *testing.T) {
		f := newFakeLLM(t, apiError(http.StatusBadRequest))
		_, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode())
		var le *sim.LLMError
		if !errors.As(err, &le) || le.StatusCode != http.StatusBadRequest {
			t.Fatalf("err = %v, want an LLMError with status 400", err)
		}
		if got, want := len(f.requests()), 1; got != want {
			t.Fatalf("requests = %d, want %d", got, want)
		}
	})

	t.Run("ErrCanceled", func(t *testing.T) {
		f := newFakeLLM(t, hang)
		ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		defer cancel()
		_, err := sim.NewLLMAgent(newClient(t, f)).Next(ctx, testEpisode())
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want context.DeadlineExceeded", err)
		}
		if got, want := len(f.requests()), 1; got != want {
			t.Fatalf("requests = %d, want %d: a cancelled caller is not retried", got, want)
		}
	})
}

func TestLLMAgent_Next(t *testing.T) {
	t.Parallel()
	t.Run("Request", func(t *testing.T) {
		f := newFakeLLM(t, reply(t, "text"))
		if _, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode()); err != nil {
			t.Fatal(err)
		}
		body := f.requests()[0].Body
		seed := float64(sim.RequestSeed(testEpisode().Seed, sim.AgentRole, len(testEpisode().Messages)))
		for k, want := range map[string]any{"model": "gpt-4o", "temperature": 0.25, "seed": seed} {
			if got := body[k]; got != want {
				t.Fatalf("%s = %v, want %v", k, got, want)
			}
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(`{
			"messages": [
				{"role": "system", "content": "# Retail policy\nConfirm before any write."},
				{"role": "assistant", "content": "Hi! How can I help you today?"},
				{"role": "user", "content": "Cancel my order #W123."},
				{"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_order", "arguments": "{\"order_id\":\"#W123\"}"}}]},
				{"role": "tool", "tool_call_id": "call_1", "name": "get_order", "content": "{\"status\":\"pending\"}"},
				{"role": "assistant", "tool_calls": [{"id": "call_2", "type": "function", "function": {"name": "get_order", "arguments": "{\"order_id\": "}}]},
				{"role": "tool", "tool_call_id": "call_2", "name": "get_order", "content": "Error: arguments are not JSON"},
				{"role": "assistant", "content": "Order #W123 is pending."},
				{"role": "assistant", "content": "Shall I cancel it?"}
			],
			"tools": [
				{"type": "function", "function": {"name": "get_order", "description": "Look up an order.",
					"parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}},
				{"type": "function", "function": {"name": "cancel_order", "description": "Cancel an order.",
					"parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}}}}
			]
		}`), &want); err != nil {
			t.Fatal(err)
		}
		got := map[string]any{"messages": body["messages"], "tools": body["tools"]}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("request body (-want +got):\n%s", diff)
		}
	})

	t.Run("ToolCall", func(t *testing.T) {
		f := newFakeLLM(t, reply(t, "tool_call"))
		msg, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode())
		if err != nil {
			t.Fatal(err)
		}
		want := emobench.Message{
			Role: emobench.RoleAssistant,
			ToolCalls: []emobench.ToolCall{
				{ID: "call_a1", Name: "get_order", Arguments: json.RawMessage(`{"order_id":"#W123"}`)},
				{ID: "call_a2", Name: "list_orders", Arguments: json.RawMessage(`{}`)},
			},
			// (321·2.5 + 45·10) / 10⁶ = 1252.5 / 10⁶ USD.
			Usage: &emobench.Usage{PromptTokens: 321, CompletionTokens: 45, Cost: ptr(0.0012525)},
		}
		if diff := cmp.Diff(want, msg); diff != "" {
			t.Fatalf("message (-want +got):\n%s", diff)
		}
	})

	t.Run("MalformedArguments", func(t *testing.T) {
		f := newFakeLLM(t, reply(t, "tool_call_malformed"))
		msg, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode())
		if err != nil {
			t.Fatal(err)
		}
		if got, want := msg.Content, "Let me look that up."; got != want {
			t.Fatalf("content = %q, want %q", got, want)
		}
		want := []emobench.ToolCall{{
			ID: "call_b1", Name: "get_order",
			Arguments:          json.RawMessage(`"{\"order_id\": \"#W123\""`),
			ArgumentsMalformed: true,
		}}
		if diff := cmp.Diff(want, msg.ToolCalls); diff != "" {
			t.Fatalf("tool calls (-want +got):\n%s", diff)
		}
	})
}

func TestLLMUser_Next(t *testing.T) {
	t.Parallel()
	run := func(t *testing.T, withEmotions bool, abandon ...sim.UserAbandon) (emobench.Message, map[string]any) {
		t.Helper()
		f := newFakeLLM(t, reply(t, "user_reply"))
		c := newClient(t, f, func(c *sim.LLMConfig) {
			c.Model = "gpt-4o-mini"
			c.Prices = sim.PriceTable{"gpt-4o-mini": {PromptPerMTok: 0.15, CompletionPerMTok: 0.6}}
		})
		ep := testEpisode()
		ep.WithEmotions = withEmotions
		user := sim.NewLLMUser(c)
		if len(abandon) > 0 {
			user.Abandon = abandon[0]
		}
		msg, err := user.Next(t.Context(), ep)
		if err != nil {
			t.Fatal(err)
		}
		return msg, f.requests()[0].Body
	}
	systemPrompt := func(t *testing.T, body map[string]any) string {
		t.Helper()
		msgs := body["messages"].([]any)
		first := msgs[0].(map[string]any)
		if first["role"] != "system" {
			t.Fatalf("first message role = %v, want system", first["role"])
		}
		return first["content"].(string)
	}
	emotion := sim.EmotionInstruction(testEpisode().Task.Emotion)

	t.Run("WithEmotions", func(t *testing.T) {
		msg, body := run(t, true)
		// (500·0.15 + 10·0.6) / 10⁶ = 81 / 10⁶ USD.
		want := emobench.Message{Role: emobench.RoleUser, Content: "It's #W123. Please hurry.",
			Usage: &emobench.Usage{PromptTokens: 500, CompletionTokens: 10, Cost: ptr(0.000081)}}
		if diff := cmp.Diff(want, msg); diff != "" {
			t.Fatalf("message (-want +got):\n%s", diff)
		}
		if _, ok := body["tools"]; ok {
			t.Fatal("the user simulator was offered tools")
		}
		// Roles flipped; tool calls and results hidden; the agent's two
		// consecutive texts joined into one turn.
		var wantMsgs []any
		if err := json.Unmarshal([]byte(`[
			{"role": "user", "content": "Hi! How can I help you today?"},
			{"role": "assistant", "content": "Cancel my order #W123."},
			{"role": "user", "content": "Order #W123 is pending.\n\nShall I cancel it?"}
		]`), &wantMsgs); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantMsgs, body["messages"].([]any)[1:]); diff != "" {
			t.Fatalf("history (-want +got):\n%s", diff)
		}
		sys := systemPrompt(t, body)
		for _, s := range []string{testEpisode().Task.Instruction, "order_id: #W123", "email: ana@example.com",
			emotion, "every message", "###STOP###", "###UNSATISFIED###", "trust", "gradually", "Never invent"} {
			if !strings.Contains(sys, s) {
				t.Fatalf("system prompt lacks %q:\n%s", s, sys)
			}
		}
	})

	t.Run("WithoutEmotions", func(t *testing.T) {
		_, body := run(t, false, sim.AbandonAlways)
		sys := systemPrompt(t, body)
		if strings.Contains(sys, emotion) || strings.Contains(sys, "frustration") {
			t.Fatalf("system prompt carries the emotion instruction without emotions:\n%s", sys)
		}
		for _, s := range []string{"###STOP###", "###UNSATISFIED###", "friction", "slow, careless, repetitive or wrong", "an answer, not a failure"} {
			if !strings.Contains(sys, s) {
				t.Fatalf("system prompt lacks %q:\n%s", s, sys)
			}
		}
		for _, s := range []string{"neutral", "tone", "matter-of-fact"} {
			if strings.Contains(sys, s) {
				t.Fatalf("system prompt without emotions has a tone line (%q):\n%s", s, sys)
			}
		}
	})

	// τ-Emotion-Bench offers ###UNSATISFIED### only with emotions.
	t.Run("AbandonWithEmotionsByDefault", func(t *testing.T) {
		for _, tt := range []struct {
			withEmotions bool
			abandon      sim.UserAbandon
			want         bool
		}{
			{false, "", false}, {true, "", true},
			{false, sim.AbandonWithEmotions, false}, {true, sim.AbandonNever, false}, {false, sim.AbandonAlways, true},
		} {
			_, body := run(t, tt.withEmotions, tt.abandon)
			if got := strings.Contains(systemPrompt(t, body), "###UNSATISFIED###"); got != tt.want {
				t.Errorf("emotions %v, abandon %q: prompt offers ###UNSATISFIED### = %v, want %v", tt.withEmotions, tt.abandon, got, tt.want)
			}
		}
	})

	t.Run("UserSpeaksFirst", func(t *testing.T) {
		f := newFakeLLM(t, reply(t, "user_reply"))
		ep := testEpisode()
		ep.Messages = nil
		if _, err := sim.NewLLMUser(newClient(t, f)).Next(t.Context(), ep); err != nil {
			t.Fatal(err)
		}
		msgs := f.requests()[0].Body["messages"].([]any)
		if got, want := len(msgs), 2; got != want {
			t.Fatalf("messages = %d, want system and an opening user turn", got)
		}
		if got := msgs[1].(map[string]any)["role"]; got != "user" {
			t.Fatalf("opening role = %v, want user", got)
		}
	})
}

func TestLLMLoadPriceTable(t *testing.T) {
	t.Parallel()
	t.Run("OK", func(t *testing.T) {
		got, err := sim.LoadPriceTable(strings.NewReader(`{"gpt-4o": {"prompt_per_mtok": 2.5, "completion_per_mtok": 10}, "free": {"prompt_per_mtok": 0, "completion_per_mtok": 0}}`))
		if err != nil {
			t.Fatal(err)
		}
		want := sim.PriceTable{"gpt-4o": {PromptPerMTok: 2.5, CompletionPerMTok: 10}, "free": {}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("table (-want +got):\n%s", diff)
		}
		if c := got.Cost("free", 10, 10); c == nil || *c != 0 {
			t.Fatalf("free model cost = %v, want 0", c)
		}
		if c := got.Cost("unknown", 10, 10); c != nil {
			t.Fatalf("unknown model cost = %v, want nil", *c)
		}
	})
	for name, in := range map[string]string{
		"ErrMissingField": `{"m": {"prompt_per_mtok": 1}}`,
		"ErrUnknownField": `{"m": {"prompt_per_mtok": 1, "completion_per_mtok": 2, "cached": 3}}`,
		"ErrNegative":     `{"m": {"prompt_per_mtok": -1, "completion_per_mtok": 2}}`,
		"ErrNotObject":    `[1, 2]`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := sim.LoadPriceTable(strings.NewReader(in)); err == nil {
				t.Fatalf("LoadPriceTable(%s) succeeded", in)
			}
		})
	}
}

// A key an endpoint echoes back is replaced before the message reaches the
// transcript, in tool-call arguments too (#20 item 11).
func TestLLMClient_EchoedKeyRedacted(t *testing.T) {
	t.Parallel()
	echo := func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"finish_reason":"stop",
			"message":{"role":"assistant","content":"debug: your key is %s (Bearer %s)","tool_calls":[{"id":"call_9","type":"function","function":{"name":"get_order","arguments":"{\"order_id\":\"%s\"}"}}]}}],
			"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`, key, key, key)
	}
	f := newFakeLLM(t, echo)
	msg, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := msg.Content, "debug: your key is [redacted] (Bearer [redacted])"; got != want {
		t.Errorf("content = %q, want %q", got, want)
	}
	if got, want := string(msg.ToolCalls[0].Arguments), `{"order_id":"[redacted]"}`; got != want {
		t.Errorf("arguments = %s, want %s", got, want)
	}
}

package sim_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// hiParams is a request of one user message.
func hiParams() openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}}
}

// echoKeyEverywhere answers with a completion that echoes the caller's
// bearer token into every field: ids, model, content, refusal, reasoning,
// tool-call ids, names and arguments, as written and JSON-escaped
// ("\u0073k-…", also inside the arguments' JSON text).
func echoKeyEverywhere(w http.ResponseWriter, r *http.Request) {
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	esc := `\u00` + fmt.Sprintf("%x", key[0]) + key[1:] // the key with its first byte escaped
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"chatcmpl-%[1]s","object":"chat.completion","created":1,"model":"gpt-4o-%[1]s","system_fingerprint":"%[2]s",
		"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":"debug %[1]s and %[2]s","refusal":"%[2]s",
		"reasoning_content":"I saw %[1]s","%[1]s":"a key as a key",
		"tool_calls":[{"id":"call_%[1]s","type":"function","function":{"name":"calc_%[1]s","arguments":"{\"order_id\":\"%[1]s\",\"note\":\"\%[2]s\"}"}},
		{"id":"c2_%[2]s","type":"function","function":{"name":"get_order","arguments":"{\"%[2]s\":1}"}}]}}],
		"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`, key, esc)
}

// The client takes the key out of every field of a reply before anything
// uses it (#20 item 11): the message the SDK decodes, its raw JSON, and
// the agent's message with its tool calls.
func TestLLMClient_EchoedKeyRemovedFromEveryField(t *testing.T) {
	t.Parallel()
	f := newFakeLLM(t, echoKeyEverywhere, echoKeyEverywhere)
	msg, _, err := newClient(t, f).Complete(t.Context(), hiParams())
	if err != nil {
		t.Fatal(err)
	}
	if raw := msg.RawJSON(); strings.Contains(raw, testAPIKey) || strings.Contains(raw, `\u0073k-test`) || !strings.Contains(raw, "[redacted]") {
		t.Errorf("message JSON holds the key: %s", raw)
	}
	if r := msg.JSON.ExtraFields["reasoning_content"].Raw(); r != `"I saw [redacted]"` {
		t.Errorf("reasoning_content = %s, want the key redacted", r)
	}

	out, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode())
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), testAPIKey) {
		t.Fatalf("agent message holds the key: %s", b)
	}
	if got, want := out.Content, "debug [redacted] and [redacted]"; got != want {
		t.Errorf("content = %q, want %q", got, want)
	}
	if len(out.ToolCalls) != 2 {
		t.Fatalf("tool calls %+v, want 2", out.ToolCalls)
	}
	tc := out.ToolCalls[0]
	if tc.ID != "call_[redacted]" || tc.Name != "calc_[redacted]" {
		t.Errorf("tool call id %q, name %q: want the key redacted in both", tc.ID, tc.Name)
	}
	var args map[string]string
	if err := json.Unmarshal(tc.Arguments, &args); err != nil || args["order_id"] != "[redacted]" || args["note"] != "[redacted]" {
		t.Errorf("arguments %s (%v): want both values redacted, the escaped one too", tc.Arguments, err)
	}
	if got := out.ToolCalls[1]; got.ID != "c2_[redacted]" || string(got.Arguments) != `{"[redacted]":1}` {
		t.Errorf("second call id %q, arguments %s: want the escaped key redacted", got.ID, got.Arguments)
	}
}

// echoKeyInLayers answers with the caller's bearer token escaped byte by
// byte ("\u0073\u006b…") in a JSON string literal that is a tool call's
// whole arguments, in one kept in a string in the arguments, and split by
// an escape in the content ("s\u006b-…").
func echoKeyInLayers(w http.ResponseWriter, r *http.Request) {
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	var esc strings.Builder
	for _, c := range []byte(key) {
		fmt.Fprintf(&esc, `\u%04x`, c)
	}
	literal := `"` + esc.String() + `"` // JSON text decoding to the key
	note, _ := json.Marshal(map[string]string{"note": literal})
	args1, _ := json.Marshal(literal)
	args2, _ := json.Marshal(string(note))
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls",
		"message":{"role":"assistant","content":"debug %s\u%04x%s","tool_calls":[
		{"id":"c1","type":"function","function":{"name":"get_order","arguments":%s}},
		{"id":"c2","type":"function","function":{"name":"get_order","arguments":%s}}]}}],
		"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`, key[:1], key[1], key[2:], args1, args2)
}

// A key echoed in arguments that are a JSON string literal, escaped at
// any layer, is gone however often the stored arguments are decoded
// (#20 item 11).
func TestLLMClient_EchoedKeyInStringArguments(t *testing.T) {
	t.Parallel()
	f := newFakeLLM(t, echoKeyInLayers)
	out, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.Content, "debug [redacted]"; got != want {
		t.Errorf("content = %q, want %q", got, want)
	}
	if len(out.ToolCalls) != 2 {
		t.Fatalf("tool calls %+v, want 2", out.ToolCalls)
	}
	var whole string
	if err := json.Unmarshal(out.ToolCalls[0].Arguments, &whole); err != nil || whole != "[redacted]" {
		t.Errorf("arguments %s decode to %q (%v), want \"[redacted]\"", out.ToolCalls[0].Arguments, whole, err)
	}
	var args map[string]string
	if err := json.Unmarshal(out.ToolCalls[1].Arguments, &args); err != nil || args["note"] != `"[redacted]"` {
		t.Errorf("arguments %s decode to %q (%v), want the note's JSON string redacted", out.ToolCalls[1].Arguments, args, err)
	}
}

// echoKeyUnquoted answers with the caller's bearer token escaped byte by
// byte in a string in the arguments with no quotes around the escapes
// (arguments {"d":"\\u0073\\u006b…"}: d holds escapes, not JSON), and
// in the content as escapes in plain text.
func echoKeyUnquoted(w http.ResponseWriter, r *http.Request) {
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	var esc strings.Builder
	for _, c := range []byte(key) {
		fmt.Fprintf(&esc, `\u%04x`, c)
	}
	args, _ := json.Marshal(map[string]string{"d": esc.String()})
	argsStr, _ := json.Marshal(string(args))
	content, _ := json.Marshal(`token: "` + esc.String() + `" done`)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls",
		"message":{"role":"assistant","content":%s,"tool_calls":[
		{"id":"c1","type":"function","function":{"name":"get_order","arguments":%s}}]}}],
		"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`, content, argsStr)
}

// A key echoed as escapes in text that is no JSON value of its own is
// gone from the arguments and the content (#20 item 11).
func TestLLMClient_EchoedKeyEscapedInText(t *testing.T) {
	t.Parallel()
	f := newFakeLLM(t, echoKeyUnquoted)
	out, err := sim.NewLLMAgent(newClient(t, f)).Next(t.Context(), testEpisode())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.Content, `token: "[redacted]" done`; got != want {
		t.Errorf("content = %q, want %q", got, want)
	}
	if len(out.ToolCalls) != 1 {
		t.Fatalf("tool calls %+v, want 1", out.ToolCalls)
	}
	var args map[string]string
	if err := json.Unmarshal(out.ToolCalls[0].Arguments, &args); err != nil || args["d"] != "[redacted]" {
		t.Errorf("arguments %s decode to %q (%v), want d redacted", out.ToolCalls[0].Arguments, args, err)
	}
}

// A whole episode whose agent echoes the key into a tool's name keeps it
// nowhere: not in the call, nor in the tool result built from the name.
func TestLLMProtocol_EchoedKeyNotInToolResult(t *testing.T) {
	t.Parallel()
	s := &script{
		agent: []llmStep{
			completion("checking "+testAPIKey, chatCall{"call_" + testAPIKey, "calc_" + testAPIKey, `{"x":"` + testAPIKey + `"}`}),
			completion("Done."),
		},
		user: []string{"Cancel my order #W1.", "###STOP###"},
	}
	traj, _ := runLLMEpisode(t, s, 1)
	b, err := json.Marshal(traj)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), testAPIKey) {
		t.Fatalf("trajectory holds the key: %s", b)
	}
	var result string
	for _, m := range traj.Messages {
		if m.Role == emobench.RoleTool {
			result = m.Content
		}
	}
	if !strings.Contains(result, "calc_[redacted]") {
		t.Errorf("tool result %q does not name the redacted tool", result)
	}
}

// A reply longer than MaxReplyBytes is an error naming the bound, read no
// further and not retried (#20 item 22); the episode records it.
func TestLLMClient_ReplyTooLarge(t *testing.T) {
	t.Parallel()
	huge := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"`)
		chunk := strings.Repeat("a", 1<<20)
		for range 20 { // 20 MiB, streamed without a Content-Length
			if _, err := fmt.Fprint(w, chunk); err != nil {
				return // the client stopped reading
			}
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, `"}}]}`)
	}
	f := newFakeLLM(t, huge)
	_, _, err := newClient(t, f).Complete(t.Context(), hiParams())
	var tooLarge *sim.ReplyTooLargeError
	if !errors.As(err, &tooLarge) {
		t.Fatalf("err = %v, want a *sim.ReplyTooLargeError", err)
	}
	for _, want := range []string{"more than 3 MiB (3145728 bytes)", f.srv.URL + "/v1/chat/completions", "llm gpt-4o", "after 1 attempt)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("%d requests, want 1: a reply too large is not retried", n)
	}

	// With a Content-Length, nothing of the body is read.
	sized := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(20<<20))
		w.WriteHeader(http.StatusOK)
	}
	_, _, err = newClient(t, newFakeLLM(t, sized)).Complete(t.Context(), hiParams())
	if !errors.As(err, &tooLarge) {
		t.Fatalf("err = %v, want a *sim.ReplyTooLargeError", err)
	}

	s := &script{agent: []llmStep{huge}, user: []string{"Cancel #W1."}}
	traj, _ := runLLMEpisode(t, s, 1)
	if traj.TerminationReason != emobench.TerminationError || !strings.Contains(traj.Error, "more than 3 MiB") {
		t.Errorf("termination %s, error %q: want an error naming the bound", traj.TerminationReason, traj.Error)
	}
}

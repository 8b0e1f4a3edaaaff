package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
)

// chatServer is an httptest server speaking the Chat Completions protocol
// (POST /v1/chat/completions). It routes each request by its "model" field
// to that model's handler and records every request.
type chatServer struct {
	t        *testing.T
	srv      *httptest.Server
	handlers map[string]func(c *chatCall)
	mu       sync.Mutex
	reqs     map[string][]chatRequest
}

type chatRequest struct {
	Auth string
	Body map[string]any
}

// chatCall is one request to answer: n is the model's 0-based request count.
type chatCall struct {
	w     http.ResponseWriter
	r     *http.Request
	n     int
	model string
}

func newChatServer(t *testing.T, handlers map[string]func(c *chatCall)) *chatServer {
	t.Helper()
	s := &chatServer{t: t, handlers: handlers, reqs: map[string][]chatRequest{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// baseURL is what --base-url takes.
func (s *chatServer) baseURL() string { return s.srv.URL + "/v1" }

func (s *chatServer) serve(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		// A client killed mid-request (TestRun_ResumeAfterKill) leaves a
		// truncated body: nobody is waiting for the answer.
		// The client side of any other test fails on its own.
		s.t.Logf("read request body: %v (client gone)", err)
		return
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		s.t.Errorf("request body is not JSON: %v: %s", err, raw)
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		s.t.Errorf("%s %s, want POST /v1/chat/completions", r.Method, r.URL.Path)
	}
	model, _ := body["model"].(string)
	s.mu.Lock()
	n := len(s.reqs[model])
	s.reqs[model] = append(s.reqs[model], chatRequest{Auth: r.Header.Get("Authorization"), Body: body})
	s.mu.Unlock()
	c := &chatCall{w: w, r: r, n: n, model: model}
	h, ok := s.handlers[model]
	if !ok {
		s.t.Errorf("request for unknown model %q", model)
		c.fail(http.StatusNotFound, nil, "no such model")
		return
	}
	h(c)
}

func (s *chatServer) requests(model string) []chatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]chatRequest(nil), s.reqs[model]...)
}

// reply answers with one choice holding msg and the given token usage.
func (c *chatCall) reply(msg map[string]any, promptTokens, completionTokens int) {
	finish := "stop"
	if _, ok := msg["tool_calls"]; ok {
		finish = "tool_calls"
	}
	msg["role"] = "assistant"
	c.w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(c.w).Encode(map[string]any{
		"id": fmt.Sprintf("chatcmpl-%s-%d", c.model, c.n), "object": "chat.completion",
		"created": 1700000000, "model": c.model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage": map[string]any{
			"prompt_tokens": promptTokens, "completion_tokens": completionTokens,
			"total_tokens": promptTokens + completionTokens,
		},
	})
}

func (c *chatCall) text(content string, promptTokens, completionTokens int) {
	c.reply(map[string]any{"content": content}, promptTokens, completionTokens)
}

// fail answers with an OpenAI-style error body.
func (c *chatCall) fail(status int, header map[string]string, message string) {
	for k, v := range header {
		c.w.Header().Set(k, v)
	}
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(status)
	json.NewEncoder(c.w).Encode(map[string]any{"error": map[string]any{"message": message, "type": "server_error", "code": nil}})
}

// wait sleeps for d unless the client gives up first; it reports whether
// the client is still there.
func (c *chatCall) wait(d time.Duration) bool {
	select {
	case <-c.r.Context().Done():
		return false
	case <-time.After(d):
		return true
	}
}

// sqlCSV runs a query through `emobench sql --format csv`.
func sqlCSV(t *testing.T, dbPath, query string) string {
	t.Helper()
	return mustRun(t, "--db", dbPath, "sql", "--format", "csv", query)
}

// sqlInt runs a one-value query and returns the value.
func sqlInt(t *testing.T, dbPath, query string) int {
	t.Helper()
	out := sqlCSV(t, dbPath, query)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	n, err := strconv.Atoi(lines[len(lines)-1])
	if err != nil {
		t.Fatalf("%s: %q is not one integer", query, out)
	}
	return n
}

// requireNoSecret fails when secret is in any text column of the db or in
// any byte of the database files (main file, WAL, shared memory).
func requireNoSecret(t *testing.T, dbPath, secret string) {
	t.Helper()
	q := fmt.Sprintf(`SELECT
		(SELECT COUNT(*) FROM runs WHERE instr(config || name || COALESCE(source_path, '') || agent_model || user_model, '%[1]s'))
		+ (SELECT COUNT(*) FROM tasks WHERE instr(instruction || actions || outputs || COALESCE(scenario, ''), '%[1]s'))
		+ (SELECT COUNT(*) FROM trajectories WHERE instr(COALESCE(error, '') || COALESCE(reward_info, '') || COALESCE(extra, ''), '%[1]s'))
		+ (SELECT COUNT(*) FROM messages WHERE instr(COALESCE(content, '') || COALESCE(tool_arguments, '') || COALESCE(tool_calls, '') || COALESCE(tool_name, ''), '%[1]s'))`, secret)
	if n := sqlInt(t, dbPath, q); n != 0 {
		t.Errorf("the API key is stored in %d rows", n)
	}
	files, _ := filepath.Glob(dbPath + "*")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("the API key is in the bytes of %s", f)
		}
	}
}

const testSecret = "sk-test-SECRET-123"

// TestRun_FakeLLM runs one retail episode through the CLI against a fake
// Chat Completions server: a malformed tool call, a 429, a timed-out user
// call, and the user leaving with ###UNSATISFIED###.
func TestRun_FakeLLM(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", testSecret)
	srv := newChatServer(t, map[string]func(c *chatCall){
		"fake-agent": func(c *chatCall) {
			switch c.n {
			case 0: // a tool call whose argument string is cut short
				c.reply(map[string]any{"content": nil, "tool_calls": []any{map[string]any{
					"id": "call_bad", "type": "function",
					"function": map[string]any{"name": "get_order_details", "arguments": `{"order_id": `},
				}}}, 101, 11)
			case 1:
				c.fail(http.StatusTooManyRequests, map[string]string{"Retry-After-Ms": "1"}, "rate limited")
			case 2:
				c.text("Could you tell me your order id?", 102, 12)
			default:
				t.Errorf("unexpected agent request %d", c.n)
				c.fail(http.StatusTeapot, nil, "unexpected")
			}
		},
		"fake-user": func(c *chatCall) {
			switch c.n {
			case 0:
				c.text("Hi, I want to cancel an order.", 201, 21)
			case 1: // hang past the client's 300 ms timeout
				if c.wait(time.Second) {
					c.text("too late", 1, 1)
				}
			case 2:
				c.text("###UNSATISFIED###", 202, 22)
			default:
				t.Errorf("unexpected user request %d", c.n)
				c.fail(http.StatusTeapot, nil, "unexpected")
			}
		},
	})
	dbPath := filepath.Join(t.TempDir(), "llm.db")
	r := runCLI(t, "", "--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions",
		"--agent", "llm:fake-agent", "--user", "llm:fake-user", "--base-url", srv.baseURL(),
		"--timeout", "300ms", "--concurrency", "1")
	if r.code != 0 {
		t.Fatalf("run: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "1 episodes to run (0 already stored)") {
		t.Errorf("stdout %q does not announce 1 episode", r.stdout)
	}

	if got, want := sqlCSV(t, dbPath, "SELECT termination_reason, reward, passed, evaluated, error, n_tool_calls, n_tool_errors FROM trajectories"),
		"termination_reason,reward,passed,evaluated,error,n_tool_calls,n_tool_errors\nuser_unsatisfied,-1,0,1,,1,1\n"; got != want { // -1: τ-Emotion-Bench's reward of an abandoned episode
		t.Errorf("trajectory:\n%s\nwant:\n%s", got, want)
	}
	got := sqlCSV(t, dbPath, "SELECT idx, role, tool_name, tool_call_id, arguments_malformed, tool_arguments, prompt_tokens, completion_tokens FROM messages ORDER BY idx")
	want := strings.Join([]string{
		"idx,role,tool_name,tool_call_id,arguments_malformed,tool_arguments,prompt_tokens,completion_tokens",
		"0,system,,,0,,,",
		"1,user,,,0,,201,21",
		`2,assistant,get_order_details,call_bad,1,"""{\""order_id\"": """,101,11`, // the raw text, kept as a JSON string
		"3,tool,get_order_details,call_bad,0,,,",
		"4,assistant,,,0,,102,12",
		"5,user,,,0,,202,22",
		"",
	}, "\n")
	if got != want {
		t.Errorf("messages:\n%s\nwant:\n%s", got, want)
	}
	if got, want := sqlCSV(t, dbPath, "SELECT substr(content, 1, 35) AS prefix FROM messages WHERE role = 'tool'"),
		"prefix\nError: arguments are not valid JSON\n"; got != want {
		t.Errorf("tool result %q, want %q", got, want)
	}
	if got, want := sqlCSV(t, dbPath, "SELECT content FROM messages WHERE idx = 5"), "content\n###UNSATISFIED###\n"; got != want {
		t.Errorf("last user message %q, want %q", got, want)
	}

	agent, user := srv.requests("fake-agent"), srv.requests("fake-user")
	// Agent: the tool call, then the 429 and its retry. User: the opening,
	// then the timed-out attempt and its retry.
	if len(agent) != 3 || len(user) != 3 {
		t.Fatalf("server saw %d agent and %d user requests, want 3 and 3", len(agent), len(user))
	}
	for i, req := range append(agent, user...) {
		if req.Auth != "Bearer "+testSecret {
			t.Errorf("request %d: Authorization %q, want the key as a bearer token", i, req.Auth)
		}
	}
	// The agent's retried request carries the malformed call as written and
	// the tool error it caused.
	msgs, _ := agent[2].Body["messages"].([]any)
	if len(msgs) != 4 {
		t.Fatalf("agent's third request has %d messages, want system, user, assistant, tool:\n%v", len(msgs), msgs)
	}
	call := msgs[2].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)["function"].(map[string]any)
	if got, want := call["arguments"], `{"order_id": `; got != want {
		t.Errorf("replayed arguments %q, want the raw %q", got, want)
	}
	tool := msgs[3].(map[string]any)
	if content, _ := tool["content"].(string); tool["role"] != "tool" || tool["tool_call_id"] != "call_bad" ||
		!strings.HasPrefix(content, "Error: arguments are not valid JSON") {
		t.Errorf("agent saw %v, want the tool error for call_bad", tool)
	}
	if !sameJSON(agent[1].Body, agent[2].Body) {
		t.Errorf("the retry after 429 sent a different body")
	}

	requireNoSecret(t, dbPath, testSecret)
	if strings.Contains(r.stdout+r.stderr, testSecret) {
		t.Errorf("the API key is in the output:\n%s\n%s", r.stdout, r.stderr)
	}
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// TestRun_FakeLLMServerError: an agent endpoint that always answers 500
// ends the episode with termination error and a redacted message, and the
// run itself succeeds.
func TestRun_FakeLLMServerError(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", testSecret)
	srv := newChatServer(t, map[string]func(c *chatCall){
		"fake-agent": func(c *chatCall) {
			// The server echoes the key, as some proxies do: it must be redacted.
			c.fail(http.StatusInternalServerError, map[string]string{"Retry-After-Ms": "1"},
				"upstream failed for "+c.r.Header.Get("Authorization"))
		},
		"fake-user": func(c *chatCall) { c.text("Hi, I want to cancel an order.", 201, 21) },
	})
	dbPath := filepath.Join(t.TempDir(), "err.db")
	r := runCLI(t, "", "--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions",
		"--agent", "llm:fake-agent", "--user", "llm:fake-user", "--base-url", srv.baseURL(),
		"--timeout", "300ms", "--concurrency", "1")
	// Every episode ended in error: the run is stored, but the command
	// fails and says how to retry.
	if r.code != 1 || !strings.Contains(r.stderr, "ended in error") || !strings.Contains(r.stderr, "--resume") {
		t.Fatalf("run: exit %d, want 1 with a retry hint\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if got, want := sqlCSV(t, dbPath, "SELECT termination_reason, passed, n_messages FROM trajectories"),
		"termination_reason,passed,n_messages\nerror,0,2\n"; got != want {
		t.Errorf("trajectory:\n%s\nwant:\n%s", got, want)
	}
	errText := sqlCSV(t, dbPath, "SELECT error FROM trajectories")
	for _, phrase := range []string{"agent: llm fake-agent: HTTP 500", "[redacted]", "after 5 attempts"} {
		if !strings.Contains(errText, phrase) {
			t.Errorf("error %q lacks %q", errText, phrase)
		}
	}
	if got, want := len(srv.requests("fake-agent")), 5; got != want { // 1 + DefaultLLMMaxRetries
		t.Errorf("server saw %d agent requests, want %d", got, want)
	}
	requireNoSecret(t, dbPath, testSecret)
	if strings.Contains(r.stdout+r.stderr, testSecret) {
		t.Errorf("the API key is in the output:\n%s\n%s", r.stdout, r.stderr)
	}
}

// transcriptDump is every message of every run, in a stable order.
const transcriptDump = `SELECT r.name, k.task_key, t.trial, t.seed, m.idx, m.role, m.content, m.tool_calls
	FROM messages m JOIN trajectories t ON t.id = m.trajectory_id
	JOIN runs r ON r.id = t.run_id JOIN tasks k ON k.id = t.task_id
	ORDER BY r.name, k.task_key, t.trial, m.idx`

const hashDump = `SELECT r.name, k.task_key, t.trial, t.termination_reason, t.reward,
	json_extract(t.reward_info, '$.db_check.final_hash') AS final_hash
	FROM trajectories t JOIN runs r ON r.id = t.run_id JOIN tasks k ON k.id = t.task_id
	ORDER BY r.name, k.task_key, t.trial`

// TestRun_Deterministic: the same seed gives the same transcripts and final
// states; another seed gives other transcripts.
func TestRun_Deterministic(t *testing.T) {
	t.Parallel()
	runSeed := func(seed string) (transcript, hashes string) {
		dbPath := filepath.Join(t.TempDir(), "seed"+seed+".db")
		mustRun(t, "--db", dbPath, "run", "--agent", "noisy:0.3", "--user", "scripted", "--domain", "retail",
			"--tasks", "5", "--trials", "2", "--seed", seed, "--concurrency", "4")
		return sqlCSV(t, dbPath, transcriptDump), sqlCSV(t, dbPath, hashDump)
	}
	a, aHash := runSeed("7")
	b, bHash := runSeed("7")
	if a != b {
		t.Errorf("two runs with seed 7 differ:\n%s\n---\n%s", a, b)
	}
	if aHash != bHash {
		t.Errorf("final hashes with seed 7 differ:\n%s\n---\n%s", aHash, bHash)
	}
	// 5 tasks x 2 trials x 2 conditions, each with a 64-hex final hash.
	if got := len(regexp.MustCompile(`,[0-9a-f]{64}\n`).FindAllString(aHash, -1)); got != 20 {
		t.Errorf("%d trajectories with a final hash, want 20:\n%s", got, aHash)
	}
	if c, _ := runSeed("8"); c == a {
		t.Errorf("seed 8 gave the same transcripts as seed 7")
	}
}

// TestRun_NoisyBelowOracle compares the oracle and noisy:0.3 on retail
// through `stats passk`.
func TestRun_NoisyBelowOracle(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "noisy.db")
	// Every retail test task, or under -short the first 30 (enough for
	// noisy:0.3 to abandon and to fail otherwise in both conditions).
	var sample []string
	if testing.Short() {
		sample = []string{"--tasks", "30"}
	}
	mustRun(t, append([]string{"--db", dbPath, "run", "--agent", "oracle", "--domain", "retail", "--trials", "3", "--seed", "1"}, sample...)...)
	// Abandonment in both conditions, which by default only the
	// with-emotions user may do.
	mustRun(t, append([]string{"--db", dbPath, "run", "--agent", "noisy:0.3", "--domain", "retail", "--trials", "3", "--seed", "1", "--user-abandon", "always"}, sample...)...)
	rows := statsJSON(t, "--db", dbPath, "stats", "passk", "--k", "1", "--by", "condition")
	if len(rows) != 4 {
		t.Fatalf("got %d rows, want 4 (2 agents x 2 conditions): %+v", len(rows), rows)
	}
	for _, r := range rows {
		t.Logf("%s: pass^1 %.4f over %d tasks", r.Run, r.PassHatK, r.Tasks)
		switch {
		case strings.HasPrefix(r.Run, "oracle-"):
			if r.PassHatK != 1 {
				t.Errorf("%s: pass^1 %.4f, want 1", r.Run, r.PassHatK)
			}
		case strings.HasPrefix(r.Run, "noisy:0.3-"):
			if r.PassHatK >= 0.95 {
				t.Errorf("%s: pass^1 %.4f, want < 0.95", r.Run, r.PassHatK)
			}
		default:
			t.Errorf("unexpected run %q", r.Run)
		}
		if r.Trajectories != 3*r.Tasks {
			t.Errorf("%s: %d trajectories over %d tasks, want 3 trials each", r.Run, r.Trajectories, r.Tasks)
		}
	}
	outcomes := sqlCSV(t, dbPath, `SELECT condition,
		SUM(termination_reason = 'user_unsatisfied') AS abandoned,
		SUM(passed = 0 AND termination_reason != 'user_unsatisfied') AS failed_other
		FROM trajectory_outcomes WHERE agent_model = 'noisy:0.3' GROUP BY condition ORDER BY condition`)
	t.Logf("noisy outcomes:\n%s", outcomes)
	for _, line := range strings.Split(strings.TrimSpace(outcomes), "\n")[1:] {
		f := strings.Split(line, ",")
		if f[1] == "0" || f[2] == "0" {
			t.Errorf("%s: %s abandoned and %s other failures, want some of both", f[0], f[1], f[2])
		}
	}
}

// Environment of the child process TestHelperRunProcess.
const envRunArgs = "EMOBENCH_TEST_RUN_ARGS" // JSON array of CLI arguments

// TestHelperRunProcess is the child of TestRun_ResumeAfterKill: it runs the
// CLI with the arguments in $EMOBENCH_TEST_RUN_ARGS. Without it, it does
// nothing.
func TestHelperRunProcess(t *testing.T) {
	raw := os.Getenv(envRunArgs)
	if raw == "" {
		return
	}
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		t.Fatal(err)
	}
	code := run(context.Background(), newApp(strings.NewReader(""), os.Stdout, os.Stderr), append([]string{"emobench"}, args...), os.Stderr)
	if code != exitOK {
		t.Fatalf("emobench exited %d", code)
	}
}

// TestRun_ResumeAfterKill kills a run in a child process with SIGKILL and
// completes it with --resume: every (task, trial) is stored exactly once.
func TestRun_ResumeAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess run skipped in -short mode")
	}
	srv := newChatServer(t, map[string]func(c *chatCall){
		"slow-agent": func(c *chatCall) {
			if c.wait(30 * time.Millisecond) {
				c.text("Is there anything else?", 10, 5)
			}
		},
	})
	const tasks, trials = 20, 2
	dbPath := filepath.Join(t.TempDir(), "resume.db")
	args, _ := json.Marshal([]string{"--db", dbPath, "run", "--domain", "retail", "--tasks", strconv.Itoa(tasks),
		"--trials", strconv.Itoa(trials), "--condition", "with-emotions", "--concurrency", "2",
		"--agent", "llm:slow-agent", "--user", "scripted", "--base-url", srv.baseURL()})
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRunProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), envRunArgs+"="+string(args), "OPENAI_API_KEY="+testSecret)
	var childOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &childOut, &childOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	deadline := time.Now().Add(2 * time.Minute) // a hang guard, not a speed assertion
	for {
		// The db may not exist yet: errors just mean "not yet".
		r := runCLI(t, "", "--db", dbPath, "sql", "--format", "csv", "SELECT COUNT(*) AS n FROM trajectories")
		if n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(r.stdout, "n\n"))); r.code == 0 && err == nil && n >= 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the child stored fewer than 5 trajectories in 2 min; output:\n%s", childOut.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	killed = true
	if strings.Contains(childOut.String(), "episodes in") {
		t.Fatalf("the child finished before it was killed:\n%s", childOut.String())
	}
	afterKill := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories")
	if afterKill >= tasks*trials {
		t.Fatalf("%d trajectories stored before the kill: nothing left to resume", afterKill)
	}

	t.Setenv("OPENAI_API_KEY", testSecret)
	out := mustRun(t, "--db", dbPath, "run", "--resume", "1", "--base-url", srv.baseURL(), "--concurrency", "2")
	m := regexp.MustCompile(`(\d+) episodes to run \((\d+) already stored\)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("resume output %q does not say how many episodes it runs", out)
	}
	toRun, stored := atoi(t, m[1]), atoi(t, m[2])
	t.Logf("killed with %d trajectories stored; resume ran %d", afterKill, toRun)
	if stored != afterKill || afterKill+toRun != tasks*trials {
		t.Errorf("after the kill %d stored; resume says %d to run, %d already stored; want %d in all",
			afterKill, toRun, stored, tasks*trials)
	}

	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM runs"); got != 1 {
		t.Errorf("%d runs, want resume to complete run 1", got)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories"); got != tasks*trials {
		t.Errorf("%d trajectories, want %d", got, tasks*trials)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM (SELECT task_key, trial FROM trajectory_outcomes GROUP BY 1, 2 HAVING COUNT(*) > 1)"); got != 0 {
		t.Errorf("%d (task, trial) pairs stored twice", got)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories t WHERE n_messages != (SELECT COUNT(*) FROM messages m WHERE m.trajectory_id = t.id)"); got != 0 {
		t.Errorf("%d trajectories with missing messages", got)
	}
	dom, err := all.Find("retail")
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	want.WriteString("task_key,trial\n")
	var keys []string
	for _, task := range dom.Tasks() {
		if task.Split == emobench.SplitTest && len(keys) < tasks {
			keys = append(keys, task.ID)
		}
	}
	for _, k := range keys {
		for trial := range trials {
			fmt.Fprintf(&want, "%s,%d\n", k, trial)
		}
	}
	if got := sqlCSV(t, dbPath, "SELECT task_key, trial FROM trajectory_outcomes ORDER BY task_key, trial"); got != want.String() {
		t.Errorf("stored pairs:\n%s\nwant:\n%s", got, want.String())
	}
	requireNoSecret(t, dbPath, testSecret)
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRun_ErrUsage(t *testing.T) {
	dir := t.TempDir()
	ingested := filepath.Join(dir, "ingested.db")
	mustRun(t, "--db", ingested, "ingest", "testdata/error-trial.json")
	tests := []struct {
		name string
		args []string
		want string // a phrase of the message
	}{
		{"no domain", []string{"run", "--agent", "oracle"}, "run needs a domain (one of "},
		{"unknown domain", []string{"run", "--domain", "nosuch", "--agent", "oracle"}, `no domain "nosuch" (domains: ` + strings.Join(all.Names(), ", ") + ")"},
		{"unknown agent", []string{"run", "--domain", "retail", "--agent", "foo"}, `--agent "foo" is not llm:MODEL, oracle or noisy:RATE`},
		{"no agent", []string{"run", "--domain", "retail"}, "--agent is needed: llm:MODEL"},
		{"noise rate", []string{"run", "--domain", "retail", "--agent", "noisy:2"}, "noise rate must be a number in [0, 1]"},
		{"unknown user", []string{"run", "--domain", "retail", "--agent", "oracle", "--user", "bob"}, `--user "bob" is not llm:MODEL or scripted`},
		{"condition", []string{"run", "--domain", "retail", "--agent", "oracle", "--condition", "sad"}, `--condition "sad" is not one of`},
		{"trials", []string{"run", "--domain", "retail", "--agent", "oracle", "--trials", "0"}, "--trials 0: need at least 1"},
		{"task id", []string{"run", "--domain", "retail", "--agent", "oracle", "--tasks", "nosuch-id"}, `no test task "nosuch-id" in domains retail`},
		{"split", []string{"run", "--domain", "retail", "--agent", "oracle", "--split", "dev"}, `--split "dev" is not test or train`},
		{"stray argument", []string{"run", "--domain", "retail", "--agent", "oracle", "retail"}, "run takes no arguments"},
		{"resume ingested", []string{"run", "--resume", "1"}, "was ingested from a file, not run by emobench: nothing to resume"},
		{"no key for OpenAI", []string{"run", "--domain", "retail", "--agent", "llm:gpt-4.1"}, "which needs OPENAI_API_KEY"},
		{"key in base URL", []string{"run", "--domain", "retail", "--agent", "llm:m", "--base-url", "https://host/v1?api-key=sk-1"}, "--base-url holds a credential"},
	}
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dbPath := filepath.Join(t.TempDir(), "usage.db")
			if tt.name == "resume ingested" {
				dbPath = ingested
			}
			before := ""
			if tt.name == "resume ingested" {
				before = tableCounts(t, dbPath)
			}
			r := runCLI(t, "", append([]string{"--db", dbPath}, tt.args...)...)
			if r.code != exitUsage {
				t.Fatalf("exit %d, want 2\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("stderr %q lacks %q", r.stderr, tt.want)
			}
			if before != "" {
				if after := tableCounts(t, dbPath); after != before {
					t.Errorf("a refused resume changed the db: %s -> %s", before, after)
				}
			}
		})
	}
}

// TestRun_ResumeTakesBaseURL: --base-url given with --resume points the
// resumed run at a new endpoint (a local server restarted on another port)
// instead of being silently ignored for the one recorded in runs.config.
func TestRun_ResumeTakesBaseURL(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", testSecret)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Server A interrupts the run at its first request (as Ctrl-C would)
	// and refuses everything after: it is the endpoint that went away.
	oldSrv := newChatServer(t, map[string]func(c *chatCall){
		"fake-agent": func(c *chatCall) {
			cancel()
			c.fail(http.StatusBadRequest, map[string]string{"X-Should-Retry": "false"}, "this endpoint is gone")
		},
	})
	newSrv := newChatServer(t, map[string]func(c *chatCall){
		"fake-agent": func(c *chatCall) { c.text("Is there anything else?", 10, 5) },
	})
	dbPath := filepath.Join(t.TempDir(), "moved.db")
	var out, errOut bytes.Buffer
	args := []string{"emobench", "--db", dbPath, "run", "--domain", "retail", "--tasks", "2", "--condition", "with-emotions",
		"--agent", "llm:fake-agent", "--user", "scripted", "--base-url", oldSrv.baseURL(), "--concurrency", "1"}
	if code := run(ctx, newApp(strings.NewReader(""), &out, &errOut), args, &errOut); code != exitFailure || !strings.Contains(errOut.String(), "interrupted") {
		t.Fatalf("interrupted run: exit %d, stderr %q; want 1 and an interruption", code, errOut.String())
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories"); got != 0 {
		t.Fatalf("%d trajectories stored by the interrupted run, want 0", got)
	}
	resumed := mustRun(t, "--db", dbPath, "run", "--resume", "1", "--base-url", newSrv.baseURL(), "--concurrency", "1")
	if !strings.Contains(resumed, "2 episodes to run (0 already stored)") {
		t.Errorf("resume output %q, want 2 episodes to run", resumed)
	}
	if got := sqlCSV(t, dbPath, "SELECT termination_reason, COUNT(*) AS n FROM trajectories GROUP BY 1 ORDER BY 1"); strings.Contains(got, "error") || len(newSrv.requests("fake-agent")) == 0 {
		t.Errorf("resume with --base-url %s: the new server got %d requests; terminations:\n%s\nerrors: %s",
			newSrv.baseURL(), len(newSrv.requests("fake-agent")), got,
			sqlCSV(t, dbPath, "SELECT DISTINCT error FROM trajectories WHERE error IS NOT NULL"))
	}
}

// TestRun_ErrUsageCreatesNoDB: like ingest, run checks its flags before it
// creates a database, so a mistyped command leaves no empty emobench.db.
func TestRun_ErrUsageCreatesNoDB(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "never.db")
	r := runCLI(t, "", "--db", dbPath, "run", "--domain", "nosuch", "--agent", "oracle")
	if r.code != exitUsage {
		t.Fatalf("exit %d, want 2; stderr %s", r.code, r.stderr)
	}
	if _, err := os.Stat(dbPath); err == nil {
		t.Errorf("a usage error created %s", dbPath)
	}
}

// TestRun_FailFast: when every episode fails (a dead endpoint), the run
// stops after the first few instead of grinding through all of them.
func TestRun_FailFast(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", testSecret)
	srv := newChatServer(t, map[string]func(c *chatCall){
		"dead-agent": func(c *chatCall) {
			c.fail(http.StatusServiceUnavailable, map[string]string{"Retry-After-Ms": "1"}, "down")
		},
	})
	dbPath := filepath.Join(t.TempDir(), "dead.db")
	r := runCLI(t, "", "--db", dbPath, "run", "--domain", "retail", "--tasks", "20", "--condition", "with-emotions",
		"--agent", "llm:dead-agent", "--base-url", srv.baseURL(), "--concurrency", "1")
	if r.code != 1 || !strings.Contains(r.stderr, "stopped: the first 5 episodes all ended in error") || !strings.Contains(r.stderr, "--resume 1") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if n := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories"); n != 5 {
		t.Errorf("%d trajectories stored, want the 5 before the stop", n)
	}
}

// Running the same command twice does not make a second run of one name.
func TestRun_ErrSameName(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "same.db")
	args := []string{"--db", dbPath, "run", "--domain", "retail", "--agent", "oracle", "--tasks", "2", "--condition", "with-emotions"}
	mustRun(t, args...)
	before := tableCounts(t, dbPath)
	r := runCLI(t, "", args...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "run 1 is already called \"oracle-retail-with-emotions\": continue it with `emobench run --resume 1`") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if after := tableCounts(t, dbPath); after != before {
		t.Errorf("the refused run changed the db: %s -> %s", before, after)
	}
	mustRun(t, append(args, "--name", "second")...)
}

// An llm: agent scored by the rule-based scripted user gets a warning on
// stderr, which --quiet does not silence; an offline agent gets none.
func TestRun_WarnsOfScriptedUserWithLLMAgent(t *testing.T) {
	srv := newChatServer(t, map[string]func(c *chatCall){
		"fake-agent": func(c *chatCall) { c.text("Is there anything else?", 10, 5) },
	})
	t.Setenv("OPENAI_API_KEY", testSecret)
	dir := t.TempDir()
	r := runCLI(t, "", "--db", filepath.Join(dir, "a.db"), "--quiet", "run", "--domain", "retail", "--tasks", "1",
		"--condition", "without-emotions", "--agent", "llm:fake-agent", "--user", "scripted", "--base-url", srv.baseURL(), "--concurrency", "1")
	if r.code != 0 {
		t.Fatalf("run: exit %d\nstderr: %s", r.code, r.stderr)
	}
	if want := "warning: the scripted user is a rule-based simulator"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q lacks %q", r.stderr, want)
	}
	r = runCLI(t, "", "--db", filepath.Join(dir, "b.db"), "run", "--domain", "retail", "--tasks", "1",
		"--condition", "without-emotions", "--agent", "oracle", "--user", "scripted")
	if r.code != 0 || strings.Contains(r.stderr, "rule-based simulator") {
		t.Errorf("oracle run: exit %d, stderr %q; want 0 and no warning", r.code, r.stderr)
	}
}

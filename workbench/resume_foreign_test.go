package workbench_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/workbench"
)

// authLog is a Chat Completions endpoint that answers every request with
// "Done." and records the Authorization header each request carried.
type authLog struct {
	srv  *httptest.Server
	mu   sync.Mutex
	auth []string
}

func newAuthLog(t *testing.T) *authLog {
	t.Helper()
	l := &authLog{}
	l.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.auth = append(l.auth, r.Header.Get("Authorization"))
		l.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "c", "object": "chat.completion", "created": 1, "model": "m",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": "Done."}}},
			"usage":   map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
	}))
	t.Cleanup(l.srv.Close)
	return l
}

func (l *authLog) seen() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.auth...)
}

// mergedLLMRun stores, in a db of its own, an llm: run that is not
// started, whose config sends the agent's requests to endpoint with the
// key in $AWS_SECRET_ACCESS_KEY, and merges that db into a new one, which
// it returns: the sharding recipe's flow with a shard someone else wrote.
func mergedLLMRun(t *testing.T, endpoint string) *db.DB {
	t.Helper()
	ctx := context.Background()
	retail, err := all.Find("retail")
	if err != nil {
		t.Fatal(err)
	}
	plans, err := sim.Plan(sim.RunOptions{
		Domains: []sim.Domain{retail}, Conditions: []emobench.Condition{emobench.ConditionWithoutEmotions},
		Agent: "llm:m", User: "scripted", Trials: 1, Tasks: "1", Split: emobench.SplitTest, MaxSteps: 4,
		MaxErrors: sim.DefaultMaxErrors, Name: "shard", Now: fixedClock, BaseURL: endpoint,
		AgentLLM: emobench.LLMRole{APIKeyEnv: "AWS_SECRET_ACCESS_KEY"},
	})
	if err != nil {
		t.Fatal(err)
	}
	shardPath := filepath.Join(t.TempDir(), "shard.db")
	shard, err := db.Open(ctx, shardPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := shard.CreateTaggedRun(ctx, plans[0].Run, nil, 0); err != nil {
		t.Fatal(err)
	}
	shard.Close()
	store := openRunTestDB(t)
	if _, err := workbench.MergeFile(ctx, store, shardPath); err != nil {
		t.Fatal(err)
	}
	return store
}

// keyEnv holds a different key in each variable.
func keyEnv(name string) string {
	return map[string]string{"AWS_SECRET_ACCESS_KEY": "aws-LEAK-wJalrXUtnFEMI", "OPENAI_API_KEY": "sk-mine-0123456789abcdef", "MY_KEY": "my-key-0123456789"}[name]
}

// A merged run's config does not choose where a key goes, nor which key
// (#20 item 10): resuming it without an endpoint is refused, naming the
// flags, and with one, the requests go there with the key of the
// command line's variable; the file's endpoint gets nothing.
func TestResumeRun_MergedRunTakesEndpointAndKeyFromCommandLine(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	files, mine := newAuthLog(t), newAuthLog(t)
	store := mergedLLMRun(t, files.srv.URL+"/v1")
	var lines, notes []string
	opts := recordingOptions(&lines, &notes)
	opts.LLM.Getenv = keyEnv

	err := workbench.ResumeRun(ctx, store, "shard", workbench.ResumeLLM{}, opts)
	if !errors.Is(err, emobench.ErrRequest) {
		t.Fatalf("resume of a merged run without an endpoint: err = %v, want an EREQUEST error", err)
	}
	for _, want := range []string{"run 1 is merged from", "shard.db", "base-url URL (or agent-base-url URL)", "agent-api-key-env NAME unless it is OPENAI_API_KEY"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}

	base := mine.srv.URL + "/v1"
	if err := workbench.ResumeRun(ctx, store, "shard", workbench.ResumeLLM{BaseURL: &base}, opts); err != nil {
		t.Fatal(err)
	}
	if got := files.seen(); len(got) != 0 {
		t.Fatalf("the file's endpoint got %d requests (%q), want none", len(got), got)
	}
	got := mine.seen()
	if len(got) == 0 {
		t.Fatal("the command line's endpoint got no request")
	}
	for _, auth := range got {
		if auth != "Bearer sk-mine-0123456789abcdef" {
			t.Fatalf("a request carried %q, want the key of OPENAI_API_KEY", auth)
		}
	}
	if len(notes) == 0 || !strings.Contains(notes[len(notes)-1], "this session sends --agent to "+base+" with $OPENAI_API_KEY") {
		t.Errorf("notes %q do not say where this session's requests go", notes)
	}
	// The config keeps what it recorded.
	_, spec, err := workbench.ResumeSpec(ctx, store, "shard")
	if err != nil {
		t.Fatal(err)
	}
	if spec.BaseURL != files.srv.URL+"/v1" || spec.AgentLLM == nil || spec.AgentLLM.APIKeyEnv != "AWS_SECRET_ACCESS_KEY" {
		t.Errorf("config after resume: base_url %q, agent %+v: want the recorded ones kept", spec.BaseURL, spec.AgentLLM)
	}
}

// A role's own flags choose its endpoint and key variable for a merged
// run; for a native run they are refused, as other recorded settings are.
func TestResumeRun_RoleFlags(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	files, mine := newAuthLog(t), newAuthLog(t)
	store := mergedLLMRun(t, files.srv.URL+"/v1")
	var lines, notes []string
	opts := recordingOptions(&lines, &notes)
	opts.LLM.Getenv = keyEnv
	llm := workbench.ResumeLLM{Agent: emobench.LLMRole{BaseURL: mine.srv.URL + "/v1", APIKeyEnv: "MY_KEY"}}
	if err := workbench.ResumeRun(ctx, store, "shard", llm, opts); err != nil {
		t.Fatal(err)
	}
	if got := files.seen(); len(got) != 0 {
		t.Fatalf("the file's endpoint got %d requests, want none", len(got))
	}
	if got := mine.seen(); len(got) == 0 || got[0] != "Bearer my-key-0123456789" {
		t.Fatalf("requests %q, want the key of MY_KEY", got)
	}

	native := openRunTestDB(t)
	if err := workbench.StartRuns(ctx, native, planOracleRuns(t, "r", emobench.ConditionWithoutEmotions), nil, opts); err != nil {
		t.Fatal(err)
	}
	err := workbench.ResumeRun(ctx, native, "r", workbench.ResumeLLM{User: emobench.LLMRole{APIKeyEnv: "MY_KEY"}}, opts)
	if err == nil || err.Error() != "resume reuses run 1's recorded settings: drop user-api-key-env (base-url moves every endpoint for this session)" {
		t.Fatalf("native run with --user-api-key-env: err = %v", err)
	}
}

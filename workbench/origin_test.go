package workbench_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/workbench"
)

// A .db copied from another machine (not merged: its run claims to be
// native) names an endpoint and $AWS_SECRET_ACCESS_KEY. Its seal does not
// verify here, so resume sends that key nowhere and is refused without an
// endpoint; the same run sealed by this machine resumes with its recorded
// settings (#20 item 10).
func TestResumeRun_SealedOnAnotherMachine(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	mine := newAuthLog(t)
	// The file's endpoint: while interrupting is set, it cancels the
	// session at its first request (nothing is stored, the run stays
	// to resume); afterwards it logs who calls, as newAuthLog does.
	files := newAuthLog(t)
	var interrupting atomic.Bool
	var cancel context.CancelFunc
	answer := files.srv.Config.Handler
	files.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if interrupting.Load() {
			cancel()
			w.Header().Set("X-Should-Retry", "false")
			http.Error(w, "gone", http.StatusBadRequest)
			return
		}
		answer.ServeHTTP(w, r)
	})
	retail, err := all.Find("retail")
	if err != nil {
		t.Fatal(err)
	}
	start := func(store *db.DB, name string, opts workbench.ExecuteOptions) {
		plans, err := sim.Plan(sim.RunOptions{
			Domains: []sim.Domain{retail}, Conditions: []emobench.Condition{emobench.ConditionWithoutEmotions},
			Agent: "llm:m", User: "scripted", Trials: 1, Tasks: "1", Split: emobench.SplitTest, MaxSteps: 4,
			MaxErrors: sim.DefaultMaxErrors, Name: name, Now: fixedClock, BaseURL: files.srv.URL + "/v1",
			AgentLLM: emobench.LLMRole{APIKeyEnv: "AWS_SECRET_ACCESS_KEY"},
		})
		if err != nil {
			t.Fatal(err)
		}
		var stopped context.Context
		stopped, cancel = context.WithCancel(ctx)
		interrupting.Store(true)
		_ = workbench.StartRuns(stopped, store, plans, nil, opts)
		interrupting.Store(false)
	}
	var lines, notes []string
	elsewhere := recordingOptions(&lines, &notes)
	elsewhere.LLM.Getenv = keyEnv
	elsewhere.SealKeyFile = filepath.Join(t.TempDir(), "elsewhere", workbench.SealKeyName)
	elsewhere.Concurrency = 1
	here := elsewhere
	here.SealKeyFile = filepath.Join(t.TempDir(), "here", workbench.SealKeyName)

	store := openRunTestDB(t)
	start(store, "copied", elsewhere)
	_, spec, err := workbench.ResumeSpec(ctx, store, "copied")
	if err != nil {
		t.Fatal(err)
	}
	if len(spec.OriginSeal) != 64 {
		t.Fatalf("an llm: run's config has origin_seal %q, want a hex HMAC-SHA256", spec.OriginSeal)
	}
	prov, err := store.ListProvenance(ctx)
	if err != nil || len(prov) != 1 || prov[0].Kind != db.ProvenanceNative {
		t.Fatalf("provenance %+v, %v: want the one native run", prov, err)
	}
	err = workbench.ResumeRun(ctx, store, "copied", workbench.ResumeLLM{}, here)
	if err == nil || !strings.Contains(err.Error(), "run 1 is not sealed by emobench run on this machine") ||
		!strings.Contains(err.Error(), "give the endpoint with base-url URL (or agent-base-url URL)") {
		t.Fatalf("resume here of a run sealed elsewhere: err = %v", err)
	}
	endpoint := mine.srv.URL + "/v1"
	_ = workbench.ResumeRun(ctx, store, "copied", workbench.ResumeLLM{BaseURL: &endpoint}, here)
	if got := files.seen(); len(got) != 0 {
		t.Fatalf("the file's endpoint got %d requests, want none", len(got))
	}
	if got := mine.seen(); len(got) == 0 || got[0] != "Bearer sk-mine-0123456789abcdef" {
		t.Fatalf("requests %q, want OPENAI_API_KEY's key at the command line's endpoint", got)
	}
	if _, after, _ := workbench.ResumeSpec(ctx, store, "copied"); after.BaseURL != files.srv.URL+"/v1" {
		t.Errorf("the config's endpoint became %q: it is kept unchanged", after.BaseURL)
	}

	// Sealed by the machine that resumes it: its settings are trusted.
	sealed := openRunTestDB(t)
	start(sealed, "mine", here)
	if err := workbench.ResumeRun(ctx, sealed, "mine", workbench.ResumeLLM{}, here); err != nil {
		t.Fatal(err)
	}
	if got := files.seen(); len(got) == 0 || got[0] != "Bearer aws-LEAK-wJalrXUtnFEMI" {
		t.Fatalf("a run sealed here: requests %q, want its recorded endpoint and key variable", got)
	}
}

// The sealing key is 32 random bytes made once, in a file only its user
// reads, and the same on every later load; a file that is not such a key
// is refused and left as it is.
func TestLoadSealKey(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config", "emobench", workbench.SealKeyName)
	first, err := workbench.LoadSealKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 32 {
		t.Fatalf("key of %d bytes, want 32", len(first))
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v (%v), want 0600", info.Mode(), err)
	}
	if info, err := os.Stat(filepath.Dir(path)); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("key folder mode %v (%v), want 0700", info.Mode(), err)
	}
	again, err := workbench.LoadSealKey(path)
	if err != nil || string(again) != string(first) {
		t.Fatalf("second load: %x, %v; want the first key", again, err)
	}
	other, err := workbench.LoadSealKey(filepath.Join(t.TempDir(), workbench.SealKeyName))
	if err != nil || string(other) == string(first) {
		t.Fatalf("another file's key %x, %v: want a different random key", other, err)
	}
	notKey := filepath.Join(t.TempDir(), workbench.SealKeyName)
	if err := os.WriteFile(notKey, []byte("my notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := workbench.LoadSealKey(notKey); err == nil || !strings.Contains(err.Error(), "does not hold 32 hex-encoded bytes") {
		t.Fatalf("a file that is no key: err = %v", err)
	}
	if b, _ := os.ReadFile(notKey); string(b) != "my notes" {
		t.Fatalf("the file that is no key now holds %q", b)
	}
}

// A run made while the seal key could not be read is not sealed; its
// resume says why it takes the endpoint from the command line, naming the
// key file's problem, not a .db made elsewhere.
func TestResumeRun_SealKeyUnreadable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	keyFile := filepath.Join(t.TempDir(), workbench.SealKeyName)
	if err := os.WriteFile(keyFile, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	var lines, notes []string
	opts := recordingOptions(&lines, &notes)
	opts.SealKeyFile = keyFile
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Should-Retry", "false")
		http.Error(w, "no", http.StatusBadRequest)
	}))
	defer refusing.Close()
	retail, err := all.Find("retail")
	if err != nil {
		t.Fatal(err)
	}
	plans, err := sim.Plan(sim.RunOptions{
		Domains: []sim.Domain{retail}, Conditions: []emobench.Condition{emobench.ConditionWithoutEmotions},
		Agent: "llm:m", User: "scripted", Trials: 1, Tasks: "1", Split: emobench.SplitTest, MaxSteps: 4,
		MaxErrors: sim.DefaultMaxErrors, Name: "unsealed", Now: fixedClock, BaseURL: refusing.URL + "/v1",
	})
	if err != nil {
		t.Fatal(err)
	}
	store := openRunTestDB(t)
	_ = workbench.StartRuns(ctx, store, plans, nil, opts) // its one episode fails on the refusing endpoint
	if len(notes) == 0 || !strings.Contains(notes[0], "is not sealed") {
		t.Fatalf("notes %q: want the run noted as not sealed", notes)
	}
	err = workbench.ResumeRun(ctx, store, "unsealed", workbench.ResumeLLM{}, opts)
	if err == nil || !strings.Contains(err.Error(), "not verifiable here, since this machine's seal key cannot be read") ||
		!strings.Contains(err.Error(), "does not hold 32 hex-encoded bytes") {
		t.Fatalf("resume with an unreadable key: err = %v", err)
	}
}

package workbench_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/workbench"
)

// generateSettings are tracer generate's defaults for retail.
func generateSettings() workbench.GenerateSettings {
	return workbench.GenerateSettings{Domain: "retail", N: 3, Seed: 7, Split: emobench.SplitTest, WalkSteps: "2,3,4", Intents: "1,2,3",
		Forbidden: tracer.DefaultForbiddenShare, Transfer: tracer.DefaultTransferShare, Read: tracer.DefaultReadShare}
}

func TestGenerateSettings_Options(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		o, dom, err := generateSettings().Options()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := dom.Name(), "retail"; got != want {
			t.Fatalf("domain = %q, want %q", got, want)
		}
		if o.N != 3 || o.Seed != 7 || len(o.WalkStepsDist) != 3 { // the default walk steps keep their default weights
			t.Fatalf("options = N %d, seed %d, walk-step weights %v; want 3, 7 and the default 3 weights", o.N, o.Seed, o.WalkStepsDist)
		}
	})
	dist := "1"
	for _, tc := range []struct {
		name    string
		edit    func(*workbench.GenerateSettings)
		setting string
		msg     string
	}{
		{"ErrWalkSteps", func(s *workbench.GenerateSettings) { s.WalkSteps = "2,x" }, "walk-steps", ""},
		{"ErrWeights", func(s *workbench.GenerateSettings) { s.IntentsDist = &dist }, "intents-dist", `intents-dist "1": 1 weights for 3 values`},
		{"ErrShare", func(s *workbench.GenerateSettings) { s.Forbidden = 2 }, "forbidden", ""},
		{"ErrDomain", func(s *workbench.GenerateSettings) { s.Domain = "nosuch" }, "domain", ""},
		{"ErrExclude", func(s *workbench.GenerateSettings) { s.Exclude = filepath.Join(t.TempDir(), "none.json") }, "exclude", ""},
		{"ErrParaphrase", func(s *workbench.GenerateSettings) { s.Paraphrase = "gpt-4.1" }, "paraphrase", `paraphrase "gpt-4.1" is not llm:MODEL`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := generateSettings()
			tc.edit(&s)
			_, _, err := s.Options()
			var bad *emobench.Error
			if !errors.As(err, &bad) || bad.Code != emobench.EREQUEST || bad.Setting != tc.setting {
				t.Fatalf("err = %v (%#v), want an EREQUEST error about setting %q", err, bad, tc.setting)
			}
			if tc.msg != "" && err.Error() != tc.msg {
				t.Fatalf("err = %q, want %q", err, tc.msg)
			}
		})
	}
}

func TestRoleClient_Err(t *testing.T) {
	llm := sim.LLMOptions{Getenv: os.Getenv}
	for _, tc := range []struct {
		name, model string
		role        emobench.LLMRole
		setting     string
	}{
		{"NotLLM", "gpt-4.1", emobench.LLMRole{}, "judge"},
		{"KeyPasted", "llm:m", emobench.LLMRole{APIKeyEnv: "sk-abc-123"}, "judge-api-key-env"},
		{"Credential", "llm:m", emobench.LLMRole{BaseURL: "http://u:secret@localhost:1/v1"}, "judge-base-url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := workbench.RoleClient("judge", tc.model, tc.role, llm)
			var bad *emobench.Error
			if !errors.As(err, &bad) || bad.Code != emobench.EREQUEST || bad.Setting != tc.setting {
				t.Fatalf("err = %v, want an EREQUEST error about setting %q", err, tc.setting)
			}
		})
	}
	if _, err := workbench.RoleClient("judge", "llm:m", emobench.LLMRole{BaseURL: "http://localhost:1/v1"}, llm); err != nil {
		t.Fatalf("a local endpoint: %v", err)
	}
}

func TestCheckLLMTimeout(t *testing.T) {
	if err := workbench.CheckLLMTimeout(0); err == nil || err.Error() != "timeout 0s: need a positive duration (the time limit of each LLM request)" {
		t.Fatalf("timeout 0: err = %v", err)
	}
	if err := workbench.CheckLLMTimeout(1); err != nil {
		t.Fatalf("timeout 1ns: %v", err)
	}
}

// Only a terminal gets progress bars: a buffer or a plain file is none,
// and IngestProgress draws nothing without one.
func TestTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, w := range []io.Writer{&bytes.Buffer{}, f} {
		if got := workbench.Terminal(w); got != nil {
			t.Errorf("Terminal(%T) = %v, want nil", w, got)
		}
	}
	if workbench.IngestProgress(nil) != nil {
		t.Error("IngestProgress(nil) is not nil: a bar with no terminal")
	}
	if workbench.IngestProgress(f) == nil {
		t.Error("IngestProgress(terminal) is nil, want a bar")
	}
}

// NewRunTags keeps what was given, an empty list of train domains
// included (to be refused), and is nil when nothing was.
func TestNewRunTags(t *testing.T) {
	empty, base := []string{}, "3"
	if got := workbench.NewRunTags(nil, nil); got != nil {
		t.Errorf("NewRunTags(nil, nil) = %+v, want nil", got)
	}
	if got := workbench.NewRunTags(&empty, nil); got == nil || got.TrainDomains == nil || len(got.TrainDomains) != 0 || got.BaseRun != "" {
		t.Errorf("NewRunTags(empty, nil) = %+v, want an empty, non-nil list", got)
	}
	if got := workbench.NewRunTags(nil, &base); got == nil || got.TrainDomains != nil || got.BaseRun != "3" {
		t.Errorf("NewRunTags(nil, 3) = %+v", got)
	}
}

// A run reads a tasks file or a task set, not both.
func TestReadTaskSource_ErrBoth(t *testing.T) {
	_, err := workbench.ReadTaskSource(context.Background(), "x.db", "tasks.json", "set")
	if !errors.Is(err, emobench.ErrRequest) || !strings.Contains(err.Error(), "not both") {
		t.Errorf("ReadTaskSource(file and set) = %v, want an EREQUEST error", err)
	}
}

// A missing --format, --out or --domain is refused before any file or
// database is read.
func TestRequiredSettings(t *testing.T) {
	ctx := context.Background()
	missing := filepath.Join(t.TempDir(), "none.db")
	_, errFormat := workbench.Export(ctx, missing, nil, "", "out", false)
	_, errOut := workbench.Export(ctx, missing, nil, "csv", "", false)
	_, errEval := workbench.EvaluateFile(ctx, workbench.EvaluateRequest{Path: "x.json"})
	_, _, errGen := workbench.GenerateSettings{N: 1}.Options()
	_, errVacuum := workbench.Vacuum(ctx, missing, "", func(string) {})
	for _, tc := range []struct {
		err  error
		want string
	}{
		{errFormat, "format is needed: one of taubench"},
		{errOut, "out is needed: the PATH to write"},
		{errEval, "domain is needed: one of airline"},
		{errGen, "domain is needed: one of airline"},
		{errVacuum, "out is needed: the FILE to write"},
	} {
		if !errors.Is(tc.err, emobench.ErrRequest) || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("got %v, want an EREQUEST error containing %q", tc.err, tc.want)
		}
	}
}

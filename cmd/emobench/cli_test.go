package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/internal/cliargs"
	"github.com/google/go-cmp/cmp"
)

// Global flags work after the command and its subcommands, with the same
// output as before the command.
func TestCLI_GlobalFlagsAfterCommand(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "late-global.db")
	fixtureDB(t, dbPath)
	tests := []struct{ before, after []string }{
		{[]string{"--db", dbPath, "runs", "--format", "csv"}, []string{"runs", "--db", dbPath, "--format", "csv"}},
		{[]string{"--db", dbPath, "runs", "--format", "csv"}, []string{"runs", "--format", "csv", "--db=" + dbPath}},
		{[]string{"--db", dbPath, "stats", "passk", "--k", "1", "--format", "csv"}, []string{"stats", "passk", "--db", dbPath, "--k", "1", "--format", "csv"}},
		{[]string{"--db", dbPath, "stats", "passk", "--k", "1", "--format", "csv"}, []string{"stats", "--db", dbPath, "passk", "--k", "1", "--format", "csv"}},
		{[]string{"--db", dbPath, "sql", "--format", "csv", "SELECT COUNT(*) FROM runs"}, []string{"sql", "SELECT COUNT(*) FROM runs", "--db", dbPath, "--format", "csv"}},
		{[]string{"--db", dbPath, "sql", "--format", "csv", "-- a comment\nSELECT COUNT(*) FROM runs"}, []string{"sql", "-- a comment\nSELECT COUNT(*) FROM runs", "--format", "csv", "--db", dbPath}},
	}
	for _, tt := range tests {
		want, got := mustRun(t, tt.before...), mustRun(t, tt.after...)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("emobench %s differs from emobench %s (-want +got):\n%s", strings.Join(tt.after, " "), strings.Join(tt.before, " "), diff)
		}
	}
}

func TestCLI_HelpCommand(t *testing.T) {
	t.Parallel()
	for _, path := range [][]string{{"stats", "passk"}, {"runs", "tag"}, {"show"}, {}} {
		want := mustRun(t, append(path, "--help")...)
		if got := mustRun(t, append([]string{"help"}, path...)...); got != want {
			t.Errorf("help %s differs from %s --help:\n%s", strings.Join(path, " "), strings.Join(path, " "), cmp.Diff(want, got))
		}
	}
	if got, want := mustRun(t, "--db", "x.db", "help", "runs", "tag"), mustRun(t, "runs", "tag", "--help"); got != want {
		t.Errorf("--db x.db help runs tag differs from runs tag --help:\n%s", cmp.Diff(want, got))
	}
	if got := mustRun(t, "show", "--help"); !strings.Contains(got, "Example:") || !strings.Contains(got, "(default: the task's only trial)") {
		t.Errorf("show --help:\n%s", got)
	}
	if got, want := mustRun(t, "help", "help"), mustRun(t, "--help"); got != want {
		t.Errorf("help help differs from --help:\n%s", cmp.Diff(want, got))
	}
	if got := mustRun(t, "--help"); !strings.Contains(got, "help, h") {
		t.Errorf("--help does not list the help command:\n%s", got)
	}
	r := runCLI(t, "", "help", "stats", "pask")
	if want := `no command "stats pask"; did you mean "stats passk"?`; r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("help stats pask: exit %d stderr %q, want 2 and %q", r.code, r.stderr, want)
	}
}

// A mistyped command or subcommand is a usage error naming the nearest
// command, or listing them when none is near.
func TestCLI_ErrUnknownCommandSuggests(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"stat"}, `emobench: no command "stat"; did you mean "stats"?`},
		{[]string{"ingets", "x.json"}, `no command "ingets"; did you mean "ingest"?`},
		{[]string{"stats", "passkk"}, `no command "stats passkk"; did you mean "stats passk"?`},
		{[]string{"stats", "gen"}, `no command "stats gen"; did you mean "stats generalization"?`},
		{[]string{"runs", "tga", "3"}, `no command "runs tga"; did you mean "runs tag"?`},
		{[]string{"qqqqq"}, `no command "qqqqq" (commands: ingest, export, runs,`},
		{[]string{"runs", "extra"}, `no command "runs extra" (commands: tag, set, rm`},
		{[]string{"runs", "--fromat", "csv"}, `flag provided but not defined: --fromat for "runs"; did you mean --format?`},
		{[]string{"runs", "tag", "3", "--bas", "1"}, `flag provided but not defined: --bas for "runs tag"; did you mean --base-run?`},
		{[]string{"--dbb", "x.db", "runs"}, `flag provided but not defined: --dbb; did you mean --db?`},
		{[]string{"stats", "passk", "--zzzzzz"}, "flag provided but not defined: --zzzzzz for \"stats passk\"\n"},
	}
	for _, tt := range tests {
		r := runCLI(t, "", tt.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("emobench %s: exit %d stderr %q, want 2 and %q", strings.Join(tt.args, " "), r.code, r.stderr, tt.want)
		}
	}
}

// --version prints cliargs.BuildVersion's line, before or after a command.
func TestCLI_Version(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--version"}, {"runs", "--version"}} {
		if out := mustRun(t, args...); !strings.HasPrefix(out, "emobench version ") || !strings.Contains(out, "go1.") {
			t.Errorf("emobench %s printed %q", strings.Join(args, " "), out)
		}
	}
}

func TestExitCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want int
	}{
		{nil, exitOK},
		{usagef("bad flag"), exitUsage},
		{fmt.Errorf("runs tag: %w", usagef("bad flag")), exitUsage},
		{cliargs.Usagef("no command %q", "x"), exitUsage},
		{fmt.Errorf("--base-run: %w", emobench.Errorf(emobench.EREQUEST, "a run cannot be its own base")), exitUsage},
		{emobench.AsRequest(fmt.Errorf("--task-set: %w", emobench.ErrInvalid)), exitUsage},
		{emobench.Errorf(emobench.ECONFLICT, "selection exists"), exitFailure},
		{emobench.Errorf(emobench.ENOTFOUND, "no trajectory with id 9"), exitFailure},
		{emobench.ErrInvalid, exitFailure},
		{&db.RunNotFoundError{Ref: "x"}, exitFailure},
		{context.Canceled, exitFailure},
		{errors.New("disk full"), exitFailure},
	}
	for _, tt := range tests {
		if got := cliargs.ExitCode(tt.err); got != tt.want {
			t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

// The CLI adds its hint to the library's typed errors.
func TestCLI_ErrHints(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "hint.db")
	fixtureDB(t, dbPath)
	r := runCLI(t, "", "--db", dbPath, "stats", "passk", "--run", "nosuch")
	if want := "emobench: no run with id or name \"nosuch\" (see `emobench runs`)\n"; r.code != 1 || r.stderr != want {
		t.Errorf("unknown run: exit %d stderr %q, want 1 and %q", r.code, r.stderr, want)
	}
}

// runs tag --remove clears the named tags and keeps the others; --base
// still works as the old name of --base-run.
func TestRunsTag_Remove(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "untag.db")
	fixtureDB(t, dbPath)
	tags := func() string {
		return csvQuery(t, dbPath, "SELECT train_domains, base_run_id FROM runs WHERE id = 2")
	}
	mustRun(t, "--db", dbPath, "runs", "tag", "2", "--train-domains", "retail", "--base-run", "1")
	if got, want := tags(), "train_domains,base_run_id\n\"[\"\"retail\"\"]\",1\n"; got != want {
		t.Fatalf("after tag: %q, want %q", got, want)
	}
	out := mustRun(t, "--db", dbPath, "runs", "tag", "2", "--remove", "base-run")
	if got, want := tags(), "train_domains,base_run_id\n\"[\"\"retail\"\"]\",\n"; got != want || !strings.Contains(out, "run 2: train domains [retail], no base run") {
		t.Fatalf("after --remove base-run: %q (said %q), want %q", got, out, want)
	}
	mustRun(t, "--db", dbPath, "runs", "tag", "2", "--base", "3", "--remove", "train-domains")
	if got, want := tags(), "train_domains,base_run_id\n,3\n"; got != want {
		t.Fatalf("after --base 3 --remove train-domains: %q, want %q", got, want)
	}
	out = mustRun(t, "--db", dbPath, "runs", "tag", "2", "--remove", "all")
	if got, want := tags(), "train_domains,base_run_id\n,\n"; got != want || !strings.Contains(out, "no train domains, no base run") {
		t.Fatalf("after --remove all: %q (said %q), want %q", got, out, want)
	}
	for _, bad := range [][]string{
		{"runs", "tag", "2", "--remove", "colour"},
		{"runs", "tag", "2", "--remove", "base-run", "--base-run", "1"},
		{"runs", "tag", "2", "--base", "1", "--base-run", "1"},
		{"runs", "tag", "2"},
	} {
		if r := runCLI(t, "", append([]string{"--db", dbPath}, bad...)...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", bad, r.code, r.stderr)
		}
	}
	if help := mustRun(t, "runs", "tag", "--help"); strings.Contains(help, "--base value") || !strings.Contains(help, "--base-run") {
		t.Errorf("runs tag --help should show --base-run and hide --base:\n%s", help)
	}
}

// A --db after the command overrides one before it: the data goes where
// the last --db says, as with every repeated flag.
func TestCLI_LastDBWins(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, last := filepath.Join(dir, "first.db"), filepath.Join(dir, "last.db")
	file := filepath.Join(dir, "gpt-4o-retail.json")
	if err := os.WriteFile(file, []byte(`[{"task_id": 1, "reward": 1.0, "info": {}, "traj": [{"role": "user", "content": "hi"}], "trial": 0}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", first, "ingest", "--db", last, file)
	if _, err := os.Stat(first); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s exists (err %v): the earlier --db was used", first, err)
	}
	if got := mustRun(t, "--db", last, "sql", "--format", "csv", "SELECT COUNT(*) AS n FROM runs"); got != "n\n1\n" {
		t.Errorf("runs in %s: %q, want 1", last, got)
	}
}

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRun_Judge: --judge llm:MODEL is recorded in runs.config with its
// settings (the endpoint falls back to --base-url, temperature 0), --resume
// refuses to change it, and a judge other than llm:MODEL is a usage error.
// The embedded tasks have no NL assertions, so the judge is never asked
// (the sim tests run one that is).
func TestRun_Judge(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("JUDGE_KEY", testSecret)
	srv := newChatServer(t, nil) // any request is an error: no task needs the judge
	dbPath := filepath.Join(t.TempDir(), "judge.db")
	mustRun(t, "--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions",
		"--agent", "oracle", "--judge", "llm:fake-judge", "--judge-api-key-env", "JUDGE_KEY", "--base-url", srv.baseURL())
	got := sqlCSV(t, dbPath, "SELECT json_extract(config, '$.judge') AS judge, json_extract(config, '$.judge_llm') AS settings, json_extract(config, '$.base_url') = '"+srv.baseURL()+"' AS same_url FROM runs")
	if want := "judge,settings,same_url\nllm:fake-judge,\"{\"\"key_env\"\":\"\"JUDGE_KEY\"\",\"\"temperature\"\":0}\",1\n"; got != want {
		t.Errorf("runs.config judge:\n%s\nwant:\n%s", got, want)
	}
	if n := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories WHERE evaluated = 1"); n != 1 {
		t.Errorf("%d evaluated trajectories, want 1", n)
	}

	for _, args := range [][]string{
		{"run", "--resume", "1", "--judge", "llm:other"},
		{"run", "--resume", "1", "--judge-api-key-env", "OTHER"},
		{"run", "--resume", "1", "--judge-base-url", srv.baseURL()},
	} {
		r := runCLI(t, "", append([]string{"--db", dbPath}, args...)...)
		// The library names the setting (judge-base-url); "--judge" is cmd's own check.
		if flag := args[3]; r.code != exitUsage || !strings.Contains(r.stderr, "drop "+flag) && !strings.Contains(r.stderr, "drop "+strings.TrimPrefix(flag, "--")) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and drop %s", args, r.code, r.stderr, flag)
		}
	}

	// Without --judge, runs.config has no judge at all.
	plain := filepath.Join(t.TempDir(), "plain.db")
	mustRun(t, "--db", plain, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions", "--agent", "oracle")
	if n := sqlInt(t, plain, "SELECT COUNT(*) FROM runs WHERE instr(config, 'judge') > 0"); n != 0 {
		t.Errorf("%d runs without --judge record a judge", n)
	}

	r := runCLI(t, "", "--db", filepath.Join(t.TempDir(), "cred.db"), "run", "--domain", "retail", "--agent", "oracle",
		"--judge", "llm:j", "--judge-base-url", "https://host/v1?api-key=sk-1")
	if r.code != exitUsage || !strings.Contains(r.stderr, "--judge-base-url holds a credential") {
		t.Errorf("--judge-base-url with a key: exit %d, stderr %q; want 2 and the credential refused", r.code, r.stderr)
	}

	r = runCLI(t, "", "--db", filepath.Join(t.TempDir(), "foo.db"), "run", "--domain", "retail", "--agent", "oracle", "--judge", "foo")
	if r.code != exitUsage || !strings.Contains(r.stderr, `--judge "foo" is not llm:MODEL`) {
		t.Errorf("--judge foo: exit %d, stderr %q; want 2 and the judge refused", r.code, r.stderr)
	}
}

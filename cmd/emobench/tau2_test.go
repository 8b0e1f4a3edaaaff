package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// csvQuery runs `emobench sql --format csv` and returns its output.
func csvQuery(t *testing.T, dbPath, query string) string {
	t.Helper()
	return mustRun(t, "--db", dbPath, "sql", "--format", "csv", query)
}

// TestIngestTau2_RealRuns ingests the shared τ²-bench files by other people
// in one command. Every expected number was counted in the JSON with
// python3 (json.load), not with this code.
func TestIngestTau2_RealRuns(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dir := filepath.Join(realRuns, "tau2")
	dbPath := filepath.Join(t.TempDir(), "tau2.db")
	r := runCLI(t, "", "--db", dbPath, "ingest", dir)
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	// Six Results files and one run directory, whose simulations/*.json are
	// not ingested on their own.
	if got := strings.Count(r.stdout, "ingested as run"); got != 7 {
		t.Fatalf("ingested %d runs, want 7:\n%s", got, r.stdout)
	}
	if !strings.Contains(r.stdout, "v1x-dir-layout-voice: ingested as run") {
		t.Errorf("the 1.x directory is not one run:\n%s", r.stdout)
	}

	got := csvQuery(t, dbPath, `
		SELECT r.name, r.source_format, COUNT(t.id), COALESCE(SUM(t.passed), 0), COALESCE(SUM(t.evaluated), 0), COALESCE(MAX(t.trial), 0)
		FROM runs r LEFT JOIN trajectories t ON t.run_id = r.id GROUP BY r.id ORDER BY r.name`)
	want := strings.Join([]string{
		"name,source_format,COUNT(t.id),\"COALESCE(SUM(t.passed), 0)\",\"COALESCE(SUM(t.evaluated), 0)\",\"COALESCE(MAX(t.trial), 0)\"",
		"airline-qwen2.5-7b-agent-errors,tau2,50,9,50,0", // 9 rewards of 1.0; every reward_info present
		"custom-domain-spanish-utf8,tau2,10,10,10,0",
		"empty-run-no-simulations,tau2,0,0,0,0", // simulations: [] while 10 tasks are listed
		"mock-trial-null,tau2,1,1,1,0",          // trial: null stored as 0
		"telecom-gpt-4.1-5tasks-4trials,tau2,20,16,20,3",
		"v1x-dir-layout-voice,tau2,3,0,0,0", // full-duplex: no reward_info
		"v1x-inline-results-airline,tau2,5,1,5,0",
		"",
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("per-run outcomes (-want +got):\n%s", diff)
	}

	t.Run("telecom pass^k", func(t *testing.T) {
		rows := statsJSON(t, "--db", dbPath, "stats", "passk", "--run", "telecom-gpt-4.1-5tasks-4trials")
		if len(rows) != 4 {
			t.Fatalf("rows = %+v, want k = 1..4", rows)
		}
		for _, row := range rows { // 4 tasks pass 4/4 trials, 1 task 0/4: pass^k = 0.8 for every k
			if math.Abs(row.PassHatK-0.8) > 1e-12 || row.Tasks != 5 || row.Trajectories != 20 || row.Convention != "per-task" {
				t.Errorf("k=%d: %+v, want pass^k 0.8 over 5 tasks", row.K, row)
			}
		}
		if got := csvQuery(t, dbPath, "SELECT termination_reason, COUNT(*) FROM trajectory_outcomes WHERE run = 'telecom-gpt-4.1-5tasks-4trials' GROUP BY 1"); got != "termination_reason,COUNT(*)\nagent_stop,20\n" {
			t.Errorf("telecom reasons: %s", got)
		}
	})

	t.Run("airline errors", func(t *testing.T) {
		got := csvQuery(t, dbPath, `
			SELECT t.termination_reason, json_extract(t.extra, '$.termination_reason') AS original, t.error, COUNT(*)
			FROM trajectories t JOIN runs r ON r.id = t.run_id
			WHERE r.name = 'airline-qwen2.5-7b-agent-errors' GROUP BY 1, 2, 3 ORDER BY 1`)
		// τ²-bench's 40 user_stop, told apart by the user's last message.
		want := "termination_reason,original,error,COUNT(*)\nerror,agent_error,agent_error,9\ntoo_many_errors,too_many_errors,,1\n" +
			"user_out_of_scope,user_stop,,2\nuser_stop,user_stop,,29\nuser_transfer,user_stop,,9\n"
		if got != want {
			t.Errorf("airline reasons:\n%s\nwant:\n%s", got, want)
		}
	})

	t.Run("mock trial null", func(t *testing.T) {
		if !strings.Contains(r.stderr, "warning: ") || !strings.Contains(r.stderr, "mock-trial-null.json: 1 simulation with trial null") {
			t.Errorf("no trial-null warning on stderr:\n%s", r.stderr)
		}
		got := csvQuery(t, dbPath, "SELECT k.task_key, t.trial, json_extract(t.extra, '$.trial_null') FROM trajectories t JOIN tasks k ON k.id = t.task_id JOIN runs r ON r.id = t.run_id WHERE r.name = 'mock-trial-null'")
		if want := "task_key,trial,\"json_extract(t.extra, '$.trial_null')\"\ncreate_task_1,0,1\n"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})

	t.Run("empty run", func(t *testing.T) {
		if !strings.Contains(r.stderr, "empty-run-no-simulations.json: no simulations in this τ²-bench run (it lists 10 tasks)") {
			t.Errorf("no note for the empty run:\n%s", r.stderr)
		}
	})

	t.Run("voice directory", func(t *testing.T) {
		got := csvQuery(t, dbPath, `
			SELECT r.agent_model, r.domain, SUM(t.evaluated), SUM(t.n_messages), SUM(json_extract(t.extra, '$.ticks')), MIN(json_extract(t.extra, '$.mode'))
			FROM trajectories t JOIN runs r ON r.id = t.run_id WHERE r.name = 'v1x-dir-layout-voice'`)
		// Ticks per simulation file: 973 + 1810 + 1340.
		want := "agent_model,domain,SUM(t.evaluated),SUM(t.n_messages),\"SUM(json_extract(t.extra, '$.ticks'))\",\"MIN(json_extract(t.extra, '$.mode'))\"\nopenai:gpt-realtime-2,retail,0,0,4123,full_duplex\n"
		if got != want {
			t.Errorf("voice run:\n%s\nwant:\n%s", got, want)
		}
		// Naming its results.json names the run directory, already stored.
		again := mustRun(t, "--db", dbPath, "ingest", filepath.Join(dir, "v1x-dir-layout-voice", "results.json"))
		if !strings.Contains(again, "v1x-dir-layout-voice: skipped, already ingested as run") {
			t.Errorf("re-ingest of the directory: %s", again)
		}
	})

	t.Run("utf-8 intact", func(t *testing.T) {
		got := csvQuery(t, dbPath, `
			SELECT COUNT(*) FROM messages m JOIN trajectories t ON t.id = m.trajectory_id JOIN runs r ON r.id = t.run_id
			WHERE r.name = 'custom-domain-spanish-utf8' AND m.content LIKE '¡Hola! ¡Excelente! Para poder ayudarte mejor, ¿tienes alguna marca%'`)
		if got != "COUNT(*)\n1\n" {
			t.Errorf("Spanish message not found intact: %s", got)
		}
		instr := csvQuery(t, dbPath, `SELECT k.instruction FROM tasks k WHERE k.domain = 'divemotor_sales_support_nunez' AND k.task_key = '0'`)
		if !strings.Contains(instr, "Buscar vehículos Mercedes por debajo de 50000") {
			t.Errorf("instruction = %q", instr)
		}
	})

	t.Run("1.x inline", func(t *testing.T) {
		got := csvQuery(t, dbPath, "SELECT termination_reason, COUNT(*) FROM trajectory_outcomes WHERE run = 'v1x-inline-results-airline' GROUP BY 1 ORDER BY 1")
		if want := "termination_reason,COUNT(*)\nmax_steps,1\nuser_stop,3\nuser_transfer,1\n"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
}

func TestIngestSubmission_RealRuns(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dbPath := filepath.Join(t.TempDir(), "pub.db")
	dir := filepath.Join(realRuns, "submissions")
	out := mustRun(t, "--db", dbPath, "ingest", dir)
	if strings.Count(out, "published results of") != 2 {
		t.Fatalf("want one line per submission:\n%s", out)
	}
	got := csvQuery(t, dbPath, "SELECT model, organization, domain, k, pass_hat_k, cost, user_simulator, date FROM published_results ORDER BY model, domain, k")
	// Percentages of the files divided by 100 (python3); drq-27b has airline and telecom null.
	want := strings.Join([]string{
		"model,organization,domain,k,pass_hat_k,cost,user_simulator,date",
		"DRQ-27B TauSynth-GRIPO-Multistage,SuperQ,retail,1,0.8245614035087719,0,openai/gpt-5.2,2026-07-24",
		"DRQ-27B TauSynth-GRIPO-Multistage,SuperQ,retail,2,0.7412280701754387,0,openai/gpt-5.2,2026-07-24",
		"DRQ-27B TauSynth-GRIPO-Multistage,SuperQ,retail,3,0.6798245614035088,0,openai/gpt-5.2,2026-07-24",
		"DRQ-27B TauSynth-GRIPO-Multistage,SuperQ,retail,4,0.6315789473684211,0,openai/gpt-5.2,2026-07-24",
		"Qwen3-Max-Thinking-Preview,Qwen,airline,1,0.71,0,gpt-4.1-2025-04-14,2025-11-01",
		"Qwen3-Max-Thinking-Preview,Qwen,airline,2,0.6533333333333334,0,gpt-4.1-2025-04-14,2025-11-01",
		"Qwen3-Max-Thinking-Preview,Qwen,airline,3,0.625,0,gpt-4.1-2025-04-14,2025-11-01",
		"Qwen3-Max-Thinking-Preview,Qwen,airline,4,0.6,0,gpt-4.1-2025-04-14,2025-11-01",
		"Qwen3-Max-Thinking-Preview,Qwen,retail,1,0.7543859649122807,0,gpt-4.1-2025-04-14,2025-11-01",
		"Qwen3-Max-Thinking-Preview,Qwen,retail,2,0.6622807017543859,0,gpt-4.1-2025-04-14,2025-11-01",
		"Qwen3-Max-Thinking-Preview,Qwen,retail,3,0.6008771929824561,0,gpt-4.1-2025-04-14,2025-11-01",
		"Qwen3-Max-Thinking-Preview,Qwen,retail,4,0.5526315789473685,0,gpt-4.1-2025-04-14,2025-11-01",
		"Qwen3-Max-Thinking-Preview,Qwen,telecom,1,0.9583333333333335,0,gpt-4.1-2025-04-14,2025-11-01",
		"Qwen3-Max-Thinking-Preview,Qwen,telecom,2,0.9195906432748537,0,gpt-4.1-2025-04-14,2025-11-01",
		"Qwen3-Max-Thinking-Preview,Qwen,telecom,3,0.8837719298245613,0,gpt-4.1-2025-04-14,2025-11-01",
		"Qwen3-Max-Thinking-Preview,Qwen,telecom,4,0.8508771929824561,0,gpt-4.1-2025-04-14,2025-11-01",
		"",
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("published_results (-want +got):\n%s", diff)
	}
	if runs := csvQuery(t, dbPath, "SELECT COUNT(*) FROM runs"); runs != "COUNT(*)\n0\n" {
		t.Errorf("a submission created runs: %s", runs)
	}
	again := mustRun(t, "--db", dbPath, "ingest", dir)
	if strings.Count(again, "skipped, published results already stored") != 2 {
		t.Errorf("second ingest:\n%s", again)
	}
}

// A Results object without info (cmd/emobench/testdata/bad/object.json) is a
// trimmed τ²-bench file: it ingests as an empty run. Forcing the τ-bench
// reader on it names the format.
func TestIngestTau2_TrimmedObject(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "obj.db")
	file := filepath.Join("testdata", "bad", "object.json")
	r := runCLI(t, "", "--db", dbPath, "ingest", file)
	if r.code != 0 || !strings.Contains(r.stdout, "ingested as run 1 (object): 0 trajectories") || !strings.Contains(r.stderr, "note: "+file+": no simulations") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, "", "--db", filepath.Join(t.TempDir(), "tb.db"), "ingest", "--format", "taubench", file)
	if r.code != 1 || !strings.Contains(r.stderr, "this looks like a τ²-bench Results file") || !strings.Contains(r.stderr, "tau2 format") {
		t.Fatalf("--format taubench: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runCLI(t, "", "--db", dbPath, "ingest", "--format", "xml", file); r.code != 2 {
		t.Fatalf("--format xml: exit %d, want 2", r.code)
	}
}

func TestIngestTau2_ErrBadInputStoresNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := `{"task_id": "a", "trial": 0, "termination_reason": "user_stop", "reward_info": {"reward": 1}, "messages": [{"role": "user", "content": "hi"}]}`
	results := write("bad-results.json", `{"info": {"agent_info": {"llm": "m"}}, "tasks": [], "simulations": [`+good+`, {"task_id": "b", "trial": 0, "reward_info": {"reward": "1"}}]}`)
	write("run/results.json", `{"info": {}, "tasks": []}`)
	write("run/simulations/1.json", good)
	write("run/simulations/2.json", `{"task_id": "b", "trial": 0, "messages": [{"content": "no role"}]}`)
	sub := write("sub.json", `{"model_name": "m", "results": {"retail": {"pass_1": 80}, "airline": {"pass_1": 180}}}`)

	tests := []struct {
		path string
		want []string
	}{
		{results, []string{"bad-results.json: simulation 1 (byte", "reward_info.reward is a string"}},
		{filepath.Join(dir, "run"), []string{"run: simulation 1 (simulations/2.json", "messages[0]: message without a role"}},
		{sub, []string{"sub.json: results.airline.pass_1 is 180, want a percentage between 0 and 100"}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			dbPath := filepath.Join(t.TempDir(), "bad.db")
			r := runCLI(t, "", "--db", dbPath, "ingest", tt.path)
			if r.code != 1 {
				t.Fatalf("exit %d, want 1; stdout %s stderr %s", r.code, r.stdout, r.stderr)
			}
			for _, phrase := range tt.want {
				if !strings.Contains(r.stderr, phrase) {
					t.Errorf("error %q lacks %q", r.stderr, phrase)
				}
			}
			counts := csvQuery(t, dbPath, "SELECT (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM trajectories), (SELECT COUNT(*) FROM published_results)")
			if !strings.HasSuffix(counts, "\n0,0,0\n") {
				t.Errorf("a bad input stored something: %s", counts)
			}
		})
	}
}

// Credentials in a τ²-bench run's info (llm_args.api_key) never reach the
// db; the user is told.
func TestIngestTau2_RedactsCredentials(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "keyed.json")
	data := `{"info": {"agent_info": {"llm": "m", "llm_args": {"api_key": "sk-secret-1", "temperature": 0.0}},
		"user_info": {"llm": "u", "llm_args": {"OPENAI_API_KEY": "sk-secret-2"}}}, "tasks": [],
		"simulations": [{"task_id": "a", "trial": 0, "termination_reason": "user_stop", "reward_info": {"reward": 1}, "messages": [{"role": "user", "content": "hi"}]}]}`
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "k.db")
	r := runCLI(t, "", "--db", dbPath, "ingest", file)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"info.agent_info.llm_args.api_key holds a credential", "info.user_info.llm_args.OPENAI_API_KEY holds a credential"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q lacks %q", r.stderr, want)
		}
	}
	got := csvQuery(t, dbPath, "SELECT json_extract(config, '$.tau2.info.agent_info.llm_args.api_key'), json_extract(config, '$.tau2.info.agent_info.llm_args.temperature'), instr(config, 'sk-secret') FROM runs")
	if want := "[redacted],0,0"; !strings.Contains(got, want) {
		t.Errorf("stored config %q, want %q", got, want)
	}
}

// Tool arguments given as a pretty-printed object are stored compact, like
// arguments parsed from a string, so SQL can compare them.
func TestIngestTau2_CompactArguments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "pretty.json")
	data := `{"info": {}, "tasks": [], "simulations": [{"task_id": "a", "trial": 0, "termination_reason": "user_stop", "reward_info": {"reward": 1},
		"messages": [{"role": "assistant", "tool_calls": [{"id": "c1", "name": "find", "arguments": {
			"rut":   "15.222.333-k",
			"n": [1, 2]
		}}]}]}]}`
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "p.db")
	mustRun(t, "--db", dbPath, "ingest", file)
	if got, want := csvQuery(t, dbPath, "SELECT tool_arguments FROM messages WHERE tool_name = 'find'"), `{""rut"":""15.222.333-k"",""n"":[1,2]}`; !strings.Contains(got, want) {
		t.Errorf("tool_arguments %q, want %s", got, want)
	}
}

// A message's cost without token usage stores NULL tokens, not 0, and the
// export keeps it so.
func TestIngestTau2_CostWithoutUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "cost-only.json")
	data := `{"info": {}, "tasks": [], "simulations": [{"task_id": "a", "trial": 0, "termination_reason": "user_stop", "reward_info": {"reward": 1},
		"messages": [{"role": "assistant", "content": "hi", "cost": 0.002, "usage": null},
		             {"role": "user", "content": "bye", "cost": 0.001, "usage": {"prompt_tokens": 10, "completion_tokens": 2}}]}]}`
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "c.db")
	mustRun(t, "--db", dbPath, "ingest", file)
	query := "SELECT idx, prompt_tokens IS NULL, completion_tokens IS NULL, cost FROM messages ORDER BY idx"
	want := "0,1,1,0.002\n1,0,0,0.001\n"
	if got := csvQuery(t, dbPath, query); !strings.HasSuffix(got, want) {
		t.Fatalf("messages %q, want %q", got, want)
	}
	out := filepath.Join(dir, "export.json")
	mustRun(t, "--db", dbPath, "export", "--run", "1", "--format", "tau2", "--out", out)
	again := filepath.Join(dir, "again.db")
	mustRun(t, "--db", again, "ingest", out)
	if got := csvQuery(t, again, query); !strings.HasSuffix(got, want) {
		t.Fatalf("after a tau2 export and re-ingest: %q, want %q", got, want)
	}
}

// A file made before ingest redacted credentials loses them at the first
// writing command (here migrate), with a note; read-only commands never
// write.
func TestScrubOlderConfigs(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "old.db")
	fixtureDB(t, dbPath)
	plainSQL(t, dbPath, `UPDATE runs SET config = json_set(config, '$.tau2.info.agent_info.llm_args.api_key', 'sk-OLD-1') WHERE id = 2`)
	r := runCLI(t, "", "--db", dbPath, "migrate")
	if r.code != 0 || !strings.Contains(r.stderr, "run 2: tau2.info.agent_info.llm_args.api_key held a credential") {
		t.Fatalf("migrate: exit %d, stderr %q", r.code, r.stderr)
	}
	if n := sqlInt(t, dbPath, "SELECT COUNT(*) FROM runs WHERE instr(config, 'sk-OLD-1') > 0"); n != 0 {
		t.Fatalf("%d runs still hold the key", n)
	}
	if r := runCLI(t, "", "--db", dbPath, "migrate"); r.code != 0 || r.stderr != "" {
		t.Fatalf("second migrate: exit %d, stderr %q (want no note)", r.code, r.stderr)
	}
}

// Credentials anywhere a source's JSON or text is kept as given never reach
// the db: τ-bench info keys and error texts, τ²-bench reward_info, and the
// shapes τ²-bench info uses (environment lists, header pairs, URLs).
func TestIngest_RedactsCredentialsEverywhere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tau := filepath.Join(dir, "leak-retail.json")
	tauData := `[{"task_id": 0, "reward": 0.0, "trial": 0, "traj": [],
		"info": {"api_key": "sk-LEAK-A", "llm_config": {"openai_api_key": "sk-LEAK-B"},
		         "error": "HTTP 400 for https://generativelanguage.googleapis.com/v1/models?key=AIzaLEAK-C&alt=sse", "traceback": "x"}}]`
	tau2 := filepath.Join(dir, "leak2.json")
	tau2Data := `{"info": {"agent_info": {"llm": "m", "llm_args": {"env": ["OPENAI_API_KEY=sk-LEAK-D", "MODE=x"],
			"extra_headers": [["Authorization", "Bearer LEAK-E"]], "PGPASSWORD": "LEAK-F", "secretkey": "LEAK-G",
			"api_base": "https://acct.blob.core.windows.net/c?sv=1&sig=LEAK-H"}}}, "tasks": [],
		"simulations": [{"task_id": "a", "trial": 0, "termination_reason": "user_stop",
			"reward_info": {"reward": 1, "info": {"api_key": "sk-LEAK-I"}}, "messages": [{"role": "user", "content": "hi"}]}]}`
	for path, data := range map[string]string{tau: tauData, tau2: tau2Data} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dbPath := filepath.Join(dir, "leak.db")
	mustRun(t, "--db", dbPath, "ingest", tau, tau2)
	dump := csvQuery(t, dbPath, `SELECT (SELECT group_concat(config) FROM runs) || (SELECT group_concat(COALESCE(extra, '') || COALESCE(reward_info, '') || COALESCE(error, '')) FROM trajectories)`)
	if strings.Contains(dump, "LEAK") {
		t.Errorf("a credential reached the db:\n%s", dump)
	}
	for _, kept := range []string{"MODE=x", "alt=sse", "generativelanguage.googleapis.com", "sv=1"} {
		if !strings.Contains(dump, kept) {
			t.Errorf("the db lost %q:\n%s", kept, dump)
		}
	}
}

// Trajectories an older emobench stored with credentials: export (read
// only) writes them redacted, merge copies them redacted, and the first
// writing command redacts them in place, once.
func TestScrubOlderTrajectories(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := filepath.Join(dir, "old.db")
	fixtureDB(t, old)
	plainSQL(t, old,
		`UPDATE trajectories SET error = 'POST https://u:pw-LEAK-1@h.example/v1 failed', extra = json_set(COALESCE(extra, '{}'), '$.api_key', 'sk-LEAK-2') WHERE id IN (1, 2)`,
		`DELETE FROM maintenance`)
	leaks := "SELECT COUNT(*) FROM trajectories WHERE instr(COALESCE(error, '') || COALESCE(extra, ''), 'LEAK') > 0"

	out := filepath.Join(dir, "export.jsonl")
	mustRun(t, "--db", old, "export", "--format", "jsonl", "--out", out)
	if data, _ := os.ReadFile(out); strings.Contains(string(data), "LEAK") {
		t.Error("the export holds a credential")
	}
	if n := sqlInt(t, old, leaks); n != 2 {
		t.Fatalf("export changed the source db: %d leaking rows, want 2", n)
	}

	merged := filepath.Join(dir, "merged.db")
	mustRun(t, "--db", merged, "merge", old)
	if n := sqlInt(t, merged, leaks); n != 0 {
		t.Errorf("merge copied %d trajectories with credentials", n)
	}

	r := runCLI(t, "", "--db", old, "migrate")
	if r.code != 0 || !strings.Contains(r.stderr, "credentials redacted in the extra, reward_info or error of 2 trajectories") {
		t.Fatalf("migrate: exit %d, stderr %q", r.code, r.stderr)
	}
	if n := sqlInt(t, old, leaks); n != 0 {
		t.Errorf("%d trajectories still hold credentials after migrate", n)
	}
	if got := sqlCSV(t, old, "SELECT error FROM trajectories WHERE id = 1"); !strings.Contains(got, "POST https://u:[redacted]@h.example/v1 failed") {
		t.Errorf("error after redaction: %q", got)
	}
	if r := runCLI(t, "", "--db", old, "migrate"); r.stderr != "" {
		t.Errorf("second migrate: stderr %q, want nothing (done once)", r.stderr)
	}
}

// Shapes of real τ²-bench files from people's repositories: a bare array of
// simulations, a wrapper with its own model and domain, a partial run.
func TestIngestTau2_RealShapes(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "ingest", "testdata", "tau2", "shapes")
	dbPath := filepath.Join(t.TempDir(), "shapes.db")
	r := runCLI(t, "", "--db", dbPath, "ingest", dir)
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	got := csvQuery(t, dbPath, `
		SELECT r.name, r.source_format, r.agent_model, r.agent_strategy, r.domain, COUNT(t.id), COALESCE(SUM(t.passed), 0)
		FROM runs r LEFT JOIN trajectories t ON t.run_id = r.id GROUP BY r.id ORDER BY r.name`)
	want := strings.Join([]string{
		"name,source_format,agent_model,agent_strategy,domain,COUNT(t.id),\"COALESCE(SUM(t.passed), 0)\"",
		"bare-array,tau2,unknown,unknown,unknown,2,1",
		"partial-run,tau2,gpt-4.1,unknown,retail,3,2",
		"wrapper-model-domain,tau2,qwen3-32b,llm_agent,airline,1,1",
		"",
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	for _, w := range []string{
		"warning: " + filepath.Join(dir, "partial-run.json") + ": 3 of 5 listed tasks have no simulation (a partial run?); statistics cover the other 2\n",
		"warning: " + filepath.Join(dir, "bare-array.json") + ": a bare array of τ²-bench simulations (no Results wrapper)",
	} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	if got := csvQuery(t, dbPath, `SELECT json_extract(config, '$.tau2.wrapper.model') FROM runs WHERE name = 'wrapper-model-domain'`); !strings.Contains(got, "qwen3-32b") {
		t.Errorf("runs.config lacks the wrapper: %s", got)
	}
}

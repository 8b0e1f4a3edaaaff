package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
)

// TestRun_AllDomainsBothConditions is issue 12's acceptance run: every
// registered domain, both conditions, 2 trials, the scripted user and
// noisy:0.3, over each domain's whole test split (about 1,200 episodes
// for four domains; the simulators need no network), or under -short
// over 2 test tasks of each family per domain. Then `stats passk
// --by domain,emotion_family` has, for each run, every family at k = 1
// and 2, and its pass^1 equals the per-task mean computed in SQL from the
// trajectories themselves.
func TestRun_AllDomainsBothConditions(t *testing.T) {
	t.Parallel()
	names := all.Names()
	// Issue 12: retail, airline, telecom and telehealth at least.
	for _, want := range []string{"retail", "airline", "telecom", "telehealth"} {
		if !slices.Contains(names, want) {
			t.Fatalf("registered domains %v, want %s among them", names, want)
		}
	}
	dbPath := filepath.Join(t.TempDir(), "four.db")
	args := []string{"--db", dbPath, "--quiet", "run", "--domain", strings.Join(names, ","), "--condition", "both",
		"--trials", "2", "--agent", "noisy:0.3", "--user", "scripted"}
	tasksOf := map[string]int{} // test tasks run per domain
	var sample []string
	for _, name := range names {
		dom, err := all.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		perFamily := map[string]int{}
		for _, task := range dom.Tasks() {
			if task.Split != emobench.SplitTest {
				continue
			}
			// -short: the first 2 test tasks of each family.
			if testing.Short() && perFamily[task.Emotion.Family] >= 2 {
				continue
			}
			perFamily[task.Emotion.Family]++
			tasksOf[name]++
			sample = append(sample, task.ID)
		}
	}
	if testing.Short() {
		args = append(args, "--tasks", strings.Join(sample, ","))
	}
	mustRun(t, args...)

	var runs []struct {
		ID           int64  `json:"id"`
		Domain       string `json:"domain"`
		Condition    string `json:"condition"`
		Tasks        int    `json:"tasks"`
		Trajectories int    `json:"trajectories"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "--db", dbPath, "runs", "--format", "json")), &runs); err != nil {
		t.Fatal(err)
	}
	if got, want := len(runs), 2*len(names); got != want {
		t.Fatalf("%d runs, want %d (one per domain and condition)", got, want)
	}
	families := len(emobench.Taxonomy.Families)
	domainOf := map[int64]string{}
	for _, r := range runs {
		domainOf[r.ID] = r.Domain
		test := tasksOf[r.Domain]
		if r.Tasks != test || r.Trajectories != 2*test {
			t.Errorf("run %d (%s, %s): %d tasks, %d trajectories; want %d test tasks, 2 trials each", r.ID, r.Domain, r.Condition, r.Tasks, r.Trajectories, test)
		}
	}

	type cell struct {
		run    int64
		family string
	}
	var rows []struct {
		RunID    int64    `json:"run_id"`
		Domain   string   `json:"domain"`
		Family   *string  `json:"emotion_family"`
		K        int      `json:"k"`
		PassHatK *float64 `json:"pass_hat_k"`
	}
	out := mustRun(t, "--db", dbPath, "stats", "passk", "--by", "domain,emotion_family", "--format", "json")
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("stats passk: %v\n%s", err, out)
	}
	// Every run covers every family (the domains' tasks do), at k = 1, 2.
	if got, want := len(rows), len(runs)*families*2; got != want {
		t.Errorf("stats passk --by domain,emotion_family: %d rows, want %d (%d runs × %d families × k 1, 2)", got, want, len(runs), families)
	}
	pass1 := map[cell]float64{}
	seen := map[string]map[string]bool{}
	for _, r := range rows {
		if r.Family == nil || r.PassHatK == nil {
			t.Fatalf("row %+v: family or pass^k null", r)
		}
		if r.Domain != domainOf[r.RunID] {
			t.Errorf("row of run %d: domain %s, want %s", r.RunID, r.Domain, domainOf[r.RunID])
		}
		if seen[r.Domain] == nil {
			seen[r.Domain] = map[string]bool{}
		}
		seen[r.Domain][*r.Family] = true
		if v := *r.PassHatK; v < 0 || v > 1 || math.IsNaN(v) {
			t.Errorf("run %d %s k=%d: pass^k %v outside [0, 1]", r.RunID, *r.Family, r.K, v)
		}
		if r.K == 1 {
			pass1[cell{r.RunID, *r.Family}] = *r.PassHatK
		}
	}
	for _, name := range names {
		for _, f := range emobench.Taxonomy.Families {
			if !seen[name][f.Name] {
				t.Errorf("stats passk: domain %s has no %s row", name, f.Name)
			}
		}
	}

	// pass^1 (per-task) = mean over tasks of the task's share of passed
	// trajectories, here straight from trajectories (stats reads
	// run_task_outcomes).
	var sqlRows []struct {
		RunID  int64   `json:"run_id"`
		Family string  `json:"family"`
		Pass1  float64 `json:"pass1"`
	}
	sqlOut := mustRun(t, "--db", dbPath, "sql", "--format", "json",
		"SELECT tr.run_id AS run_id, t.emotion_family AS family, AVG(tr.p) AS pass1 "+
			"FROM (SELECT run_id, task_id, AVG(passed) AS p FROM trajectories GROUP BY run_id, task_id) tr "+
			"JOIN tasks t ON t.id = tr.task_id GROUP BY tr.run_id, t.emotion_family")
	if err := json.Unmarshal([]byte(sqlOut), &sqlRows); err != nil {
		t.Fatalf("sql: %v\n%s", err, sqlOut)
	}
	if len(sqlRows) != len(pass1) {
		t.Errorf("sql gives %d (run, family) cells, stats passk %d", len(sqlRows), len(pass1))
	}
	for _, r := range sqlRows {
		got, ok := pass1[cell{r.RunID, r.Family}]
		if !ok || math.Abs(got-r.Pass1) > 1e-12 {
			t.Errorf("run %d %s: stats passk pass^1 %v (found %v), sql %v", r.RunID, r.Family, got, ok, r.Pass1)
		}
	}
	t.Logf("%d domains, %d runs, %d stats rows", len(names), len(runs), len(rows))
}

package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
)

// TestStatsGeneralization_OfflineAllDomains is issue 12's acceptance of
// `stats generalization` end to end, offline: Tracer data from retail and
// airline (generate, collect with noisy:0.3 and the scripted user,
// filter, export), then a base (noisy:0.5) and a "tuned" (noisy:0.1)
// simulator run over every registered domain, each tuned run tagged with
// its train domains and base run. The in-domain rows are the train
// domains and the out-of-domain rows every other registered domain.
func TestStatsGeneralization_OfflineAllDomains(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "gen.db")
	names := all.Names()
	sources := []string{"retail", "airline"} // Tracer data comes from these
	// The tuned model is trained on the Tracer domains. With only those two
	// registered (telecom and telehealth are merged from their own
	// streams), it is tagged as trained on retail alone, so that airline
	// is out of domain and both kinds of row are checked.
	train := sources
	if len(names) < 3 {
		train = sources[:1]
	}
	var outOfDomain []string
	for _, name := range names {
		if !slices.Contains(train, name) {
			outOfDomain = append(outOfDomain, name)
		}
	}

	var runIDs []string
	for _, d := range sources {
		tasks := filepath.Join(dir, d+".json")
		mustRun(t, "--quiet", "tracer", "generate", "--domain", d, "--n", "8", "--split", "train", "--out", tasks)
		mustRun(t, "--db", dbPath, "--quiet", "tracer", "collect", "--tasks-file", tasks, "--agent", "noisy:0.3", "--user", "scripted", "--trials", "2")
	}
	var collected []struct {
		ID           int64 `json:"id"`
		Trajectories int   `json:"trajectories"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "--db", dbPath, "runs", "--format", "json")), &collected); err != nil {
		t.Fatal(err)
	}
	trajectories := 0
	for _, r := range collected {
		runIDs = append(runIDs, "--run", strconv.FormatInt(r.ID, 10))
		trajectories += r.Trajectories
	}
	if len(collected) != 2*len(sources) { // both conditions per source domain
		t.Fatalf("collect made %d runs, want %d", len(collected), 2*len(sources))
	}
	mustRun(t, append(append([]string{"--db", dbPath, "--quiet", "tracer", "filter"}, runIDs...), "--max-user-dependence", "1.5", "--selection", "sft")...)
	export := filepath.Join(dir, "train.openai.jsonl")
	mustRun(t, "--db", dbPath, "--quiet", "tracer", "export", "--selection", "sft", "--format", "openai", "--out", export)
	if n := jsonlRecords(t, export); n < 1 || n >= trajectories {
		t.Errorf("export: %d records, want at least 1 and fewer than the %d collected trajectories", n, trajectories)
	}

	domains := strings.Join(names, ",")
	mustRun(t, "--db", dbPath, "--quiet", "run", "--domain", domains, "--tasks", "20", "--agent", "noisy:0.5", "--condition", "without-emotions", "--name", "base")
	mustRun(t, "--db", dbPath, "--quiet", "run", "--domain", domains, "--tasks", "20", "--agent", "noisy:0.1", "--condition", "without-emotions", "--name", "tuned")
	for _, d := range names {
		mustRun(t, "--db", dbPath, "runs", "tag", "tuned-"+d+"-without-emotions",
			"--train-domains", strings.Join(train, ","), "--base-run", "base-"+d+"-without-emotions")
	}

	var rows []struct {
		Model       string   `json:"model"`
		Domain      string   `json:"domain"`
		Scope       string   `json:"scope"`
		Tuned       *float64 `json:"tuned_pass_1"`
		Base        *float64 `json:"base_pass_1"`
		Delta       *float64 `json:"delta"`
		PairedTasks *int     `json:"paired_tasks"`
	}
	out := mustRun(t, "--db", dbPath, "stats", "generalization", "--format", "json")
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("stats generalization: %v\n%s", err, out)
	}
	scopes := map[string]string{}
	means := 0
	for _, r := range rows {
		if r.Model != "noisy:0.1" {
			t.Errorf("row %+v: model %s, want the tuned noisy:0.1", r, r.Model)
		}
		if strings.HasSuffix(r.Scope, " mean") {
			means++
			continue
		}
		scopes[r.Domain] = r.Scope
		if r.Tuned == nil || r.Base == nil || r.Delta == nil || r.PairedTasks == nil {
			t.Fatalf("domain %s: tuned %v, base %v, delta %v, paired %v; want numbers", r.Domain, r.Tuned, r.Base, r.Delta, r.PairedTasks)
		}
		for _, v := range []float64{*r.Tuned, *r.Base} {
			if v < 0 || v > 1 {
				t.Errorf("domain %s: pass^1 %v outside [0, 1]", r.Domain, v)
			}
		}
		if want := min(20, testTasks(t, r.Domain)); math.Abs(*r.Delta-(*r.Tuned-*r.Base)) > 1e-9 || *r.PairedTasks != want {
			t.Errorf("domain %s: delta %v, tuned − base %v, paired tasks %d (want %d)", r.Domain, *r.Delta, *r.Tuned-*r.Base, *r.PairedTasks, want)
		}
	}
	for _, d := range names {
		want := "out-of-domain"
		if slices.Contains(train, d) {
			want = "in-domain"
		}
		if scopes[d] != want {
			t.Errorf("stats generalization: domain %s is %q, want %q (train domains %v)", d, scopes[d], want, train)
		}
	}
	if len(scopes) != len(names) || means != 2 || len(outOfDomain) == 0 {
		t.Errorf("stats generalization: %d domain rows (want %d), %d mean rows (want 2), out-of-domain %v\n%s", len(scopes), len(names), means, outOfDomain, out)
	}
}

// testTasks counts the test tasks of the registered domain name.
func testTasks(t *testing.T, name string) int {
	t.Helper()
	dom, err := all.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, task := range dom.Tasks() {
		if task.Split == emobench.SplitTest {
			n++
		}
	}
	return n
}

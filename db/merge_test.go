package db_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// openDBAt opens (creating) the database at path and closes it at cleanup.
func openDBAt(tb testing.TB, path string) *db.DB {
	tb.Helper()
	store, err := db.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { store.Close() })
	return store
}

// mustIngest stores r with the given trajectories.
func mustIngest(tb testing.TB, store *db.DB, r emobench.Run, trajs ...*emobench.Trajectory) {
	tb.Helper()
	items := make([]any, len(trajs))
	for i, t := range trajs {
		items[i] = t
	}
	if _, err := store.IngestRun(context.Background(), r, seq(items...), db.DuplicateRefuse); err != nil {
		tb.Fatal(err)
	}
}

// queryText runs q and returns its rows, one line each, columns joined by "|".
func queryText(tb testing.TB, store *db.DB, q string) string {
	tb.Helper()
	rows, err := store.Query(context.Background(), q)
	if err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		tb.Fatal(err)
	}
	var lines []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		fields := make([]string, len(vals))
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			fields[i] = fmt.Sprint(v)
		}
		lines = append(lines, strings.Join(fields, "|"))
	}
	if err := rows.Err(); err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	return strings.Join(lines, "\n")
}

// countsOf is the row count of every table, to check that nothing changed.
func countsOf(tb testing.TB, store *db.DB) string {
	tb.Helper()
	return queryText(tb, store, "SELECT (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM tasks), (SELECT COUNT(*) FROM trajectories), (SELECT COUNT(*) FROM messages)")
}

func nativeRun(name, config string) emobench.Run {
	return emobench.Run{Name: name, SourceFormat: "native", Domain: "retail",
		Condition: emobench.ConditionWithEmotions, Config: json.RawMessage(config)}
}

func mustAppend(tb testing.TB, store *db.DB, r emobench.Run, trajs ...*emobench.Trajectory) {
	tb.Helper()
	ctx := context.Background()
	id, err := store.CreateRun(ctx, r)
	if err != nil {
		tb.Fatal(err)
	}
	for _, tr := range trajs {
		if err := store.AppendTrajectory(ctx, id, tr); err != nil {
			tb.Fatal(err)
		}
	}
}

// Merging A (runs 1-3) into B (runs 1-2) renumbers A's runs 3-5, points
// their trajectories at the new ids, shares tasks by content and copies
// every outcome and message as it was.
func TestMerge_OK(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	src := openDBAt(t, filepath.Join(dir, "a.db"))
	mustIngest(t, src, run("a1", "sa1"), traj("1", 0, 1), traj("1", 1, 0), traj("2", 0, 1))
	mustIngest(t, src, run("a2", "sa2"), traj("2", 0, 0), traj("3", 0, 1))
	mustIngest(t, src, run("a3", "sa3"), traj("3", 0, 0.5))
	dst := openDBAt(t, filepath.Join(dir, "b.db"))
	mustIngest(t, dst, run("b1", "sb1"), traj("1", 0, 1))
	mustIngest(t, dst, run("b2", "sb2"), traj("4", 0, 0))

	rep, err := dst.Merge(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rep, (db.MergeReport{RunsAdded: 3, Trajectories: 6}); !reflect.DeepEqual(got, want) {
		t.Fatalf("report = %+v, want %+v", got, want)
	}
	if got, want := queryText(t, dst, "SELECT id, name FROM runs ORDER BY id"), "1|b1\n2|b2\n3|a1\n4|a2\n5|a3"; got != want {
		t.Fatalf("runs:\n%s\nwant:\n%s", got, want)
	}
	perRun := "SELECT r.id, COUNT(t.id) FROM runs r LEFT JOIN trajectories t ON t.run_id = r.id GROUP BY r.id ORDER BY r.id"
	if got, want := queryText(t, dst, perRun), "1|1\n2|1\n3|3\n4|2\n5|1"; got != want {
		t.Fatalf("trajectories per run id:\n%s\nwant:\n%s", got, want)
	}
	// Tasks 1-3 of A and 1, 4 of B: task 1 has the same content in both.
	if got, want := queryInt(t, dst, "SELECT COUNT(*) FROM tasks"), 4; got != want {
		t.Fatalf("tasks = %d, want %d (shared by content)", got, want)
	}
	if got := queryText(t, dst, "SELECT COUNT(*) FROM pragma_foreign_key_check"); got != "0" {
		t.Fatalf("foreign key violations: %s", got)
	}
	for _, q := range []string{
		`SELECT run, task_key, trial, passed, reward, evaluated, termination_reason, n_messages,
		        n_user_turns, n_agent_turns, n_tool_calls, n_tool_errors, emotion_family
		 FROM trajectory_outcomes WHERE run LIKE 'a%' ORDER BY run, task_key, trial`,
		`SELECT r.name, k.task_key, t.trial, m.idx, m.role, m.content, m.tool_name, m.tool_call_id,
		        m.tool_arguments, m.tool_calls
		 FROM messages m JOIN trajectories t ON t.id = m.trajectory_id
		 JOIN runs r ON r.id = t.run_id JOIN tasks k ON k.id = t.task_id
		 WHERE r.name LIKE 'a%' ORDER BY r.name, k.task_key, t.trial, m.idx`,
		"SELECT name, source_format, source_sha256, domain, condition, config FROM runs WHERE name LIKE 'a%' ORDER BY name",
	} {
		if got, want := queryText(t, dst, q), queryText(t, src, q); got != want {
			t.Errorf("%s\nmerged:\n%s\nsource:\n%s", q, got, want)
		}
	}
}

// The same runs merged twice are stored once: the second merge adds nothing.
func TestMerge_Twice(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	src := openDBAt(t, filepath.Join(dir, "a.db"))
	mustIngest(t, src, run("a1", "sa1"), traj("1", 0, 1), traj("2", 0, 0))
	mustIngest(t, src, run("a2", "sa2"), traj("1", 0, 0))
	mustAppend(t, src, nativeRun("n", `{"seed":1,"trials":2}`), traj("1", 0, 1), traj("1", 1, 1))
	dst := openDBAt(t, filepath.Join(dir, "b.db"))

	rep, err := dst.Merge(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rep, (db.MergeReport{RunsAdded: 3, Trajectories: 5}); !reflect.DeepEqual(got, want) {
		t.Fatalf("first merge = %+v, want %+v", got, want)
	}
	before := countsOf(t, dst)
	rep, err = dst.Merge(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The imported runs are known by sha256; the native run holds both pairs.
	if got, want := rep, (db.MergeReport{RunsSkipped: 3, PairsSkipped: 2}); !reflect.DeepEqual(got, want) {
		t.Fatalf("second merge = %+v, want %+v", got, want)
	}
	if got := countsOf(t, dst); got != before {
		t.Fatalf("second merge changed the counts: %s -> %s", before, got)
	}
	// Task 1 of the native run has no domain ("unknown"): AppendTrajectory,
	// unlike IngestRun, does not give it the run's.
	if got, want := before, "3|3|5|20"; got != want {
		t.Fatalf("counts (runs|tasks|trajectories|messages) = %s, want %s", got, want)
	}
}

// Native runs of one name and settings join, whatever their shard: the
// merged run has no shard and every pair once. Other settings make another run.
func TestMerge_NativeShardsJoin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	shard0 := openDBAt(t, filepath.Join(dir, "s0.db"))
	mustAppend(t, shard0, nativeRun("x", `{"seed":7,"shard":"0/2"}`), traj("1", 0, 1), traj("2", 1, 0))
	shard1 := openDBAt(t, filepath.Join(dir, "s1.db"))
	// Keys in another order; (1, 0) overlaps shard 0 and is skipped.
	mustAppend(t, shard1, nativeRun("x", `{"shard":"1/2","seed":7}`), traj("2", 0, 1), traj("1", 1, 1), traj("1", 0, 0))
	other := openDBAt(t, filepath.Join(dir, "other.db"))
	mustAppend(t, other, nativeRun("x", `{"seed":8,"shard":"0/2"}`), traj("1", 0, 1))
	dst := openDBAt(t, filepath.Join(dir, "all.db"))

	for _, step := range []struct {
		src  *db.DB
		want db.MergeReport
	}{
		{shard0, db.MergeReport{RunsAdded: 1, Trajectories: 2}},
		{shard1, db.MergeReport{RunsExtended: 1, Trajectories: 2, PairsSkipped: 1}},
		// Another run named x: it is added as x-2.
		{other, db.MergeReport{RunsAdded: 1, Trajectories: 1, Renamed: []db.RenamedRun{{SourceID: 1, ID: 2, From: "x", To: "x-2", Clash: 1}}}},
	} {
		rep, err := dst.Merge(ctx, step.src, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(rep, step.want) {
			t.Fatalf("merge %s = %+v, want %+v", step.src.Path(), rep, step.want)
		}
	}
	if got, want := queryText(t, dst, "SELECT id, config FROM runs ORDER BY id"),
		// The merged run's config is the decoded RunSpec without its shard.
		"1|"+string(emobench.RunSpec{Seed: 7}.Encode())+"\n2|"+string(emobench.RunSpec{Seed: 8}.Encode()); got != want {
		t.Fatalf("runs:\n%s\nwant:\n%s", got, want)
	}
	want := "1|1|0|1\n1|1|1|1\n1|2|0|1\n1|2|1|0\n2|1|0|1"
	if got := queryText(t, dst, "SELECT run_id, task_key, trial, passed FROM trajectory_outcomes ORDER BY 1, 2, 3"); got != want {
		t.Fatalf("pairs:\n%s\nwant:\n%s (shard 0's (1, 0) kept)", got, want)
	}
}

// A run Merge adds under a name the target has (or that a run it added
// before has) gets a distinct name, as ingest gives, and the report names
// it; a native run of the same name and settings still joins, as do the
// shards of a renamed native run.
func TestMerge_RenamesTakenNames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	dst := openDBAt(t, filepath.Join(dir, "bench.db"))
	mustIngest(t, dst, run("r", "sr1"), traj("1", 0, 1))              // run 1
	mustAppend(t, dst, nativeRun("n", `{"seed":1}`), traj("1", 0, 1)) // run 2
	src := openDBAt(t, filepath.Join(dir, "shards.db"))
	mustIngest(t, src, run("r", "sr2"), traj("2", 0, 1))                            // src 1: r taken
	mustIngest(t, src, run("r", "sr3"), traj("3", 0, 0))                            // src 2: r, r-2 taken
	mustAppend(t, src, nativeRun("n", `{"seed":1,"shard":"1/2"}`), traj("2", 0, 0)) // src 3: joins run 2
	mustAppend(t, src, nativeRun("n", `{"seed":2,"shard":"0/2"}`), traj("1", 0, 0)) // src 4: other settings
	later := openDBAt(t, filepath.Join(dir, "later.db"))
	mustAppend(t, later, nativeRun("n", `{"seed":2,"shard":"1/2"}`), traj("2", 0, 1)) // joins n-2

	rep, err := dst.Merge(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := db.MergeReport{RunsAdded: 3, RunsExtended: 1, Trajectories: 4, Renamed: []db.RenamedRun{
		{SourceID: 1, ID: 3, From: "r", To: "r-2", Clash: 1},
		{SourceID: 2, ID: 4, From: "r", To: "r-3", Clash: 1},
		{SourceID: 4, ID: 5, From: "n", To: "n-2", Clash: 2},
	}}
	if !reflect.DeepEqual(rep, want) {
		t.Fatalf("report = %+v, want %+v", rep, want)
	}
	if got, want := rep.Renamed[0].Warning("shards.db"), "shards.db: run 1 is already named \"r\": run 1 of shards.db is added as run 3 named \"r-2\" (rename it with `emobench runs set RUN --name NAME`)"; got != want {
		t.Errorf("warning = %q, want %q", got, want)
	}
	rep, err = dst.Merge(ctx, later, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (db.MergeReport{RunsExtended: 1, Trajectories: 1}); !reflect.DeepEqual(rep, want) {
		t.Fatalf("report of later.db = %+v, want %+v", rep, want)
	}
	if got, want := queryText(t, dst, "SELECT id, name FROM runs ORDER BY id"), "1|r\n2|n\n3|r-2\n4|r-3\n5|n-2"; got != want {
		t.Fatalf("runs:\n%s\nwant:\n%s", got, want)
	}
	if got, want := queryText(t, dst, "SELECT run_id, task_key FROM trajectory_outcomes WHERE run_id IN (2, 5) ORDER BY 1, 2"), "2|1\n2|2\n5|1\n5|2"; got != want {
		t.Fatalf("native runs' pairs:\n%s\nwant:\n%s", got, want)
	}
}

// A source that breaks partway (its last pages are zeroed) stores nothing:
// the runs merged before the failure are rolled back with it. (A truncated
// file is refused when opened: its header counts more pages than it has.)
func TestMerge_ErrCorruptSourceStoresNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	goodPath := filepath.Join(dir, "good.db")
	good, err := db.Open(ctx, goodPath)
	if err != nil {
		t.Fatal(err)
	}
	// Three runs of 40 trajectories with 4 KiB messages: about 2 MB, so
	// that run 3's messages lie in the file's last pages.
	filler := strings.Repeat("all work and no play ", 200)
	for r := 1; r <= 3; r++ {
		var trajs []*emobench.Trajectory
		for k := 0; k < 40; k++ {
			tr := traj(fmt.Sprint(k), 0, 1)
			for i := range tr.Messages {
				tr.Messages[i].Content = fmt.Sprintf("run %d %s", r, filler)
			}
			trajs = append(trajs, tr)
		}
		mustIngest(t, good, run(fmt.Sprintf("r%d", r), fmt.Sprintf("s%d", r)), trajs...)
	}
	if err := good.Close(); err != nil { // checkpoints the WAL into the file
		t.Fatal(err)
	}
	data, err := os.ReadFile(goodPath)
	if err != nil {
		t.Fatal(err)
	}
	clear(data[len(data)*85/100:])
	badPath := filepath.Join(dir, "bad.db")
	if err := os.WriteFile(badPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	bad, err := db.OpenReadOnly(ctx, badPath)
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()

	dst := openDBAt(t, filepath.Join(dir, "dst.db"))
	mustIngest(t, dst, run("mine", "m1"), traj("1", 0, 1))
	before := countsOf(t, dst)
	rep, err := dst.Merge(ctx, bad, nil)
	if err == nil {
		t.Fatalf("merge of a corrupt file succeeded: %+v", rep)
	}
	t.Logf("merge of the corrupt file: %v", err)
	// Runs 1 and 2 were copied inside the transaction before run 3 failed.
	if !strings.Contains(err.Error(), "run 3 (r3)") || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("err = %v, want the failure in run 3 (r3) reported as malformed", err)
	}
	if !reflect.DeepEqual(rep, db.MergeReport{}) {
		t.Errorf("report after a failure = %+v, want zero", rep)
	}
	if got := countsOf(t, dst); got != before {
		t.Fatalf("a failed merge changed the target: %s -> %s", before, got)
	}
}

// A merged run keeps its generalization tags, its base run renumbered.
func TestMerge_KeepsRunTags(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	src := openDBAt(t, filepath.Join(dir, "a.db"))
	mustIngest(t, src, run("base", "s1"), traj("1", 0, 1))
	mustIngest(t, src, run("tuned", "s2"), traj("1", 0, 1))
	if err := src.TagRun(ctx, 2, []string{"airline"}, 1); err != nil {
		t.Fatal(err)
	}
	dst := openDBAt(t, filepath.Join(dir, "b.db"))
	mustIngest(t, dst, run("mine", "m1"), traj("1", 0, 1))
	if _, err := dst.Merge(ctx, src, nil); err != nil {
		t.Fatal(err)
	}
	tags, err := dst.ListRunTags(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tags) != 3 {
		t.Fatalf("%d runs, want 3", len(tags))
	}
	if got, want := tags[2].TrainDomains, []string{"airline"}; !reflect.DeepEqual(got, want) {
		t.Errorf("tuned run's train_domains = %v, want %v", got, want)
	}
	if got, want := tags[2].BaseRunID, int64(2); got != want {
		t.Errorf("tuned run's base_run_id = %d, want %d (the base run's new id)", got, want)
	}
}

func TestVacuumInto(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, path := MustOpenDB(t)
	mustIngest(t, store, run("a", "s1"), traj("1", 0, 1), traj("2", 0, 0))
	out := filepath.Join(filepath.Dir(path), "copy.db")
	if err := store.VacuumInto(ctx, out); err != nil {
		t.Fatal(err)
	}
	cp, err := db.OpenReadOnly(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	if got, want := countsOf(t, cp), countsOf(t, store); got != want {
		t.Fatalf("copy counts %s, want %s", got, want)
	}
	if err := store.VacuumInto(ctx, out); err == nil {
		t.Fatal("VacuumInto overwrote an existing file")
	}
}

// A merged run keeps its source sha256 but records that it was merged, from
// which file and when; ReplaceRun swaps it for the file's own content in one
// transaction, and a failed replacement leaves it as it was.
func TestReplaceRun_MergedRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src, srcPath := MustOpenDB(t)
	if _, err := src.IngestRun(ctx, run("a", "s1"), seq(traj("1", 0, 1), traj("2", 0, 1)), db.DuplicateRefuse); err != nil {
		t.Fatal(err)
	}
	target, _ := MustOpenDB(t)
	if _, err := target.Merge(ctx, src, nil); err != nil {
		t.Fatal(err)
	}
	prov, err := target.FindProvenanceBySHA256(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if prov.Kind != db.ProvenanceMerged || prov.MergedFrom != srcPath || len(prov.MergedSHA256) != 64 || prov.MergedAt == "" {
		t.Fatalf("provenance = %+v, want merged from %s with its sha256 and date", prov, srcPath)
	}

	_, err = target.ReplaceRun(ctx, prov.RunID, run("a", "s1"), seq(traj("1", 0, 0), errors.New("record 1 is bad")), db.DuplicateRefuse)
	if err == nil || err.Error() != "record 1 is bad" {
		t.Fatalf("ReplaceRun with a bad record: err = %v", err)
	}
	if after, err := target.FindProvenanceBySHA256(ctx, "s1"); err != nil || after != prov {
		t.Fatalf("after a failed ReplaceRun: %+v, %v; want the merged run unchanged", after, err)
	}

	res, err := target.ReplaceRun(ctx, prov.RunID, run("a", "s1"), seq(traj("1", 0, 0)), db.DuplicateRefuse)
	if err != nil {
		t.Fatal(err)
	}
	if got := queryInt(t, target, "SELECT COUNT(*) FROM runs"); got != 1 {
		t.Errorf("runs = %d after ReplaceRun, want 1", got)
	}
	if got := queryInt(t, target, "SELECT COUNT(*) FROM tasks"); got != 1 {
		t.Errorf("tasks = %d after ReplaceRun, want 1 (task 2 went with the merged run)", got)
	}
	if now, err := target.FindProvenanceBySHA256(ctx, "s1"); err != nil || now.RunID != res.RunID || now.Kind != db.ProvenanceIngested {
		t.Errorf("after ReplaceRun: %+v, %v; want run %d, ingested", now, err, res.RunID)
	}
}

func TestMerge_TaskSetsNotCarried(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	src := openDBAt(t, filepath.Join(dir, "a.db"))
	mustIngest(t, src, run("a1", "sa1"), traj("1", 0, 1))
	set := db.TaskSet{Name: "shop-train", Domain: "shop", Split: emobench.SplitTrain, GeneratorVersion: "1"}
	if _, err := src.CreateTaskSet(ctx, set, taskSetSpecs(2), false); err != nil {
		t.Fatal(err)
	}
	dst := openDBAt(t, filepath.Join(dir, "b.db"))
	rep, err := dst.Merge(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rep.TaskSetsNotCarried, 1; got != want {
		t.Fatalf("TaskSetsNotCarried = %d, want %d", got, want)
	}
}

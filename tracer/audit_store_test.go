package tracer_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/sim"
)

// A task's emotion instruction survives the db without a column of its
// own: a trajectory read back carries it in its task's scenario, with the
// content hash the db stored, and the same task without it is another row.
func TestEmotionInstruction_StoredTask(t *testing.T) {
	ctx := t.Context()
	dom := findDomain(t, "retail")
	with := fixtureTasks(t)[0]
	if with.EmotionInstruction == "" {
		t.Fatal("fixture audit-pass has no emotion instruction")
	}
	without := with
	without.EmotionInstruction = ""
	store, err := db.Open(ctx, filepath.Join(t.TempDir(), "emotion.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	id, err := store.CreateRun(ctx, emobench.Run{Name: "oracle", SourceFormat: "native", Domain: "retail",
		Condition: emobench.ConditionWithEmotions, Config: json.RawMessage(`{"seed":1}`)})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for trial, task := range []*emobench.TaskSpec{&with, &without} {
		traj, err := sim.RunEpisode(ctx, sim.EpisodeConfig{Domain: dom, Task: task, Agent: sim.Oracle{}, User: sim.ScriptedUser{}, WithEmotions: true, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		traj.Trial = trial
		if err := store.AppendTrajectory(ctx, id, traj); err != nil {
			t.Fatal(err)
		}
		sum, err := traj.Task.ContentSHA256()
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, sum)
	}
	if want[0] == want[1] {
		t.Fatal("the task with and without its emotion instruction share a content hash")
	}
	var got []string
	for traj, err := range store.Trajectories(ctx, id) {
		if err != nil {
			t.Fatal(err)
		}
		sum, err := traj.Task.ContentSHA256()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, sum)
		var s struct {
			EmotionInstruction string `json:"emotion_instruction"`
		}
		if err := json.Unmarshal(traj.Task.Scenario, &s); err != nil {
			t.Fatal(err)
		}
		if wantText := []string{with.EmotionInstruction, ""}[traj.Trial]; s.EmotionInstruction != wantText {
			t.Errorf("trial %d: stored emotion instruction %q, want %q", traj.Trial, s.EmotionInstruction, wantText)
		}
	}
	rows, err := store.Query(ctx, "SELECT content_sha256 FROM tasks ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var stored []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		stored = append(stored, s)
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] || len(stored) != 2 || stored[0] != want[0] || stored[1] != want[1] {
		t.Errorf("hashes read back %v, stored %v; want %v", got, stored, want)
	}
}

package db_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/emobench/emobench"
)

// A shard's with-emotions run joins the target's run of the same name and
// settings; its without-emotions run, which the target lacks, is added
// with the joined run's pair, so the two still pair (issue #20 item 13).
func TestMerge_KeepsPairOfJoinedShard(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	spec := func(cond emobench.Condition, shard, pair string) emobench.Run {
		r := nativeRun("x-retail-"+string(cond), "")
		r.Condition = cond
		r.Config = emobench.RunSpec{Domain: "retail", Condition: string(cond), Agent: "oracle", User: "scripted", Trials: 1, Shard: shard, Pair: pair}.Encode()
		return r
	}
	dst := openDBAt(t, filepath.Join(dir, "dst.db"))
	mustAppend(t, dst, spec(emobench.ConditionWithEmotions, "0/2", "A"), traj("1", 0, 1))
	src := openDBAt(t, filepath.Join(dir, "src.db"))
	mustAppend(t, src, spec(emobench.ConditionWithEmotions, "1/2", "B"), traj("2", 0, 1))
	mustAppend(t, src, spec(emobench.ConditionWithoutEmotions, "1/2", "B"), traj("2", 0, 0))
	rep, err := dst.Merge(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.RunsAdded != 1 || rep.RunsExtended != 1 {
		t.Fatalf("report %+v: want the with-emotions shard joined, the without-emotions run added", rep)
	}
	if got, want := queryText(t, dst, "SELECT id, condition, json_extract(config, '$.pair') FROM runs ORDER BY id"), "1|with-emotions|A\n2|without-emotions|A"; got != want {
		t.Fatalf("runs:\n%s\nwant:\n%s", got, want)
	}
}

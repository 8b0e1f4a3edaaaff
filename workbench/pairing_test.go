package workbench_test

import (
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/workbench"
	"github.com/google/go-cmp/cmp"
)

// PairGroups: a native run's group is its command's pair id; an ingested
// run's is its file's name less the condition words, in its folder, or by
// name alone when its folder holds no file of the other condition.
func TestPairGroups(t *testing.T) {
	with, without := emobench.ConditionWithEmotions, emobench.ConditionWithoutEmotions
	file := func(id int64, path string, cond emobench.Condition) emobench.Run {
		return emobench.Run{ID: id, SourceFormat: "tau-bench", SourcePath: path, Condition: cond}
	}
	native := func(id int64, pair string, cond emobench.Condition) emobench.Run {
		return emobench.Run{ID: id, SourceFormat: emobench.SourceNative, Condition: cond,
			Config: emobench.RunSpec{Domain: "retail", Condition: string(cond), Pair: pair}.Encode()}
	}
	runs := []emobench.Run{
		native(1, "p1", with), native(2, "p1", without), native(3, "", with), // 3: before pairs were recorded
		file(4, "/c/x-retail-with-emotions.json", with), file(5, "/c/x-retail-without-emotions.json", without),
		file(6, "/d/x-retail-no-emotion.json", without),
		file(7, "/a/m-retail-with-emotions.json", with), file(8, "/b/m-retail-without-emotions.json", without),
		file(9, "/a/gpt-4.1-retail.json", ""),
	}
	want := map[int64]string{
		1: "run:p1", 2: "run:p1",
		4: "file:/c/x-retail-*.json", 5: "file:/c/x-retail-*.json",
		6: "file:x-retail-*.json",
		7: "file:m-retail-*.json", 8: "file:m-retail-*.json",
	}
	if diff := cmp.Diff(want, workbench.PairGroups(runs)); diff != "" {
		t.Errorf("PairGroups (-want +got):\n%s", diff)
	}
}

package workbench_test

import (
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/workbench"
	"github.com/google/go-cmp/cmp"
)

// PairGroups: a native run's group is its command's pair id; an ingested
// run's is its file's name less the condition words, in its folder, when
// the stored path is absolute. Files in different folders never pair
// (#20 item 13), nor a file read from stdin or stored relative; each
// ingested run's source says why it has no group.
func TestPairGroups(t *testing.T) {
	t.Parallel()
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
		file(10, "e1/m-retail-with-emotions.json", with), file(11, "e1/m-retail-without-emotions.json", without),
		file(12, "stdin", with), file(13, "", with),
	}
	wantGroups := map[int64]string{
		1: "run:p1", 2: "run:p1",
		4: "file:/c/x-retail-*.json", 5: "file:/c/x-retail-*.json",
		6: "file:/d/x-retail-*.json",
		7: "file:/a/m-retail-*.json", 8: "file:/b/m-retail-*.json",
	}
	src := func(path, why string) analysis.Source {
		return analysis.Source{Ingested: true, File: path, NoPair: why}
	}
	relative := "its stored path is relative, so its folder is unknown"
	wantSources := map[int64]analysis.Source{
		1: {}, 2: {}, 3: {},
		4: src("/c/x-retail-with-emotions.json", ""), 5: src("/c/x-retail-without-emotions.json", ""),
		6: src("/d/x-retail-no-emotion.json", ""),
		7: src("/a/m-retail-with-emotions.json", ""), 8: src("/b/m-retail-without-emotions.json", ""),
		9:  src("/a/gpt-4.1-retail.json", "its file name has no condition words (with-emotions, without-emotions, no-emotion, ...)"),
		10: src("e1/m-retail-with-emotions.json", relative), 11: src("e1/m-retail-without-emotions.json", relative),
		12: src("stdin", "it was read from stdin, which has no folder"), 13: src("", "no source file was stored"),
	}
	groups, sources := workbench.PairGroups(runs)
	if diff := cmp.Diff(wantGroups, groups); diff != "" {
		t.Errorf("PairGroups groups (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantSources, sources); diff != "" {
		t.Errorf("PairGroups sources (-want +got):\n%s", diff)
	}
}

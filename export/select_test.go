package export_test

import (
	"encoding/json"
	"iter"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/export"
)

func TestSelect_OrderAndRedaction(t *testing.T) {
	all := []emobench.Run{{ID: 1, Name: "a"}, {ID: 2, Name: "b", Config: json.RawMessage(`{"api_key":"sk-secretsecretsecret"}`)}, {ID: 3, Name: "c"}}
	trajs := func(id int64) iter.Seq2[*emobench.Trajectory, error] {
		return func(yield func(*emobench.Trajectory, error) bool) {
			yield(&emobench.Trajectory{Error: "run " + string(rune('0'+id))}, nil)
		}
	}
	cleaned := 0
	runs := export.Select(all, []int64{3, 2}, trajs, func(*emobench.Trajectory) { cleaned++ })
	if len(runs) != 2 || runs[0].ID != 3 || runs[1].ID != 2 {
		t.Fatalf("Select(3, 2) gave %v; want runs 3 then 2", runs)
	}
	if strings.Contains(string(runs[1].Config), "secretsecret") {
		t.Errorf("config not redacted: %s", runs[1].Config)
	}
	for range runs[0].Trajectories {
	}
	if cleaned != 1 {
		t.Errorf("%d trajectories cleaned, want 1", cleaned)
	}
	if got := export.Select(all, nil, trajs, func(*emobench.Trajectory) {}); len(got) != 3 || got[0].ID != 1 {
		t.Errorf("Select(all) gave %d runs, want 3 by id", len(got))
	}
}

func TestWritten_String(t *testing.T) {
	for _, tc := range []struct {
		w    export.Written
		want string
	}{
		{export.Written{Path: "r.json", RunID: 2, Trajectories: 1}, "wrote r.json (run 2, 1 trajectory)"},
		{export.Written{Path: "all.jsonl", Runs: 2, Trajectories: 5}, "wrote all.jsonl (2 runs, 5 trajectories)"},
		{export.Written{Path: "t/runs.csv", Table: "runs", Runs: 1}, "wrote t/runs.csv (1 run)"},
		{export.Written{Path: "t/trajectories.csv", Table: "trajectories", Trajectories: 0}, "wrote t/trajectories.csv (0 trajectories)"},
		{export.Written{Path: "t/messages.csv", Table: "messages"}, "wrote t/messages.csv"},
	} {
		if got := tc.w.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.w, got, tc.want)
		}
	}
}

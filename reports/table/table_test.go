package table_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/reports/table"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/passk/want.* from the current output")

func TestJSONText(t *testing.T) {
	for _, tt := range []struct {
		in   any
		want string // the json writer's value
	}{
		{`{"a": [1, 2]}`, `{"a": [1, 2]}`},
		{` [1,2] `, `[1,2]`},
		{`"quoted"`, `"\"quoted\""`}, // a JSON string stays a string
		{`42`, `"42"`},               // TEXT holding a number stays text
		{`{broken`, `"{broken"`},
		{[]byte(`{"b":null}`), `"{\"b\":null}"`}, // a BLOB stays a string
		{int64(7), `7`},
		{3.5, `3.5`},
		{nil, `null`},
	} {
		var out bytes.Buffer
		tab := &table.Table{Columns: []string{"v"}, Rows: [][]any{{table.JSONText(tt.in)}}}
		if err := tab.Write(&out, "json"); err != nil {
			t.Fatal(err)
		}
		var rows []map[string]json.RawMessage
		if err := json.Unmarshal(out.Bytes(), &rows); err != nil {
			t.Fatalf("%v: invalid json %q: %v", tt.in, out.String(), err)
		}
		var got, want any
		json.Unmarshal(rows[0]["v"], &got)
		json.Unmarshal([]byte(tt.want), &want)
		if !cmp.Equal(got, want) {
			t.Errorf("JSONText(%#v) writes %s, want %s", tt.in, rows[0]["v"], tt.want)
		}
	}
}

func TestExpandEstimates(t *testing.T) {
	tab := &table.Table{Columns: []string{"name", "rate"}, Rows: [][]any{
		{"a", table.Estimate{V: 0.5, CI: analysis.CI{Lo: 0.25, Hi: 0.75}}},
		{"b", table.Estimate{V: 0.1, CI: analysis.CI{Lo: 0, Hi: 0.4}}},
		{"c", analysis.NotEvaluatedText},
	}}
	for _, tt := range []struct {
		format string
		style  table.CIStyle
		want   string
	}{
		{"table", table.PlusMinus, "name  rate\na     0.5000 ± 0.2500\nb     0.1000 +0.3000/-0.1000\nc     not evaluated\n"},
		{"table", table.Brackets, "name  rate\na     0.5000 [0.2500, 0.7500]\nb     0.1000 [0.0000, 0.4000]\nc     not evaluated\n"},
		{"csv", table.PlusMinus, "name,rate,rate_lo,rate_hi\na,0.5,0.25,0.75\nb,0.1,0,0.4\nc,not evaluated,,\n"},
	} {
		var out bytes.Buffer
		if err := tab.ExpandEstimates(tt.format, tt.style).Write(&out, tt.format); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, out.String()); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", tt.format, tt.style, diff)
		}
	}
	if _, err := table.ParseCIStyle("wide"); err == nil {
		t.Error("ParseCIStyle(wide) accepted")
	}
	if err := tab.Write(&bytes.Buffer{}, "yaml"); err == nil {
		t.Error("Write(yaml) accepted")
	}
}

// TestPassK_Golden: the pass^k table of one evaluated and one unevaluated
// run in every format, intervals from the row fields.
func TestPassK_Golden(t *testing.T) {
	units := analysis.NewUnits(map[int64]analysis.PoolKey{1: {}, 2: {}}, false)
	named := table.Units{Units: units, Names: map[int64]string{1: "retail_run", 2: "no rewards"}}
	rows := []analysis.PassKRow{
		{RunID: 1, Group: []string{"anger"}, K: 1, PassHatK: 0.5, PassAtK: 0.5, Tasks: 2, Trajectories: 4, Convention: analysis.PerTask,
			HatCI: analysis.CI{Lo: 0.25, Hi: 0.75}, AtCI: analysis.CI{Lo: 0.2, Hi: 0.75}},
		{RunID: 2, Group: []string{""}, K: 1, PassHatK: math.NaN(), PassAtK: math.NaN(), Tasks: 1, Trajectories: 1, Convention: analysis.PerTask, NotEvaluated: true},
	}
	for _, format := range table.Formats {
		for _, style := range []table.CIStyle{table.NoInterval, table.PlusMinus} {
			var out bytes.Buffer
			tab := table.PassK(rows, named, []string{"emotion_family"}, format, style)
			if err := tab.ExpandEstimates(format, style).Write(&out, format); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "passk", "want."+string(style)+"."+format)
			if *update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if diff := cmp.Diff(string(want), out.String()); diff != "" {
				t.Errorf("%s (-want +got):\n%s", path, diff)
			}
			if format == "latex" {
				if err := table.CheckLaTeX(out.String()); err != nil {
					t.Errorf("%s: %v", path, err)
				}
			}
		}
	}
}

func TestMatrixTable_NotEvaluated(t *testing.T) {
	m := table.Matrix{
		RowName: "domain", Rows: []string{"airline", "retail"}, Cols: []string{"a", "b"},
		Values:       [][]float64{{0.5, math.NaN()}, {math.NaN(), 0.25}},
		RunIDs:       [][]int64{{1}, {2, 3}},
		NotEvaluated: [][]bool{{false, false}, {true, false}},
	}
	for _, tt := range []struct{ format, want string }{
		{"csv", "domain,a,b,run_ids,note\nairline,0.5,,1,\nretail,,0.25,\"2,3\",not evaluated: a\n"},
		{"table", "domain   a              b       run_ids\nairline  0.5000                 1\nretail   not evaluated  0.2500  2,3\n"},
		{"json", "[\n  {\"domain\": \"airline\", \"a\": 0.5, \"b\": null, \"run_ids\": [1], \"note\": null},\n  {\"domain\": \"retail\", \"a\": null, \"b\": 0.25, \"run_ids\": [2,3], \"note\": \"not evaluated: a\"}\n]\n"},
	} {
		var out bytes.Buffer
		if err := table.MatrixTable(m, tt.format).Write(&out, tt.format); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, out.String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.format, diff)
		}
	}
}

// PassMatrix lays out an analysis.PassMatrix as MatrixTable does its Matrix.
func TestPassMatrix(t *testing.T) {
	pm := analysis.PassMatrix{
		Domains: []string{"airline", "retail"}, Models: []string{"a", "b"},
		Pass1:        [][]float64{{0.5, math.NaN()}, {math.NaN(), 0.25}},
		RunIDs:       [][]int64{{1}, {2, 3}},
		NotEvaluated: [][]bool{{false, false}, {true, false}},
	}
	var out bytes.Buffer
	if err := table.PassMatrix(pm, "csv").Write(&out, "csv"); err != nil {
		t.Fatal(err)
	}
	want := "domain,a,b,run_ids,note\nairline,0.5,,1,\nretail,,0.25,\"2,3\",not evaluated: a\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestGap_NotEvaluatedRow(t *testing.T) {
	units := analysis.NewUnits(map[int64]analysis.PoolKey{1: {AgentModel: "m", Domain: "d"}}, true)
	named := table.Units{Units: units}
	rows := []analysis.GapRow{{RunID: 1, K: 2, Pass1: math.NaN(), PassK: math.NaN(), Diff: math.NaN(), Ratio: math.NaN(), Tasks1: 1, TasksK: 1, Convention: analysis.PerTask, NotEvaluated: true}}
	var out bytes.Buffer
	if err := table.Gap(rows, named, nil, "csv").Write(&out, "csv"); err != nil {
		t.Fatal(err)
	}
	want := "pool,run_ids,k,pass_1,pass_k,gap,ratio,tasks_1,tasks_k,convention,note\nm / d,1,2,,,,,1,1,per-task,not evaluated\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("csv (-want +got):\n%s", diff)
	}
}

// Balance gives one table per part asked for, three for "all".
func TestBalance(t *testing.T) {
	data := map[int64]analysis.BalanceSample{}
	for part, want := range map[string]int{"all": 3, "bins": 1, "regression": 1, "correlation": 1} {
		if got := table.Balance(table.Units{}, data, part, 5, "table", table.NoInterval); len(got) != want {
			t.Errorf("Balance(%q): %d tables, want %d", part, len(got), want)
		}
	}
}

// A pool kept apart, its agent model unknown, is named as its run.
func TestUnitCells_KeptApartPoolIsItsRun(t *testing.T) {
	units := analysis.NewUnits(map[int64]analysis.PoolKey{
		1: {AgentModel: "m", UserModel: analysis.Unknown, Domain: "d", Condition: "c"},
		2: {AgentModel: analysis.Unknown, Domain: "d", Condition: "c"},
	}, true)
	names := map[int64]string{1: "a", 2: "b"}
	var got [][]any
	for _, u := range units.List() {
		got = append(got, table.UnitCells(u, true, names))
	}
	want := [][]any{{"m / d / c", table.IDs{1}}, {"b", table.IDs{2}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cells (-want +got):\n%s", diff)
	}
}

package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/google/go-cmp/cmp"
)

// domainJSON is one object of `domains --format json`.
type domainJSON struct {
	Domain       string         `json:"domain"`
	Tools        int            `json:"tools"`
	WriteTools   int            `json:"write_tools"`
	TransferTool string         `json:"transfer_tool"`
	TestTasks    int            `json:"test_tasks"`
	TrainTasks   int            `json:"train_tasks"`
	Refusals     int            `json:"refusals"`
	Transfers    int            `json:"transfers"`
	Families     int            `json:"families"`
	FamilyNames  []string       `json:"family_names"`
	DBTables     map[string]int `json:"db_tables"`
	DBBytes      *int           `json:"db_bytes"`
}

func domainsJSON(t *testing.T) map[string]domainJSON {
	t.Helper()
	out := mustRun(t, "domains", "--format", "json")
	var rows []domainJSON
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("domains --format json: %v\n%s", err, out)
	}
	byName := map[string]domainJSON{}
	var names []string
	for _, r := range rows {
		byName[r.Domain] = r
		names = append(names, r.Domain)
	}
	if diff := cmp.Diff(all.Names(), names); diff != "" {
		t.Fatalf("domains --format json lists (-registered +listed):\n%s", diff)
	}
	return byName
}

// TestDomains_JSONCounts checks every listed count against one computed
// here, independently, from the domain's Tasks() and a fresh
// environment's Tools().
func TestDomains_JSONCounts(t *testing.T) {
	t.Parallel()
	listed := domainsJSON(t)
	for _, name := range all.Names() {
		dom, err := all.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		want := domainJSON{Domain: name, TransferTool: dom.TransferTool(), DBTables: listed[name].DBTables, DBBytes: listed[name].DBBytes}
		writes := map[string]bool{}
		for _, tool := range dom.NewEnvironment().Tools() {
			want.Tools++
			if tool.Writes {
				want.WriteTools++
				writes[tool.Name] = true
			}
		}
		families := map[string]bool{}
		for _, task := range dom.Tasks() {
			if task.Split == emobench.SplitTrain {
				want.TrainTasks++
				continue
			}
			want.TestTasks++
			families[task.Emotion.Family] = true
			transfers := slices.ContainsFunc(task.Actions, func(a emobench.Action) bool { return a.Name == dom.TransferTool() })
			switch {
			case len(task.Forbidden) > 0:
				want.Refusals++
			case transfers:
				want.Transfers++
			}
		}
		want.FamilyNames = []string{}
		for _, f := range emobench.Taxonomy.Families {
			if families[f.Name] {
				want.FamilyNames = append(want.FamilyNames, f.Name)
			}
		}
		want.Families = len(want.FamilyNames)
		if diff := cmp.Diff(want, listed[name]); diff != "" {
			t.Errorf("domain %s (-computed +listed):\n%s", name, diff)
		}
		if listed[name].DBBytes == nil || *listed[name].DBBytes <= 0 || len(listed[name].DBTables) == 0 {
			t.Errorf("domain %s: database %v tables, %v bytes; want its size", name, listed[name].DBTables, listed[name].DBBytes)
		}
	}
}

// TestDomains_IssueMinimums checks issue 12's minimums on every
// registered domain, as `domains --format json` lists it: at least 12
// tools, 5 of them writes, 60 test and 500 train tasks, all five emotion
// families, and at least 10% refusals and 5% transfers among the test
// tasks.
func TestDomains_IssueMinimums(t *testing.T) {
	t.Parallel()
	for name, d := range domainsJSON(t) {
		if d.Tools < 12 || d.WriteTools < 5 || d.TestTasks < 60 || d.TrainTasks < 500 || d.Families != len(emobench.Taxonomy.Families) {
			t.Errorf("%s: %d tools (%d writes), %d test and %d train tasks, %d families; want at least 12 (5), 60, 500 and all %d",
				name, d.Tools, d.WriteTools, d.TestTasks, d.TrainTasks, d.Families, len(emobench.Taxonomy.Families))
		}
		if 10*d.Refusals < d.TestTasks || 20*d.Transfers < d.TestTasks {
			t.Errorf("%s: %d refusals and %d transfers of %d test tasks; want at least 10%% and 5%%", name, d.Refusals, d.Transfers, d.TestTasks)
		}
	}
}

// TestDomains_ModelDomains pins the figures of README.md's Domains table
// and domains/README.md's "Size and speed".
func TestDomains_ModelDomains(t *testing.T) {
	t.Parallel()
	listed := domainsJSON(t)
	tests := []struct {
		name                   string
		tools, writes          int
		test, train, refusals  int
		tables                 map[string]int
		atLeastBytes, families int
	}{
		{"retail", 15, 7, 120, 500, 27, map[string]int{"users": 500, "products": 52, "orders": 1000}, 1_000_000, 5},
		{"airline", 14, 6, 60, 500, 25, map[string]int{"users": 500, "airports": 20, "flights": 300, "reservations": 2000}, 1_000_000, 5},
	}
	for _, tt := range tests {
		got := listed[tt.name]
		if g, w := []int{got.Tools, got.WriteTools, got.TestTasks, got.TrainTasks, got.Refusals, got.Families}, []int{tt.tools, tt.writes, tt.test, tt.train, tt.refusals, tt.families}; !slices.Equal(g, w) {
			t.Errorf("%s: tools, writes, test, train, refusals, families = %v, want %v", tt.name, g, w)
		}
		if diff := cmp.Diff(tt.tables, got.DBTables); diff != "" {
			t.Errorf("%s: db_tables (-want +got):\n%s", tt.name, diff)
		}
		if got.DBBytes == nil || *got.DBBytes < tt.atLeastBytes {
			t.Errorf("%s: db_bytes %v, want at least %d", tt.name, got.DBBytes, tt.atLeastBytes)
		}
	}
}

// TestDomains_Formats: each format parses as itself, one row per domain,
// and the command reads no database: it runs with an empty --db in an empty
// directory and creates no file.
func TestDomains_Formats(t *testing.T) {
	t.Chdir(t.TempDir())
	n := len(all.Names())
	for _, format := range []string{"table", "csv", "markdown", "latex", "json"} {
		out := mustRun(t, "--db", "", "domains", "--format", format)
		switch format {
		case "table":
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			if len(lines) != n+1 || !strings.HasPrefix(lines[0], "domain ") || !strings.Contains(lines[0], "db_bytes") {
				t.Errorf("table: %d lines, want a header and %d rows:\n%s", len(lines), n, out)
			}
		case "csv":
			records, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil || len(records) != n+1 || records[0][0] != "domain" || records[0][len(records[0])-1] != "db_bytes" {
				t.Errorf("csv: %v, %d records, want a header and %d rows:\n%s", err, len(records), n, out)
			}
		case "markdown":
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			if len(lines) != n+2 || !strings.HasPrefix(lines[0], "| domain |") || !strings.HasPrefix(lines[1], "| --- |") {
				t.Errorf("markdown: want a header, a rule and %d rows:\n%s", n, out)
			}
			for _, l := range lines {
				if !strings.HasPrefix(l, "| ") || !strings.HasSuffix(l, " |") {
					t.Errorf("markdown line %q is not a table row", l)
				}
			}
		case "latex":
			if !strings.Contains(out, `\begin{tabular}`) || !strings.Contains(out, `\bottomrule`) || strings.Count(out, `\\`) != n+1 {
				t.Errorf("latex: want a booktabs tabular of %d rows:\n%s", n, out)
			}
		case "json":
			var rows []map[string]any
			if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != n {
				t.Errorf("json: %v, %d rows, want %d", err, len(rows), n)
			}
		}
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("domains created %d files in the working directory, want none", len(entries))
	}
}

func TestDomainsShow_Retail(t *testing.T) {
	t.Parallel()
	out := mustRun(t, "domains", "show", "retail")
	dom, err := all.Find("retail")
	if err != nil {
		t.Fatal(err)
	}
	heading, _, _ := strings.Cut(dom.Policy(), "\n")
	if !strings.HasPrefix(heading, "# ") || !strings.HasPrefix(out, heading+"\n") {
		t.Errorf("domains show retail does not start with the policy's first heading %q:\n%.300s", heading, out)
	}
	for _, tool := range dom.NewEnvironment().Tools() {
		if !strings.Contains(out, "\n"+tool.Name+" ") {
			t.Errorf("domains show retail: no row for tool %s", tool.Name)
		}
	}
	if got := strings.Count(out, "\n### retail-test-"); got != 3 {
		t.Errorf("domains show retail: %d sample tasks, want 3 (the default)", got)
	}
	// The default samples are the test split's first write, refusal and
	// transfer tasks.
	writes := map[string]bool{}
	for _, tl := range dom.NewEnvironment().Tools() {
		writes[tl.Name] = tl.Writes
	}
	first := map[string]string{}
	for _, task := range dom.Tasks() {
		if k := sim.KindOf(sim.GoldAsks(&task, writes, dom.TransferTool()), false); task.Split == emobench.SplitTest && first[k] == "" {
			first[k] = task.ID
		}
	}
	for _, kind := range []string{sim.KindWrite, sim.KindRefusal, sim.KindTransfer} {
		if !strings.Contains(out, "\n### "+first[kind]+" (test, "+kind+")") {
			t.Errorf("domains show retail: no sample %s (the first %s task)", first[kind], kind)
		}
	}
	js := mustRun(t, "domains", "show", "retail", "--format", "json", "--samples", "0")
	var d struct {
		Policy  string            `json:"policy"`
		Tools   []json.RawMessage `json:"tools"`
		Samples []json.RawMessage `json:"samples"`
	}
	if err := json.Unmarshal([]byte(js), &d); err != nil {
		t.Fatalf("domains show --format json: %v", err)
	}
	if d.Policy != dom.Policy() || len(d.Tools) != 15 || d.Samples == nil || len(d.Samples) != 0 {
		t.Errorf("domains show retail --format json --samples 0: policy equal %v, %d tools, samples %v", d.Policy == dom.Policy(), len(d.Tools), d.Samples)
	}
}

// TestDomainsShow_AirlineGolden pins `domains show airline --samples 2`;
// -update rewrites testdata/domains/show_airline.txt.
func TestDomainsShow_AirlineGolden(t *testing.T) {
	t.Parallel()
	got := mustRun(t, "domains", "show", "airline", "--samples", "2")
	path := filepath.Join("testdata", "domains", "show_airline.txt")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestDomainsShow_AirlineGolden -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("domains show airline --samples 2 (-want +got):\n%s", diff)
	}
}

func TestDomains_ErrUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string // in stderr
	}{
		{[]string{"domains", "--format", "xml"}, `--format "xml"`},
		{[]string{"domains", "extra"}, "extra"},
		{[]string{"domains", "show"}, "one DOMAIN"},
		{[]string{"domains", "show", "retail", "airline"}, "one DOMAIN"},
		{[]string{"domains", "show", "nosuch"}, strings.Join(all.Names(), ", ")},
		{[]string{"domains", "show", "retail", "--samples", "-1"}, "--samples -1"},
		{[]string{"domains", "show", "retail", "--samples", "three"}, "samples"},
		{[]string{"domains", "show", "retail", "--split", "dev"}, `--split "dev"`},
		{[]string{"domains", "show", "retail", "--format", "table"}, `--format "table"`},
	}
	for _, tt := range tests {
		r := runCLI(t, "", tt.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("emobench %s: exit %d, stderr %q; want exit %d naming %q", strings.Join(tt.args, " "), r.code, r.stderr, exitUsage, tt.want)
		}
		if r.stdout != "" && !bytes.Contains([]byte(r.stdout), []byte("USAGE")) {
			t.Errorf("emobench %s: printed %q on stdout", strings.Join(tt.args, " "), r.stdout)
		}
	}
}

func TestDomains_HelpHasExample(t *testing.T) {
	t.Parallel()
	for _, cmd := range [][]string{{"domains"}, {"domains", "show"}} {
		if out := mustRun(t, append(cmd, "--help")...); !strings.Contains(out, "Example:") {
			t.Errorf("emobench %s --help has no example:\n%s", strings.Join(cmd, " "), out)
		}
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emobench/emobench/domains/all"
)

// The markers README.md puts before the blocks these tests hold.
const (
	quickStartMarker   = "<!-- quick-start -->"
	sqlRecipeMarker    = "<!-- sql-recipe -->"
	domainsTableMarker = "<!-- domains-table -->"
)

// TestREADME_QuickStartAndSQL runs README.md's offline quick start as
// written, in an empty directory, then its SQL recipe on the database the
// quick start made: every command exits 0, the quick start stores the two
// runs it names, and each query prints a header and at least one row.
func TestREADME_QuickStartAndSQL(t *testing.T) {
	quick := readmeBlock(t, quickStartMarker)
	queries := readmeBlock(t, sqlRecipeMarker)
	if len(quick) < 3 || len(queries) < 3 {
		t.Fatalf("README.md: quick start %d commands, SQL recipe %d; want the whole blocks", len(quick), len(queries))
	}
	t.Chdir(t.TempDir())
	for _, args := range quick {
		r := runCLI(t, "", args...)
		if r.code != 0 {
			t.Fatalf("emobench %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	var runs []struct{ Name string }
	if err := json.Unmarshal([]byte(mustRun(t, "--db", "runs.db", "runs", "--format", "json")), &runs); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range runs {
		names = append(names, r.Name)
	}
	if want := []string{"noisy:0.3-retail-with-emotions", "noisy:0.3-retail-without-emotions"}; !slices.Equal(names, want) {
		t.Errorf("the quick start stored runs %q, want %q (the names the README gives)", names, want)
	}
	for _, args := range queries {
		if subcommand(args) != "sql" {
			t.Fatalf("README.md SQL recipe: %q is not an sql command", strings.Join(args, " "))
		}
		out := mustRun(t, args...)
		if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) < 2 {
			t.Errorf("emobench %s printed no row:\n%s", strings.Join(args, " "), out)
		}
	}
}

// TestREADME_DomainsTable holds README.md's table of domains to
// `domains --format json`: a row per registered domain, each with its
// tools (writes), test tasks, refusals, transfers, train tasks and the
// row counts of its database's tables.
func TestREADME_DomainsTable(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), domainsTableMarker+"\n")
	if !ok {
		t.Fatalf("README.md has no %s marker", domainsTableMarker)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(after, "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows[strings.Trim(cells[0], "`")] = cells[1:]
	}
	var listed []struct {
		Domain     string         `json:"domain"`
		Tools      int            `json:"tools"`
		WriteTools int            `json:"write_tools"`
		TestTasks  int            `json:"test_tasks"`
		TrainTasks int            `json:"train_tasks"`
		Refusals   int            `json:"refusals"`
		Transfers  int            `json:"transfers"`
		DBTables   map[string]int `json:"db_tables"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "domains", "--format", "json")), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed) != len(all.Names()) {
		t.Fatalf("domains lists %d domains, %d registered", len(listed), len(all.Names()))
	}
	for _, d := range listed {
		cells, ok := rows[d.Domain]
		if !ok || len(cells) != 6 {
			t.Errorf("README.md domains table: no row of 7 cells for %s (a new domain gets one)", d.Domain)
			continue
		}
		want := []string{fmt.Sprintf("%d (%d)", d.Tools, d.WriteTools), strconv.Itoa(d.TestTasks), strconv.Itoa(d.Refusals), strconv.Itoa(d.Transfers), strconv.Itoa(d.TrainTasks)}
		if got := cells[:5]; !slices.Equal(got, want) {
			t.Errorf("README.md domains table, %s: tools, test, refusals, transfers, train = %q, want %q", d.Domain, got, want)
		}
		// The database cell: "500 users, 52 products, 1,000 orders", tables
		// with no rows left out.
		var tables []string
		for name, n := range d.DBTables {
			if n > 0 {
				tables = append(tables, thousands(n)+" "+name)
			}
		}
		got := strings.Split(cells[5], ", ")
		slices.Sort(got)
		slices.Sort(tables)
		if !slices.Equal(got, tables) {
			t.Errorf("README.md domains table, %s: database %q, want the tables %q", d.Domain, cells[5], tables)
		}
	}
}

// thousands is n with a comma every three digits (2,000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

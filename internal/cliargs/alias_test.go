package cliargs

import (
	"slices"
	"strings"
	"testing"
)

// An old spelling is rewritten on its own command only, with its value
// (separate or inline), under a condition when the alias has one; other
// commands, values, global flags and words after "--" are left alone.
func TestRename(t *testing.T) {
	jsonFile := func(v string) bool { return strings.HasSuffix(v, ".json") }
	aliases := []Alias{
		{Command: "runs set", Old: "name", New: "title"},
		{Command: "stats passk", Old: "by", New: "k", If: jsonFile},
	}
	cases := []struct {
		args, want []string
		notes      int
	}{
		{[]string{"emobench", "runs", "set", "--name", "x"}, []string{"emobench", "runs", "set", "--title", "x"}, 1},
		{[]string{"emobench", "--db", "a.db", "runs", "set", "--name=x"}, []string{"emobench", "--db", "a.db", "runs", "set", "--title=x"}, 1},
		{[]string{"emobench", "runs", "set", "--db", "--name", "--name", "y"}, []string{"emobench", "runs", "set", "--db", "--name", "--title", "y"}, 1},
		{[]string{"emobench", "ingest", "--name", "x"}, []string{"emobench", "ingest", "--name", "x"}, 0},
		{[]string{"emobench", "stats", "passk", "--by", "a.json"}, []string{"emobench", "stats", "passk", "--k", "a.json"}, 1},
		{[]string{"emobench", "stats", "passk", "--by", "task"}, []string{"emobench", "stats", "passk", "--by", "task"}, 0},
		{[]string{"emobench", "runs", "set", "--", "--name", "x"}, []string{"emobench", "runs", "set", "--", "--name", "x"}, 0},
	}
	for _, c := range cases {
		got, notes := Rename(testApp(), c.args, aliases)
		if !slices.Equal(got, c.want) || len(notes) != c.notes {
			t.Errorf("Rename(%q) = %q, %q; want %q with %d notes", c.args, got, notes, c.want, c.notes)
		}
	}
	_, notes := Rename(testApp(), []string{"emobench", "runs", "set", "--name", "x"}, aliases)
	if got, want := strings.Join(notes, "|"), "note: --name is now --title"; got != want {
		t.Errorf("note = %q, want %q", got, want)
	}
}

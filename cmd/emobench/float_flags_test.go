package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every float flag refuses NaN and ±Inf as a usage error naming the flag
// (#20 items 2 and 22g): a range check such as level <= 0 || level >= 1
// is false for NaN, and --level NaN panicked in the bootstrap.
func TestFloatFlags_ErrNonFinite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "f.db")
	fixtureDB(t, dbPath)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"stats", "passk", "--ci", "pm", "--level", "NaN"}, "--level NaN: need a finite number"},
		{[]string{"stats", "passk", "--ci", "brackets", "--level", "+Inf"}, "--level +Inf: need a finite number"},
		{[]string{"stats", "emotions", "--level", "NaN"}, "--level NaN"},
		{[]string{"stats", "generalization", "--level", "nan"}, "--level NaN"},
		{[]string{"report", "--out", filepath.Join(dir, "r.html"), "--level", "NaN"}, "--level NaN"},
		{[]string{"report", "--out", filepath.Join(dir, "r.html"), "--level", "-Inf"}, "--level -Inf"},
		{[]string{"stats", "passk", "--ci", "pm", "--level", "1.5"}, "--level 1.5 is not in (0, 1)"},
		{[]string{"run", "--domain", "retail", "--agent", "oracle", "--temperature", "NaN"}, "--temperature NaN"},
		{[]string{"run", "--domain", "retail", "--agent", "oracle", "--agent-temperature", "Inf"}, "--agent-temperature +Inf"},
		{[]string{"run", "--domain", "retail", "--agent", "oracle", "--user-temperature", "NaN"}, "--user-temperature NaN"},
		{[]string{"tracer", "filter", "--dry-run", "--min-reward", "NaN"}, "--min-reward NaN"},
		{[]string{"tracer", "filter", "--dry-run", "--max-user-dependence", "Inf"}, "--max-user-dependence +Inf"},
		{[]string{"tracer", "generate", "--domain", "retail", "--forbidden", "NaN"}, "--forbidden NaN"},
	} {
		r := runCLI(t, "", append([]string{"--db", dbPath}, tc.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("emobench %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(tc.args, " "), r.code, r.stderr, tc.want)
		}
	}
}

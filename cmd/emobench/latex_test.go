package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/reports/table"
)

// Every stats command's LaTeX output passes the checker.
func TestStats_LaTeXIsValid(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "tex.db")
	fixtureDB(t, dbPath)
	for _, args := range [][]string{
		{"stats", "passk", "--by", "emotion_family"},
		{"stats", "passk", "--ci", "pm"},
		{"stats", "passk", "--ci", "brackets"},
		{"stats", "emotions", "--resamples", "200"},
		{"stats", "emotions", "--resamples", "200", "--ci", "brackets"},
		{"stats", "gap", "--by", "trust"},
	} {
		out := mustRun(t, append(append([]string{"--db", dbPath}, args...), "--format", "latex")...)
		if err := table.CheckLaTeX(out); err != nil {
			t.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

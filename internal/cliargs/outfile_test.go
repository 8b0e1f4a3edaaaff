package cliargs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/internal/atomicfile"
)

// CheckOutFiles accepts new files and, with force, an existing one, and
// refuses, as usage errors naming the flag, a directory, a missing
// directory, an existing file without force and two flags naming one file.
func TestCheckOutFiles(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.jsonl")
	if err := os.WriteFile(existing, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(existing, link); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "new.jsonl")
	for _, c := range []struct {
		force bool
		args  []string
		want  string // "" for no error
	}{
		{false, []string{"out", fresh, "stats", ""}, ""},
		{false, []string{"out", fresh, "stats", filepath.Join(dir, "stats.json")}, ""},
		{true, []string{"out", existing}, ""},
		{false, []string{"out", existing}, "--out " + existing + " exists (use --force to overwrite it)"},
		{false, []string{"out", dir}, "--out " + dir + " is a directory"},
		{false, []string{"out", filepath.Join(dir, "missing", "x.json")}, "does not exist"},
		{false, []string{"out", fresh, "stats", fresh}, "--stats " + fresh + " is the same file as --out " + fresh},
		{true, []string{"out", existing, "stats", link}, "--stats " + link + " is the same file as --out " + existing},
	} {
		err := CheckOutFiles(c.force, atomicfile.Target, c.args...)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckOutFiles(%v, %q) = %v, want nil", c.force, c.args, err)
		case c.want != "" && (!errors.Is(err, emobench.ErrRequest) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("CheckOutFiles(%v, %q) = %v, want a usage error %q", c.force, c.args, err, c.want)
		}
	}
}

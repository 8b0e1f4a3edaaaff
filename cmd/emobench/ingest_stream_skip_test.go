package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A stream whose sha256 a merged run has is skipped, and the message does
// not offer --reingest, which a stream cannot take: it says to save the
// stream to a file and ingest that with --reingest. A file still gets the
// --reingest remedy.
func TestIngest_StreamSkipOfMergedRunSaysHowToReingest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	genuine := writeFixture(t, dir, "taubench/demo-model-a-retail-with-emotions.json")
	content, err := os.ReadFile(genuine)
	if err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(dir, "shared.db")
	mustRun(t, "--db", shared, "ingest", genuine)
	sharedSum := fileSum(t, shared)
	mine := filepath.Join(dir, "mine.db")
	mustRun(t, "--db", mine, "merge", shared)
	mergedAt := strings.TrimSpace(strings.TrimPrefix(sqlCSV(t, mine, "SELECT merged_at FROM runs"), "merged_at\n"))
	merged := fmt.Sprintf("run 1 (demo-model-a-retail-with-emotions) was merged from %s (sha256 %s…) on %s, not ingested from this file", shared, sharedSum[:12], mergedAt)

	r := runCLI(t, string(content), "--db", mine, "ingest", "-")
	want := "stdin: skipped: " + merged + "; to replace it with this content, save it to a file and ingest that with --reingest (a stream cannot be read twice)\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("ingest -: exit %d\nstdout %q\nwant   %q\nstderr %q", r.code, r.stdout, want, r.stderr)
	}
	if got, want := mustRun(t, "--db", mine, "ingest", genuine), genuine+": skipped: "+merged+"; --reingest replaces it with this file's own content\n"; got != want {
		t.Errorf("ingest FILE: %q, want %q", got, want)
	}
	if got := sqlCSV(t, mine, "SELECT COUNT(*) AS n FROM runs"); got != "n\n1\n" {
		t.Errorf("runs after the skips: %q, want the merged run alone", got)
	}
}

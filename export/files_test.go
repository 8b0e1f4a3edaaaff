package export_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/export"
)

// dirNames lists dir's entries, hidden temporary files included.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func twoRuns(t *testing.T) []export.Run {
	trajs := loadTrajectories(t, "reasons")
	a, b := testRun(trajs), testRun(trajs)
	b.ID = 8 // same name: the files collide and get the ids
	return []export.Run{a, b}
}

func TestWriteFiles_OK(t *testing.T) {
	n := len(loadTrajectories(t, "reasons"))
	tests := []struct {
		format, out string
		files       []string
	}{
		{export.FormatTauBench, "runs", []string{"oracle-retail-with-emotions-7.json", "oracle-retail-with-emotions-8.json"}},
		{export.FormatTau2, "runs", []string{"oracle-retail-with-emotions-7.json", "oracle-retail-with-emotions-8.json"}},
		{export.FormatCSV, "tables", []string{"messages.csv", "runs.csv", "trajectories.csv"}},
		{export.FormatParquet, "tables", []string{"messages.parquet", "runs.parquet", "tasks.parquet", "trajectories.parquet"}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), tt.out)
			written, err := export.WriteFiles(tt.format, out, twoRuns(t), false)
			if err != nil {
				t.Fatal(err)
			}
			if got := dirNames(t, out); !slices.Equal(got, tt.files) {
				t.Errorf("files %v, want %v (no temporary file left)", got, tt.files)
			}
			total := 0
			for _, w := range written {
				total += w.Trajectories
				if info, err := os.Stat(w.Path); err != nil || info.Mode().Perm() != 0o644 {
					t.Errorf("%s: %v, mode %v; want a 0644 file", w.Path, err, info.Mode())
				}
			}
			if total != 2*n {
				t.Errorf("%d trajectories reported, want %d", total, 2*n)
			}
		})
	}
}

func TestWriteFiles_OneFile(t *testing.T) {
	dir := t.TempDir()
	runs := twoRuns(t)
	written, err := export.WriteFiles(export.FormatJSONL, filepath.Join(dir, "all.jsonl"), runs, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 1 || written[0].Runs != 2 || written[0].RunID != 0 {
		t.Errorf("written = %+v, want one file of 2 runs", written)
	}
	written, err = export.WriteFiles(export.FormatTauBench, filepath.Join(dir, "one.json"), runs[:1], false)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 1 || written[0].RunID != 7 || written[0].Path != filepath.Join(dir, "one.json") {
		t.Errorf("written = %+v, want run 7 in one.json", written)
	}
	if got, want := dirNames(t, dir), []string{"all.jsonl", "one.json"}; !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
}

func TestWriteFiles_ErrInvalid(t *testing.T) {
	dir := t.TempDir()
	exists := filepath.Join(dir, "exists.jsonl")
	if err := os.WriteFile(exists, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(dir, "full")
	if err := os.MkdirAll(filepath.Join(full, "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		format, out, want string
	}{
		{"xml", filepath.Join(dir, "x"), `--format "xml" is not one of`},
		{export.FormatJSONL, exists, "exists: export does not replace it"},
		{export.FormatCSV, full, "is not empty"},
		{export.FormatTauBench, filepath.Join(dir, "two.json"), "names one file, but 2 runs were selected"},
	} {
		_, err := export.WriteFiles(tt.format, tt.out, twoRuns(t), false)
		if emobench.ErrorCode(err) != emobench.EINVALID || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("WriteFiles(%s, %s) = %v, want EINVALID %q", tt.format, tt.out, err, tt.want)
		}
	}
	if b, _ := os.ReadFile(exists); string(b) != "keep" {
		t.Errorf("refused export changed %s: %q", exists, b)
	}
	if got, want := dirNames(t, dir), []string{"exists.jsonl", "full"}; !slices.Equal(got, want) {
		t.Errorf("refused exports left %v, want %v", got, want)
	}
	// --force replaces.
	if _, err := export.WriteFiles(export.FormatJSONL, exists, twoRuns(t), true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(exists); string(b) == "keep" {
		t.Error("--force did not replace the file")
	}
}

// TestWriteFiles_ErrAllOrNothing: a run whose trajectories fail midway
// leaves no file at all, not even the other runs' complete files.
func TestWriteFiles_ErrAllOrNothing(t *testing.T) {
	runs := twoRuns(t)
	broken := errors.New("disk read failed")
	good := runs[1].Trajectories
	runs[1].Trajectories = func(yield func(*emobench.Trajectory, error) bool) {
		for traj := range good {
			if !yield(traj, nil) {
				return
			}
			yield(nil, broken)
			return
		}
	}
	for _, format := range []string{export.FormatTauBench, export.FormatCSV, export.FormatParquet} {
		// An empty directory that was there is kept, empty.
		out := t.TempDir()
		_, err := export.WriteFiles(format, out, runs, false)
		if !errors.Is(err, broken) || !strings.Contains(err.Error(), "run 8") {
			t.Errorf("%s: err = %v, want the read error naming run 8", format, err)
		}
		if got := dirNames(t, out); len(got) != 0 {
			t.Errorf("%s: a failed export left %v", format, got)
		}
		// Item 9 of issue #20: directories the export created are removed.
		parent := t.TempDir()
		_, err = export.WriteFiles(format, filepath.Join(parent, "new", "out"), runs, false)
		if !errors.Is(err, broken) {
			t.Errorf("%s: err = %v, want the read error", format, err)
		}
		if got := dirNames(t, parent); len(got) != 0 {
			t.Errorf("%s: a failed export into a new directory left %v in %s", format, got, parent)
		}
	}
}

package export

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/internal/atomicfile"
)

// Written is one file WriteFiles wrote.
type Written struct {
	Path  string
	RunID int64 // per-run formats: the run the file holds; 0 otherwise
	// Table is the table a table format's file holds ("runs", "tasks",
	// "trajectories", "messages"); empty for the other formats.
	Table string
	// Runs and Trajectories count what the file holds: for a table format,
	// Runs is set on the runs table and Trajectories on the trajectories
	// table only.
	Runs, Trajectories int
	// Warning, when not empty, says what the file cannot carry back to
	// ingest (a τ-bench file of a run with no trajectories has no record
	// to hold the run's metadata).
	Warning string
}

// IntoFile reports whether out names one file rather than a directory for
// format: always for jsonl, and for a per-run format when out ends in
// .json.
func IntoFile(format, out string) bool {
	return format == FormatJSONL || PerRun(format) && strings.EqualFold(filepath.Ext(out), ".json")
}

// WriteFiles writes runs in format to out: a file for jsonl and for a
// per-run format with an out ending in .json (exactly one run), otherwise
// a directory (created if needed) with one file per run, named by
// FileName (with -ID appended where names collide), or the format's
// TableFiles.
//
// Nothing is half-written: every file goes to a temporary name in its
// directory and all are renamed into place only once every one is
// complete (atomicfile.Set); on an error all are removed, with the
// directories the export created. Without force, an existing file out,
// or a non-empty directory out, is refused before anything is written;
// a file out that exists as anything but a regular file (a device, a
// named pipe) is refused even with force (*atomicfile.NotRegularError). Errors are *emobench.Error with code EINVALID for a format
// unknown, several runs for one file, or an out refused; other errors
// (no runs at all, a run's trajectories failing) name the run and path.
func WriteFiles(format, out string, runs []Run, force bool) ([]Written, error) {
	if !slices.Contains(Formats, format) {
		return nil, emobench.Errorf(emobench.EINVALID, "--format %q is not one of %s", format, strings.Join(Formats, ", "))
	}
	if len(runs) == 0 {
		return nil, errors.New("export: no runs to write")
	}
	intoFile := IntoFile(format, out)
	if err := refuseOverwrite(out, intoFile, force); err != nil {
		return nil, err
	}
	if PerRun(format) && intoFile && len(runs) > 1 {
		return nil, emobench.Errorf(emobench.EINVALID, "--out %s names one file, but %d runs were selected: give a directory, or one --run", out, len(runs))
	}
	set := &atomicfile.Set{}
	if !intoFile {
		if err := set.MkdirAll(out); err != nil {
			return nil, err
		}
	}
	written, err := writeAll(set, format, out, intoFile, runs)
	if err == nil {
		err = set.Commit()
	}
	if err != nil {
		set.Abort() // with the directories it created
		return nil, err
	}
	return written, nil
}

func writeAll(set *atomicfile.Set, format, out string, intoFile bool, runs []Run) ([]Written, error) {
	switch {
	case PerRun(format) && intoFile:
		w, err := writeRunFile(set, out, runs[0], format)
		return []Written{w}, err
	case PerRun(format):
		return writePerRun(set, out, runs, format)
	case format == FormatJSONL:
		return writeJSONLFile(set, out, runs)
	}
	return writeTables(set, out, runs, format)
}

// writeRunFile writes one run in a per-run format to path.
func writeRunFile(set *atomicfile.Set, path string, run Run, format string) (Written, error) {
	f, err := set.Create(path)
	if err != nil {
		return Written{}, err
	}
	var n int
	if format == FormatTau2 {
		n, err = Tau2(f, run)
	} else {
		n, err = TauBench(f, run)
	}
	if err != nil {
		return Written{}, fmt.Errorf("export run %d (%s) to %s: %w", run.ID, run.Name, path, err)
	}
	w := Written{Path: path, RunID: run.ID, Runs: 1, Trajectories: n}
	if format == FormatTauBench && n == 0 {
		w.Warning = tauBenchEmptyWarning(&run.Run)
	}
	return w, nil
}

// writePerRun writes one file per run into dir, named after the run; runs
// whose file names collide get their id appended.
func writePerRun(set *atomicfile.Set, dir string, runs []Run, format string) ([]Written, error) {
	names := map[string]int{}
	for _, r := range runs {
		names[FileName(r.Run, ".json")]++
	}
	var out []Written
	for _, r := range runs {
		name := FileName(r.Run, ".json")
		if names[name] > 1 {
			name = strings.TrimSuffix(name, ".json") + fmt.Sprintf("-%d.json", r.ID)
		}
		w, err := writeRunFile(set, filepath.Join(dir, name), r, format)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

func writeJSONLFile(set *atomicfile.Set, path string, runs []Run) ([]Written, error) {
	f, err := set.Create(path)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, r := range runs {
		n, err := JSONL(f, r)
		total += n
		if err != nil {
			return nil, fmt.Errorf("export to %s: run %d (%s): %w", path, r.ID, r.Name, err)
		}
	}
	return []Written{{Path: path, Runs: len(runs), Trajectories: total}}, nil
}

// writeTables writes a table format's files into dir.
func writeTables(set *atomicfile.Set, dir string, runs []Run, format string) ([]Written, error) {
	names := TableFiles(format)
	ws := make([]io.Writer, len(names))
	for i, name := range names {
		f, err := set.Create(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		ws[i] = f
	}
	w, err := NewTables(format, ws)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, r := range runs {
		n, err := w.WriteRun(r)
		total += n
		if err != nil {
			return nil, fmt.Errorf("export run %d (%s) to %s: %w", r.ID, r.Name, dir, err)
		}
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("export to %s: %w", dir, err)
	}
	out := make([]Written, len(names))
	for i, name := range names {
		out[i] = Written{Path: filepath.Join(dir, name), Table: strings.TrimSuffix(name, filepath.Ext(name))}
		switch out[i].Table {
		case "runs":
			out[i].Runs = len(runs)
		case "trajectories":
			out[i].Trajectories = total
		}
	}
	return out, nil
}

// refuseOverwrite keeps an export from replacing a file, or from mixing
// with older files in a directory, unless force is set.
func refuseOverwrite(out string, isFile, force bool) error {
	info, err := os.Stat(out)
	if err != nil {
		return nil // nothing there yet
	}
	if isFile || !info.IsDir() {
		if _, err := atomicfile.Target(out); err != nil {
			return err // not a regular file: never replaced
		}
	}
	if force {
		return nil
	}
	if isFile || !info.IsDir() {
		return emobench.Errorf(emobench.EINVALID, "--out %s exists: export does not replace it (add --force to replace it)", out)
	}
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return emobench.Errorf(emobench.EINVALID, "--out %s is not empty: the export would mix with the files there (empty it, or add --force)", out)
	}
	return nil
}

package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// Collect expands command-line arguments into the inputs to ingest, in
// order: a file or StdinArg as given; a directory's *.json and *.jsonl
// files, sorted, following symlinks to files. A τ²-bench run directory
// (results.json beside simulations/) is one input, whose files are not
// listed on their own, and its results.json given alone names the whole
// directory. What a directory holds under those names but cannot be read
// as a file (a FIFO, a symlink to a directory) is named in notes, one per
// entry; a missing argument, a symlink whose target is missing, a symlink
// loop and a directory with nothing to read are errors, each naming its
// path.
func Collect(args []string) (inputs []string, errs []error, notes []Note) {
	for _, arg := range args {
		if arg == StdinArg {
			inputs = append(inputs, arg)
			continue
		}
		info, err := os.Stat(arg)
		if l, lerr := os.Lstat(arg); err != nil && lerr == nil && l.Mode()&fs.ModeSymlink != 0 {
			errs = append(errs, brokenLink(arg, err))
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", arg, errors.Unwrap(err)))
			continue
		}
		if !info.IsDir() {
			// results.json of a run directory names the whole run, as in τ²-bench.
			if dir := filepath.Dir(arg); filepath.Base(arg) == Tau2ResultsFile && IsTau2Dir(os.DirFS(dir)) {
				arg = dir
			}
			inputs = append(inputs, arg)
			continue
		}
		found, dirErrs, dirNotes := walkInputs(arg)
		errs, notes = append(errs, dirErrs...), append(notes, dirNotes...)
		inputs = append(inputs, found...)
	}
	return inputs, errs, notes
}

// walkInputs lists the inputs of directory arg, sorted.
func walkInputs(arg string) (found []string, errs []error, notes []Note) {
	root := arg
	if l, err := os.Lstat(arg); err == nil && l.Mode()&fs.ModeSymlink != 0 {
		root = arg + string(filepath.Separator) // WalkDir walks a symlinked root only through its target
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if IsTau2Dir(os.DirFS(p)) {
				found = append(found, p)
				return fs.SkipDir
			}
			return nil
		}
		ext := strings.ToLower(filepath.Ext(p))
		if ext != ".json" && ext != ".jsonl" {
			return nil
		}
		switch kind, err := fileKind(p, d); {
		case err != nil:
			errs = append(errs, err)
		case kind == "":
			found = append(found, p)
		default:
			notes = append(notes, Note{Path: p, Text: "skipped, " + kind})
		}
		return nil
	})
	if err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", arg, err))
	} else if len(found) == 0 {
		errs = append(errs, fmt.Errorf("%s: no *.json or *.jsonl file and no τ²-bench run directory in it", arg))
	}
	sort.Strings(found)
	return found, errs, notes
}

// brokenLink is the error of a symlink p whose target cannot be read.
func brokenLink(p string, err error) error {
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("%s: a symlink loop (%v): nothing to read", p, errors.Unwrap(err))
	}
	return fmt.Errorf("%s: a symlink whose target is missing (%v): is its content fetched (git annex get, dvc pull)?", p, errors.Unwrap(err))
}

// fileKind returns "" for a regular file or a symlink to one, else what p
// is (a FIFO would block the walk forever, a symlinked directory is not
// walked); a symlink to nothing is an error.
func fileKind(p string, d fs.DirEntry) (string, error) {
	mode := d.Type()
	if mode&fs.ModeSymlink != 0 {
		info, err := os.Stat(p)
		if err != nil {
			return "", brokenLink(p, err)
		}
		if info.IsDir() {
			return "a symlink to a directory (not followed; give it as an argument to ingest it)", nil
		}
		mode = info.Mode().Type()
	}
	switch {
	case mode.IsRegular():
		return "", nil
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe, not a regular file (give it as an argument to read it)", nil
	default:
		return "not a regular file", nil
	}
}

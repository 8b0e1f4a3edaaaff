package ingest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"syscall"

	"github.com/emobench/emobench"
)

// τ²-bench 1.x directory layout: the run's metadata and one file per
// simulation.
const (
	Tau2ResultsFile    = "results.json"
	Tau2SimulationsDir = "simulations"
)

// IsTau2Dir reports whether fsys is a τ²-bench run directory: it holds a
// regular file results.json and a folder simulations.
func IsTau2Dir(fsys fs.FS) bool {
	res, err := fs.Stat(fsys, Tau2ResultsFile)
	if err != nil || !res.Mode().IsRegular() {
		return false
	}
	sims, err := fs.Stat(fsys, Tau2SimulationsDir)
	return err == nil && sims.IsDir()
}

// Tau2DirFiles lists the files that make up a τ²-bench run directory:
// results.json, then the regular files simulations/*.json sorted by name.
// A caller hashing the run hashes them in this order.
func Tau2DirFiles(fsys fs.FS) ([]string, error) {
	if _, err := fs.Stat(fsys, Tau2ResultsFile); err != nil {
		return nil, err
	}
	sims, err := simulationFiles(fsys)
	if err != nil {
		return nil, err
	}
	return append([]string{Tau2ResultsFile}, sims...), nil
}

// simulationFiles lists simulations/*.json, sorted, following symlinks (as
// git-annex and DVC lay files out). A *.json that is not a regular file,
// or a symlink whose target is missing, is an error: the run would be
// stored without it.
func simulationFiles(fsys fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(fsys, Tau2SimulationsDir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if !strings.EqualFold(path.Ext(e.Name()), ".json") {
			continue
		}
		name := path.Join(Tau2SimulationsDir, e.Name())
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			info, err := fs.Stat(fsys, name)
			if errors.Is(err, syscall.ELOOP) {
				return nil, fmt.Errorf("%s is a symlink loop (%v)", name, errors.Unwrap(err))
			}
			if err != nil {
				return nil, fmt.Errorf("%s is a symlink whose target is missing: is its content fetched (git annex get, dvc pull)?", name)
			}
			mode = info.Mode().Type()
		}
		if !mode.IsRegular() {
			return nil, fmt.Errorf("%s is not a regular file", name)
		}
		files = append(files, name)
	}
	sort.Strings(files)
	return files, nil
}

// Tau2Dir reads a τ²-bench 1.x run directory: results.json (its metadata,
// read whole) and simulations/<id>.json, one simulation per file, read one
// at a time by Trajectories. The files follow results.json's
// simulation_index when it has one (a file it names that is missing, or a
// file it does not name, is an error, as in τ²-bench's own loader), else
// their names' order. Simulations inline in results.json, if any, come
// first.
func Tau2Dir(fsys fs.FS) (*Tau2Reader, error) {
	return Tau2DirWith(fsys, Tau2Options{})
}

// Tau2DirWith is Tau2Dir with a limit on the size of a record (only
// opts.MaxRecord is used): results.json, read whole, and each simulation
// file may take at most opts.MaxRecord bytes (DefaultMaxRecord when 0).
func Tau2DirWith(fsys fs.FS, opts Tau2Options) (*Tau2Reader, error) {
	max := cmp.Or(opts.MaxRecord, DefaultMaxRecord)
	data, err := readFileMax(fsys, Tau2ResultsFile, max)
	if err != nil {
		return nil, err
	}
	t, err := Tau2With(bytes.NewReader(data), Tau2Options{MaxRecord: max})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Tau2ResultsFile, err)
	}
	t.fsys = fsys
	files, err := simulationFiles(fsys)
	if err != nil {
		return nil, err
	}
	if !t.hasIndex {
		t.simFiles = files
		return t, nil
	}
	onDisk := map[string]bool{}
	for _, f := range files {
		onDisk[f] = true
	}
	ordered := make([]string, len(t.index))
	for i, id := range t.index {
		name := path.Join(Tau2SimulationsDir, id+".json")
		if strings.ContainsAny(id, `/\`) || !fs.ValidPath(name) {
			return nil, fmt.Errorf("%s: simulation_index[%d]: id %q is not a file name", Tau2ResultsFile, i, id)
		}
		if !onDisk[name] {
			return nil, fmt.Errorf("%s: simulation_index[%d] names %s, which is missing", Tau2ResultsFile, i, name)
		}
		delete(onDisk, name)
		ordered[i] = name
	}
	if len(onDisk) > 0 {
		extra := make([]string, 0, len(onDisk))
		for f := range onDisk {
			extra = append(extra, f)
		}
		sort.Strings(extra)
		return nil, fmt.Errorf("%s: simulation_index does not list %s", Tau2ResultsFile, strings.Join(extra, ", "))
	}
	t.simFiles = ordered
	return t, nil
}

// readFiles yields the simulation files of the directory layout, one at a
// time; it reports whether to go on.
func (t *Tau2Reader) readFiles(yield func(*emobench.Trajectory, error) bool, i *int) bool {
	for _, name := range t.simFiles {
		traj, offset, err := t.readFile(name, *i)
		if err != nil {
			yield(nil, &SimulationError{Index: *i, File: name, Offset: offset, Err: err})
			return false
		}
		*i++
		if !yield(traj, nil) {
			return false
		}
	}
	return true
}

func (t *Tau2Reader) readFile(name string, i int) (*emobench.Trajectory, int64, error) {
	f, err := t.fsys.Open(name)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	dec := newLimitedDecoder(newNonFiniteReader(skipBOM(f)), t.opts.MaxRecord)
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		if err == io.EOF {
			return nil, 0, fmt.Errorf("empty file: want a τ²-bench simulation object")
		}
		return nil, dec.InputOffset(), explainSimulation(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, dec.InputOffset(), fmt.Errorf("trailing data after the simulation at byte %d", dec.InputOffset())
	}
	traj, err := t.simulation(raw, i)
	return traj, dec.InputOffset(), err
}

// readFileMax reads file name of fsys whole, refusing one of more than max
// bytes without reading further.
func readFileMax(fsys fs.FS, name string, max int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: %w", name, &RecordTooLargeError{Max: max, Read: int64(len(data))})
	}
	return data, nil
}

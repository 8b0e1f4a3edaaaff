package workbench

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/export"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/internal/atomicfile"
)

// WaitNotices are db options that tell, through say (a line without
// newline, for stderr), that opening path waits for another process:
// a writer, or a reader of a WAL file without its -wal file.
func WaitNotices(path string, say func(line string)) []db.Option {
	return []db.Option{
		db.OnWait(func() {
			say(fmt.Sprintf("waiting: another process is writing to %s; emobench waits until it is done (Ctrl-C stops)", path))
		}),
		db.OnReaderWait(func() {
			say(fmt.Sprintf("waiting: another process is reading %s, which is in WAL mode with no -wal file; emobench writes when it is done (Ctrl-C stops)", path))
		}),
	}
}

// OpenWrite opens the database at path for writing, creating and
// migrating it (db.Open with opts), then redacts the credentials older
// emobench versions stored (Scrub), handing each note to note. On error
// nothing is left open.
func OpenWrite(ctx context.Context, path string, note func(string), opts ...db.Option) (*db.DB, error) {
	store, err := db.Open(ctx, path, opts...)
	if err != nil {
		return nil, err
	}
	if err := Scrub(ctx, store, path, note); err != nil {
		store.Close()
		return nil, err
	}
	return store, nil
}

// OpenExisting is OpenWrite for a database that must exist: a missing
// file is an error ("PATH: no such database"), and none is created.
func OpenExisting(ctx context.Context, path string, note func(string), opts ...db.Option) (*db.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%s: no such database", path)
	}
	return OpenWrite(ctx, path, note, opts...)
}

// Scrub redacts credentials in the run configs of store (the database at
// path), handing note a line for each run changed, and, once per file, in
// the trajectories an older emobench stored.
func Scrub(ctx context.Context, store *db.DB, path string, note func(string)) error {
	notes, err := store.Scrub(ctx, path, ingest.RedactTrajectory)
	for _, n := range notes {
		note(n)
	}
	return err
}

// OpenCurrent opens the database at path read-only and requires the
// current schema, which the analysis commands query: an older one is a
// *db.OutdatedSchemaError.
func OpenCurrent(ctx context.Context, path string) (*db.DB, error) {
	store, err := db.OpenReadOnly(ctx, path)
	if err != nil {
		return nil, err
	}
	if err := store.RequireCurrent(ctx); err != nil {
		store.Close()
		return nil, err
	}
	return store, nil
}

// OpenRuns opens the database at path like OpenCurrent and resolves refs
// (run ids or names; none means all runs, a nil slice). On error nothing
// is left open.
func OpenRuns(ctx context.Context, path string, refs []string) (*db.DB, []int64, error) {
	store, err := OpenCurrent(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	runIDs, err := ResolveRuns(ctx, store, refs)
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	return store, runIDs, nil
}

// ResolveRuns returns the ids of the runs refs name (ids or names), in
// order; the first that names no run gives its *db.RunNotFoundError.
func ResolveRuns(ctx context.Context, store *db.DB, refs []string) ([]int64, error) {
	var ids []int64
	for _, ref := range refs {
		id, err := store.ResolveRun(ctx, ref)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// MergeFiles merges each file of paths into store (the database at
// dbPath) in order (MergeFile), printing what each added (print) and what
// was not carried or was renamed (note), then redacts the credentials of
// run configs copied from older files (Scrub, with note). It stops at the
// first file that fails.
func MergeFiles(ctx context.Context, store *db.DB, dbPath string, paths []string, print, note func(string)) error {
	for _, path := range paths {
		rep, err := MergeFile(ctx, store, path)
		if err != nil {
			return err
		}
		print(fmt.Sprintf("%s: %d runs added, %d extended, %d skipped; %d trajectories copied, %d (task, trial) pairs already present; %d leaderboard files copied",
			path, rep.RunsAdded, rep.RunsExtended, rep.RunsSkipped, rep.Trajectories, rep.PairsSkipped, rep.PublishedFiles))
		for _, r := range rep.Renamed {
			note(r.Warning(path))
		}
		if n := rep.SelectionsNotCarried; n > 0 {
			note(fmt.Sprintf("%s: its %d Tracer selections are not merged (they name that file's trajectories): select again here with emobench tracer filter", path, n))
		}
		if n := rep.TaskSetsNotCarried; n > 0 {
			note(fmt.Sprintf("%s: its %d task sets are not merged: store them here again with emobench tracer generate (the same seed gives the same tasks)", path, n))
		}
	}
	return Scrub(ctx, store, dbPath, note)
}

// MergeFile copies the runs and leaderboard results of the emobench file
// at path, opened read-only, into store in one transaction, redacting
// credentials in its trajectories. On a failed merge nothing of it is
// stored, and the error says so.
func MergeFile(ctx context.Context, store *db.DB, path string) (db.MergeReport, error) {
	src, err := db.OpenReadOnly(ctx, path)
	if err != nil {
		return db.MergeReport{}, err
	}
	defer src.Close()
	if err := src.ForeignSchema(); err != nil {
		return db.MergeReport{}, err // it names path
	}
	rep, err := store.Merge(ctx, src, ingest.RedactTrajectory)
	if err != nil {
		return rep, fmt.Errorf("merge %s: %w (nothing of it was stored)", path, err)
	}
	return rep, nil
}

// Vacuum writes a compact copy of the database at path to out (VACUUM
// INTO a temporary file beside out, renamed to out when complete), opening
// it for writing as OpenWrite does with note and opts, and returns out's
// size in bytes. No out, or one that exists, is an EREQUEST error; an out
// that is not a regular file is an *atomicfile.NotRegularError; a missing
// database is an error, and none is created. On error nothing is left at
// out.
func Vacuum(ctx context.Context, path, out string, note func(string), opts ...db.Option) (int64, error) {
	if out == "" {
		return 0, settingf("out", "is needed: the FILE to write")
	}
	if _, err := atomicfile.Target(out); err != nil {
		return 0, err
	}
	if err := db.CheckVacuumTarget(out); err != nil {
		return 0, emobench.AsRequest(err)
	}
	// The read-only open refuses a missing file (OpenWrite would create
	// it); it is closed first, since a writer waits for an immutable
	// reader of the file.
	store, err := db.OpenReadOnly(ctx, path)
	if err != nil {
		return 0, err
	}
	store.Close()
	rw, err := OpenWrite(ctx, path, note, opts...)
	if err != nil {
		return 0, err
	}
	defer rw.Close()
	// The copy is made under a temporary name beside out, renamed to out
	// only when complete: an interrupt, a full disk or a damaged source
	// leaves nothing at out, and the retry may write it.
	tmp, err := atomicfile.Create(out)
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name() + "-journal") // SQLite's, when a write to the copy failed
	defer tmp.Abort()
	if err := rw.VacuumInto(ctx, tmp.Name()); err != nil {
		return 0, fmt.Errorf("vacuum into %s: %w (nothing was written there)", out, err)
	}
	info, err := tmp.Stat()
	if err != nil {
		return 0, fmt.Errorf("vacuum into %s: %w", out, err)
	}
	if err := tmp.CommitNew(); err != nil {
		return 0, fmt.Errorf("vacuum into %s: %w", out, err)
	}
	return info.Size(), nil
}

// Checked is what CheckDB found in a database.
type Checked struct {
	db.CheckReport
	// Provenance says how many runs came from where and names each run
	// not ingested here; read only for a file without problems whose
	// schema is current.
	Provenance []string
}

// Lines are what the check command tells of the database at path: its
// schema version, then each problem, or that all is well with the
// provenance and how to upgrade an older schema; each note (objects of the
// file's own, how to repair) after the problems or the ok.
func (c *Checked) Lines(path string) []string {
	lines := []string{fmt.Sprintf("%s: schema version %d (this emobench writes %d)", path, c.SchemaVersion, db.SchemaVersion())}
	for _, p := range c.Problems {
		lines = append(lines, "problem: "+p)
	}
	var notes []string
	for _, n := range c.Notes {
		notes = append(notes, "note: "+n)
	}
	if len(c.Problems) > 0 {
		return append(lines, notes...)
	}
	lines = append(lines, "ok: integrity and schema as expected")
	lines = append(lines, notes...)
	lines = append(lines, c.Provenance...)
	if c.SchemaVersion < db.SchemaVersion() {
		lines = append(lines, fmt.Sprintf("note: the read commands need schema version %d: upgrade with `emobench --db %s migrate`", db.SchemaVersion(), path))
	}
	return lines
}

// CheckDB checks the database at path, opened read-only (safe on files from
// others): SQLite's integrity and emobench's schema (db.Check), then the
// provenance of its runs. It returns nil and the error when the check
// could not run; an error reading the provenance comes with the report and
// the lines read before it. Errors name path.
func CheckDB(ctx context.Context, path string) (*Checked, error) {
	store, err := db.OpenReadOnly(ctx, path)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	rep, err := store.Check(ctx)
	if err != nil {
		return nil, fmt.Errorf("check %s: %w", path, err)
	}
	checked := &Checked{CheckReport: rep}
	if len(rep.Problems) > 0 || rep.SchemaVersion < db.SchemaVersion() {
		return checked, nil
	}
	checked.Provenance, err = store.ProvenanceLines(ctx)
	if err != nil {
		return checked, fmt.Errorf("check %s: %w", path, err)
	}
	return checked, nil
}

// Export writes the runs refs name in the database at path (all when
// none), their trajectories redacted (ingest.RedactTrajectory), as
// export.WriteFiles writes format to out (replacing what is there only
// with force), and returns what it wrote. No run to export is an error;
// no format or out, checked before the database is opened, and a bad out
// (a file where a directory goes, one that exists without force) are
// EREQUEST errors.
func Export(ctx context.Context, path string, refs []string, format, out string, force bool) ([]export.Written, error) {
	switch {
	case format == "":
		return nil, settingf("format", "is needed: one of %s", strings.Join(export.Formats, ", "))
	case out == "":
		return nil, settingf("out", "is needed: the PATH to write (a file or a directory, by format)")
	}
	store, ids, err := OpenRuns(ctx, path, refs)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	all, err := store.ListRuns(ctx)
	if err != nil {
		return nil, err
	}
	runs := export.Select(all, ids, func(id int64) iter.Seq2[*emobench.Trajectory, error] {
		return store.Trajectories(ctx, id)
	}, ingest.RedactTrajectory)
	if len(runs) == 0 {
		return nil, errors.New("no runs to export: the database is empty")
	}
	written, err := export.WriteFiles(format, out, runs, force)
	return written, emobench.AsRequest(err)
}

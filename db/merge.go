package db

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// MergeReport says what Merge copied.
type MergeReport struct {
	RunsAdded, RunsExtended, RunsSkipped int
	Trajectories                         int // trajectories copied
	PairsSkipped                         int // (task, trial) pairs the target already held
	PublishedFiles                       int // leaderboard files copied (published_results)
	// SelectionsNotCarried counts the merged file's Tracer selections,
	// which merge leaves behind: they name that file's trajectories.
	SelectionsNotCarried int
	// TaskSetsNotCarried counts the merged file's task sets (tracer
	// generate), which merge leaves behind too.
	TaskSetsNotCarried int
	// Renamed are the runs added under another name than their own, since
	// a run of the target (or one added before them) had it.
	Renamed []RenamedRun
}

// RenamedRun is a run Merge added under a distinct name (DistinctRunName).
type RenamedRun struct {
	SourceID int64  // the run's id in the merged file
	ID       int64  // its id in the target
	From, To string // its name in the merged file, and in the target
	Clash    int64  // the target's run named From
}

// Warning is the warning on the renamed run, for the merge of path.
func (r RenamedRun) Warning(path string) string {
	return fmt.Sprintf("%s: run %d is already named %q: run %d of %s is added as run %d named %q (rename it with `emobench runs set RUN --name NAME`)",
		path, r.Clash, r.From, r.SourceID, path, r.ID, r.To)
}

// Merge copies every run of src into db in one transaction. A run it adds
// has provenance "merged" from src (its path, its file's sha256, the time)
// and, when a run of db has its name, a distinct name as ingest gives
// (DistinctRunName; MergeReport.Renamed lists them). An imported
// run whose source sha256 db already holds is skipped. A native run joins
// the target's native run of the same name and settings (its config less
// "shard"; the name, or one DistinctRunName would give for it, so that the
// shards of a renamed run still join), which gains only the (task, trial) pairs it lacks: shards of one
// run merge into one. Tasks are shared by content hash; ids are new. scrub,
// when not nil, sees every copied trajectory first (to redact what an older
// emobench stored).
func (db *DB) Merge(ctx context.Context, src *DB, scrub func(*emobench.Trajectory)) (MergeReport, error) {
	var rep MergeReport
	if src.notOurs != nil {
		return rep, src.notOurs
	}
	if src.foreign != nil {
		return rep, src.foreign
	}
	runs, err := src.ListRuns(ctx)
	if err != nil {
		return rep, fmt.Errorf("read %s: %w", src.path, err)
	}
	tags, err := src.ListRunTags(ctx)
	if err != nil {
		return rep, fmt.Errorf("read %s: %w", src.path, err)
	}
	published, err := src.publishedForMerge(ctx)
	if err != nil {
		return rep, fmt.Errorf("read %s: %w", src.path, err)
	}
	srcSHA, err := fileSHA256(src.path)
	if err != nil {
		return rep, fmt.Errorf("read %s: %w", src.path, err)
	}
	selections, err := src.countSelectionsForMerge(ctx)
	if err != nil {
		return rep, fmt.Errorf("read %s: %w", src.path, err)
	}
	taskSets, err := src.countTaskSetsForMerge(ctx)
	if err != nil {
		return rep, fmt.Errorf("read %s: %w", src.path, err)
	}
	from := Provenance{Kind: ProvenanceMerged, MergedFrom: absPath(src.path), MergedSHA256: srcSHA, MergedAt: now()}
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		newID := map[int64]int64{} // src run id → target run id
		added := map[int64]bool{}  // src run id → added (not joined or skipped)
		for _, run := range runs {
			before := rep.RunsAdded
			id, err := mergeRun(ctx, q, src, run, from, scrub, &rep)
			if err != nil {
				return fmt.Errorf("run %d (%s): %w", run.ID, run.Name, err)
			}
			newID[run.ID], added[run.ID] = id, rep.RunsAdded > before
		}
		if err := copyTags(ctx, q, tags, newID); err != nil {
			return err
		}
		if err := remapPairs(ctx, q, runs, newID, added); err != nil {
			return err
		}
		return copyPublished(ctx, q, published, &rep)
	})
	if err != nil {
		return MergeReport{}, err
	}
	rep.SelectionsNotCarried, rep.TaskSetsNotCarried = selections, taskSets
	return rep, nil
}

// copyPublished copies the leaderboard files the target lacks, by sha256.
func copyPublished(ctx context.Context, q *sqlcdb.Queries, published []emobench.PublishedResult, rep *MergeReport) error {
	var order []string
	bySHA := map[string][]emobench.PublishedResult{}
	for _, p := range published {
		if bySHA[p.SourceSHA256] == nil {
			order = append(order, p.SourceSHA256)
		}
		bySHA[p.SourceSHA256] = append(bySHA[p.SourceSHA256], p)
	}
	for _, sha := range order {
		stored, err := storePublished(ctx, q, sha, bySHA[sha])
		if err != nil {
			return fmt.Errorf("published results of %s: %w", bySHA[sha][0].SourceFile, err)
		}
		if stored {
			rep.PublishedFiles++
		}
	}
	return nil
}

// copyTags carries generalization tags over, with base runs renumbered.
func copyTags(ctx context.Context, q *sqlcdb.Queries, tags []RunTags, newID map[int64]int64) error {
	for _, t := range tags {
		if t.TrainDomains == nil && t.BaseRunID == 0 {
			continue
		}
		domains, err := json.Marshal(t.TrainDomains)
		if err != nil {
			return err
		}
		base := sql.NullInt64{Int64: newID[t.BaseRunID], Valid: newID[t.BaseRunID] != 0}
		err = q.TagRun(ctx, sqlcdb.TagRunParams{
			TrainDomains: sql.NullString{String: string(domains), Valid: t.TrainDomains != nil},
			BaseRunID:    base, ID: newID[t.RunID],
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// mergeRun copies one run and returns its id in the target.
func mergeRun(ctx context.Context, q *sqlcdb.Queries, src *DB, run emobench.Run, from Provenance, scrub func(*emobench.Trajectory), rep *MergeReport) (int64, error) {
	target, have, err := findMergeTarget(ctx, q, run)
	if err != nil {
		return 0, err
	}
	if target != 0 && run.SourceFormat != emobench.SourceNative {
		rep.RunsSkipped++
		return target, nil
	}
	w := &runWriter{ctx: ctx, q: q, onDup: DuplicateRefuse, seen: map[pairKey]seenPair{}, tasks: map[string]storedTask{}}
	created := target == 0
	if created {
		if run.SourceFormat == emobench.SourceNative {
			run.Config = withoutShard(run.Config) // the merged run is the whole run
		}
		name, clash, err := distinctRunName(ctx, q, run.Name, 0)
		if err != nil {
			return 0, err
		}
		own := run.Name
		run.Name = name
		if target, err = w.createRun(run, from); err != nil {
			return 0, err
		}
		rep.RunsAdded++
		if name != own {
			rep.Renamed = append(rep.Renamed, RenamedRun{SourceID: run.ID, ID: target, From: own, To: name, Clash: clash})
		}
	}
	i := 0
	defer func() {
		switch {
		case created:
		case i > 0:
			rep.RunsExtended++
		default:
			rep.RunsSkipped++
		}
	}()
	for traj, err := range src.Trajectories(ctx, run.ID) {
		if err != nil {
			return 0, err
		}
		if have[Pair{TaskKey: traj.Task.Key, Trial: traj.Trial}] {
			rep.PairsSkipped++
			continue
		}
		if i == 0 && !created {
			if err := refuseHeldRun(ctx, q, target, fmt.Sprintf("merge would add (task, trial) pairs to run %d", target)); err != nil {
				return 0, err
			}
		}
		if scrub != nil {
			scrub(traj)
		}
		if _, err := w.writeTrajectory(target, i, traj); err != nil {
			return 0, err
		}
		i++
		rep.Trajectories++
	}
	if i > 0 {
		if err := refreshRunOutcomes(ctx, q, target); err != nil {
			return 0, err
		}
	}
	return target, nil
}

// findMergeTarget returns the run of db that src's run merges into (0 for
// none) and the pairs it already holds.
func findMergeTarget(ctx context.Context, q *sqlcdb.Queries, run emobench.Run) (int64, map[Pair]bool, error) {
	if run.SourceSHA256 != "" {
		row, err := q.FindRunBySHA256(ctx, sql.NullString{String: run.SourceSHA256, Valid: true})
		if errors.Is(err, sql.ErrNoRows) {
			return 0, nil, nil
		}
		return row.ID, nil, err
	}
	// The run's own name, then the names DistinctRunName gives for it
	// (name-2, name-3, …) while runs have them: a run merged before under
	// a distinct name is joined by its other shards.
	for name := range mergeNames(run.Name) {
		ids, err := q.FindRunsByName(ctx, name)
		if err != nil || (len(ids) == 0 && name != run.Name) {
			return 0, nil, err
		}
		for _, id := range ids {
			r, err := q.FindRunConfig(ctx, id)
			if err != nil {
				return 0, nil, err
			}
			if r.SourceFormat == emobench.SourceNative && sameSettings(json.RawMessage(r.Config), run.Config) {
				rows, err := q.ListRunPairs(ctx, id)
				if err != nil {
					return 0, nil, err
				}
				return id, pairSet(rows), nil
			}
		}
	}
	panic("unreachable")
}

// mergeNames yields name, then runNameCandidates(name) but for name.
func mergeNames(name string) iter.Seq[string] {
	return func(yield func(string) bool) {
		if !yield(name) {
			return
		}
		for c := range runNameCandidates(name) {
			if c != name && !yield(c) {
				return
			}
		}
	}
}

// sameSettings reports whether two native run configs describe one run
// (emobench.RunSpec.SameRun: equal but for the shard). Configs that do not
// decode as a RunSpec match only byte for byte.
func sameSettings(a, b json.RawMessage) bool {
	sa, errA := emobench.DecodeRunSpec(a)
	sb, errB := emobench.DecodeRunSpec(b)
	if errA != nil || errB != nil {
		return bytes.Equal(a, b)
	}
	return sa.SameRun(sb)
}

// withoutShard returns the config of the whole run a shard's config
// belongs to; a config that does not decode as a RunSpec is kept as it is.
func withoutShard(raw json.RawMessage) json.RawMessage {
	spec, err := emobench.DecodeRunSpec(raw)
	if err != nil {
		return raw
	}
	return spec.Whole().Encode()
}

// absPath is path made absolute, when it can be.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// VacuumInto writes a compact, defragmented copy of the database to path
// (SQLite's VACUUM INTO), for sharing. path must not exist, or be an
// empty file (a temporary file its caller renames when this succeeded).
// The copy holds no run_locks: the processes they name run here, not
// wherever the copy goes.
func (db *DB) VacuumInto(ctx context.Context, path string) error {
	if _, err := db.sql.ExecContext(ctx, "VACUUM INTO ?", path); err != nil {
		return err
	}
	out, err := sql.Open("sqlite", "file:"+escapePath(path))
	if err != nil {
		return err
	}
	defer out.Close()
	_, err = out.ExecContext(ctx, "DELETE FROM run_locks")
	return err
}

// CheckVacuumTarget refuses, as an EINVALID error, a VacuumInto path that
// SQLite would read as a URI, or that exists: vacuum never overwrites a
// file.
func CheckVacuumTarget(path string) error {
	if strings.ContainsAny(path, "?#") || strings.HasPrefix(path, "file:") {
		return emobench.Settingf(emobench.EINVALID, "out", "%q: give a plain file path (SQLite would read it as a URI)", path)
	}
	if _, err := os.Lstat(path); err == nil {
		return emobench.Settingf(emobench.EINVALID, "out", "%s exists: vacuum never overwrites a file", path)
	}
	// SQLite would apply a leftover WAL or journal of another database to
	// the copy the first time it is opened.
	for _, side := range sideFiles {
		if _, err := os.Lstat(path + side.suffix); err == nil {
			return emobench.Settingf(emobench.EINVALID, "out", "%s: %s exists beside it (another database's %s, which SQLite would apply to the copy): move it away or choose another name",
				path, path+side.suffix, side.what)
		}
	}
	return nil
}

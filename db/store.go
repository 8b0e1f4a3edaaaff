package db

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// Input is one opened input file to store as a run: what a reader gave,
// and how to store it.
type Input struct {
	Path         string
	Run          emobench.Run
	Trajectories iter.Seq2[*emobench.Trajectory, error]
	OnDuplicate  OnDuplicate
	// Replace, when not 0, is the run (merged, or of unknown provenance)
	// that has the file's sha256 and is replaced by its content (--reingest).
	Replace int64
	// Finish, when not nil, marks a stream: it gives the sha256 once the
	// last byte is read.
	Finish func() (string, error)
}

// Stored is what StoreInput did with an Input.
type Stored struct {
	IngestResult
	Run   emobench.Run // as stored, with a distinct name
	Clash int64        // the stored run that had the input's name; 0 when none
	// Skip, when not nil, says why nothing was stored: a stored run has the
	// input's sha256.
	Skip *SkipDecision
}

// SkipDecision is what to do with an input whose sha256 is sum, given the
// stored runs.
type SkipDecision struct {
	Skip    bool
	Replace int64  // the run --reingest replaces; 0 when none
	RunID   int64  // the stored run with the sha256
	Message string // the line that says why it is skipped, without the path or the remedy
	// Reingestable is true when --reingest, given with the file, would
	// replace the stored run (merged, or of unknown provenance); the
	// caller, which knows whether the input is a file, says so.
	Reingestable bool
	// Hint is true when the run was ingested from the file (or is native):
	// flags that name metadata are not applied to it.
	Hint bool
}

// DecideStored decides whether an input with sha256 sum is skipped because
// a stored run has that sha256. A run that was not ingested from a file
// (merged from another db, or of unknown provenance) is only replaced by it
// under reingest: its id is returned as Replace.
func (db *DB) DecideStored(ctx context.Context, sum string, reingest bool) (SkipDecision, error) {
	prov, err := db.FindProvenanceBySHA256(ctx, sum)
	if errors.Is(err, ErrNotFound) {
		return SkipDecision{}, nil
	} else if err != nil {
		return SkipDecision{}, err
	}
	d := SkipDecision{Skip: true, RunID: prov.RunID}
	switch {
	case prov.Kind == ProvenanceIngested || prov.Kind == ProvenanceNative:
		d.Message = fmt.Sprintf("skipped, already ingested as run %d (%s)", prov.RunID, prov.RunName)
		d.Hint = true
	case reingest:
		return SkipDecision{Replace: prov.RunID, RunID: prov.RunID}, nil
	case prov.Kind == ProvenanceMerged:
		d.Message = fmt.Sprintf("skipped: run %d (%s) was %s, not ingested from this file", prov.RunID, prov.RunName, prov)
		d.Reingestable = true
	default:
		d.Message = fmt.Sprintf("skipped: run %d (%s) has this file's sha256 but unknown provenance (stored by an emobench before provenance was recorded, it may have been merged from another db)",
			prov.RunID, prov.RunName)
		d.Reingestable = true
	}
	return d, nil
}

// StoreInput stores in as one run in one transaction, under a name no other
// stored run has (name-2, name-3, …). A stream whose sha256 turns out to be
// stored is skipped (Stored.Skip), as is a file ingested meanwhile by
// another process (an *AlreadyIngestedError).
func (db *DB) StoreInput(ctx context.Context, in Input) (Stored, error) {
	out := Stored{Run: in.Run}
	name, clash, err := db.DistinctRunName(ctx, in.Run.Name, in.Replace)
	if err != nil {
		return out, err
	}
	out.Run.Name, out.Clash = name, clash
	switch {
	case in.Finish != nil:
		out.IngestResult, err = db.IngestStream(ctx, out.Run, in.Trajectories, in.OnDuplicate, in.Finish)
		if errors.As(err, new(*AlreadyIngestedError)) {
			if sum, sumErr := in.Finish(); sumErr == nil {
				d, err := db.DecideStored(ctx, sum, false)
				out.Skip = &d
				return out, err
			}
		}
	case in.Replace != 0:
		out.IngestResult, err = db.ReplaceRun(ctx, in.Replace, out.Run, in.Trajectories, in.OnDuplicate)
	default:
		out.IngestResult, err = db.IngestRun(ctx, out.Run, in.Trajectories, in.OnDuplicate)
	}
	return out, err
}

// DistinctRunName returns name (run-N for a name N that reads as a run
// id), or name-2, name-3, … when a stored run
// other than except is called name, and the id of that run (0 when none).
func (db *DB) DistinctRunName(ctx context.Context, name string, except int64) (string, int64, error) {
	return distinctRunName(ctx, db.queries, name, except)
}

// distinctRunName is DistinctRunName read through q (within a
// transaction, it sees the runs the transaction stored).
func distinctRunName(ctx context.Context, q *sqlcdb.Queries, name string, except int64) (string, int64, error) {
	var clash int64
	for candidate := range runNameCandidates(name) {
		ids, err := q.FindRunsByName(ctx, candidate)
		ids = slices.DeleteFunc(ids, func(id int64) bool { return id == except })
		if len(ids) > 0 && clash == 0 {
			clash = ids[0]
		}
		if err != nil || len(ids) == 0 {
			return candidate, clash, err
		}
	}
	panic("unreachable")
}

// runNameCandidates yields the names DistinctRunName tries in turn: name
// (run-N for a name N that reads as a run id: --run 8 would mean run id
// 8), then name-2, name-3, …
func runNameCandidates(name string) iter.Seq[string] {
	if NameReadsAsID(name) {
		name = "run-" + strings.TrimSpace(name)
	}
	return func(yield func(string) bool) {
		if !yield(name) {
			return
		}
		for i := 2; ; i++ {
			if !yield(fmt.Sprintf("%s-%d", name, i)) {
				return
			}
		}
	}
}

// RunNotes are notes on what in a freshly stored run will not read as the
// user may expect: its rewards and its emotion labels. Errors leave notes
// out.
func (db *DB) RunNotes(ctx context.Context, runID int64) []string {
	var notes []string
	if k, err := db.CountRewardKinds(ctx, runID); err == nil && k.Total > 0 {
		switch {
		case k.Unevaluated == k.Total:
			notes = append(notes, fmt.Sprintf("none of its %d trajectories is evaluated (no reward information, or a τ²-bench non-evaluable ending; evaluated = 0): the run is not evaluated, and its statistics read \"not evaluated\", not 0", k.Total))
		case k.Unevaluated > 0:
			notes = append(notes, fmt.Sprintf("%d of %d trajectories are not evaluated (no reward information, or a τ²-bench non-evaluable ending; evaluated = 0): they count as failures", k.Unevaluated, k.Total))
		}
		if k.Partial > 0 {
			notes = append(notes, fmt.Sprintf("%d of %d rewards are partial (neither 0 nor 1): a trajectory passes only with reward 1 ± 1e-6; `emobench runs` shows their mean_reward", k.Partial, k.Total))
		}
	}
	counts, err := db.CountEmotionProfiles(ctx, runID)
	if err != nil {
		return notes
	}
	var odd []string
	n := 0
	for _, c := range counts {
		if c.Family == "" || c.Leaf == "" {
			continue
		}
		atlas := emobench.AtlasFamilyOf(c.Leaf)
		if atlas == "" || strings.EqualFold(atlas, c.Family) {
			continue // a leaf of the family, or one the Atlas does not name
		}
		n += c.Tasks
		odd = append(odd, fmt.Sprintf("%s/%s ×%d (a state of %s)", c.Family, c.Leaf, c.Tasks, atlas))
	}
	if n > 0 {
		notes = append(notes, fmt.Sprintf("%s a leaf with another family than the Atlas of Emotions does: %s; stats by emotion_leaf pool a leaf across families",
			countOf(n, "task pairs", "tasks pair"), strings.Join(odd, ", ")))
	}
	return notes
}

// ProvenanceLines describes the stored runs' provenance: how many came from
// where, and one line per run not ingested here (its source_sha256 names a
// file it was not read from, so a later ingest of that file is skipped
// unless --reingest).
func (db *DB) ProvenanceLines(ctx context.Context) ([]string, error) {
	runs, err := db.ListProvenance(ctx)
	if err != nil {
		return nil, err
	}
	count := map[string]int{}
	for _, p := range runs {
		count[p.Kind]++
	}
	lines := []string{fmt.Sprintf("provenance: %d ingested, %d native, %d merged, %d unknown",
		count[ProvenanceIngested], count[ProvenanceNative], count[ProvenanceMerged], count[ProvenanceUnknown])}
	for _, p := range runs {
		if p.Kind == ProvenanceMerged || p.Kind == ProvenanceUnknown {
			line := fmt.Sprintf("provenance: run %d (%s) was %s", p.RunID, p.RunName, p)
			if p.SourceSHA256 != "" {
				line += fmt.Sprintf("; it claims to come from %s (sha256 %s), which was not ingested here", p.SourcePath, p.SourceSHA256)
			}
			lines = append(lines, line)
		}
	}
	return lines, nil
}

// FindOrCreateRun returns the id of the run that run.Name names, creating
// run when none does (as a demo run again finds its earlier runs).
func (db *DB) FindOrCreateRun(ctx context.Context, run emobench.Run) (int64, error) {
	id, err := db.ResolveRun(ctx, run.Name)
	if errors.Is(err, ErrNotFound) || emobench.ErrorCode(err) == emobench.ENOTFOUND {
		return db.CreateRun(ctx, run)
	}
	return id, err
}

// CheckNewRunName refuses, as an EINVALID error (a *RunNameTakenError for
// a name taken), a name for a new run that
// --run would read as an id or that a stored run has (a second run of one
// name would make --run NAME ambiguous).
func (db *DB) CheckNewRunName(ctx context.Context, name string) error {
	if NameReadsAsID(name) {
		return emobench.Settingf(emobench.EINVALID, "name", "%q reads as a run id: choose a name with a letter", name)
	}
	ids, err := db.RunsNamed(ctx, name)
	if err != nil {
		return err
	}
	if len(ids) > 0 {
		last := ids[len(ids)-1]
		return &RunNameTakenError{Run: last, Name: name}
	}
	return nil
}

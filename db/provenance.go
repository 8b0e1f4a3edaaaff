package db

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// Provenance kinds: where a run came from (runs.provenance).
const (
	ProvenanceIngested = "ingested" // read from a file by emobench ingest (source_path, source_sha256, ingested_at)
	ProvenanceNative   = "native"   // made by emobench run
	ProvenanceMerged   = "merged"   // copied by emobench merge from another db (merged_from, merged_from_sha256, merged_at)
	ProvenanceUnknown  = "unknown"  // stored before schema version 8, which did not record merges
)

// Provenance says where a run came from.
type Provenance struct {
	RunID        int64
	RunName      string
	Kind         string // one of the Provenance* kinds
	SourcePath   string // the file it was ingested from (ingested runs, and merged runs that were)
	SourceSHA256 string // that file's sha256
	IngestedAt   string // RFC 3339: when it was ingested (or, for native runs, created)
	MergedFrom   string // merged: the db file it was copied from
	MergedSHA256 string // merged: sha256 of that db file when merged
	MergedAt     string // merged: RFC 3339
}

// String describes a run's provenance in one phrase, such as "merged from
// /x/shared.db (sha256 ab12…) on 2026-12-01T09:00:00Z".
func (p Provenance) String() string {
	switch p.Kind {
	case ProvenanceIngested:
		return fmt.Sprintf("ingested from %s (sha256 %s) on %s", p.SourcePath, short(p.SourceSHA256), p.IngestedAt)
	case ProvenanceNative:
		return "run natively by emobench run on " + p.IngestedAt
	case ProvenanceMerged:
		return fmt.Sprintf("merged from %s (sha256 %s) on %s", p.MergedFrom, short(p.MergedSHA256), p.MergedAt)
	}
	return "of unknown provenance (stored by an emobench before provenance was recorded; it may have been merged from another db)"
}

// short abbreviates a hex sha256 to its first 12 digits.
func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12] + "…"
	}
	return sum
}

// FindProvenanceBySHA256 returns the provenance of the run whose
// source_sha256 is sum, or ErrNotFound.
func (db *DB) FindProvenanceBySHA256(ctx context.Context, sum string) (Provenance, error) {
	r, err := db.queries.FindRunProvenanceBySHA256(ctx, sql.NullString{String: sum, Valid: true})
	if errors.Is(err, sql.ErrNoRows) {
		return Provenance{}, ErrNotFound
	}
	if err != nil {
		return Provenance{}, err
	}
	return provenance(sqlcdb.ListRunProvenanceRow(r)), nil
}

// ListProvenance returns every run's provenance, by run id.
func (db *DB) ListProvenance(ctx context.Context) ([]Provenance, error) {
	rows, err := db.queries.ListRunProvenance(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Provenance, len(rows))
	for i, r := range rows {
		out[i] = provenance(r)
	}
	return out, nil
}

func provenance(r sqlcdb.ListRunProvenanceRow) Provenance {
	return Provenance{
		RunID: r.ID, RunName: r.Name, Kind: r.Provenance,
		SourcePath: r.SourcePath.String, SourceSHA256: r.SourceSha256.String, IngestedAt: r.IngestedAt,
		MergedFrom: r.MergedFrom.String, MergedSHA256: r.MergedFromSha256.String, MergedAt: r.MergedAt.String,
	}
}

// ReplaceRun is IngestRun for a file whose sha256 run oldID already has
// although it was not ingested from that file (a merged run, or one of
// unknown provenance): in one transaction it stores the file's run, which
// takes over oldID's generalization tags and the runs based on it, and
// deletes oldID with its trajectories and the tasks no other run uses. On
// any error nothing changes.
func (db *DB) ReplaceRun(ctx context.Context, oldID int64, run emobench.Run, trajectories iter.Seq2[*emobench.Trajectory, error], onDup OnDuplicate) (IngestResult, error) {
	return db.ingestRun(ctx, oldID, run, trajectories, onDup, nil)
}

// replaceRun moves oldID's tags to newID and deletes oldID (see ReplaceRun).
func replaceRun(ctx context.Context, q *sqlcdb.Queries, oldID, newID int64) error {
	tags, err := q.FindRunTags(ctx, oldID)
	if err != nil {
		return err
	}
	if err := q.TagRun(ctx, sqlcdb.TagRunParams{TrainDomains: tags.TrainDomains, BaseRunID: tags.BaseRunID, ID: newID}); err != nil {
		return err
	}
	old := sql.NullInt64{Int64: oldID, Valid: true}
	if err := q.RebaseRuns(ctx, sqlcdb.RebaseRunsParams{NewID: sql.NullInt64{Int64: newID, Valid: true}, OldID: old}); err != nil {
		return err
	}
	if _, err := q.DeleteRun(ctx, oldID); err != nil {
		return err
	}
	_, err = q.DeleteOrphanTasks(ctx)
	return err
}

// fileSHA256 is the hex sha256 of the bytes of the file at path.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// now is the time recorded for ingests and merges, in RFC 3339 (UTC).
func now() string { return time.Now().UTC().Format(time.RFC3339) }

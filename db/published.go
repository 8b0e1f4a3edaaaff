package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// StorePublished stores a leaderboard file's results in one transaction,
// keyed by the file's sha256: a file stored before is skipped (stored =
// false).
func (db *DB) StorePublished(ctx context.Context, sourceSHA256 string, results []emobench.PublishedResult) (stored bool, err error) {
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		stored, err = storePublished(ctx, db.queries.WithTx(tx), sourceSHA256, results)
		return err
	})
	return stored, err
}

// storePublished writes one leaderboard file's results unless its sha256
// is stored already.
func storePublished(ctx context.Context, q *sqlcdb.Queries, sourceSHA256 string, results []emobench.PublishedResult) (bool, error) {
	n, err := q.CountPublishedBySHA256(ctx, sourceSHA256)
	if err != nil || n > 0 {
		return false, err
	}
	for i, r := range results {
		err := q.CreatePublishedResult(ctx, sqlcdb.CreatePublishedResultParams{
			Model: r.Model, Organization: nullString(r.Organization), Domain: r.Domain,
			K: int64(r.K), PassHatK: r.PassHatK, Cost: nullFloat(r.Cost),
			UserSimulator: nullString(r.UserSimulator), Date: nullString(r.Date),
			SourceFile: r.SourceFile, SourceSha256: sourceSHA256,
			Modality: nullString(r.Modality), SubmissionType: nullString(r.SubmissionType),
		})
		if err != nil {
			return false, fmt.Errorf("result %d (%s, %s, k=%d): %w", i, r.Model, r.Domain, r.K, err)
		}
	}
	return true, nil
}

// ScrubRunConfigs passes every run's config through redact and stores what
// it changed (paths not empty), in one transaction. It returns the paths
// redacted, as "run N: path". Writing commands call it so that files made
// before credentials were redacted at ingest lose them too.
func (db *DB) ScrubRunConfigs(ctx context.Context, redact func(json.RawMessage) (json.RawMessage, []string)) ([]string, error) {
	var found []string
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		rows, err := q.ListRunConfigs(ctx)
		if err != nil {
			return err
		}
		for _, r := range rows {
			clean, paths := redact(json.RawMessage(r.Config))
			if len(paths) == 0 {
				continue
			}
			if err := q.UpdateRunConfig(ctx, sqlcdb.UpdateRunConfigParams{Config: string(clean), ID: r.ID}); err != nil {
				return fmt.Errorf("run %d: %w", r.ID, err)
			}
			for _, p := range paths {
				found = append(found, fmt.Sprintf("run %d: %s", r.ID, p))
			}
		}
		return nil
	})
	return found, err
}

// ListPublished returns every stored published result.
func (db *DB) ListPublished(ctx context.Context) ([]emobench.PublishedResult, error) {
	rows, err := db.queries.ListPublishedResults(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]emobench.PublishedResult, len(rows))
	for i, r := range rows {
		out[i] = emobench.PublishedResult{
			Model: r.Model, Organization: r.Organization.String, Domain: r.Domain, K: int(r.K),
			PassHatK: r.PassHatK, UserSimulator: r.UserSimulator.String, Date: r.Date.String, SourceFile: r.SourceFile,
			Modality: r.Modality.String, SubmissionType: r.SubmissionType.String, SourceSHA256: r.SourceSha256,
		}
		if r.Cost.Valid {
			c := r.Cost.Float64
			out[i].Cost = &c
		}
	}
	return out, nil
}

// publishedForMerge reads db's published results whatever its schema
// version, as merge reads older files without migrating them: none before
// version 3 (no published_results), no modality at version 3.
func (db *DB) publishedForMerge(ctx context.Context) ([]emobench.PublishedResult, error) {
	v, err := db.userVersion(ctx)
	switch {
	case err != nil:
		return nil, err
	case v < 3:
		return nil, nil
	case v > 3:
		return db.ListPublished(ctx)
	}
	rows, err := db.queries.ListPublishedResultsV3(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]emobench.PublishedResult, len(rows))
	for i, r := range rows {
		out[i] = emobench.PublishedResult{
			Model: r.Model, Organization: r.Organization.String, Domain: r.Domain, K: int(r.K), PassHatK: r.PassHatK,
			UserSimulator: r.UserSimulator.String, Date: r.Date.String, SourceFile: r.SourceFile, SourceSHA256: r.SourceSha256,
		}
		if r.Cost.Valid {
			c := r.Cost.Float64
			out[i].Cost = &c
		}
	}
	return out, nil
}

// trajectoryScrubBatch is how many trajectories ScrubTrajectoriesOnce reads
// at a time.
const trajectoryScrubBatch = 2048

// ScrubTrajectoriesOnce passes the extra, reward_info and error of every
// stored trajectory through scrub and stores what it changed, then records
// task as done, all in one transaction; once task is recorded it does
// nothing. It returns how many trajectories changed. Writing commands call
// it so that files made before a redaction rule lose what it covers.
func (db *DB) ScrubTrajectoriesOnce(ctx context.Context, task string, scrub func(*emobench.Trajectory)) (int, error) {
	changed := 0
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		if n, err := q.CountMaintenance(ctx, task); err != nil || n > 0 {
			return err
		}
		after := int64(math.MinInt64)
		for {
			rows, err := q.ListTrajectoryTexts(ctx, sqlcdb.ListTrajectoryTextsParams{AfterID: after, BatchSize: trajectoryScrubBatch})
			if err != nil || len(rows) == 0 {
				if err != nil {
					return err
				}
				break
			}
			for _, r := range rows {
				n, err := scrubTrajectoryRow(ctx, q, r, scrub)
				if err != nil {
					return fmt.Errorf("trajectory %d: %w", r.ID, err)
				}
				changed += n
			}
			after = rows[len(rows)-1].ID
		}
		return q.MarkMaintenance(ctx, sqlcdb.MarkMaintenanceParams{Task: task, DoneAt: time.Now().UTC().Format(time.RFC3339)})
	})
	return changed, err
}

// scrubTrajectoryRow stores scrub's changes to one row; 1 when it changed.
func scrubTrajectoryRow(ctx context.Context, q *sqlcdb.Queries, r sqlcdb.ListTrajectoryTextsRow, scrub func(*emobench.Trajectory)) (int, error) {
	t := emobench.Trajectory{Error: r.Error.String}
	if r.Extra.Valid {
		t.Extra = json.RawMessage(r.Extra.String)
	}
	if r.RewardInfo.Valid {
		t.RewardInfo = json.RawMessage(r.RewardInfo.String)
	}
	scrub(&t)
	if string(t.Extra) == r.Extra.String && string(t.RewardInfo) == r.RewardInfo.String && t.Error == r.Error.String {
		return 0, nil
	}
	return 1, q.UpdateTrajectoryTexts(ctx, sqlcdb.UpdateTrajectoryTextsParams{
		Extra:      sql.NullString{String: string(t.Extra), Valid: r.Extra.Valid},
		RewardInfo: sql.NullString{String: string(t.RewardInfo), Valid: r.RewardInfo.Valid},
		Error:      sql.NullString{String: t.Error, Valid: r.Error.Valid},
		ID:         r.ID,
	})
}

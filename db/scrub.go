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
	"github.com/emobench/emobench/redact"
)

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

// ScrubMessagesOnce passes the content of every stored message through
// scrub and stores what it changed, then records task as done, all in one
// transaction; once task is recorded it does nothing. It returns how many
// messages changed. Writing commands call it so that files made before
// message content was redacted lose the credentials it holds.
func (db *DB) ScrubMessagesOnce(ctx context.Context, task string, scrub func(string) string) (int, error) {
	changed := 0
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		if n, err := q.CountMaintenance(ctx, task); err != nil || n > 0 {
			return err
		}
		for after := int64(math.MinInt64); ; {
			rows, err := q.ListMessageContents(ctx, sqlcdb.ListMessageContentsParams{AfterID: after, BatchSize: trajectoryScrubBatch})
			if err != nil {
				return err
			}
			if len(rows) == 0 {
				break
			}
			for _, r := range rows {
				if clean := scrub(r.Content.String); clean != r.Content.String {
					if err := q.UpdateMessageContent(ctx, sqlcdb.UpdateMessageContentParams{Content: sql.NullString{String: clean, Valid: true}, ID: r.ID}); err != nil {
						return fmt.Errorf("message %d: %w", r.ID, err)
					}
					changed++
				}
			}
			after = rows[len(rows)-1].ID
		}
		return q.MarkMaintenance(ctx, sqlcdb.MarkMaintenanceParams{Task: task, DoneAt: time.Now().UTC().Format(time.RFC3339)})
	})
	return changed, err
}

// TrajectoryRedaction and MessageRedaction name the one-time redactions
// of stored trajectories and message content in the maintenance table; a
// new name reruns one after the rules change (-2: named values, argument
// lists, Bearer tokens, quoted keys in text, pwd, OAuth codes; -3 and
// messages -2: provider key formats, quoted flag values, tuples, Name/Value
// in any case, credential labels in content, config kwargs).
const (
	TrajectoryRedaction = "redact-trajectories-3"
	MessageRedaction    = "redact-messages-2"
)

// Scrub redacts credentials in the run configs of the database at path
// (with redact.Config) and, once per file, in the trajectories (with
// cleanTrajectory) and message content (with redact.Content) an older
// emobench stored. It returns a note per change, in order, up to the first
// error.
func (db *DB) Scrub(ctx context.Context, path string, cleanTrajectory func(*emobench.Trajectory)) ([]string, error) {
	var notes []string
	found, err := db.ScrubRunConfigs(ctx, redact.Config)
	for _, f := range found {
		notes = append(notes, fmt.Sprintf("%s: %s held a credential: now %q", path, f, redact.Placeholder))
	}
	if err != nil {
		return notes, err
	}
	n, err := db.ScrubTrajectoriesOnce(ctx, TrajectoryRedaction, cleanTrajectory)
	if n > 0 {
		notes = append(notes, fmt.Sprintf("%s: credentials redacted in the extra, reward_info or error of %s stored by an older emobench", path, countOf(n, "trajectory", "trajectories")))
	}
	if err != nil {
		return notes, err
	}
	n, err = db.ScrubMessagesOnce(ctx, MessageRedaction, redact.Content)
	if n > 0 {
		notes = append(notes, fmt.Sprintf("%s: credentials redacted in the content of %s stored by an older emobench", path, countOf(n, "message", "messages")))
	}
	return notes, err
}

// countOf is n with the singular or plural noun.
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

package db

import (
	"context"
	"database/sql"
	"fmt"

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
			Cost: floatPtr(r.Cost),
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
			Cost: floatPtr(r.Cost),
		}
	}
	return out, nil
}

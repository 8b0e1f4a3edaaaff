package db

import (
	"context"
	"database/sql"
	"errors"
)

// stmtCache is a transaction that prepares each statement at its first
// use and reuses it after: an ingest runs the same few inserts for every
// trajectory and message, and preparing every query of the package up
// front (sqlcdb.Prepare) costs more than a small run's ingest. Close
// closes the statements; the transaction stays the caller's.
type stmtCache struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

func newStmtCache(tx *sql.Tx) *stmtCache {
	return &stmtCache{tx: tx, stmts: map[string]*sql.Stmt{}}
}

func (c *stmtCache) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s, ok := c.stmts[query]; ok {
		return s, nil
	}
	s, err := c.tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.stmts[query] = s
	return s, nil
}

// ExecContext runs query's prepared statement.
func (c *stmtCache) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	s, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}

// PrepareContext prepares query anew, for a caller that closes it.
func (c *stmtCache) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return c.tx.PrepareContext(ctx, query)
}

// QueryContext runs query's prepared statement.
func (c *stmtCache) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

// QueryRowContext runs query's prepared statement. A statement that does
// not prepare is run unprepared, for its *sql.Row to carry the error.
func (c *stmtCache) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	s, err := c.stmt(ctx, query)
	if err != nil {
		return c.tx.QueryRowContext(ctx, query, args...)
	}
	return s.QueryRowContext(ctx, args...)
}

// Close closes the prepared statements.
func (c *stmtCache) Close() error {
	var errs []error
	for _, s := range c.stmts {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

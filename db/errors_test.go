package db_test

import (
	"context"
	"errors"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

func TestResolveRun_ErrNotFoundTyped(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	_, err := store.ResolveRun(context.Background(), "nosuch")
	if !errors.Is(err, db.ErrNotFound) || !errors.Is(err, &emobench.Error{Code: emobench.ENOTFOUND}) {
		t.Fatalf("err = %v, want errors.Is ErrNotFound", err)
	}
	var notFound *db.RunNotFoundError
	if !errors.As(err, &notFound) || notFound.Ref != "nosuch" {
		t.Fatalf("err = %#v, want a *RunNotFoundError for %q", err, "nosuch")
	}
	if got, want := err.Error(), `no run with id or name "nosuch"`; got != want {
		t.Fatalf("message = %q, want %q (the CLI adds its own hint)", got, want)
	}
	if errors.Is(err, emobench.ErrInvalid) {
		t.Fatal("a not-found error matched ErrInvalid")
	}
}

func TestOutdatedSchemaError(t *testing.T) {
	t.Parallel()
	err := error(&db.OutdatedSchemaError{Path: "old.db", Version: 2, Want: 9})
	if got, want := err.Error(), "old.db has schema version 2, older than this emobench's 9"; got != want {
		t.Fatalf("message = %q, want %q", got, want)
	}
	if got, want := emobench.ErrorCode(err), emobench.EINVALID; got != want {
		t.Fatalf("code = %q, want %q", got, want)
	}
}

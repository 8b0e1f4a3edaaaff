package db_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// CreateTaggedRun stores a run and its tags in one transaction: a base run
// that is not stored leaves no run behind; otherwise the run reads back
// with its tags.
func TestCreateTaggedRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := MustOpenDB(t)
	run := emobench.Run{Name: "tuned", SourceFormat: emobench.SourceNative, Domain: "retail", Condition: emobench.ConditionWithEmotions}
	if _, err := store.CreateTaggedRun(ctx, run, []string{"retail"}, 99); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("base run 99: err %v, want ErrNotFound", err)
	}
	if tags, err := store.ListRunTags(ctx); err != nil || len(tags) != 0 {
		t.Fatalf("after a refused base run: runs %+v (err %v), want none", tags, err)
	}
	base, err := store.CreateTaggedRun(ctx, emobench.Run{Name: "base", SourceFormat: emobench.SourceNative, Domain: "retail"}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.CreateTaggedRun(ctx, run, []string{"retail", "airline"}, base)
	if err != nil {
		t.Fatal(err)
	}
	tags, err := store.ListRunTags(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tags) != 2 || tags[0].RunID != base || tags[0].TrainDomains != nil || tags[0].BaseRunID != 0 ||
		tags[1].RunID != id || !slices.Equal(tags[1].TrainDomains, []string{"retail", "airline"}) || tags[1].BaseRunID != base {
		t.Fatalf("tags %+v, want base %d untagged and run %d on [retail airline] with base %d", tags, base, id, base)
	}
}

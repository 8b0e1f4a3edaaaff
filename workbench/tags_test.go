package workbench

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// tagsDB is a fresh database with runs 1 (retail, "base"), 2 (retail,
// "tuned") and 3 (airline, "other").
func tagsDB(t *testing.T) *db.DB {
	t.Helper()
	ctx := context.Background()
	store, err := db.Open(ctx, filepath.Join(t.TempDir(), "tags.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	for _, r := range []emobench.Run{
		{Name: "base", Domain: "retail", AgentModel: "m"},
		{Name: "tuned", Domain: "retail", AgentModel: "m-ft"},
		{Name: "other", Domain: "airline", AgentModel: "m"},
	} {
		if _, err := store.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	return store
}

func storedTags(t *testing.T, store *db.DB, id int64) Tags {
	t.Helper()
	tags, err := currentTags(context.Background(), store, id)
	if err != nil {
		t.Fatal(err)
	}
	return tags
}

func TestTagRun_OK(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := tagsDB(t)
	tags, notes, err := TagRun(ctx, store, 2, TagEdit{TrainDomains: []string{"retail, retail", "airline"}, SetTrainDomains: true, BaseRun: "base", SetBaseRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tags.String(), "train domains [retail airline], base run 1"; got != want || len(notes) != 0 {
		t.Fatalf("tags %q notes %q, want %q and none", got, notes, want)
	}
	// A tag not named keeps its value.
	tags, _, err = TagRun(ctx, store, 2, TagEdit{Remove: []string{"base-run"}})
	if got, want := tags.String(), "train domains [retail airline], no base run"; err != nil || got != want {
		t.Fatalf("after --remove base-run: %q, %v; want %q", got, err, want)
	}
	if got := storedTags(t, store, 2); !slices.Equal(got.TrainDomains, []string{"retail", "airline"}) || got.BaseRunID != 0 {
		t.Fatalf("stored %+v", got)
	}
	tags, _, err = TagRun(ctx, store, 2, TagEdit{BaseRun: "1", SetBaseRun: true, Remove: []string{"train-domains"}})
	if got, want := tags.String(), "no train domains, base run 1"; err != nil || got != want {
		t.Fatalf("after --base-run 1 --remove train-domains: %q, %v; want %q", got, err, want)
	}
	tags, _, err = TagRun(ctx, store, 2, TagEdit{Remove: []string{"all"}})
	if got, want := tags.String(), "no train domains, no base run"; err != nil || got != want {
		t.Fatalf("after --remove all: %q, %v; want %q", got, err, want)
	}
	if got := storedTags(t, store, 2); got.TrainDomains != nil || got.BaseRunID != 0 {
		t.Fatalf("stored after --remove all: %+v", got)
	}
}

// Unlikely tags are stored, with a note each.
func TestTagRun_UnlikelyTagNotes(t *testing.T) {
	t.Parallel()
	tags, notes, err := TagRun(context.Background(), tagsDB(t), 2, TagEdit{TrainDomains: []string{"retial"}, SetTrainDomains: true, BaseRun: "other", SetBaseRun: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`no run in this database is on domain "retial" (a typo?); tagged anyway`,
		"base run 3 is on domain airline, run 2 on retail: stats generalization compares runs domain by domain",
	}
	if !slices.Equal(notes, want) || tags.BaseRunID != 3 {
		t.Fatalf("tags %+v notes %q, want base 3 and %q", tags, notes, want)
	}
}

func TestTagRun_ErrEdit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		edit TagEdit
		want string
	}{
		{TagEdit{Remove: []string{"colour"}}, `remove "colour": tags are train-domains, base-run and all`},
		{TagEdit{}, "runs tag needs train-domains, base-run and/or remove"},
		{TagEdit{BaseRun: "1", SetBaseRun: true, Remove: []string{"base"}}, "runs tag cannot both set and remove the same tag"},
		{TagEdit{TrainDomains: []string{"retail"}, SetTrainDomains: true, Remove: []string{"base-run,all"}}, "runs tag cannot both set and remove the same tag"},
		{TagEdit{BaseRun: "tuned", SetBaseRun: true}, "a run cannot be its own base"},
		{TagEdit{TrainDomains: []string{" , "}, SetTrainDomains: true}, "train-domains is empty: give the domains, e.g. retail,airline"},
	}
	for _, tt := range tests {
		store := tagsDB(t)
		if err := store.TagRun(context.Background(), 2, []string{"airline"}, 3); err != nil {
			t.Fatal(err)
		}
		_, _, err := TagRun(context.Background(), store, 2, tt.edit)
		if !errors.Is(err, emobench.ErrRequest) || err.Error() != tt.want {
			t.Errorf("TagRun(%+v) = %v, want EREQUEST error %q", tt.edit, err, tt.want)
		}
		if got := storedTags(t, store, 2); !slices.Equal(got.TrainDomains, []string{"airline"}) || got.BaseRunID != 3 {
			t.Errorf("TagRun(%+v) changed the stored tags to %+v", tt.edit, got)
		}
	}
}

// An unknown base run is the database's error, not an edit's mistake.
func TestTagRun_ErrUnknownBase(t *testing.T) {
	t.Parallel()
	_, _, err := TagRun(context.Background(), tagsDB(t), 2, TagEdit{BaseRun: "nosuch", SetBaseRun: true})
	var notFound *db.RunNotFoundError
	if !errors.As(err, &notFound) || errors.Is(err, emobench.ErrRequest) {
		t.Fatalf("TagRun(base nosuch) = %v, want a *db.RunNotFoundError", err)
	}
}

func TestTagEdit_Check(t *testing.T) {
	t.Parallel()
	if err := (TagEdit{Remove: []string{"train-domains", "base"}}).Check(); err != nil {
		t.Errorf("Check(remove train-domains, base) = %v", err)
	}
	if err := (TagEdit{Remove: []string{"x"}}).Check(); err == nil {
		t.Errorf("Check(remove x) = nil, want an error")
	}
}

func TestRunEdit_Metadata(t *testing.T) {
	t.Parallel()
	name, blank, cond, badCond := " gpt-4o-retail ", "  ", "with-emotions", "happy"
	m, err := RunEdit{Name: &name, Condition: &cond}.Metadata()
	if err != nil || m.Name == nil || *m.Name != "gpt-4o-retail" || m.Condition == nil || *m.Condition != emobench.Condition("with-emotions") || m.AgentModel != nil || m.UserModel != nil {
		t.Fatalf("Metadata = %+v, %v; want name gpt-4o-retail (trimmed) and condition with-emotions only", m, err)
	}
	for _, tt := range []struct {
		edit RunEdit
		want string
	}{
		{RunEdit{AgentModel: &blank}, "model is empty"},
		{RunEdit{UserModel: &blank}, "user-model is empty"},
		{RunEdit{}, "runs set needs at least one of name, model, user-model, condition"},
	} {
		_, err := tt.edit.Metadata()
		if !errors.Is(err, emobench.ErrRequest) || err.Error() != tt.want {
			t.Errorf("Metadata(%+v) = %v, want EREQUEST error %q", tt.edit, err, tt.want)
		}
	}
	if _, err := (RunEdit{Condition: &badCond}).Metadata(); err == nil || !strings.HasPrefix(err.Error(), `condition "happy"`) {
		t.Errorf("Metadata(condition happy) = %v, want a condition error", err)
	}
}

func TestSetRunMetadata(t *testing.T) {
	t.Parallel()
	model := "m-ft-v2"
	m, err := RunEdit{AgentModel: &model}.Metadata()
	if err != nil {
		t.Fatal(err)
	}
	store := tagsDB(t)
	r, err := SetRunMetadata(context.Background(), store, 2, m)
	if err != nil || r.ID != 2 || r.Name != "tuned" || r.AgentModel != "m-ft-v2" || r.Domain != "retail" {
		t.Fatalf("SetRunMetadata = %+v, %v; want run 2 tuned with model m-ft-v2", r, err)
	}
	if _, err := SetRunMetadata(context.Background(), store, 99, m); !errors.Is(err, emobench.ErrNotFound) {
		t.Errorf("SetRunMetadata(99) = %v, want ErrNotFound", err)
	}
}

func TestRemoveRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := tagsDB(t)
	if _, _, _, err := RemoveRuns(ctx, store, []string{"3", "nosuch"}); err == nil {
		t.Fatal("RemoveRuns(3, nosuch) = nil error, want the unknown run's")
	}
	ids, _, _, err := RemoveRuns(ctx, store, []string{"other", "1", "3", "base"})
	if err != nil || !slices.Equal(ids, []int64{1, 3}) {
		t.Fatalf("RemoveRuns(other 1 3 base) = %v, %v; want [1 3]", ids, err)
	}
	runs, err := store.ListRuns(ctx)
	if err != nil || len(runs) != 1 || runs[0].ID != 2 {
		t.Fatalf("runs left: %+v, %v; want run 2 alone", runs, err)
	}
}

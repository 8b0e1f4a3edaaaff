package workbench

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/tracer"
)

// TagEdit is a change to a run's generalization tags, as `runs tag` takes
// it: set the train domains and/or the base run, and clear tags by name. A
// tag it does not name keeps its stored value.
type TagEdit struct {
	// TrainDomains are the domains the model was trained on, each element
	// possibly a comma-separated list; used when SetTrainDomains.
	TrainDomains    []string
	SetTrainDomains bool
	// BaseRun is the base (untuned) run's id or name; used when SetBaseRun.
	BaseRun    string
	SetBaseRun bool
	// Remove names the tags to clear: train-domains, base-run (or its old
	// name base) or all, each element possibly a comma-separated list.
	Remove []string
}

// Tags are a run's generalization tags after an edit.
type Tags struct {
	RunID        int64
	TrainDomains []string // nil: no train domains (not a tuned model)
	BaseRunID    int64    // 0: no base run
}

// String is the tags as `runs tag` reports them: "train domains [retail],
// base run 3", or "no train domains, no base run".
func (t Tags) String() string {
	domains := fmt.Sprintf("train domains %v", t.TrainDomains)
	if t.TrainDomains == nil {
		domains = "no train domains"
	}
	base := "no base run"
	if t.BaseRunID != 0 {
		base = fmt.Sprintf("base run %d", t.BaseRunID)
	}
	return domains + ", " + base
}

// Check refuses an edit that is wrong whatever the database holds, with a
// EREQUEST error: an unknown tag name in Remove, nothing set or removed, or
// one tag both set and removed. TagRun checks it too; call it first to
// refuse such an edit before opening the database.
func (e TagEdit) Check() error {
	_, _, err := e.removes()
	return err
}

func (e TagEdit) removes() (domains, base bool, err error) {
	for _, n := range SplitList(e.Remove) {
		switch n {
		case "train-domains":
			domains = true
		case "base-run", "base":
			base = true
		case "all":
			domains, base = true, true
		default:
			return false, false, settingf("remove", "%q: tags are train-domains, base-run and all", n)
		}
	}
	switch {
	case !e.SetTrainDomains && !e.SetBaseRun && len(e.Remove) == 0:
		return false, false, requestf("runs tag needs train-domains, base-run and/or remove")
	case domains && e.SetTrainDomains, base && e.SetBaseRun:
		return false, false, requestf("runs tag cannot both set and remove the same tag")
	}
	return domains, base, nil
}

// TagRun applies edit to run id's tags and stores them. It returns the
// tags stored and notes on tags that look like typos: a train domain no
// run in store is on, or a base run of another domain (they are stored
// anyway). It fails with an EREQUEST error for a bad edit (see Check; also
// a run as its own base, or train domains that are all blank), with
// db's errors for an unknown or ambiguous base run, and stores nothing
// then.
func TagRun(ctx context.Context, store *db.DB, id int64, edit TagEdit) (Tags, []string, error) {
	removeDomains, removeBase, err := edit.removes()
	if err != nil {
		return Tags{}, nil, err
	}
	tags, err := currentTags(ctx, store, id)
	if err != nil {
		return Tags{}, nil, err
	}
	if removeDomains {
		tags.TrainDomains = nil
	}
	if removeBase {
		tags.BaseRunID = 0
	}
	if edit.SetBaseRun && edit.BaseRun != "" {
		if tags.BaseRunID, err = store.ResolveRun(ctx, edit.BaseRun); err != nil {
			return Tags{}, nil, err
		}
		if tags.BaseRunID == id {
			return Tags{}, nil, requestf("a run cannot be its own base")
		}
	}
	if edit.SetTrainDomains {
		if tags.TrainDomains = UniqueInOrder(SplitList(edit.TrainDomains)); len(tags.TrainDomains) == 0 {
			return Tags{}, nil, settingf("train-domains", "is empty: give the domains, e.g. retail,airline")
		}
	}
	notes := unlikelyTagNotes(ctx, store, tags)
	if err := store.TagRun(ctx, id, tags.TrainDomains, tags.BaseRunID); err != nil {
		return Tags{}, nil, err
	}
	return tags, notes, nil
}

// currentTags returns run id's stored tags.
func currentTags(ctx context.Context, store *db.DB, id int64) (Tags, error) {
	all, err := store.ListRunTags(ctx)
	if err != nil {
		return Tags{}, err
	}
	for _, t := range all {
		if t.RunID == id {
			return Tags{RunID: id, TrainDomains: t.TrainDomains, BaseRunID: t.BaseRunID}, nil
		}
	}
	return Tags{RunID: id}, nil
}

// unlikelyTagNotes point out tags that look like typos: a train domain no
// run has, or a base run of another domain. A failure to list the runs
// gives no notes: they are advice.
func unlikelyTagNotes(ctx context.Context, store *db.DB, tags Tags) []string {
	runs, err := store.ListRunSummaries(ctx)
	if err != nil {
		return nil
	}
	known := map[string]bool{}
	domainOf := map[int64]string{}
	for _, r := range runs {
		known[r.Domain] = true
		domainOf[r.ID] = r.Domain
	}
	var notes []string
	for _, d := range tags.TrainDomains {
		if !known[d] {
			notes = append(notes, fmt.Sprintf("no run in this database is on domain %q (a typo?); tagged anyway", d))
		}
	}
	if base, id := tags.BaseRunID, tags.RunID; base != 0 && domainOf[base] != domainOf[id] {
		notes = append(notes, fmt.Sprintf("base run %d is on domain %s, run %d on %s: stats generalization compares runs domain by domain", base, domainOf[base], id, domainOf[id]))
	}
	return notes
}

// RunEdit is a correction of a run's metadata, as `runs set` takes it:
// each non-nil field is set, and the others keep their values.
type RunEdit struct {
	Name, AgentModel, UserModel *string // spaces around them are trimmed
	Condition                   *string // with-emotions, without-emotions or none
}

// Metadata checks e and returns it as db.UpdateRunMetadata takes it. It
// fails with an EREQUEST error naming the flag of a blank field (--name,
// --model, --user-model) or an unknown condition, or when e sets nothing.
func (e RunEdit) Metadata() (db.RunMetadata, error) {
	var m db.RunMetadata
	for _, f := range []struct {
		flag  string
		value *string
		field **string
	}{{"name", e.Name, &m.Name}, {"model", e.AgentModel, &m.AgentModel}, {"user-model", e.UserModel, &m.UserModel}} {
		if f.value != nil {
			v := strings.TrimSpace(*f.value)
			if v == "" {
				return db.RunMetadata{}, settingf(f.flag, "is empty")
			}
			*f.field = &v
		}
	}
	if e.Condition != nil {
		cond, err := emobench.ParseCondition(*e.Condition)
		if err != nil {
			return db.RunMetadata{}, requestf("%v", err)
		}
		m.Condition = &cond
	}
	if m == (db.RunMetadata{}) {
		return db.RunMetadata{}, requestf("runs set needs at least one of name, model, user-model, condition")
	}
	return m, nil
}

// SetRunMetadata stores m on run id (db.UpdateRunMetadata, whose errors
// it returns) and returns the run's summary as it now reads; the zero
// RunSummary when the run is no longer listed.
func SetRunMetadata(ctx context.Context, store *db.DB, id int64, m db.RunMetadata) (db.RunSummary, error) {
	if err := store.UpdateRunMetadata(ctx, id, m); err != nil {
		return db.RunSummary{}, err
	}
	runs, err := store.ListRunSummaries(ctx)
	if err != nil {
		return db.RunSummary{}, err
	}
	for _, r := range runs {
		if r.ID == id {
			return r, nil
		}
	}
	return db.RunSummary{}, nil
}

// RemoveRuns deletes the runs refs name (ids or names; a run named twice,
// as "3 3" or by id and name, once) with their trajectories, and the tasks
// no other run uses, in one transaction (db.DeleteRuns). It returns the
// ids removed, sorted, how many tasks went, and a note per Tracer
// selection that lost trajectories (tracer.ShrunkSelections). An unknown
// or ambiguous ref is db's error, and removes nothing.
func RemoveRuns(ctx context.Context, store *db.DB, refs []string) (ids []int64, tasks int64, notes []string, err error) {
	for _, ref := range refs {
		id, err := store.ResolveRun(ctx, ref)
		if err != nil {
			return nil, 0, nil, err
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	before, _ := store.ListSelections(ctx) // the notes are a courtesy: no list, no note
	if tasks, err = store.DeleteRuns(ctx, ids); err != nil {
		return nil, 0, nil, err
	}
	if after, err := store.ListSelections(ctx); err == nil {
		notes = tracer.ShrunkSelections(before, after)
	}
	return ids, tasks, notes, nil
}

// OpenRun opens the existing database at path for writing (OpenExisting)
// and resolves ref, a run's id or name, in it; the caller closes the
// database. On error nothing is left open.
func OpenRun(ctx context.Context, path, ref string, note func(string), opts ...db.Option) (*db.DB, int64, error) {
	store, err := OpenExisting(ctx, path, note, opts...)
	if err != nil {
		return nil, 0, err
	}
	id, err := store.ResolveRun(ctx, ref)
	if err != nil {
		store.Close()
		return nil, 0, err
	}
	return store, id, nil
}

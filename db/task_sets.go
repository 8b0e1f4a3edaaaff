package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// TaskSet is a stored generation of tasks (tracer generate): its name,
// where it came from and how, and how many tasks it holds.
type TaskSet struct {
	ID               int64
	Name             string
	Source           string // "tracer"
	Domain           string
	Split            emobench.Split
	GeneratorVersion string
	// Seed is the generator's seed; SQLite stores it as the int64 of the
	// same bits, so seeds above 2⁶³ read back unchanged.
	Seed uint64
	// Params are the generation options as JSON; Rejected the rejected
	// candidates by reason, a JSON object of counts.
	Params, Rejected json.RawMessage
	CreatedAt        time.Time
	Tasks            int // tasks in the set
}

// TaskSetExistsError is CreateTaskSet's error for a name already stored
// when replace is false. errors.Is(err, emobench.ErrConflict) holds.
type TaskSetExistsError struct{ Name string }

func (e *TaskSetExistsError) Error() string {
	return fmt.Sprintf("task set %q already exists (replace it, or choose another name)", e.Name)
}

func (e *TaskSetExistsError) Unwrap() error { return emobench.ErrConflict }

// TaskSetNotFoundError is the error for a task set name not stored.
// errors.Is(err, ErrNotFound) holds.
type TaskSetNotFoundError struct{ Name string }

func (e *TaskSetNotFoundError) Error() string { return fmt.Sprintf("no task set named %q", e.Name) }

func (e *TaskSetNotFoundError) Unwrap() error { return ErrNotFound }

// CreateTaskSet stores set (its ID and Tasks are ignored; an empty Source
// is "tracer", empty Params and Rejected are {}) and its specs, in order,
// in one transaction: each spec's Task row through the same upsert runs
// use (so the content hash matches a run over the same task) and its full
// JSON. A name already stored is a *TaskSetExistsError unless replace,
// which deletes the old set (its task rows stay: runs may use them).
// Specs that fail Validate, or of another domain or split than set, are
// errors naming the task; nothing is stored then.
func (db *DB) CreateTaskSet(ctx context.Context, set TaskSet, specs []emobench.TaskSpec, replace bool) (int64, error) {
	if set.Name == "" || set.Domain == "" || set.GeneratorVersion == "" {
		return 0, emobench.Errorf(emobench.EINVALID, "task set: needs a name, a domain and a generator version")
	}
	if set.Source == "" {
		set.Source = "tracer"
	}
	if set.CreatedAt.IsZero() {
		set.CreatedAt = time.Now()
	}
	params, rejected := orJSON(set.Params, "{}"), orJSON(set.Rejected, "{}")
	if !json.Valid(params) || !json.Valid(rejected) {
		return 0, emobench.Errorf(emobench.EINVALID, "task set %s: params and rejected must be JSON", set.Name)
	}
	raws := make([][]byte, len(specs))
	for i := range specs {
		s := &specs[i]
		if err := s.Validate(); err != nil {
			return 0, emobench.Errorf(emobench.EINVALID, "task set %s: task %d: %v", set.Name, i, err)
		}
		if s.Domain != set.Domain || s.Split != set.Split {
			return 0, emobench.Errorf(emobench.EINVALID, "task set %s: task %s is %s/%s, not %s/%s", set.Name, s.ID, s.Domain, s.Split, set.Domain, set.Split)
		}
		b, err := json.Marshal(s)
		if err != nil {
			return 0, fmt.Errorf("task set %s: task %s: %w", set.Name, s.ID, err)
		}
		raws[i] = b
	}
	var id int64
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		old, err := q.FindTaskSetByName(ctx, set.Name)
		switch {
		case err == nil && !replace:
			return &TaskSetExistsError{Name: set.Name}
		case err == nil:
			if err := q.DeleteTaskSetTasks(ctx, old.ID); err != nil {
				return err
			}
			if err := q.DeleteTaskSet(ctx, old.ID); err != nil {
				return err
			}
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		id, err = q.CreateTaskSet(ctx, sqlcdb.CreateTaskSetParams{
			Name: set.Name, Source: set.Source, Domain: set.Domain, Split: string(set.Split),
			GeneratorVersion: set.GeneratorVersion, Seed: int64(set.Seed),
			Params: string(params), Rejected: string(rejected),
			CreatedAt: set.CreatedAt.UTC().Format(time.RFC3339),
		})
		if err != nil {
			return err
		}
		w := &runWriter{ctx: ctx, q: q, tasks: map[string]storedTask{}}
		for i := range specs {
			task := specs[i].Task()
			taskID, err := w.upsertTask(&task)
			if err != nil {
				return fmt.Errorf("task set %s: task %s: %w", set.Name, specs[i].ID, err)
			}
			if err := q.AddTaskSetTask(ctx, sqlcdb.AddTaskSetTaskParams{TaskSetID: id, Idx: int64(i), TaskID: taskID, Spec: string(raws[i])}); err != nil {
				return fmt.Errorf("task set %s: task %s: %w", set.Name, specs[i].ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// FindTaskSet returns the task set named name, or a
// *TaskSetNotFoundError.
func (db *DB) FindTaskSet(ctx context.Context, name string) (TaskSet, error) {
	row, err := db.queries.FindTaskSetByName(ctx, name)
	if errors.Is(err, sql.ErrNoRows) {
		return TaskSet{}, &TaskSetNotFoundError{Name: name}
	}
	if err != nil {
		return TaskSet{}, err
	}
	return taskSetOf(sqlcdb.ListTaskSetsRow(row)), nil
}

// LoadTaskSet returns the task set named name and its specs in order
// (each decoded as sim.DecodeTasks would: Validate must pass). A spec
// that does not decode is an error naming the set and the task's index.
func (db *DB) LoadTaskSet(ctx context.Context, name string) (TaskSet, []emobench.TaskSpec, error) {
	set, err := db.FindTaskSet(ctx, name)
	if err != nil {
		return set, nil, err
	}
	rows, err := db.queries.ListTaskSetSpecs(ctx, set.ID)
	if err != nil {
		return set, nil, err
	}
	specs := make([]emobench.TaskSpec, len(rows))
	for i, r := range rows {
		if err := json.Unmarshal([]byte(r.Spec), &specs[i]); err != nil {
			return set, nil, fmt.Errorf("task set %s: task %d: %w", name, r.Idx, err)
		}
		if err := specs[i].Validate(); err != nil {
			return set, nil, fmt.Errorf("task set %s: task %d: %w", name, r.Idx, err)
		}
	}
	return set, specs, nil
}

// ListTaskSets returns every stored task set, by name.
func (db *DB) ListTaskSets(ctx context.Context) ([]TaskSet, error) {
	rows, err := db.queries.ListTaskSets(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]TaskSet, len(rows))
	for i, r := range rows {
		out[i] = taskSetOf(r)
	}
	return out, nil
}

func taskSetOf(r sqlcdb.ListTaskSetsRow) TaskSet {
	created, _ := time.Parse(time.RFC3339, r.CreatedAt)
	return TaskSet{
		ID: r.ID, Name: r.Name, Source: r.Source, Domain: r.Domain, Split: emobench.Split(r.Split),
		GeneratorVersion: r.GeneratorVersion, Seed: uint64(r.Seed),
		Params: json.RawMessage(r.Params), Rejected: json.RawMessage(r.Rejected),
		CreatedAt: created, Tasks: int(r.Tasks),
	}
}

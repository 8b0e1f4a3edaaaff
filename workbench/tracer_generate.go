package workbench

import (
	"context"
	"errors"
	"os"

	"github.com/emobench/emobench/db"
)

// StoredTaskSet returns the task set name the database at path holds, so
// that tracer generate can refuse the name before generating anything. A
// database that is not there yet, or not of the current schema (storing
// migrates it), holds none that matters now, and neither does one without
// that name: nil, nil. Storing still refuses a name stored meanwhile.
func StoredTaskSet(ctx context.Context, path, name string) (*db.TaskSet, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nil
	}
	store, err := OpenCurrent(ctx, path)
	if err != nil {
		return nil, nil
	}
	defer store.Close()
	set, err := store.FindTaskSet(ctx, name)
	var missing *db.TaskSetNotFoundError
	switch {
	case errors.As(err, &missing):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return &set, nil
}

package workbench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/sim"
)

// Task sources of RunSpec.TaskSource.
const (
	TaskSourceFile = "file"
	TaskSourceDB   = "db"
)

// TaskSource is where a run's tasks come from when not from its domains:
// a tasks file (run --tasks-file) or a stored task set (run --task-set).
type TaskSource struct {
	Kind  string // TaskSourceFile or TaskSourceDB
	Name  string // the file's path or the task set's name
	Tasks []emobench.TaskSpec
	// SHA256 is the hex sha256 of the file's bytes, or of the task set's
	// specs as one JSON array (encoding/json, as tracer collect records
	// it): a resume checks it.
	SHA256 string
}

// ReadTasksFile reads a JSON tasks file (sim.DecodeTasks: each task
// validated) as a TaskSource named by its absolute path. Errors name the
// file, and the task by index or id; a file with no task is one, and so are
// duplicate ids and gold actions that do not replay (checkTasks). It is a
// EREQUEST error.
func ReadTasksFile(path string) (*TaskSource, error) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, settingf("tasks-file", ": %v", err)
	}
	tasks, err := sim.DecodeTasks(data)
	if err != nil {
		return nil, settingf("tasks-file", "%s: %v", path, err)
	}
	if len(tasks) == 0 {
		return nil, settingf("tasks-file", "%s: no tasks", path)
	}
	src := &TaskSource{Kind: TaskSourceFile, Name: path, Tasks: tasks}
	if err := checkTasks("tasks-file", path, tasks); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	src.SHA256 = hex.EncodeToString(sum[:])
	return src, nil
}

// ReadTaskSet loads the task set name from store as a TaskSource. A name
// not stored is an EREQUEST error naming it.
func ReadTaskSet(ctx context.Context, store *db.DB, name string) (*TaskSource, error) {
	_, tasks, err := store.LoadTaskSet(ctx, name)
	var missing *db.TaskSetNotFoundError
	if errors.As(err, &missing) {
		return nil, settingf("task-set", ": %v (store one with emobench tracer generate)", err)
	}
	if err != nil {
		return nil, err
	}
	if len(tasks) == 0 {
		return nil, settingf("task-set", "%s: no tasks", name)
	}
	if err := checkTasks("task-set", name, tasks); err != nil {
		return nil, err
	}
	b, err := json.Marshal(tasks)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	return &TaskSource{Kind: TaskSourceDB, Name: name, Tasks: tasks, SHA256: hex.EncodeToString(sum[:])}, nil
}

// Domains returns the domains of the source's tasks, in first-seen order.
func (s *TaskSource) Domains() []string {
	var names []string
	for _, t := range s.Tasks {
		names = append(names, t.Domain)
	}
	return UniqueInOrder(names)
}

// CheckDomains refuses domains (run --domain) the source holds no task
// of, with an EREQUEST error saying which it holds and the domains to
// choose: "tasks-file FILE holds only retail tasks, none of domain
// airline; choose domain retail".
// Without it, the run would find no task of such a domain. No domains (no
// --domain: the source's own are run) is nil.
func (s *TaskSource) CheckDomains(domains []string) error {
	held := s.Domains()
	for _, d := range domains {
		if !slices.Contains(held, d) {
			hint := "choose domain " + strings.Join(held, ",")
			if len(held) > 1 {
				hint += ", or none to run them all"
			}
			setting, name := s.describe()
			return settingf(setting, "%s holds only %s tasks, none of domain %s; %s", name, joinAnd(held), d, hint)
		}
	}
	return nil
}

// joinAnd is "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// Split returns the split all the source's tasks share, or "" when they
// mix splits.
func (s *TaskSource) Split() emobench.Split {
	for _, t := range s.Tasks {
		if t.Split != s.Tasks[0].Split {
			return ""
		}
	}
	return s.Tasks[0].Split
}

// Record writes the source into each plan's spec and run config, so that
// --resume finds the same tasks.
func (s *TaskSource) Record(plans []sim.PlannedRun) {
	for i := range plans {
		plans[i].Spec.TaskSource, plans[i].Spec.TaskSet, plans[i].Spec.TaskSetSHA256 = s.Kind, s.Name, s.SHA256
		plans[i].Run.Config = plans[i].Spec.Encode()
	}
}

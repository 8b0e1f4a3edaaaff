// Package airline is τ-Emotion-Bench's airline domain, written afresh in
// the spirit of τ-bench's: an agent of Larkspur Air books, changes and
// cancels flight reservations and handles complaints under a written
// policy. The package holds the seeded database generator (GenerateDB), the
// tools over it (Tools), the policy (policy.md) and the test tasks
// (tasks.json, written by BuildTasks through `go generate`).
package airline

//go:generate go run ./gen

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// Name is the domain's name.
const Name = "airline"

// TaskSeed and TestTasks are the seed and size of the embedded test split:
// tasks.json is BuildTasks(GenerateDB(DefaultSeed), TaskSeed, TestTasks,
// emobench.SplitTest).
const (
	TaskSeed  uint64 = 7
	TestTasks        = 40
)

//go:embed policy.md
var policy string

//go:embed tasks.json
var tasksJSON []byte

// baseDB is the initial database, generated once; environments get clones.
var baseDB = sync.OnceValue(func() *DB { return GenerateDB(DefaultSeed) })

// embeddedTasks decodes tasks.json once.
var embeddedTasks = sync.OnceValues(func() ([]emobench.TaskSpec, error) { return DecodeTasks(tasksJSON) })

// New returns the airline domain. It panics if the embedded tasks.json is
// malformed, which the package's tests rule out.
func New() sim.Domain {
	tasks, err := embeddedTasks()
	if err != nil {
		panic(fmt.Sprintf("airline: embedded tasks.json: %v", err))
	}
	return &domain{tasks: tasks}
}

type domain struct {
	tasks []emobench.TaskSpec
}

// Name returns "airline".
func (d *domain) Name() string { return Name }

// Policy returns the agent's policy, in markdown.
func (d *domain) Policy() string { return policy }

// NewEnvironment returns an environment over a fresh copy of the database
// generated from DefaultSeed.
func (d *domain) NewEnvironment() sim.Environment {
	return sim.NewStateEnv(baseDB().Clone(), toolList)
}

// Tasks returns the embedded test tasks in a new slice; the tasks' maps and
// slices are shared and must not be modified.
func (d *domain) Tasks() []emobench.TaskSpec {
	out := make([]emobench.TaskSpec, len(d.tasks))
	copy(out, d.tasks)
	return out
}

// TransferTool returns "transfer_to_human_agents".
func (d *domain) TransferTool() string { return ToolTransferToHumanAgents }

// EncodeTasks encodes tasks as tasks.json is written: an indented JSON
// array with a final newline.
func EncodeTasks(tasks []emobench.TaskSpec) ([]byte, error) {
	b, err := json.MarshalIndent(tasks, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode tasks: %w", err)
	}
	return append(b, '\n'), nil
}

// DecodeTasks decodes a JSON array of tasks, validates each, and compacts
// each action's arguments.
func DecodeTasks(b []byte) ([]emobench.TaskSpec, error) {
	var tasks []emobench.TaskSpec
	if err := json.Unmarshal(b, &tasks); err != nil {
		return nil, fmt.Errorf("decode tasks: %w", err)
	}
	for i := range tasks {
		if err := tasks[i].Validate(); err != nil {
			return nil, fmt.Errorf("decode tasks: task %d: %w", i, err)
		}
		for j, a := range tasks[i].Actions {
			var buf bytes.Buffer
			if err := json.Compact(&buf, a.Arguments); err != nil {
				return nil, fmt.Errorf("decode tasks: task %s: action %d: %w", tasks[i].ID, j, err)
			}
			tasks[i].Actions[j].Arguments = buf.Bytes()
		}
	}
	return tasks, nil
}

// Package retail is the retail domain of τ-Emotion-Bench, written in the
// spirit of τ-bench's retail domain: an online store's customer service,
// with users, products, orders, a policy full of traps, fifteen tools and
// tasks grounded in a seeded database.
//
// The initial database is GenerateDB(Seed); every environment gets its own
// deep copy. The embedded test tasks are BuildTasks(GenerateDB(Seed),
// TestTaskSeed, NumTestTasks, emobench.SplitTest); rebuild tasks.json with
// `go generate ./domains/retail`.
package retail

//go:generate go run ./gen -out tasks.json

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// Name is the domain's name.
const Name = "retail"

//go:embed policy.md
var policy string

//go:embed tasks.json
var tasksJSON []byte

// initialDB is GenerateDB(Seed), made once; it is never handed out, only
// copied.
var initialDB = sync.OnceValue(func() *DB { return GenerateDB(Seed) })

// embeddedTasks decodes tasks.json once. A decoding failure is a build bug
// (the file is generated and checked by the tests), so it panics.
var embeddedTasks = sync.OnceValue(func() []emobench.TaskSpec {
	tasks, err := DecodeTasks(tasksJSON)
	if err != nil {
		panic(fmt.Sprintf("retail: embedded tasks.json: %v", err))
	}
	return tasks
})

// InitialDB returns a fresh deep copy of the initial database,
// GenerateDB(Seed).
func InitialDB() *DB { return initialDB().Clone() }

// NewEnvironment returns an environment over db with the retail tools. The
// environment changes db in place; pass a copy to keep db.
func NewEnvironment(db *DB) *sim.StateEnv[DB] { return sim.NewStateEnv(db, tools) }

// EncodeTasks encodes tasks as tasks.json stores them: an indented JSON
// array with a final newline.
func EncodeTasks(tasks []emobench.TaskSpec) ([]byte, error) {
	b, err := json.MarshalIndent(tasks, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode tasks: %w", err)
	}
	return append(b, '\n'), nil
}

// DecodeTasks decodes a JSON array of tasks and validates each.
func DecodeTasks(data []byte) ([]emobench.TaskSpec, error) {
	var tasks []emobench.TaskSpec
	if err := json.Unmarshal(data, &tasks); err != nil {
		return nil, fmt.Errorf("decode tasks: %w", err)
	}
	for i := range tasks {
		if err := tasks[i].Validate(); err != nil {
			return nil, fmt.Errorf("task %d: %w", i, err)
		}
	}
	return tasks, nil
}

type domain struct{}

// New returns the retail domain.
func New() sim.Domain { return domain{} }

// Name returns "retail".
func (domain) Name() string { return Name }

// Policy returns the agent's policy, policy.md.
func (domain) Policy() string { return policy }

// NewEnvironment returns an environment over a fresh copy of the initial
// database.
func (domain) NewEnvironment() sim.Environment { return NewEnvironment(InitialDB()) }

// Tasks returns the embedded test tasks (a new slice; the specs' maps and
// raw arguments are shared and must not be changed).
func (domain) Tasks() []emobench.TaskSpec { return slices.Clone(embeddedTasks()) }

// TransferTool returns "transfer_to_human_agents".
func (domain) TransferTool() string { return ToolTransfer }

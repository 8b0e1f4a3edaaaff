// Package airline is τ-Emotion-Bench's airline domain, written afresh in
// the spirit of τ-bench's: an agent of Larkspur Air books, changes and
// cancels flight reservations and handles complaints under a written
// policy. The package holds the seeded database generator (GenerateDB), the
// tools over it (Tools), the policy (policy.md) and the test tasks
// (tasks.json, written by BuildTasks through `go generate`). The package
// follows the layout of domains/README.md.
package airline

//go:generate go run ./gen

import (
	_ "embed"
	"sync"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// Name is the domain's name.
const Name = "airline"

//go:embed policy.md
var policy string

//go:embed tasks.json
var tasksJSON []byte

// initialDB is GenerateDB(Seed), made once; it is never handed out, only
// copied.
var initialDB = sync.OnceValue(func() *DB { return GenerateDB(Seed) })

// embeddedTasks decodes tasks.json once.
var embeddedTasks = sim.EmbeddedTasks(Name, tasksJSON)

// InitialDB returns a fresh deep copy of the initial database,
// GenerateDB(Seed).
func InitialDB() *DB { return initialDB().Clone() }

// NewEnvironment returns an environment over db with the airline tools.
// The environment changes db in place; pass a copy to keep db.
func NewEnvironment(db *DB) *sim.StateEnv[DB] { return sim.NewStateEnv(db, tools) }

type domain struct{}

// New returns the airline domain.
func New() sim.Domain { return domain{} }

// Name returns "airline".
func (domain) Name() string { return Name }

// Policy returns the agent's policy, policy.md.
func (domain) Policy() string { return policy }

// NewEnvironment returns an environment over a fresh copy of the initial
// database.
func (domain) NewEnvironment() sim.Environment { return NewEnvironment(InitialDB()) }

// Tasks returns the embedded test tasks (a new slice; the specs' maps and
// raw arguments are shared and must not be changed).
func (domain) Tasks() []emobench.TaskSpec { return embeddedTasks() }

// TransferTool returns "transfer_to_human_agents".
func (domain) TransferTool() string { return ToolTransfer }

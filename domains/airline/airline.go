// Package airline is τ-Emotion-Bench's airline domain, written afresh in
// the spirit of τ-bench's: an agent of Larkspur Air books, changes and
// cancels flight reservations and handles complaints under a written
// policy. The package holds the seeded database generator (GenerateDB), the
// tools over it (Tools), the policy (policy.md), the intent catalog Tracer
// generates tasks from (Catalog) and those tasks: tasks.json (test) and
// tasks_train.json (train), written by ./gen through `go generate`. The
// package follows the layout of domains/README.md.
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

//go:embed tasks_train.json
var trainTasksJSON []byte

// initialDB is GenerateDB(Seed), made once; it is never handed out, only
// copied.
var initialDB = sync.OnceValue(func() *DB { return GenerateDB(Seed) })

// embeddedTasks decodes tasks.json and tasks_train.json once and returns
// the test tasks, then the train tasks.
var embeddedTasks = func() func() []emobench.TaskSpec {
	test, train := sim.EmbeddedTasks(Name, tasksJSON), sim.EmbeddedTasks(Name+" train", trainTasksJSON)
	return func() []emobench.TaskSpec { return append(test(), train()...) }
}()

// InitialDB returns a fresh deep copy of the initial database,
// GenerateDB(Seed).
func InitialDB() *DB { return initialDB().Clone() }

// episodeDB is the database of one episode's environment: a
// copy-on-write clone of the initial database (DB.episodeClone), as equal
// to InitialDB() as a deep copy and cheaper to make and to hash.
func episodeDB() *DB { return initialDB().episodeClone() }

// NewEnvironment returns an environment over db with the airline tools.
// The environment changes db in place; pass a copy to keep db.
func NewEnvironment(db *DB) *sim.StateEnv[DB] { return sim.NewStateEnv(db, tools()) }

// New returns the airline domain. It is a sim.CatalogDomain: its
// Catalog() is the package's Catalog, which Tracer generates tasks from.
func New() sim.Domain {
	return catalogDomain{sim.NewStateDomain(Name, policy, episodeDB, tools(), embeddedTasks, ToolTransfer)}
}

// catalogDomain is the state domain with its intent catalog.
type catalogDomain struct{ sim.Domain }

// Catalog returns the airline's intent catalog (see Catalog).
func (catalogDomain) Catalog() *sim.Catalog { return Catalog() }

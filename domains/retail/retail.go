// Package retail is the retail domain of τ-Emotion-Bench, written in the
// spirit of τ-bench's retail domain: an online store's customer service,
// with users, products, orders, a policy full of traps, fifteen tools and
// tasks grounded in a seeded database.
//
// The initial database is GenerateDB(Seed); every environment gets its own
// deep copy. The embedded test tasks are BuildTasks(GenerateDB(Seed),
// TestTaskSeed, NumTestTasks, emobench.SplitTest); rebuild tasks.json with
// `go generate ./domains/retail`. The package follows the layout of
// domains/README.md.
package retail

//go:generate go run ./gen

import (
	_ "embed"
	"sync"

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

// embeddedTasks decodes tasks.json once.
var embeddedTasks = sim.EmbeddedTasks(Name, tasksJSON)

// InitialDB returns a fresh deep copy of the initial database,
// GenerateDB(Seed).
func InitialDB() *DB { return initialDB().Clone() }

// episodeDB is the database of one episode's environment: a
// copy-on-write clone of the initial database (DB.episodeClone), as equal
// to InitialDB() as a deep copy and cheaper to make and to hash.
func episodeDB() *DB { return initialDB().episodeClone() }

// NewEnvironment returns an environment over db with the retail tools. The
// environment changes db in place; pass a copy to keep db.
func NewEnvironment(db *DB) *sim.StateEnv[DB] { return sim.NewStateEnv(db, tools()) }

// New returns the retail domain; it is a sim.CatalogDomain, whose
// Catalog is the package's Catalog().
func New() sim.Domain {
	return catalogDomain{sim.NewStateDomain(Name, policy, episodeDB, tools(), embeddedTasks, ToolTransfer)}
}

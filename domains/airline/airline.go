// Package airline is τ-Emotion-Bench's airline domain, written afresh in
// the spirit of τ-bench's: an agent of Larkspur Air books, changes and
// cancels flight reservations and handles complaints under a written
// policy. The package holds the seeded database generator (GenerateDB), the
// tools over it (Tools), the policy (policy.md), the intent catalog Tracer
// generates tasks from (Catalog) and those tasks: tasks.json (test) and
// tasks_train.json (train), written through `go generate`. Data it embeds:
// the tools (tools.json), the intents' wording (intents.json), and the
// airports, names and phrases the generator and grounders draw from
// (words.json). The package follows the layout of domains/README.md.
package airline

//go:generate go run ../../tracer/gentasks -domain airline

import (
	_ "embed"
	"sync"

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

// The embedded task sets: the seed and size of the test tasks (tasks.json)
// and of the train tasks (tasks_train.json).
const (
	TestTaskSeed  uint64 = 7
	NumTestTasks         = 60
	TrainTaskSeed uint64 = 8
	NumTrainTasks        = 500
)

// initialDB is GenerateDB(Seed), made once: the domain's frozen initial
// state, which the grounders also read to tell a row an earlier intent
// changed. Nothing changes it: episodes write to their forks.
var initialDB = sync.OnceValue(func() *DB { return GenerateDB(Seed) })

// New returns the airline domain: a sim.CatalogDomain whose Catalog() is
// the package's Catalog, which Tracer generates tasks from. Its test split
// is generated with refusals and transfers spread over their intents and
// enough of them that each of the 6 forbidden intents and 2 transfer
// triggers can come twice (issue 21's test shares).
func New() sim.Domain { return domain() }

// domain is made once (domains/README.md): its initial state, generated
// on first use, is shared by every episode of every caller.
var domain = sync.OnceValue(func() sim.Domain {
	return sim.NewDomain(sim.DomainSpec[DB]{
		Name:         Name,
		Policy:       policy,
		Initial:      initialDB,
		Tools:        Tools(),
		TransferTool: ToolTransfer,
		Catalog:      Catalog,
		TaskSets: sim.TaskSets{
			Test:       sim.TaskSet{File: "tasks.json", Data: tasksJSON, Count: NumTestTasks, Seed: TestTaskSeed},
			Train:      sim.TaskSet{File: "tasks_train.json", Data: trainTasksJSON, Count: NumTrainTasks, Seed: TrainTaskSeed},
			Generation: sim.Generation{ForbiddenShare: 0.2, TransferShare: 0.07, SpreadIntents: true},
		},
	})
})

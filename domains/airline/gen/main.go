// Command gen writes the airline domain's embedded test tasks, tasks.json:
// BuildTasks(GenerateDB(Seed), TestTaskSeed, NumTestTasks, test), encoded by
// sim.EncodeTasks. Run it with `go generate ./domains/airline`; it writes into
// the current directory unless -out says otherwise.
package main

import (
	"flag"
	"log"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/airline"
	"github.com/emobench/emobench/sim"
)

func main() {
	out := flag.String("out", "tasks.json", "the file to write")
	flag.Parse()
	tasks := airline.BuildTasks(airline.GenerateDB(airline.Seed), airline.TestTaskSeed, airline.NumTestTasks, emobench.SplitTest)
	if err := sim.WriteTasksFile(*out, tasks, airline.NumTestTasks); err != nil {
		log.Fatalf("airline gen: %v", err)
	}
}

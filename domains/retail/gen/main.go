// Command gen writes the retail domain's embedded test tasks, tasks.json:
// BuildTasks(GenerateDB(Seed), TestTaskSeed, NumTestTasks, test), encoded by
// sim.EncodeTasks. Run it with `go generate ./domains/retail`; it writes into
// the current directory unless -out says otherwise.
package main

import (
	"flag"
	"log"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/retail"
	"github.com/emobench/emobench/sim"
)

func main() {
	out := flag.String("out", "tasks.json", "the file to write")
	flag.Parse()
	tasks := retail.BuildTasks(retail.GenerateDB(retail.Seed), retail.TestTaskSeed, retail.NumTestTasks, emobench.SplitTest)
	if err := sim.WriteTasksFile(*out, tasks, retail.NumTestTasks); err != nil {
		log.Fatalf("retail gen: %v", err)
	}
}

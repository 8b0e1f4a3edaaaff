// Command gen writes the retail domain's embedded test tasks, tasks.json:
// BuildTasks(GenerateDB(Seed), TestTaskSeed, NumTestTasks, test), encoded by
// sim.EncodeTasks. Run it with `go generate ./domains/retail`; it writes into
// the current directory unless -out says otherwise.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/retail"
	"github.com/emobench/emobench/sim"
)

func main() {
	out := flag.String("out", "tasks.json", "the file to write")
	flag.Parse()
	tasks := retail.BuildTasks(retail.GenerateDB(retail.Seed), retail.TestTaskSeed, retail.NumTestTasks, emobench.SplitTest)
	if len(tasks) < retail.NumTestTasks {
		log.Fatalf("retail gen: built %d tasks, want %d", len(tasks), retail.NumTestTasks)
	}
	b, err := sim.EncodeTasks(tasks)
	if err != nil {
		log.Fatalf("retail gen: %v", err)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		log.Fatalf("retail gen: %v", err)
	}
}

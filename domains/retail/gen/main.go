// Command gen writes the retail domain's embedded test tasks:
// BuildTasks(GenerateDB(Seed), TestTaskSeed, NumTestTasks, test), encoded by
// EncodeTasks. Run it with `go generate ./domains/retail`.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/retail"
)

func main() {
	out := flag.String("out", "tasks.json", "the file to write")
	flag.Parse()
	tasks := retail.BuildTasks(retail.GenerateDB(retail.Seed), retail.TestTaskSeed, retail.NumTestTasks, emobench.SplitTest)
	b, err := retail.EncodeTasks(tasks)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		log.Fatal(err)
	}
}

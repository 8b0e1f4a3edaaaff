// Command gen writes the airline domain's test tasks, tasks.json, from
// airline.BuildTasks over the database of airline.DefaultSeed. Run it with
// `go generate ./domains/airline`; it writes into the current directory
// unless -out says otherwise.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/airline"
)

func main() {
	out := flag.String("out", "tasks.json", "file to write")
	flag.Parse()
	tasks := airline.BuildTasks(airline.GenerateDB(airline.DefaultSeed), airline.TaskSeed, airline.TestTasks, emobench.SplitTest)
	if len(tasks) < airline.TestTasks {
		log.Fatalf("airline gen: built %d tasks, want %d", len(tasks), airline.TestTasks)
	}
	b, err := airline.EncodeTasks(tasks)
	if err != nil {
		log.Fatalf("airline gen: %v", err)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		log.Fatalf("airline gen: %v", err)
	}
}

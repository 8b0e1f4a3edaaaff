// Command gentasks writes a domain's embedded task files with Tracer
// from the domain's declaration: the test split to its TaskSets.Test.File
// and the train split (no action set of a test task) to its
// TaskSets.Train.File, each encoded by sim.EncodeTasks and written whole
// or not at all (sim.WriteTasksFile). It is every domain's one generator;
// each domain's <name>.go runs it from the domain's directory:
//
//	//go:generate go run ../../tracer/gentasks -domain <name>
//
// so `go generate ./domains/<name>` writes into that directory (-out and
// -train-out write elsewhere). It prints each split's figures (tasks,
// candidates, writes a task, kinds, rejections) to stderr.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"

	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "gentasks: %v\n", err)
		stop()
		os.Exit(1)
	}
}

// run parses args, generates the domain's splits and writes them,
// printing figures to stderr.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("gentasks", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("domain", "", "the domain to generate tasks for (a name in domains/all)")
	out := fs.String("out", "", "the file the test split goes to (default: the domain's test file in the current directory)")
	trainOut := fs.String("train-out", "", "the file the train split goes to (default: the domain's train file in the current directory)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *name == "" || fs.NArg() > 0 {
		return fmt.Errorf("usage: gentasks -domain <name> [-out file] [-train-out file] (domains: %v)", all.Names())
	}
	dom, err := all.Find(*name)
	if err != nil {
		return fmt.Errorf("-domain: %w", err)
	}
	td, ok := dom.(sim.TaskSetDomain)
	if !ok {
		return fmt.Errorf("-domain %s: the domain declares no task sets (declare it with sim.NewDomain)", *name)
	}
	sets := td.TaskSets()
	test, train, err := tracer.GenerateTaskSets(ctx, dom)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		path, flag string
		set        sim.TaskSet
		g          *tracer.Generated
	}{{*out, "-out", sets.Test, test}, {*trainOut, "-train-out", sets.Train, train}} {
		if f.g == nil {
			continue // a split of no tasks
		}
		path := f.path
		if path == "" {
			path = f.set.File
		}
		if path == "" {
			return fmt.Errorf("%s declares no file for a split of %d tasks: give %s", *name, f.set.Count, f.flag)
		}
		if err := sim.WriteTasksFile(path, f.g.Tasks, f.set.Count); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		fmt.Fprintf(stderr, "%s: %s\n", path, f.g.Figures())
		for _, reason := range slices.Sorted(maps.Keys(f.g.Examples)) {
			fmt.Fprintf(stderr, "  first %s: %s\n", reason, f.g.Examples[reason])
		}
		for _, s := range f.g.Shortfalls {
			fmt.Fprintf(stderr, "  shortfall: %s\n", s)
		}
	}
	return nil
}

package main

import (
	"fmt"
	"io/fs"
	"path"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/fixtures"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func demoCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "demo",
		Usage:  "ingest the bundled synthetic fixtures into demo.db and write demo-report.html (offline)",
		Before: noArgs,
		Description: "The fixtures are synthetic result files made by emobench's own generator (fixtures/gen),\n" +
			"not results of any model. The demo then runs the built-in scripted user against the oracle and\n" +
			"noisy:0.3 agents on every domain, with and without emotions, 3 trials each. All of these are\n" +
			"simulators: they show the workflow with no model and no network.\n" +
			"Running demo again skips files already ingested. It never touches --db / EMOBENCH_DB:\n" +
			"it writes only the files named by --demo-db and --out.\n\n" +
			"Example:\n   go run ./cmd/emobench demo\n   emobench --db demo.db runs",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Value: "demo-report.html", Usage: "report `FILE`"},
			&cli.StringFlag{Name: "demo-db", Value: "demo.db", Usage: "database `PATH` for the demo"},
		},
		Action: func(c *cli.Context) error {
			dbPath := c.String("demo-db")
			if err := demoStore(c, e, dbPath); err != nil {
				return err
			}
			store, err := db.OpenReadOnly(c.Context, dbPath)
			if err != nil {
				return err
			}
			defer store.Close()
			s, err := workbench.Select(c.Context, store, nil, false)
			if err != nil {
				return err
			}
			rep, notes, err := workbench.ReportOptions{Title: "emobench demo report (synthetic fixtures and offline simulators)", Bootstrap: workbench.DefaultBootstrap}.Build(c.Context, store, s)
			e.warnAll(notes)
			if err != nil {
				return err
			}
			out := c.String("out")
			if err := workbench.WriteReport(c.Context, out, rep.Input); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "\nwrote %s: open it in a browser (it works offline), e.g. xdg-open %s\n", out, out)
			fmt.Fprintf(e.stdout, "next: emobench --db %s runs\n      emobench --db %s stats emotions\n(from a clone without installing: go run ./cmd/emobench ...)\n", dbPath, dbPath)
			return nil
		},
	}
}

// demoStore ingests the fixtures into dbPath, then runs the offline
// simulators into it; runs finished by an earlier demo are found by name
// and left as they are.
func demoStore(c *cli.Context, e *env, dbPath string) error {
	store, err := db.Open(c.Context, dbPath)
	if err != nil {
		return err
	}
	defer store.Close()
	names, err := fs.Glob(fixtures.FS, "taubench/*.json")
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "ingesting %d synthetic fixture files into %s\n", len(names), dbPath)
	opts := workbench.IngestOptions{Hints: ingest.Hints{OnDuplicate: string(db.DuplicateRefuse)}, OnDuplicate: db.DuplicateRefuse}
	notes := &ingest.Notes{}
	for _, name := range names {
		res, err := workbench.IngestFS(c.Context, store, fixtures.FS, name, path.Join("fixtures", name), opts)
		if err != nil {
			printNotes(e, notes)
			return err
		}
		e.printIngested(notes)(res, nil)
	}
	printNotes(e, notes)
	return workbench.SimulateDemo(c.Context, store, e.executeOptions(c))
}

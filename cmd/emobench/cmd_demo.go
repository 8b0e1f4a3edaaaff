package main

import (
	"fmt"

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
			dbPath, out, notes := c.String("demo-db"), c.String("out"), &ingest.Notes{}
			err := workbench.Demo(c.Context, fixtures.FS, dbPath, out, e.executeOptions(c), func(res workbench.Ingested) {
				res.Print(e.stdout, e.stderr, notes, nil)
			})
			e.warnAll(notes.Lines())
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "\nwrote %s: open it in a browser (it works offline), e.g. xdg-open %s\n", out, out)
			fmt.Fprintf(e.stdout, "next: emobench --db %s runs\n      emobench --db %s stats emotions\n(from a clone without installing: go run ./cmd/emobench ...)\n", dbPath, dbPath)
			return nil
		},
	}
}

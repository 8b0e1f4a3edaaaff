package main

import (
	"fmt"
	"io"
	"io/fs"
	"path"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/fixtures"
	"github.com/urfave/cli/v2"
)

func demoCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "demo",
		Usage:  "ingest the bundled synthetic fixtures into demo.db and write demo-report.html (offline)",
		Before: noArgs,
		Description: "The fixtures are synthetic result files made by emobench's own generator (fixtures/gen),\n" +
			"not results of any model: they exist to show the workflow with no model and no network.\n" +
			"Running demo again skips files already ingested. It never touches --db / EMOBENCH_DB:\n" +
			"it writes only the files named by --demo-db and --out.\n\n" +
			"Example:\n   go run ./cmd/emobench demo\n   emobench --db demo.db runs",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Value: "demo-report.html", Usage: "report `FILE`"},
			&cli.StringFlag{Name: "demo-db", Value: "demo.db", Usage: "database `PATH` for the demo"},
		},
		Action: func(c *cli.Context) error {
			dbPath := c.String("demo-db")
			if err := demoIngest(c, e, dbPath); err != nil {
				return err
			}
			store, err := db.OpenReadOnly(c.Context, dbPath)
			if err != nil {
				return err
			}
			defer store.Close()
			in, err := reportInput(c.Context, store, nil, "emobench demo report (synthetic fixtures)")
			if err != nil {
				return err
			}
			out := c.String("out")
			if err := writeReport(out, in); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "\nwrote %s: open it in a browser (it works offline), e.g. xdg-open %s\n", out, out)
			fmt.Fprintf(e.stdout, "next: go run ./cmd/emobench --db %s runs\n      go run ./cmd/emobench --db %s stats passk --by condition\n", dbPath, dbPath)
			return nil
		},
	}
}

func demoIngest(c *cli.Context, e *env, dbPath string) error {
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
	opts := ingestOptions{format: "auto", onDuplicate: db.DuplicateRefuse}
	for _, name := range names {
		src := source{
			path: path.Join("fixtures", name),
			open: func() (io.ReadCloser, error) { return fixtures.FS.Open(name) },
		}
		if err := ingestFile(c.Context, e, store, src, opts); err != nil {
			return err
		}
	}
	return nil
}

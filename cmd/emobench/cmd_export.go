package main

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/export"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/redact"
	"github.com/urfave/cli/v2"
)

func exportCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write runs as τ-bench or τ²-bench files, Parquet or CSV tables, or JSON Lines",
		Description: "Formats:\n" +
			"   taubench  one τ-bench result file per run (emobench ingest reads it back)\n" +
			"   tau2      one τ²-bench Results file per run\n" +
			"   parquet   a directory: runs, tasks, trajectories, messages .parquet (DuckDB, pandas, Spark)\n" +
			"   csv       a directory: runs.csv, trajectories.csv, messages.csv\n" +
			"   jsonl     one file, one JSON object per trajectory\n" +
			"taubench and tau2 write --out DIR/<run-name>.json per run, or --out FILE.json for exactly one run.\n" +
			"Files are written to a temporary name and renamed when complete.\n\n" +
			"Example:\n" +
			"   emobench --db runs.db export --format parquet --out tables/\n" +
			"   emobench --db runs.db export --format taubench --run 3 --out gpt-4.1-retail.json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Usage: "taubench, tau2, parquet, csv or jsonl (required)"},
			&cli.StringFlag{Name: "out", Usage: "output `PATH`: a file or a directory, by format (required)"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing file, or write into a non-empty directory"},
			&cli.StringSliceFlag{Name: "run", Usage: "run id or name (repeatable; default: all runs)"},
		},
		Action: func(c *cli.Context) error { return runExport(c, e) },
	}
}

func runExport(c *cli.Context, e *env) error {
	if err := noArgs(c); err != nil {
		return err
	}
	format, out := c.String("format"), c.String("out")
	if format == "" {
		return usagef("export needs --format (one of %s)", strings.Join(export.Formats, ", "))
	}
	if !slices.Contains(export.Formats, format) {
		return usagef("--format %q is not one of %s", format, strings.Join(export.Formats, ", "))
	}
	if out == "" {
		return usagef("export needs --out PATH")
	}
	store, err := openCurrent(c)
	if err != nil {
		return err
	}
	defer store.Close()
	runs, err := exportRuns(c, store)
	if err != nil {
		return err
	}
	if len(runs) == 0 {
		return errors.New("no runs to export: the database is empty")
	}
	intoFile := strings.EqualFold(filepath.Ext(out), ".json")
	if err := refuseOverwrite(out, (export.PerRun(format) && intoFile) || format == export.FormatJSONL, c.Bool("force")); err != nil {
		return err
	}
	switch {
	case export.PerRun(format) && intoFile && len(runs) > 1:
		return usagef("--out %s names one file, but %s were selected: give a directory, or one --run", out, plural(len(runs), "run", "runs"))
	case export.PerRun(format) && intoFile:
		return exportFile(e, out, runs[0], format)
	case export.PerRun(format):
		return exportPerRun(e, out, runs, format)
	case format == export.FormatJSONL:
		return exportJSONL(e, out, runs)
	}
	return exportTables(e, out, runs, format)
}

// exportRuns returns the runs named by --run, in the order given, or every
// run by id.
func exportRuns(c *cli.Context, store *db.DB) ([]export.Run, error) {
	all, err := store.ListRuns(c.Context)
	if err != nil {
		return nil, err
	}
	ids, err := resolveRuns(c.Context, store, c.StringSlice("run"))
	if err != nil {
		return nil, err
	}
	var runs []export.Run
	for _, r := range all {
		// A file written by an older emobench may still hold credentials
		// that no writing command has redacted yet.
		r.Config, _ = redact.Config(r.Config)
		if len(ids) == 0 || slices.Contains(ids, r.ID) {
			runs = append(runs, export.Run{Run: r, Trajectories: redacted(store.Trajectories(c.Context, r.ID))})
		}
	}
	if len(ids) > 0 {
		slices.SortStableFunc(runs, func(a, b export.Run) int {
			return slices.Index(ids, a.ID) - slices.Index(ids, b.ID)
		})
	}
	return runs, nil
}

// exportFile writes one run in a per-run format to path.
func exportFile(e *env, path string, run export.Run, format string) error {
	var n int
	err := writeAtomic(path, func(w io.Writer) (err error) {
		if format == export.FormatTau2 {
			n, err = export.Tau2(w, run)
		} else {
			n, err = export.TauBench(w, run.Trajectories)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("export run %d (%s) to %s: %w", run.ID, run.Name, path, err)
	}
	fmt.Fprintf(e.stdout, "wrote %s (run %d, %s)\n", path, run.ID, plural(n, "trajectory", "trajectories"))
	return nil
}

// exportPerRun writes one file per run into dir, named after the run; runs
// whose file names collide get their id appended.
func exportPerRun(e *env, dir string, runs []export.Run, format string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := map[string]int{}
	for _, r := range runs {
		names[export.FileName(r.Run, ".json")]++
	}
	for _, r := range runs {
		name := export.FileName(r.Run, ".json")
		if names[name] > 1 {
			name = strings.TrimSuffix(name, ".json") + fmt.Sprintf("-%d.json", r.ID)
		}
		if err := exportFile(e, filepath.Join(dir, name), r, format); err != nil {
			return err
		}
	}
	return nil
}

func exportJSONL(e *env, path string, runs []export.Run) error {
	total := 0
	err := writeAtomic(path, func(w io.Writer) error {
		for _, r := range runs {
			n, err := export.JSONL(w, r)
			total += n
			if err != nil {
				return fmt.Errorf("run %d (%s): %w", r.ID, r.Name, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("export to %s: %w", path, err)
	}
	fmt.Fprintf(e.stdout, "wrote %s (%s, %s)\n", path, plural(len(runs), "run", "runs"), plural(total, "trajectory", "trajectories"))
	return nil
}

// exportTables writes a table format into dir: every file goes to a
// temporary name, and all are renamed once every table is complete.
func exportTables(e *env, dir string, runs []export.Run, format string) (err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := export.TableFiles(format)
	files := make([]*os.File, 0, len(names))
	defer func() {
		for _, f := range files {
			f.Close()
			if err != nil {
				os.Remove(f.Name())
			}
		}
	}()
	ws := make([]io.Writer, len(names))
	for i, name := range names {
		f, err := os.CreateTemp(dir, "."+name+".tmp-*")
		if err != nil {
			return err
		}
		files = append(files, f)
		ws[i] = f
	}
	w, err := export.NewTables(format, ws)
	if err != nil {
		return err
	}
	total := 0
	for _, r := range runs {
		n, err := w.WriteRun(r)
		total += n
		if err != nil {
			return fmt.Errorf("export run %d (%s) to %s: %w", r.ID, r.Name, dir, err)
		}
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("export to %s: %w", dir, err)
	}
	for i, f := range files {
		if err := f.Close(); err != nil {
			return err
		}
		if err := os.Chmod(f.Name(), 0o644); err != nil {
			return err
		}
		if err := os.Rename(f.Name(), filepath.Join(dir, names[i])); err != nil {
			return err
		}
	}
	for _, name := range names {
		what := ""
		switch strings.TrimSuffix(name, filepath.Ext(name)) {
		case "runs":
			what = " (" + plural(len(runs), "run", "runs") + ")"
		case "trajectories":
			what = " (" + plural(total, "trajectory", "trajectories") + ")"
		}
		fmt.Fprintf(e.stdout, "wrote %s%s\n", filepath.Join(dir, name), what)
	}
	return nil
}

// refuseOverwrite keeps an export from replacing a file, or from mixing
// with older files in a directory, unless force is set.
func refuseOverwrite(out string, isFile, force bool) error {
	if force {
		return nil
	}
	info, err := os.Stat(out)
	if err != nil {
		return nil // nothing there yet
	}
	if isFile || !info.IsDir() {
		return usagef("--out %s exists: export does not replace it (add --force to replace it)", out)
	}
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return usagef("--out %s is not empty: the export would mix with the files there (empty it, or add --force)", out)
	}
	return nil
}

// writeAtomic writes path through a temporary file in the same directory,
// renamed over path only when write and close succeed.
func writeAtomic(path string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// redacted passes each trajectory through ingest.RedactTrajectory: a file
// an older emobench wrote may hold credentials no writing command has
// redacted yet, and export only reads it.
func redacted(trajs iter.Seq2[*emobench.Trajectory, error]) iter.Seq2[*emobench.Trajectory, error] {
	return func(yield func(*emobench.Trajectory, error) bool) {
		for t, err := range trajs {
			if t != nil {
				ingest.RedactTrajectory(t)
			}
			if !yield(t, err) {
				return
			}
		}
	}
}

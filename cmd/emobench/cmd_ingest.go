package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/ingest"
	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// progressThreshold is the file size, in bytes, above which ingest shows a
// progress bar (when stderr is a terminal).
const progressThreshold = 16 << 20

func ingestCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "ingest",
		Usage:     "read result files into the database, one transaction per file",
		ArgsUsage: "FILE|DIR|-...",
		Description: "Reads τ-bench / τ-Emotion-Bench result files (a JSON array of {task_id, reward, info, traj, trial}),\n" +
			"τ²-bench Results files ({timestamp, info, tasks, simulations}) and run directories (results.json + simulations/),\n" +
			"and τ²-bench leaderboard submission.json files (stored as published results). --format auto tells them apart.\n" +
			"Directories are walked for *.json and *.jsonl (JSON Lines of records); a folder holding results.json and\n" +
			"simulations/ is one τ²-bench run; symlinks to files are followed. A file already ingested (same sha256) is\n" +
			"skipped. - reads standard input; pipes, FIFOs and devices are read as a stream.\n" +
			"Model, domain and condition come from the flags, else from the file's content (a τ²-bench file's info, the\n" +
			"info.emobench of emobench's τ-bench export), else from file names like <model>-<domain>-(with|without)-emotions.json\n" +
			"or <model>-<domain>.json, else 'unknown'. A name taken by a stored run gets a suffix (-2, -3, …).\n\n" +
			"Example:\n" +
			"   emobench --db runs.db ingest results/*.json\n" +
			"   emobench --db runs.db ingest tau2-results/ submission.json\n" +
			"   zcat run.json.gz | emobench --db runs.db ingest --name run1 -\n" +
			"   emobench --db runs.db ingest --model gpt-4.1 --domain retail --condition none run1.json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "auto", Usage: "input format: auto, " + strings.Join(ingest.FormatNames(), ", ")},
			&cli.StringFlag{Name: "model", Usage: "agent model of the run(s)"},
			&cli.StringFlag{Name: "user-model", Usage: "user simulator model of the run(s)"},
			&cli.StringFlag{Name: "domain", Usage: "domain of the run(s), e.g. retail"},
			&cli.StringFlag{Name: "condition", Usage: "with-emotions, without-emotions or none"},
			&cli.StringFlag{Name: "name", Usage: "run name (one file only; default: the file name)"},
			&cli.StringFlag{Name: "on-duplicate", Value: "refuse", Usage: "a repeated (task_id, trial) in a file: refuse or keep-last"},
			&cli.BoolFlag{Name: "reingest", Usage: "replace a run merged from another db (or of unknown provenance) that has the file's sha256 with the file's own content"},
			&cli.StringFlag{Name: "max-spool", Value: "4GiB", Usage: "the most a pipe's τ²-bench simulations may take in a temporary file, when they come before its tasks"},
			&cli.StringFlag{Name: "max-record", Value: defaultMaxRecord, Usage: "the most one record (a τ-bench record, a τ²-bench simulation, results.json) may take; a larger one fails its file"},
		},
		Action: func(c *cli.Context) error { return runIngest(c, e) },
	}
}

// ingestOptions is what the ingest command does with each input.
type ingestOptions struct {
	hints       ingest.Hints
	onDuplicate db.OnDuplicate
	reingest    bool   // replace a run not ingested from the file (merged) that has its sha256
	dbPath      string // named in hints to edit a stored run
}

// defaultMaxRecord is --max-record's default, ingest.DefaultMaxRecord.
const defaultMaxRecord = "3MiB"

func parseIngestOptions(c *cli.Context) (ingestOptions, error) {
	o := ingestOptions{onDuplicate: db.OnDuplicate(c.String("on-duplicate")), reingest: c.Bool("reingest"), dbPath: c.String("db")}
	o.hints = ingest.Hints{
		Format:      c.String("format"),
		Flags:       ingest.Metadata{Name: c.String("name"), Model: c.String("model"), UserModel: c.String("user-model"), Domain: c.String("domain")},
		OnDuplicate: string(o.onDuplicate),
	}
	if f := o.hints.Format; f != "auto" && !slices.Contains(ingest.FormatNames(), f) {
		return o, usagef("--format %q is not one of auto, %s", f, strings.Join(ingest.FormatNames(), ", "))
	}
	if o.onDuplicate != db.DuplicateRefuse && o.onDuplicate != db.DuplicateKeepLast {
		return o, usagef("--on-duplicate %q is not one of refuse, keep-last", o.onDuplicate)
	}
	var err error
	if o.hints.MaxSpool, err = parseByteSize("max-spool", c.String("max-spool")); err != nil {
		return o, err
	}
	if o.hints.MaxRecord, err = parseByteSize("max-record", c.String("max-record")); err != nil {
		return o, err
	}
	if s := c.String("condition"); s != "" {
		if o.hints.Flags.Condition, err = emobench.ParseCondition(s); err != nil {
			return o, &usageError{err}
		}
	}
	return o, nil
}

// parseByteSize reads a --max-spool or --max-record value such as 4GiB,
// 500MB or 1000000.
func parseByteSize(flag, s string) (int64, error) {
	n, err := humanize.ParseBytes(s)
	if err != nil || n == 0 || n > math.MaxInt64 {
		return 0, usagef("--%s %q is not a size such as 4GiB, 512MiB or 1000000", flag, s)
	}
	return int64(n), nil
}

func runIngest(c *cli.Context, e *env) error {
	opts, err := parseIngestOptions(c)
	if err != nil {
		return err
	}
	if c.NArg() == 0 {
		return usagef("ingest needs at least one FILE or DIR")
	}
	paths, walkErrs, skipped := ingest.Collect(c.Args().Slice())
	if opts.hints.Flags.Name != "" && len(paths) > 1 {
		return usagef("--name names one run, but %d files were given", len(paths))
	}
	if err := checkNameForm(opts.hints.Flags.Name); err != nil {
		return err
	}
	store, err := e.openWrite(c.Context, c.String("db"))
	if err != nil {
		return err
	}
	defer store.Close()
	collected := &ingest.Notes{}
	for _, note := range skipped {
		collected.Add(note.Path, note.Text)
	}
	printNotes(e, collected)
	notes := &ingest.Notes{}
	defer printNotes(e, notes)
	for _, err := range walkErrs {
		fmt.Fprintf(e.stderr, "error: %v\n", err)
	}
	failed := len(walkErrs)
	for _, path := range paths {
		src, err := ingest.OpenSource(c.Context, path, e.stdin)
		if err == nil {
			err = ingestSource(c.Context, e, store, src, opts, notes)
			src.Close()
		}
		if err != nil {
			if errors.Is(err, context.Canceled) || c.Context.Err() != nil {
				return fmt.Errorf("%s: interrupted; nothing of this file was stored", displayPath(path))
			}
			fmt.Fprintf(e.stderr, "error: %v\n", err)
			failed++
		}
	}
	if failed > 0 {
		return &reportedError{fmt.Errorf("%d of %d inputs failed", failed, len(paths)+len(walkErrs))}
	}
	return nil
}

// printNotes prints the command's notes once each, unless --quiet.
func printNotes(e *env, notes *ingest.Notes) {
	e.warnAll(notes.Lines())
}

func displayPath(path string) string {
	if path == ingest.StdinArg {
		return "stdin"
	}
	return path
}

// ingestSource skips src when a stored run has its sha256, else opens it,
// stores it (one transaction) and prints the outcome.
func ingestSource(ctx context.Context, e *env, store *db.DB, src *ingest.Source, opts ingestOptions, notes *ingest.Notes) error {
	input := db.Input{Path: src.Path, OnDuplicate: opts.onDuplicate}
	if src.IsStream() && opts.reingest {
		return fmt.Errorf("%s: --reingest needs a file: a stream's sha256 is known only once it is read, and then it cannot be read again", src.Path)
	}
	if src.IsStream() {
		input.Finish = src.Finish
	} else {
		sum, err := src.Hash()
		if err != nil {
			return err
		}
		d, err := store.DecideStored(ctx, sum, opts.reingest)
		if err != nil {
			return fmt.Errorf("%s: %w", src.Path, err)
		}
		if d.Skip {
			printSkip(e, src.Path, d, opts, notes)
			return nil
		}
		input.Replace = d.Replace
		if e.afterHash != nil {
			e.afterHash(src.Path)
		}
	}
	h := opts.hints
	if src.Size >= progressThreshold && e.terminal() != nil {
		bar := progressbar.DefaultBytes(src.Size, "ingest "+filepath.Base(src.Path))
		defer bar.Finish()
		h.Progress = bar
	}
	in, err := ingest.Open(src, h)
	if err != nil {
		return err
	}
	if in.Format == ingest.FormatSubmission {
		return storePublished(ctx, e, store, src, in, notes)
	}
	input.Run, input.Trajectories = in.Run, in.Trajectories
	res, err := store.StoreInput(ctx, input)
	if res.Skip != nil && err == nil {
		printSkip(e, src.Path, *res.Skip, opts, notes)
		return nil
	}
	if already := new(db.AlreadyIngestedError); errors.As(err, &already) {
		fmt.Fprintf(e.stdout, "%s: skipped, %v\n", src.Path, already)
		return nil
	} else if err != nil {
		return fmt.Errorf("%s: %w", src.Path, err)
	}
	if input.Replace != 0 {
		fmt.Fprintf(e.stdout, "%s: --reingest: run %d, not ingested from this file, is replaced by the file's own content\n", src.Path, input.Replace)
	}
	replaced := ""
	if res.Replaced > 0 {
		replaced = fmt.Sprintf("; %d duplicate (task_id, trial) records replaced by later ones", res.Replaced)
	}
	run := res.Run
	fmt.Fprintf(e.stdout, "%s: ingested as run %d (%s): %s; model %s, domain %s, condition %s%s\n",
		src.Path, res.RunID, run.Name, plural(res.Trajectories, "trajectory", "trajectories"),
		orUnknown(run.AgentModel), orUnknown(run.Domain), run.Condition, replaced)
	if res.Clash != 0 {
		fmt.Fprintf(e.stderr, "warning: %s: run %d is already named %q: this run is named %q (rename it with `emobench runs set RUN --name NAME`)\n", src.Path, res.Clash, in.Run.Name, run.Name)
	}
	for _, n := range store.RunNotes(ctx, res.RunID) {
		notes.Add(src.Path, n)
	}
	for _, w := range in.Warnings() {
		fmt.Fprintf(e.stderr, "warning: %s: %s\n", src.Path, w)
	}
	for _, n := range in.Notes() {
		notes.Add(src.Path, n)
	}
	if res.Trajectories == 0 {
		fmt.Fprintf(e.stdout, "%s: note: %s; run %d holds no trajectories\n", src.Path, in.EmptyNote(), res.RunID)
	}
	return nil
}

// printSkip prints why the input at path is skipped, and how to change the
// stored run's metadata when flags give some (a note).
func printSkip(e *env, path string, d db.SkipDecision, opts ingestOptions, notes *ingest.Notes) {
	fmt.Fprintf(e.stdout, "%s: %s\n", path, d.Message)
	if hint := opts.hints.Flags.StoredRunHint(opts.dbPath, d.RunID); d.Hint && hint != "" {
		notes.Add(path, "the flags are not applied to a stored run: "+hint)
	}
}

// storePublished stores a leaderboard submission's scores as published
// results, keyed by the sha256 of its bytes, and prints one line.
func storePublished(ctx context.Context, e *env, store *db.DB, src *ingest.Source, in *ingest.Opened, notes *ingest.Notes) error {
	results := in.Published
	if len(results) == 0 {
		fmt.Fprintf(e.stdout, "%s: leaderboard submission without scores (every domain is null); nothing stored\n", src.Path)
		return nil
	}
	stored, err := store.StorePublished(ctx, in.Run.SourceSHA256, results)
	if err != nil {
		return fmt.Errorf("%s: %w", src.Path, err)
	}
	if !stored {
		fmt.Fprintf(e.stdout, "%s: skipped, published results already stored\n", src.Path)
		return nil
	}
	for _, n := range in.Notes() {
		notes.Add(src.Path, n)
	}
	fmt.Fprintf(e.stdout, "%s: stored %s of %s (leaderboard submission): domains %s\n",
		src.Path, plural(len(results), "published result", "published results"), results[0].Model, strings.Join(in.PublishedDomains(), ", "))
	return nil
}

// terminal is stderr when it is a terminal (for progress bars), else nil.
func (e *env) terminal() io.Writer {
	if f, ok := e.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return f
	}
	return nil
}

// println prints line and a newline on stdout.
func (e *env) println(line string) { fmt.Fprintln(e.stdout, line) }

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// checkNameForm refuses a run name that --run would read as an id.
func checkNameForm(name string) error {
	if db.NameReadsAsID(name) {
		return usagef("--name %q reads as a run id: choose a name with a letter", name)
	}
	return nil
}

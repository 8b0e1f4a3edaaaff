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
	"github.com/emobench/emobench/sim"
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
	printNotes(e, c.Bool("quiet"), collected)
	notes := &ingest.Notes{}
	defer printNotes(e, c.Bool("quiet"), notes)
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
func printNotes(e *env, quiet bool, notes *ingest.Notes) {
	if quiet {
		return
	}
	for _, line := range notes.Lines() {
		fmt.Fprintf(e.stderr, "note: %s\n", line)
	}
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
	var replace int64
	if src.IsStream() && opts.reingest {
		return fmt.Errorf("%s: --reingest needs a file: a stream's sha256 is known only once it is read, and then it cannot be read again", src.Path)
	}
	if !src.IsStream() {
		sum, err := src.Hash()
		if err != nil {
			return err
		}
		skip, id, err := skipStored(ctx, e, store, src.Path, sum, opts, notes)
		if skip || err != nil {
			return err
		}
		replace = id
		if e.afterHash != nil {
			e.afterHash(src.Path)
		}
	}
	h := opts.hints
	if src.Size >= progressThreshold && isTerminal(e.stderr) {
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
	run := in.Run
	name, clash, err := distinctName(ctx, store, run.Name, replace)
	if err != nil {
		return fmt.Errorf("%s: %w", src.Path, err)
	}
	run.Name = name
	var res db.IngestResult
	switch {
	case src.IsStream():
		res, err = store.IngestStream(ctx, run, in.Trajectories, opts.onDuplicate, src.Finish)
		if errors.As(err, new(*db.AlreadyIngestedError)) {
			if sum, sumErr := src.Finish(); sumErr == nil {
				_, _, err = skipStored(ctx, e, store, src.Path, sum, opts, notes)
				return err
			}
		}
	case replace != 0:
		if res, err = store.ReplaceRun(ctx, replace, run, in.Trajectories, opts.onDuplicate); err == nil {
			fmt.Fprintf(e.stdout, "%s: --reingest: run %d, not ingested from this file, is replaced by the file's own content\n", src.Path, replace)
		}
	default:
		res, err = store.IngestRun(ctx, run, in.Trajectories, opts.onDuplicate)
	}
	if already := new(db.AlreadyIngestedError); errors.As(err, &already) {
		fmt.Fprintf(e.stdout, "%s: skipped, %v\n", src.Path, already)
		return nil
	} else if err != nil {
		return fmt.Errorf("%s: %w", src.Path, err)
	}
	replaced := ""
	if res.Replaced > 0 {
		replaced = fmt.Sprintf("; %d duplicate (task_id, trial) records replaced by later ones", res.Replaced)
	}
	fmt.Fprintf(e.stdout, "%s: ingested as run %d (%s): %s; model %s, domain %s, condition %s%s\n",
		src.Path, res.RunID, run.Name, plural(res.Trajectories, "trajectory", "trajectories"),
		orUnknown(run.AgentModel), orUnknown(run.Domain), run.Condition, replaced)
	if clash != 0 {
		fmt.Fprintf(e.stderr, "warning: %s: run %d is already named %q: this run is named %q (rename it with `emobench runs set RUN --name NAME`)\n", src.Path, clash, in.Run.Name, run.Name)
	}
	noteRun(ctx, store, src.Path, res.RunID, notes)
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

// distinctName returns name, or name-2, name-3, … when a stored run other
// than replace is called name, and the id of that run (0 when none).
func distinctName(ctx context.Context, store *db.DB, name string, replace int64) (string, int64, error) {
	var clash int64
	got, err := ingest.DistinctName(name, func(n string) (bool, error) {
		ids, err := store.RunsNamed(ctx, n)
		ids = slices.DeleteFunc(ids, func(id int64) bool { return id == replace })
		if len(ids) > 0 && clash == 0 {
			clash = ids[0]
		}
		return len(ids) > 0, err
	})
	return got, clash, err
}

// storePublished stores a leaderboard submission's scores as published
// results, keyed by the sha256 of its bytes, and prints one line.
func storePublished(ctx context.Context, e *env, store *db.DB, src *ingest.Source, in *ingest.Opened, notes *ingest.Notes) error {
	results := in.Published
	if len(results) == 0 {
		fmt.Fprintf(e.stdout, "%s: leaderboard submission without scores (every domain is null); nothing stored\n", src.Path)
		return nil
	}
	var domains []string
	for i := range results {
		if i == 0 || results[i].Domain != results[i-1].Domain {
			domains = append(domains, results[i].Domain)
		}
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
		src.Path, plural(len(results), "published result", "published results"), results[0].Model, strings.Join(domains, ", "))
	return nil
}

// skipStored reports whether the input with sha256 sum is to be skipped
// because a stored run has that sha256, printing why, and how to change
// the run's metadata when flags give some (a note). A run that was not ingested
// from a file (merged from another db, or of unknown provenance) is only
// replaced by it under --reingest: its id is returned.
func skipStored(ctx context.Context, e *env, store *db.DB, path, sum string, opts ingestOptions, notes *ingest.Notes) (skip bool, replace int64, err error) {
	prov, err := store.FindProvenanceBySHA256(ctx, sum)
	if errors.Is(err, db.ErrNotFound) {
		return false, 0, nil
	} else if err != nil {
		return false, 0, fmt.Errorf("%s: %w", path, err)
	}
	switch {
	case prov.Kind == db.ProvenanceIngested || prov.Kind == db.ProvenanceNative:
		fmt.Fprintf(e.stdout, "%s: skipped, already ingested as run %d (%s)\n", path, prov.RunID, prov.RunName)
		if hint := metadataHint(opts, prov.RunID); hint != "" {
			notes.Add(path, "the flags are not applied to a stored run: "+hint)
		}
		return true, 0, nil
	case opts.reingest:
		return false, prov.RunID, nil
	case prov.Kind == db.ProvenanceMerged:
		fmt.Fprintf(e.stdout, "%s: skipped: run %d (%s) was %s, not ingested from this file; --reingest replaces it with this file's own content\n",
			path, prov.RunID, prov.RunName, prov)
	default:
		fmt.Fprintf(e.stdout, "%s: skipped: run %d (%s) has this file's sha256 but unknown provenance (stored by an emobench before provenance was recorded, it may have been merged from another db); --reingest replaces it with this file's own content\n",
			path, prov.RunID, prov.RunName)
	}
	return true, 0, nil
}

// metadataHint is the command that gives stored run id the metadata the
// flags name; "" when they name none.
func metadataHint(opts ingestOptions, id int64) string {
	f := opts.hints.Flags
	var set []string
	for _, kv := range [][2]string{{"name", f.Name}, {"model", f.Model}, {"user-model", f.UserModel}, {"condition", string(f.Condition)}} {
		if kv[1] != "" {
			set = append(set, "--"+kv[0]+" "+shellQuote(kv[1]))
		}
	}
	var hint []string
	if len(set) > 0 {
		hint = append(hint, fmt.Sprintf("change its metadata with `emobench --db %s runs set %d %s`", shellQuote(opts.dbPath), id, strings.Join(set, " ")))
	}
	if f.Domain != "" {
		hint = append(hint, fmt.Sprintf("a domain is part of the tasks: `emobench --db %s runs rm %d`, then ingest the file again with --domain", shellQuote(opts.dbPath), id))
	}
	return strings.Join(hint, "; ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == ':' || r == '+' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// noteRun notes what in a freshly stored run will not read as the user
// may expect: its rewards and its emotion labels.
func noteRun(ctx context.Context, store *db.DB, path string, runID int64, notes *ingest.Notes) {
	if k, err := store.CountRewardKinds(ctx, runID); err == nil && k.Total > 0 {
		switch {
		case k.Unevaluated == k.Total:
			notes.Add(path, fmt.Sprintf("none of its %d trajectories is evaluated (no reward information, or a τ²-bench non-evaluable ending; evaluated = 0): the run is not evaluated, and its statistics read \"not evaluated\", not 0", k.Total))
		case k.Unevaluated > 0:
			notes.Add(path, fmt.Sprintf("%d of %d trajectories are not evaluated (no reward information, or a τ²-bench non-evaluable ending; evaluated = 0): they count as failures", k.Unevaluated, k.Total))
		}
		if k.Partial > 0 {
			notes.Add(path, fmt.Sprintf("%d of %d rewards are partial (neither 0 nor 1): a trajectory passes only with reward 1 ± 1e-6; `emobench runs` shows their mean_reward", k.Partial, k.Total))
		}
	}
	counts, err := store.CountEmotionProfiles(ctx, runID)
	if err != nil {
		return
	}
	var odd []string
	n := 0
	for _, c := range counts {
		if c.Family == "" || c.Leaf == "" {
			continue
		}
		atlas := sim.AtlasFamilyOf(c.Leaf)
		if atlas == "" || strings.EqualFold(atlas, c.Family) {
			continue // a leaf of the family, or one the Atlas does not name
		}
		n += c.Tasks
		odd = append(odd, fmt.Sprintf("%s/%s ×%d (a state of %s)", c.Family, c.Leaf, c.Tasks, atlas))
	}
	if n > 0 {
		notes.Add(path, fmt.Sprintf("%s a leaf with another family than the Atlas of Emotions does: %s; stats by emotion_leaf pool a leaf across families",
			plural(n, "task pairs", "tasks pair"), strings.Join(odd, ", ")))
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

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

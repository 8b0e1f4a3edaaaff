package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/redact"
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
			"Model, domain and condition come from the flags, else from a τ²-bench file's info, else from file names like\n" +
			"<model>-<domain>-(with|without)-emotions.json or <model>-<domain>.json, else 'unknown'.\n\n" +
			"Example:\n" +
			"   emobench --db runs.db ingest results/*.json\n" +
			"   emobench --db runs.db ingest tau2-results/ submission.json\n" +
			"   zcat run.json.gz | emobench --db runs.db ingest --name run1 -\n" +
			"   emobench --db runs.db ingest --model gpt-4.1 --domain retail --condition none run1.json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "auto", Usage: "input format: auto, taubench, tau2 or submission"},
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

type ingestOptions struct {
	format      string
	model       string
	userModel   string
	domain      string
	condition   emobench.Condition
	name        string
	onDuplicate db.OnDuplicate
	reingest    bool  // replace a run not ingested from the file (merged) that has its sha256
	replaceRun  int64 // set per input by skipStored under reingest
	maxSpool    int64 // bytes
	maxRecord   int64 // bytes
}

// defaultMaxRecord is --max-record's default, ingest.DefaultMaxRecord.
const defaultMaxRecord = "3MiB"

func parseIngestOptions(c *cli.Context) (ingestOptions, error) {
	o := ingestOptions{
		format: c.String("format"), model: c.String("model"), userModel: c.String("user-model"),
		domain: c.String("domain"), name: c.String("name"), onDuplicate: db.OnDuplicate(c.String("on-duplicate")),
		reingest: c.Bool("reingest"),
	}
	switch o.format {
	case "auto", ingest.FormatTauBench, ingest.FormatTau2, ingest.FormatSubmission:
	default:
		return o, usagef("--format %q is not one of auto, taubench, tau2, submission", o.format)
	}
	if o.onDuplicate != db.DuplicateRefuse && o.onDuplicate != db.DuplicateKeepLast {
		return o, usagef("--on-duplicate %q is not one of refuse, keep-last", o.onDuplicate)
	}
	var err error
	if o.maxSpool, err = parseByteSize("max-spool", c.String("max-spool")); err != nil {
		return o, err
	}
	if o.maxRecord, err = parseByteSize("max-record", c.String("max-record")); err != nil {
		return o, err
	}
	if s := c.String("condition"); s != "" {
		cond, err := emobench.ParseCondition(s)
		if err != nil {
			return o, &usageError{err}
		}
		o.condition = cond
	}
	return o, nil
}

func runIngest(c *cli.Context, e *env) error {
	opts, err := parseIngestOptions(c)
	if err != nil {
		return err
	}
	if c.NArg() == 0 {
		return usagef("ingest needs at least one FILE or DIR")
	}
	files, walkErrs, notes := collectInputs(c.Args().Slice())
	if opts.name != "" && len(files) > 1 {
		return usagef("--name names one run, but %d files were given", len(files))
	}
	if err := checkNameForm(opts.name); err != nil {
		return err
	}
	store, err := e.openWrite(c.Context, c.String("db"))
	if err != nil {
		return err
	}
	defer store.Close()
	failed := len(walkErrs)
	for _, note := range notes {
		fmt.Fprintf(e.stderr, "note: %s\n", note)
	}
	for _, err := range walkErrs {
		fmt.Fprintf(e.stderr, "error: %v\n", err)
	}
	for _, path := range files {
		var err error
		if info, statErr := os.Stat(path); path != stdinArg && statErr == nil && info.IsDir() {
			err = ingestTau2Dir(c.Context, e, store, path, opts)
		} else {
			err = ingestPath(c.Context, e, store, path, opts)
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
		return &reportedError{fmt.Errorf("%d of %d inputs failed", failed, len(files)+len(walkErrs))}
	}
	return nil
}

func displayPath(path string) string {
	if path == stdinArg {
		return "stdin"
	}
	return path
}

// collectInputs expands directories into their *.json and *.jsonl files,
// sorted, following symlinks to files. A τ²-bench run directory
// (results.json beside simulations/) is one input, whose files are not
// listed on their own. What a directory holds under those names but cannot
// be read as a file (a FIFO, a symlink to a directory) is named in notes; a
// symlink whose target is missing is an error.
func collectInputs(args []string) (files []string, errs []error, notes []string) {
	for _, arg := range args {
		if arg == stdinArg {
			files = append(files, arg)
			continue
		}
		info, err := os.Stat(arg)
		if l, lerr := os.Lstat(arg); err != nil && lerr == nil && l.Mode()&fs.ModeSymlink != 0 {
			errs = append(errs, brokenLink(arg, err))
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", arg, errors.Unwrap(err)))
			continue
		}
		if !info.IsDir() {
			// results.json of a run directory names the whole run, as in τ²-bench.
			if dir := filepath.Dir(arg); filepath.Base(arg) == ingest.Tau2ResultsFile && ingest.IsTau2Dir(os.DirFS(dir)) {
				arg = dir
			}
			files = append(files, arg)
			continue
		}
		root := arg
		if l, err := os.Lstat(arg); err == nil && l.Mode()&fs.ModeSymlink != 0 {
			root = arg + string(filepath.Separator) // WalkDir walks a symlinked root only through its target
		}
		var found []string
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if ingest.IsTau2Dir(os.DirFS(p)) {
					found = append(found, p)
					return fs.SkipDir
				}
				return nil
			}
			ext := strings.ToLower(filepath.Ext(p))
			if ext != ".json" && ext != ".jsonl" {
				return nil
			}
			switch kind, err := fileKind(p, d); {
			case err != nil:
				errs = append(errs, err)
			case kind == "":
				found = append(found, p)
			default:
				notes = append(notes, fmt.Sprintf("%s: skipped, %s", p, kind))
			}
			return nil
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", arg, err))
		} else if len(found) == 0 {
			errs = append(errs, fmt.Errorf("%s: no *.json or *.jsonl file and no τ²-bench run directory in it", arg))
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, errs, notes
}

// brokenLink is the error of a symlink p whose target cannot be read.
func brokenLink(p string, err error) error {
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("%s: a symlink loop (%v): nothing to read", p, errors.Unwrap(err))
	}
	return fmt.Errorf("%s: a symlink whose target is missing (%v): is its content fetched (git annex get, dvc pull)?", p, errors.Unwrap(err))
}

// fileKind returns "" for a regular file or a symlink to one, else what p
// is (a FIFO would block the walk forever, a symlinked directory is not
// walked); a symlink to nothing is an error.
func fileKind(p string, d fs.DirEntry) (string, error) {
	mode := d.Type()
	if mode&fs.ModeSymlink != 0 {
		info, err := os.Stat(p)
		if err != nil {
			return "", brokenLink(p, err)
		}
		if info.IsDir() {
			return "a symlink to a directory (not followed; give it as an argument to ingest it)", nil
		}
		mode = info.Mode().Type()
	}
	switch {
	case mode.IsRegular():
		return "", nil
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe, not a regular file (give it as an argument to read it)", nil
	default:
		return "not a regular file", nil
	}
}

// source is one input as its run describes it.
type source struct {
	path    string    // shown to the user and stored as runs.source_path
	modTime time.Time // zero for a stream or an embedded file
}

// ingestPath ingests one file, or standard input for "-".
func ingestPath(ctx context.Context, e *env, store *db.DB, path string, opts ingestOptions) error {
	in, err := openInput(ctx, path, e.stdin)
	if err != nil {
		return fmt.Errorf("%s: %w", displayPath(path), err)
	}
	defer in.Close()
	return ingestInput(ctx, e, store, in, opts)
}

// ingestInput ingests one opened input. A regular file is hashed first, so
// a file already stored is skipped unread; the bytes then parsed are hashed
// again, and a file that changed in between stores nothing. A stream is
// hashed as it is parsed, and its sha256 checked at the end.
func ingestInput(ctx context.Context, e *env, store *db.DB, in *input, opts ingestOptions) error {
	src := in.source()
	if !in.regular && opts.reingest {
		return fmt.Errorf("%s: --reingest needs a file: a stream's sha256 is known only once it is read, and then it cannot be read again", src.path)
	}
	if in.regular {
		if err := in.hashAll(); err != nil {
			return fmt.Errorf("%s: %w", src.path, err)
		}
		if skip, err := skipStored(ctx, e, store, src.path, in.sum, &opts); skip || err != nil {
			return err
		}
		if e.afterHash != nil {
			e.afterHash(src.path)
		}
	}
	r, err := in.newPass()
	if err != nil {
		return fmt.Errorf("%s: %w", src.path, err)
	}
	format := opts.format
	if format == "auto" {
		if format, r, err = detectPrefix(r, ingest.DetectFormat, opts.maxRecord+maxDetectSlack); err != nil {
			return fmt.Errorf("%s: %w", src.path, err)
		}
	}
	r = bufio.NewReaderSize(r, 256<<10)
	if in.size >= progressThreshold && isTerminal(e.stderr) {
		bar := progressbar.DefaultBytes(in.size, "ingest "+filepath.Base(src.path))
		defer bar.Finish()
		r = io.TeeReader(r, bar)
	}
	switch format {
	case ingest.FormatSubmission:
		return ingestSubmission(ctx, e, store, src, r, in.finish, opts.maxRecord)
	case ingest.FormatTau2:
		tau2 := ingest.Tau2Options{MaxRecord: opts.maxRecord}
		if in.regular {
			tau2.Rewind = func() (io.Reader, error) {
				r, err := in.newPass()
				return bufio.NewReaderSize(r, 256<<10), err
			}
		} else {
			in.spool = &spoolFile{max: opts.maxSpool}
			tau2.Spool = in.spool
		}
		rd, err := ingest.Tau2With(r, tau2)
		if err != nil {
			return fmt.Errorf("%s: %w", src.path, err)
		}
		save := func(run emobench.Run, trajectories iter.Seq2[*emobench.Trajectory, error]) (db.IngestResult, error) {
			return storeInput(ctx, e, store, in, run, trajectories, opts)
		}
		return storeTau2(ctx, e, store, src, in.sum, rd, opts, save)
	}
	run := runFor(src, in.sum, opts)
	var notes []string
	res, err := storeInput(ctx, e, store, in, run, ingest.TauBenchWith(r, ingest.TauBenchOptions{Note: func(n string) { notes = append(notes, n) }, MaxRecord: opts.maxRecord}), opts)
	if err := reportIngest(e, src, run, res, err); err != nil || res.RunID == 0 {
		return err
	}
	noteRun(ctx, e, store, src, res.RunID)
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "note: %s: %s\n", src.path, n)
	}
	if res.Trajectories == 0 {
		fmt.Fprintf(e.stdout, "%s: note: no records in this τ-bench file; run %d holds no trajectories\n", src.path, res.RunID)
	}
	return nil
}

// storeInput stores run with the trajectories parsed from in, in one
// transaction that keeps nothing when in changed while it was read. A
// stream found already stored at its end is reported as skipped
// (errSkipped).
func storeInput(ctx context.Context, e *env, store *db.DB, in *input, run emobench.Run, trajectories iter.Seq2[*emobench.Trajectory, error], opts ingestOptions) (db.IngestResult, error) {
	if in.regular {
		check := func() error { _, err := in.finish(); return err }
		return storeRun(ctx, e, store, in.path, run, verified(trajectories, check), opts)
	}
	res, err := store.IngestStream(ctx, run, trajectories, opts.onDuplicate, in.finish)
	var already *db.AlreadyIngestedError
	if errors.As(err, &already) {
		sum, sumErr := in.finish()
		if sumErr != nil {
			return res, err
		}
		if _, err := skipStored(ctx, e, store, in.path, sum, &opts); err != nil {
			return res, err
		}
		return db.IngestResult{}, errSkipped
	}
	return res, err
}

// errSkipped is an input not stored, the reason already printed.
var errSkipped = errors.New("skipped")

// skipStored reports whether the input with sha256 sum is to be skipped
// because a stored run has that sha256, printing why. A run that was not
// ingested from a file (merged from another db, or of unknown provenance)
// is only replaced by it under --reingest, which sets opts.replaceRun.
func skipStored(ctx context.Context, e *env, store *db.DB, path, sum string, opts *ingestOptions) (bool, error) {
	prov, err := store.FindProvenanceBySHA256(ctx, sum)
	if errors.Is(err, db.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	switch {
	case prov.Kind == db.ProvenanceIngested || prov.Kind == db.ProvenanceNative:
		fmt.Fprintf(e.stdout, "%s: skipped, already ingested as run %d (%s)\n", path, prov.RunID, prov.RunName)
		return true, nil
	case opts.reingest:
		opts.replaceRun = prov.RunID
		return false, nil
	case prov.Kind == db.ProvenanceMerged:
		fmt.Fprintf(e.stdout, "%s: skipped: run %d (%s) was %s, not ingested from this file; --reingest replaces it with this file's own content\n",
			path, prov.RunID, prov.RunName, prov)
	default:
		fmt.Fprintf(e.stdout, "%s: skipped: run %d (%s) has this file's sha256 but unknown provenance (stored by an emobench before provenance was recorded, it may have been merged from another db); --reingest replaces it with this file's own content\n",
			path, prov.RunID, prov.RunName)
	}
	return true, nil
}

// storeRun ingests run, replacing opts.replaceRun when it is set.
func storeRun(ctx context.Context, e *env, store *db.DB, path string, run emobench.Run, trajectories iter.Seq2[*emobench.Trajectory, error], opts ingestOptions) (db.IngestResult, error) {
	if opts.replaceRun == 0 {
		return store.IngestRun(ctx, run, trajectories, opts.onDuplicate)
	}
	res, err := store.ReplaceRun(ctx, opts.replaceRun, run, trajectories, opts.onDuplicate)
	if err == nil {
		fmt.Fprintf(e.stdout, "%s: --reingest: run %d, not ingested from this file, is replaced by the file's own content\n", path, opts.replaceRun)
	}
	return res, err
}

// reportIngest prints the outcome of IngestRun for src, or returns its error.
func reportIngest(e *env, src source, run emobench.Run, res db.IngestResult, err error) error {
	if errors.Is(err, errSkipped) {
		return nil
	}
	var already *db.AlreadyIngestedError
	if errors.As(err, &already) {
		fmt.Fprintf(e.stdout, "%s: skipped, %v\n", src.path, already)
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", src.path, err)
	}
	replaced := ""
	if res.Replaced > 0 {
		replaced = fmt.Sprintf("; %d duplicate (task_id, trial) records replaced by later ones", res.Replaced)
	}
	fmt.Fprintf(e.stdout, "%s: ingested as run %d (%s): %s; model %s, domain %s, condition %s%s\n",
		src.path, res.RunID, run.Name, plural(res.Trajectories, "trajectory", "trajectories"),
		orUnknown(run.AgentModel), orUnknown(run.Domain), run.Condition, replaced)
	return nil
}

// noteRun tells the user what in a freshly ingested run will not read as
// they may expect: its rewards and its emotion labels.
func noteRun(ctx context.Context, e *env, store *db.DB, src source, runID int64) {
	noteRewards(ctx, e, store, src, runID)
	noteTaxonomy(ctx, e, store, src, runID)
}

// noteRewards tells the user when a run's rewards will not read as its
// pass rate: trajectories without reward information, or partial credit.
func noteRewards(ctx context.Context, e *env, store *db.DB, src source, runID int64) {
	k, err := store.CountRewardKinds(ctx, runID)
	if err != nil || k.Total == 0 {
		return
	}
	switch {
	case k.Unevaluated == k.Total:
		fmt.Fprintf(e.stderr, "note: %s: none of its %d trajectories is evaluated (no reward information, or a τ²-bench non-evaluable ending; evaluated = 0): the run is not evaluated, and its statistics read \"not evaluated\", not 0\n",
			src.path, k.Total)
	case k.Unevaluated > 0:
		fmt.Fprintf(e.stderr, "note: %s: %d of %d trajectories are not evaluated (no reward information, or a τ²-bench non-evaluable ending; evaluated = 0): they count as failures\n",
			src.path, k.Unevaluated, k.Total)
	}
	if k.Partial > 0 {
		fmt.Fprintf(e.stderr, "note: %s: %d of %d rewards are partial (neither 0 nor 1): a trajectory passes only with reward 1 ± 1e-6; `emobench runs` shows their mean_reward\n",
			src.path, k.Partial, k.Total)
	}
}

// noteTaxonomy tells the user about tasks whose emotion leaf the Atlas of
// Emotions puts in another family (or no family): statistics by
// emotion_leaf pool a leaf across families.
func noteTaxonomy(ctx context.Context, e *env, store *db.DB, src source, runID int64) {
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
		fmt.Fprintf(e.stderr, "note: %s: %s a leaf with another family than the Atlas of Emotions does: %s; stats by emotion_leaf pool a leaf across families\n",
			src.path, plural(n, "task pairs", "tasks pair"), strings.Join(odd, ", "))
	}
}

func runFor(src source, sum string, opts ingestOptions) emobench.Run {
	path := src.path
	meta := ingest.MetadataFromFileName(path)
	run := emobench.Run{
		Name:          opts.name,
		SourceFormat:  ingest.FormatTauBench,
		SourcePath:    absolute(path, src.modTime),
		SourceSHA256:  sum,
		AgentModel:    firstNonEmpty(opts.model, meta.Model),
		AgentStrategy: meta.AgentStrategy,
		UserModel:     firstNonEmpty(opts.userModel, meta.UserModel),
		UserStrategy:  meta.UserStrategy,
		Domain:        firstNonEmpty(opts.domain, meta.Domain),
		Condition:     emobench.Condition(firstNonEmpty(string(opts.condition), string(meta.Condition), string(emobench.ConditionNone))),
	}
	if run.Name == "" {
		run.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	run.CreatedAt = src.modTime
	config := map[string]any{"ingest": map[string]string{
		"format": ingest.FormatTauBench, "on_duplicate": string(opts.onDuplicate),
	}}
	if meta.Temperature != "" {
		config["file_name"] = map[string]string{"temperature": meta.Temperature}
	}
	run.Config, _ = json.Marshal(config)
	return run
}

// absolute returns path made absolute when it is a file on disk, so the
// stored source_path still names it from anywhere.
func absolute(path string, modTime time.Time) string {
	if modTime.IsZero() {
		return path // embedded fixture or pipe
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
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

// ingestTau2Dir ingests a τ²-bench 1.x run directory as one run, whose
// sha256 is taken over results.json and then the sorted simulation files.
// Each file is hashed on its own too, and checked again as it is parsed.
func ingestTau2Dir(ctx context.Context, e *env, store *db.DB, dir string, opts ingestOptions) error {
	if opts.format != "auto" && opts.format != ingest.FormatTau2 {
		return fmt.Errorf("%s: a τ²-bench run directory (results.json and simulations/), but --format is %s", dir, opts.format)
	}
	fsys := os.DirFS(dir)
	files, err := ingest.Tau2DirFiles(fsys)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	run := sha256.New()
	verify := &verifyFS{fsys: fsys, want: map[string]string{}}
	for _, name := range files {
		sum, err := hashFile(ctx, run, fsys, name)
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		verify.want[name] = sum
	}
	sum := hex.EncodeToString(run.Sum(nil))
	if skip, err := skipStored(ctx, e, store, dir, sum, &opts); skip || err != nil {
		return err
	}
	if e.afterHash != nil {
		e.afterHash(dir)
	}
	rd, err := ingest.Tau2DirWith(verify, ingest.Tau2Options{MaxRecord: opts.maxRecord})
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if err := verify.check(); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	src := source{path: dir}
	if info, err := fs.Stat(fsys, ingest.Tau2ResultsFile); err == nil {
		src.modTime = info.ModTime()
	}
	save := func(run emobench.Run, trajectories iter.Seq2[*emobench.Trajectory, error]) (db.IngestResult, error) {
		return storeRun(ctx, e, store, dir, run, verified(trajectories, verify.check), opts)
	}
	return storeTau2(ctx, e, store, src, sum, rd, opts, save)
}

// hashFile writes file name of fsys to w and returns its own sha256.
func hashFile(ctx context.Context, w io.Writer, fsys fs.FS, name string) (string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(w, h), &ctxReader{ctx: ctx, r: f}); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// saveFunc stores a run and its trajectories in one transaction.
type saveFunc func(emobench.Run, iter.Seq2[*emobench.Trajectory, error]) (db.IngestResult, error)

// storeTau2 stores one τ²-bench run through save, then prints the reader's
// warnings (on stderr) and a note when the run has no simulations.
func storeTau2(ctx context.Context, e *env, store *db.DB, src source, sum string, rd *ingest.Tau2Reader, opts ingestOptions, save saveFunc) error {
	info := rd.Info()
	run := tau2Run(src, sum, info, opts)
	res, err := save(run, rd.Trajectories())
	if err := reportIngest(e, src, run, res, err); err != nil || res.RunID == 0 {
		return err
	}
	noteRun(ctx, e, store, src, res.RunID)
	for _, w := range rd.Warnings() {
		fmt.Fprintf(e.stderr, "warning: %s: %s\n", src.path, w)
	}
	for _, path := range info.Redacted {
		fmt.Fprintf(e.stderr, "note: %s: info.%s holds a credential: stored as %q in runs.config\n", src.path, path, redact.Placeholder)
	}
	if res.Trajectories == 0 {
		fmt.Fprintf(e.stdout, "%s: note: no simulations in this τ²-bench run (it lists %s); run %d holds no trajectories\n",
			src.path, plural(rd.Info().Tasks, "task", "tasks"), res.RunID)
	}
	return nil
}

// tau2Run describes a τ²-bench run: flags first, then the file's info, then
// the file name. CreatedAt is the Results timestamp (its zone unrecorded,
// taken as UTC), else the file's modification time.
func tau2Run(src source, sum string, info ingest.Tau2Info, opts ingestOptions) emobench.Run {
	base := strings.TrimSuffix(filepath.Base(src.path), filepath.Ext(src.path))
	if strings.EqualFold(filepath.Base(src.path), ingest.Tau2ResultsFile) {
		base = filepath.Base(filepath.Dir(src.path)) // name a run after the folder of its results.json
	}
	meta := ingest.MetadataFromFileName(base + ".json") // it strips an extension; base has none left
	run := emobench.Run{
		Name:          firstNonEmpty(opts.name, base),
		SourceFormat:  ingest.FormatTau2,
		SourcePath:    absolute(src.path, src.modTime),
		SourceSHA256:  sum,
		AgentModel:    firstNonEmpty(opts.model, info.AgentModel, meta.Model),
		AgentStrategy: info.AgentImplementation,
		UserModel:     firstNonEmpty(opts.userModel, info.UserModel),
		UserStrategy:  info.UserImplementation,
		Domain:        firstNonEmpty(opts.domain, info.Domain, meta.Domain),
		Condition:     emobench.Condition(firstNonEmpty(string(opts.condition), string(info.Condition), string(meta.Condition), string(emobench.ConditionNone))),
		CreatedAt:     src.modTime,
	}
	if t, ok := parseTau2Time(info.Timestamp); ok {
		run.CreatedAt = t
	}
	tau2 := map[string]any{"timestamp": info.Timestamp}
	if info.Raw != nil {
		tau2["info"] = info.Raw
	}
	if info.Wrapper != nil {
		tau2["wrapper"] = info.Wrapper
	}
	run.Config, _ = json.Marshal(map[string]any{
		"ingest": map[string]string{"format": ingest.FormatTau2, "on_duplicate": string(opts.onDuplicate)},
		"tau2":   tau2,
	})
	return run
}

func parseTau2Time(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// ingestSubmission stores a leaderboard submission's scores as published
// results, keyed by the sha256 of its bytes (from finish), and prints one
// line.
func ingestSubmission(ctx context.Context, e *env, store *db.DB, src source, r io.Reader, finish func() (string, error), maxRecord int64) error {
	var notes []string
	results, err := ingest.SubmissionWith(r, ingest.SubmissionOptions{Note: func(n string) { notes = append(notes, n) }, MaxRecord: maxRecord})
	if err != nil {
		return fmt.Errorf("%s: %w", src.path, err)
	}
	sum, err := finish()
	if err != nil {
		return fmt.Errorf("%s: %w", src.path, err)
	}
	if len(results) == 0 {
		fmt.Fprintf(e.stdout, "%s: leaderboard submission without scores (every domain is null); nothing stored\n", src.path)
		return nil
	}
	var domains []string
	for i := range results {
		results[i].SourceFile = absolute(src.path, src.modTime)
		if i == 0 || results[i].Domain != results[i-1].Domain {
			domains = append(domains, results[i].Domain)
		}
	}
	stored, err := store.StorePublished(ctx, sum, results)
	if err != nil {
		return fmt.Errorf("%s: %w", src.path, err)
	}
	if !stored {
		fmt.Fprintf(e.stdout, "%s: skipped, published results already stored\n", src.path)
		return nil
	}
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "note: %s: %s\n", src.path, n)
	}
	fmt.Fprintf(e.stdout, "%s: stored %s of %s (leaderboard submission): domains %s\n",
		src.path, plural(len(results), "published result", "published results"), results[0].Model, strings.Join(domains, ", "))
	return nil
}

// checkNameForm refuses a run name that --run would read as an id.
func checkNameForm(name string) error {
	if db.NameReadsAsID(name) {
		return usagef("--name %q reads as a run id: choose a name with a letter", name)
	}
	return nil
}

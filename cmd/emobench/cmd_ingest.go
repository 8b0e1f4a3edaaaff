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
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/ingest"
	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
)

// progressThreshold is the file size, in bytes, above which ingest shows a
// progress bar (when stderr is a terminal).
const progressThreshold = 16 << 20

func ingestCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "ingest",
		Usage:     "read result files into the database, one transaction per file",
		ArgsUsage: "FILE|DIR...",
		Description: "Reads τ-bench / τ-Emotion-Bench result files (a JSON array of {task_id, reward, info, traj, trial}).\n" +
			"Directories are walked for *.json and *.jsonl (JSON Lines of records). A file already ingested (same sha256) is skipped.\n" +
			"Model, domain and condition come from the flags, else from file names like\n" +
			"<model>-<domain>-(with|without)-emotions.json or <model>-<domain>.json, else 'unknown'.\n\n" +
			"Example:\n" +
			"   emobench --db runs.db ingest results/*.json\n" +
			"   emobench --db runs.db ingest --model gpt-4.1 --domain retail --condition none run1.json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "auto", Usage: "input format: auto or taubench"},
			&cli.StringFlag{Name: "model", Usage: "agent model of the run(s)"},
			&cli.StringFlag{Name: "user-model", Usage: "user simulator model of the run(s)"},
			&cli.StringFlag{Name: "domain", Usage: "domain of the run(s), e.g. retail"},
			&cli.StringFlag{Name: "condition", Usage: "with-emotions, without-emotions or none"},
			&cli.StringFlag{Name: "name", Usage: "run name (one file only; default: the file name)"},
			&cli.StringFlag{Name: "on-duplicate", Value: "refuse", Usage: "a repeated (task_id, trial) in a file: refuse or keep-last"},
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
}

func parseIngestOptions(c *cli.Context) (ingestOptions, error) {
	o := ingestOptions{
		format: c.String("format"), model: c.String("model"), userModel: c.String("user-model"),
		domain: c.String("domain"), name: c.String("name"), onDuplicate: db.OnDuplicate(c.String("on-duplicate")),
	}
	if o.format != "auto" && o.format != ingest.FormatTauBench {
		return o, usagef("--format %q is not one of auto, taubench", o.format)
	}
	if o.onDuplicate != db.DuplicateRefuse && o.onDuplicate != db.DuplicateKeepLast {
		return o, usagef("--on-duplicate %q is not one of refuse, keep-last", o.onDuplicate)
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
	files, walkErrs := collectFiles(c.Args().Slice())
	if opts.name != "" && len(files) > 1 {
		return usagef("--name names one run, but %d files were given", len(files))
	}
	store, err := db.Open(c.Context, c.String("db"))
	if err != nil {
		return err
	}
	defer store.Close()
	failed := len(walkErrs)
	for _, err := range walkErrs {
		fmt.Fprintf(e.stderr, "error: %v\n", err)
	}
	for _, path := range files {
		src, cleanup, err := osSource(path)
		if err == nil {
			err = ingestFile(c.Context, e, store, src, opts)
			cleanup()
		}
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return fmt.Errorf("%s: interrupted; nothing of this file was stored", path)
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

// collectFiles expands directories into their *.json files, sorted.
func collectFiles(args []string) (files []string, errs []error) {
	for _, arg := range args {
		info, err := os.Stat(arg)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", arg, errors.Unwrap(err)))
			continue
		}
		if !info.IsDir() {
			files = append(files, arg)
			continue
		}
		var found []string
		err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			ext := strings.ToLower(filepath.Ext(p))
			// Only regular files: a FIFO would block the walk forever.
			if d.Type().IsRegular() && (ext == ".json" || ext == ".jsonl") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", arg, err))
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, errs
}

// source is one input file, on disk or embedded.
type source struct {
	path    string // shown to the user and stored as runs.source_path
	open    func() (io.ReadCloser, error)
	modTime time.Time
}

// osSource returns a file on disk as a source. A non-regular file (a pipe
// such as /dev/stdin) is read once into a temporary file, because ingest
// reads its input twice (hash, then records); cleanup removes that copy.
func osSource(path string) (source, func(), error) {
	info, err := os.Stat(path)
	if err != nil {
		return source{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	if info.Mode().IsRegular() {
		open := func() (io.ReadCloser, error) { return os.Open(path) }
		return source{path: path, open: open, modTime: info.ModTime()}, func() {}, nil
	}
	spool, err := spoolFile(path)
	if err != nil {
		return source{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	open := func() (io.ReadCloser, error) { return os.Open(spool) }
	return source{path: path, open: open}, func() { os.Remove(spool) }, nil
}

func spoolFile(path string) (string, error) {
	in, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer in.Close()
	out, err := os.CreateTemp("", "emobench-ingest-*.json")
	if err != nil {
		return "", err
	}
	defer out.Close()
	if _, err := io.Copy(out, in); err != nil {
		os.Remove(out.Name())
		return "", err
	}
	return out.Name(), out.Close()
}

func ingestFile(ctx context.Context, e *env, store *db.DB, src source, opts ingestOptions) error {
	sum, size, err := sourceSHA256(src)
	if err != nil {
		return fmt.Errorf("%s: %w", src.path, err)
	}
	if id, name, err := store.FindRunBySHA256(ctx, sum); err == nil {
		fmt.Fprintf(e.stdout, "%s: skipped, already ingested as run %d (%s)\n", src.path, id, name)
		return nil
	} else if !errors.Is(err, db.ErrNotFound) {
		return fmt.Errorf("%s: %w", src.path, err)
	}
	f, err := src.open()
	if err != nil {
		return fmt.Errorf("%s: %w", src.path, err)
	}
	defer f.Close()
	var r io.Reader = bufio.NewReaderSize(f, 256<<10)
	if size >= progressThreshold && isTerminal(e.stderr) {
		bar := progressbar.DefaultBytes(size, "ingest "+filepath.Base(src.path))
		defer bar.Finish()
		r = io.TeeReader(r, bar)
	}
	run := runFor(src, sum, opts)
	res, err := store.IngestRun(ctx, run, ingest.TauBench(r), opts.onDuplicate)
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

func runFor(src source, sum string, opts ingestOptions) emobench.Run {
	path := src.path
	meta := ingest.MetadataFromFileName(path)
	run := emobench.Run{
		Name:         opts.name,
		SourceFormat: ingest.FormatTauBench,
		SourcePath:   absolute(path, src.modTime),
		SourceSHA256: sum,
		AgentModel:   firstNonEmpty(opts.model, meta.Model),
		UserModel:    opts.userModel,
		Domain:       firstNonEmpty(opts.domain, meta.Domain),
		Condition:    emobench.Condition(firstNonEmpty(string(opts.condition), string(meta.Condition), string(emobench.ConditionNone))),
	}
	if run.Name == "" {
		run.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	run.CreatedAt = src.modTime
	run.Config, _ = json.Marshal(map[string]any{"ingest": map[string]string{
		"format": ingest.FormatTauBench, "on_duplicate": string(opts.onDuplicate),
	}})
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

func sourceSHA256(src source) (string, int64, error) {
	f, err := src.open()
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
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

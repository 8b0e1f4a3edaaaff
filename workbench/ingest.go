package workbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"slices"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/reports/table"
)

// IngestOptions is what IngestSource does with each source; the ingest
// command builds them from its flags (IngestFlags.Options) and adds the
// callbacks.
type IngestOptions struct {
	// Hints are the format and metadata flags, and the reader's limits.
	Hints ingest.Hints
	// OnDuplicate is what a repeated (task_id, trial) in a source does.
	OnDuplicate db.OnDuplicate
	// Reingest replaces a run not ingested from the file (merged, or of
	// unknown provenance) that has the file's sha256 with its content.
	Reingest bool
	// DBPath names the database in the command that edits a stored run.
	DBPath string
	// Progress, when not nil, is asked for a progress bar of a source of
	// at least ProgressThreshold bytes about to be read: the bytes read are
	// written to bar (nil for none), and finish (nil for none) is called
	// once the source is stored.
	Progress func(src *ingest.Source) (bar io.Writer, finish func())
	// AfterHash, when not nil, runs after a file is hashed and before it
	// is parsed (where a test changes the file).
	AfterHash func(path string)
}

// ProgressThreshold is the size, in bytes, from which a source gets a
// progress bar (IngestOptions.Progress).
const ProgressThreshold = 16 << 20

// IngestFlags are the ingest command's flag values, as given.
type IngestFlags struct {
	Format                 string // auto or a format name
	Name, Model, UserModel string // "" when not given
	Domain, Condition      string // "" when not given
	OnDuplicate            string // refuse or keep-last
	Reingest               bool
	MaxSpool, MaxRecord    string // sizes such as 4GiB, 512MiB or 1000000
	DBPath                 string // the database, named in notes
}

// Options checks the flag values and turns them into IngestOptions
// (without callbacks). A bad value is an EREQUEST error naming its flag:
// a format that is not auto or registered, an OnDuplicate that is not
// refuse or keep-last, a size that is not one, an unknown condition.
func (f IngestFlags) Options() (IngestOptions, error) {
	o := IngestOptions{OnDuplicate: db.OnDuplicate(f.OnDuplicate), Reingest: f.Reingest, DBPath: f.DBPath}
	o.Hints = ingest.Hints{
		Format:      f.Format,
		Flags:       ingest.Metadata{Name: f.Name, Model: f.Model, UserModel: f.UserModel, Domain: f.Domain},
		OnDuplicate: f.OnDuplicate,
	}
	if format := o.Hints.Format; format != "auto" && !slices.Contains(ingest.FormatNames(), format) {
		return o, settingf("format", "%q is not one of auto, %s", format, strings.Join(ingest.FormatNames(), ", "))
	}
	if o.OnDuplicate != db.DuplicateRefuse && o.OnDuplicate != db.DuplicateKeepLast {
		return o, settingf("on-duplicate", "%q is not one of refuse, keep-last", o.OnDuplicate)
	}
	var err error
	if o.Hints.MaxSpool, err = ParseByteSize("max-spool", f.MaxSpool); err != nil {
		return o, err
	}
	if o.Hints.MaxRecord, err = ParseByteSize("max-record", f.MaxRecord); err != nil {
		return o, err
	}
	if f.Condition != "" {
		if o.Hints.Flags.Condition, err = emobench.ParseCondition(f.Condition); err != nil {
			return o, requestf("%v", err)
		}
	}
	return o, nil
}

// ParseByteSize reads the value s of a size flag (--max-spool,
// --max-record) such as 4GiB, 500MB or 1000000, in bytes: at least 1 and
// at most math.MaxInt64. Anything else is an EREQUEST error naming flag.
func ParseByteSize(flag, s string) (int64, error) {
	n, err := humanize.ParseBytes(s)
	if err != nil || n == 0 || n > math.MaxInt64 {
		return 0, settingf(flag, "%q is not a size such as 4GiB, 512MiB or 1000000", s)
	}
	return int64(n), nil
}

// CheckName refuses, with an EREQUEST error, a run name (Hints.Flags.Name)
// given for more than one of inputs, or one that --run would read as an id.
func (o IngestOptions) CheckName(inputs int) error {
	name := o.Hints.Flags.Name
	if name != "" && inputs > 1 {
		return settingf("name", "names one run, but %d files were given", inputs)
	}
	if db.NameReadsAsID(name) {
		return settingf("name", "%q reads as a run id: choose a name with a letter", name)
	}
	return nil
}

// IngestAction is what IngestSource did with a source.
type IngestAction int

// What IngestSource did with a source; the zero value is nothing (it
// failed).
const (
	IngestSkipped   IngestAction = iota + 1 // a stored run (or published file) has its sha256
	IngestStored                            // stored as a run
	IngestPublished                         // stored as published leaderboard results
	IngestNoScores                          // a leaderboard submission without scores: nothing stored
)

// Ingested is what IngestSource did with one source, and what to tell.
type Ingested struct {
	Path   string // the source's name
	Action IngestAction
	// RunID and Run are the run stored, or the stored run the source was
	// skipped for (Run is then the zero value); 0 and zero otherwise.
	RunID int64
	Run   emobench.Run
	// Trajectories counts the trajectories stored; Replaced the repeated
	// (task_id, trial) records replaced by later ones (keep-last).
	Trajectories, Replaced int
	// Published counts the published results stored.
	Published int
	// Lines are what to print, in order: stdout lines, and warnings about
	// the data for stderr, each without a newline.
	Lines []Line
	// Notes are the notes for the command's end (ingest.Notes gathers
	// them once each).
	Notes []ingest.Note
}

// Line is one line IngestSource has to tell.
type Line struct {
	Text    string
	Warning bool // for stderr; else for stdout
}

func (r *Ingested) say(format string, args ...any) {
	r.Lines = append(r.Lines, Line{Text: fmt.Sprintf(format, args...)})
}

func (r *Ingested) warn(format string, args ...any) {
	r.Lines = append(r.Lines, Line{Text: "warning: " + fmt.Sprintf(format, args...), Warning: true})
}

func (r *Ingested) note(text string) {
	r.Notes = append(r.Notes, ingest.Note{Path: r.Path, Text: text})
}

// Print writes r's Lines, stdout's to stdout and warnings to stderr, and
// err, when not nil, as "error: …" on stderr, their escape sequences made
// printable (table.Printable) so a file's content never reaches the
// terminal as control codes; it adds r's Notes to notes.
func (r Ingested) Print(stdout, stderr io.Writer, notes *ingest.Notes, err error) {
	for _, l := range r.Lines {
		w := stdout
		if l.Warning {
			w = stderr
		}
		fmt.Fprintln(w, table.Printable(l.Text))
	}
	for _, n := range r.Notes {
		notes.Add(n.Path, n.Text)
	}
	if err != nil {
		fmt.Fprintf(stderr, "error: %s\n", table.Printable(err.Error()))
	}
}

// Inputs are the inputs the ingest command's arguments name.
type Inputs struct {
	Paths []string // files, τ²-bench run directories, pipes and ingest.StdinArg
	// WalkErrors are the arguments (or directory entries) that could not
	// be read; each is a failed input.
	WalkErrors []error
	// Notes say what the walk skipped (symlinks to directories, …).
	Notes *ingest.Notes
}

// Count is the number of inputs, failed ones included.
func (in Inputs) Count() int { return len(in.Paths) + len(in.WalkErrors) }

// CollectInputs collects the inputs args name (ingest.Collect) and checks
// that the options' run name fits them (CheckName). No args is a
// EREQUEST error.
func CollectInputs(args []string, opts IngestOptions) (Inputs, error) {
	if len(args) == 0 {
		return Inputs{}, requestf("ingest needs at least one FILE or DIR")
	}
	paths, walkErrs, skipped := ingest.Collect(args)
	in := Inputs{Paths: paths, WalkErrors: walkErrs, Notes: &ingest.Notes{}}
	for _, note := range skipped {
		in.Notes.Add(note.Path, note.Text)
	}
	return in, opts.CheckName(len(paths))
}

// IngestInputs hands each walk error of in to each, then ingests each
// path of in (IngestPath) in order, handing each outcome to each with the
// input's error, if any: a failed input does not stop the others. When
// ctx ends it stops, with an error naming the input that was being read
// (nothing of it is stored). It returns how many inputs failed.
func IngestInputs(ctx context.Context, store *db.DB, in Inputs, stdin io.Reader, opts IngestOptions, each func(Ingested, error)) (failed int, err error) {
	for _, err := range in.WalkErrors {
		each(Ingested{}, err)
	}
	failed = len(in.WalkErrors)
	for _, path := range in.Paths {
		res, err := IngestPath(ctx, store, path, stdin, opts)
		if err != nil && (errors.Is(err, context.Canceled) || ctx.Err() != nil) {
			return failed, fmt.Errorf("%s: interrupted; nothing of this file was stored", displayPath(path))
		}
		if err != nil {
			failed++
		}
		each(res, err)
	}
	return failed, nil
}

// displayPath names input path to the user.
func displayPath(path string) string {
	if path == ingest.StdinArg {
		return "stdin"
	}
	return path
}

// IngestPath opens the input path (a file, a τ²-bench run directory, a
// pipe or ingest.StdinArg, read from stdin) and ingests it (IngestSource).
func IngestPath(ctx context.Context, store *db.DB, path string, stdin io.Reader, opts IngestOptions) (Ingested, error) {
	src, err := ingest.OpenSource(ctx, path, stdin)
	if err != nil {
		return Ingested{Path: path}, err
	}
	defer src.Close()
	return IngestSource(ctx, store, src, opts)
}

// IngestFS ingests the file name of fsys as a stream called display (the
// demo's embedded fixtures).
func IngestFS(ctx context.Context, store *db.DB, fsys fs.FS, name, display string, opts IngestOptions) (Ingested, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return Ingested{Path: display}, err
	}
	defer f.Close()
	src := ingest.StreamSource(ctx, display, f)
	defer src.Close()
	return IngestSource(ctx, store, src, opts)
}

// IngestSource skips src when a stored run has its sha256, else opens it
// and stores it in one transaction: a run with its trajectories, or a
// leaderboard submission's published results. On error nothing of src is
// stored; errors name src.Path (and the record, for bad data).
func IngestSource(ctx context.Context, store *db.DB, src *ingest.Source, opts IngestOptions) (Ingested, error) {
	res := Ingested{Path: src.Path}
	input := db.Input{Path: src.Path, OnDuplicate: opts.OnDuplicate}
	if src.IsStream() && opts.Reingest {
		return res, fmt.Errorf("%s: reingesting needs a file: a stream's sha256 is known only once it is read, and then it cannot be read again", src.Path)
	}
	if src.IsStream() {
		input.Finish = src.Finish
	} else {
		sum, err := src.Hash()
		if err != nil {
			return res, err
		}
		d, err := store.DecideStored(ctx, sum, opts.Reingest)
		if err != nil {
			return res, fmt.Errorf("%s: %w", src.Path, err)
		}
		if d.Skip {
			res.skip(d, opts, false)
			return res, nil
		}
		input.Replace = d.Replace
		if opts.AfterHash != nil {
			opts.AfterHash(src.Path)
		}
	}
	h := opts.Hints
	if opts.Progress != nil && src.Size >= ProgressThreshold {
		bar, finish := opts.Progress(src)
		if finish != nil {
			defer finish()
		}
		h.Progress = bar
	}
	in, err := ingest.Open(src, h)
	if err != nil {
		return res, err
	}
	if in.Format == ingest.FormatSubmission {
		return res, res.storePublished(ctx, store, in)
	}
	input.Run, input.Trajectories = in.Run, in.Trajectories
	stored, err := store.StoreInput(ctx, input)
	if stored.Skip != nil && err == nil {
		res.skip(*stored.Skip, opts, true)
		return res, nil
	}
	if already := new(db.AlreadyIngestedError); errors.As(err, &already) {
		res.RunID = already.RunID
		res.say("%s: skipped, %v", src.Path, already)
		return res, nil
	} else if err != nil {
		return res, fmt.Errorf("%s: %w", src.Path, err)
	}
	res.Action, res.RunID, res.Run = IngestStored, stored.RunID, stored.Run
	res.Trajectories, res.Replaced = stored.Trajectories, stored.Replaced
	if input.Replace != 0 {
		res.say("%s: --reingest: run %d, not ingested from this file, is replaced by the file's own content", src.Path, input.Replace)
	}
	replaced := ""
	if stored.Replaced > 0 {
		replaced = fmt.Sprintf("; %d duplicate (task_id, trial) records replaced by later ones", stored.Replaced)
	}
	run := stored.Run
	res.say("%s: ingested as run %d (%s): %s; model %s, domain %s, condition %s%s",
		src.Path, stored.RunID, run.Name, Plural(stored.Trajectories, "trajectory", "trajectories"),
		OrUnknown(run.AgentModel), OrUnknown(run.Domain), run.Condition, replaced)
	if stored.Clash != 0 {
		res.warn("%s: run %d is already named %q: this run is named %q (rename it with `emobench runs set RUN --name NAME`)", src.Path, stored.Clash, in.Run.Name, run.Name)
	}
	for _, n := range store.RunNotes(ctx, stored.RunID) {
		res.note(n)
	}
	for _, w := range in.Warnings() {
		res.warn("%s: %s", src.Path, w)
	}
	for _, n := range in.Notes() {
		res.note(n)
	}
	if stored.Trajectories == 0 {
		res.note(fmt.Sprintf("%s; run %d holds no trajectories", in.EmptyNote(), stored.RunID))
	}
	return res, nil
}

// skip records why the source is skipped, how to replace a stored run
// --reingest can replace (a stream cannot be read a second time: it is to
// be saved to a file first), and, when the options name metadata, how to
// change the stored run's (a note).
func (r *Ingested) skip(d db.SkipDecision, opts IngestOptions, stream bool) {
	r.Action, r.RunID = IngestSkipped, d.RunID
	remedy := ""
	switch {
	case d.Reingestable && stream:
		remedy = "; to replace it with this content, save it to a file and ingest that with --reingest (a stream cannot be read twice)"
	case d.Reingestable:
		remedy = "; --reingest replaces it with this file's own content"
	}
	r.say("%s: %s%s", r.Path, d.Message, remedy)
	if hint := opts.Hints.Flags.StoredRunHint(opts.DBPath, d.RunID); d.Hint && hint != "" {
		r.note("the flags are not applied to a stored run: " + hint)
	}
}

// storePublished stores a leaderboard submission's scores as published
// results, keyed by the sha256 of its bytes.
func (r *Ingested) storePublished(ctx context.Context, store *db.DB, in *ingest.Opened) error {
	results := in.Published
	if len(results) == 0 {
		r.Action = IngestNoScores
		r.say("%s: leaderboard submission without scores (every domain is null); nothing stored", r.Path)
		return nil
	}
	stored, err := store.StorePublished(ctx, in.Run.SourceSHA256, results)
	if err != nil {
		return fmt.Errorf("%s: %w", r.Path, err)
	}
	if !stored {
		r.Action = IngestSkipped
		r.say("%s: skipped, published results already stored", r.Path)
		return nil
	}
	r.Action, r.Published = IngestPublished, len(results)
	for _, n := range in.Notes() {
		r.note(n)
	}
	r.say("%s: stored %s of %s (leaderboard submission): domains %s",
		r.Path, Plural(len(results), "published result", "published results"), results[0].Model, strings.Join(in.PublishedDomains(), ", "))
	return nil
}

// OrUnknown is s, or "unknown" when s is "".
func OrUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// Plural is "1 one" for n = 1, else "n many" (e.g. "3 runs").
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// IngestArgs ingests the inputs args name (CollectInputs, then
// IngestInputs) into the database open opens, which it opens only when
// some input can be read (no database is made for nothing) and closes.
// Each input's lines go to stdout and stderr (Ingested.Print); the walk's
// notes, then the inputs' notes, go to note in order, the latter also
// when it fails. Failed inputs are no error: it returns how many of how
// many inputs failed.
func IngestArgs(ctx context.Context, args []string, stdin io.Reader, opts IngestOptions, open func(context.Context) (*db.DB, error),
	stdout, stderr io.Writer, note func(string)) (failed, inputs int, err error) {
	in, err := CollectInputs(args, opts)
	if err != nil {
		return 0, 0, err
	}
	var store *db.DB
	if len(in.Paths) > 0 {
		if store, err = open(ctx); err != nil {
			return 0, 0, err
		}
		defer store.Close()
	}
	notes := &ingest.Notes{}
	for _, n := range in.Notes.Lines() {
		note(n)
	}
	defer func() {
		for _, n := range notes.Lines() {
			note(n)
		}
	}()
	failed, err = IngestInputs(ctx, store, in, stdin, opts, func(res Ingested, err error) { res.Print(stdout, stderr, notes, err) })
	return failed, in.Count(), err
}

package workbench_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/fixtures"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/workbench"
)

// ingestTestOptions are the ingest command's defaults.
func ingestTestOptions() workbench.IngestOptions {
	return workbench.IngestOptions{
		Hints:       ingest.Hints{Format: "auto", OnDuplicate: string(db.DuplicateRefuse)},
		OnDuplicate: db.DuplicateRefuse, DBPath: "runs.db",
	}
}

// writeIngestFile writes data to name under dir and returns its path.
func writeIngestFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// fixtureBytes is the content of the fixture file name.
func fixtureBytes(t *testing.T, name string) []byte {
	t.Helper()
	data, err := fixtures.FS.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// lineTexts are res's lines for stdout and for stderr.
func lineTexts(res workbench.Ingested) (stdout, stderr []string) {
	for _, l := range res.Lines {
		if l.Warning {
			stderr = append(stderr, l.Text)
		} else {
			stdout = append(stdout, l.Text)
		}
	}
	return stdout, stderr
}

func TestIngestPath_StoredThenSkipped(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := openRunTestDB(t)
	path := writeIngestFile(t, t.TempDir(), "demo-model-a-retail-with-emotions.json", fixtureBytes(t, "taubench/demo-model-a-retail-with-emotions.json"))
	var hashed []string
	opts := ingestTestOptions()
	opts.AfterHash = func(p string) { hashed = append(hashed, p) }

	res, err := workbench.IngestPath(ctx, store, path, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Action, workbench.IngestStored; got != want {
		t.Fatalf("action = %v, want %v (stored)", got, want)
	}
	// The fixture holds 60 records; its name gives model, domain and condition.
	if res.RunID != 1 || res.Trajectories != 60 || res.Run.Name != "demo-model-a-retail-with-emotions" {
		t.Fatalf("run %d (%s) with %d trajectories, want run 1 (demo-model-a-retail-with-emotions) with 60", res.RunID, res.Run.Name, res.Trajectories)
	}
	stdout, stderr := lineTexts(res)
	want := []string{path + ": ingested as run 1 (demo-model-a-retail-with-emotions): 60 trajectories; model demo-model-a, domain retail, condition with-emotions"}
	if !slices.Equal(stdout, want) || len(stderr) != 0 {
		t.Fatalf("stdout %q, stderr %q; want stdout %q, no stderr", stdout, stderr, want)
	}
	if !slices.Equal(hashed, []string{path}) {
		t.Fatalf("AfterHash saw %q, want %q", hashed, path)
	}

	// Again, with a model flag: skipped by sha256, with a note on how to
	// change the stored run.
	opts.Hints.Flags.Model = "gpt-x"
	res, err = workbench.IngestPath(ctx, store, path, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != workbench.IngestSkipped || res.RunID != 1 {
		t.Fatalf("second ingest: action %v, run %d; want skipped for run 1", res.Action, res.RunID)
	}
	stdout, _ = lineTexts(res)
	if want := []string{path + ": skipped, already ingested as run 1 (demo-model-a-retail-with-emotions)"}; !slices.Equal(stdout, want) {
		t.Fatalf("second ingest stdout = %q, want %q", stdout, want)
	}
	if len(res.Notes) != 1 || res.Notes[0].Path != path || !strings.HasPrefix(res.Notes[0].Text, "the flags are not applied to a stored run: ") || !strings.Contains(res.Notes[0].Text, "--model gpt-x") {
		t.Fatalf("second ingest notes = %+v, want one that gives the runs set command with --model gpt-x", res.Notes)
	}
	if len(hashed) != 1 {
		t.Fatalf("AfterHash ran %d times, want once: a skipped file is not parsed", len(hashed))
	}
}

func TestIngestFS_StreamTwice(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := openRunTestDB(t)
	opts := ingestTestOptions()
	opts.AfterHash = func(p string) { t.Errorf("AfterHash(%s) ran for a stream, which is hashed as it is read", p) }
	name := "taubench/demo-model-b-retail-without-emotions.json"
	res, err := workbench.IngestFS(ctx, store, fixtures.FS, name, "fixtures/"+name, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != workbench.IngestStored || res.Path != "fixtures/"+name {
		t.Fatalf("first: action %v, path %s; want stored, fixtures/%s", res.Action, res.Path, name)
	}
	res, err = workbench.IngestFS(ctx, store, fixtures.FS, name, "fixtures/"+name, opts)
	if err != nil {
		t.Fatal(err)
	}
	stdout, _ := lineTexts(res)
	want := []string{"fixtures/" + name + ": skipped, already ingested as run 1 (demo-model-b-retail-without-emotions)"}
	if res.Action != workbench.IngestSkipped || !slices.Equal(stdout, want) {
		t.Fatalf("second: action %v, stdout %q; want skipped, %q", res.Action, stdout, want)
	}
}

func TestIngestSource_ErrReingestStream(t *testing.T) {
	t.Parallel()
	store := openRunTestDB(t)
	opts := ingestTestOptions()
	opts.Reingest = true
	src := ingest.StreamSource(context.Background(), "stdin", strings.NewReader("[]"))
	defer src.Close()
	_, err := workbench.IngestSource(context.Background(), store, src, opts)
	if err == nil || !strings.HasPrefix(err.Error(), "stdin: reingesting needs a file") {
		t.Fatalf("err = %v, want stdin: reingesting needs a file …", err)
	}
}

func TestIngestPath_DuplicateNameWarned(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := openRunTestDB(t)
	dir := t.TempDir()
	opts := ingestTestOptions()
	opts.Hints.Flags.Name = "same"
	a := writeIngestFile(t, dir, "a.json", fixtureBytes(t, "taubench/demo-model-a-retail-with-emotions.json"))
	b := writeIngestFile(t, dir, "b.json", fixtureBytes(t, "taubench/demo-model-b-retail-with-emotions.json"))
	if _, err := workbench.IngestPath(ctx, store, a, nil, opts); err != nil {
		t.Fatal(err)
	}
	res, err := workbench.IngestPath(ctx, store, b, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	_, stderr := lineTexts(res)
	want := []string{"warning: " + b + ": run 1 is already named \"same\": this run is named \"same-2\" (rename it with `emobench runs set RUN --name NAME`)"}
	if res.Run.Name != "same-2" || !slices.Equal(stderr, want) {
		t.Fatalf("run %q, stderr %q; want same-2, %q", res.Run.Name, stderr, want)
	}
}

func TestIngestPath_EmptyRun(t *testing.T) {
	t.Parallel()
	store := openRunTestDB(t)
	path := writeIngestFile(t, t.TempDir(), "empty.json", []byte("[]"))
	res, err := workbench.IngestPath(context.Background(), store, path, nil, ingestTestOptions())
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr := lineTexts(res)
	want := []string{path + ": ingested as run 1 (empty): 0 trajectories; model unknown, domain unknown, condition none"}
	if !slices.Equal(stdout, want) || len(stderr) != 0 {
		t.Fatalf("stdout = %q, stderr %q; want %q and none", stdout, stderr, want)
	}
	// The empty run's note is a note (stderr, once, silenced by --quiet).
	wantNotes := []ingest.Note{
		{Path: path, Text: "file name empty.json does not have the shape <model>-<domain>[-(with|without)-emotions].json with a known domain: model unknown (correct it with `emobench runs set RUN --model M`, or give --model)"},
		{Path: path, Text: "no records in this τ-bench file; run 1 holds no trajectories"},
	}
	if !slices.Equal(res.Notes, wantNotes) {
		t.Fatalf("notes = %q, want %q", res.Notes, wantNotes)
	}
	if res.Action != workbench.IngestStored || res.Trajectories != 0 {
		t.Fatalf("action %v, %d trajectories; want stored, 0", res.Action, res.Trajectories)
	}
}

func TestIngestPath_Published(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := openRunTestDB(t)
	dir := t.TempDir()
	scored := writeIngestFile(t, dir, "submission.json", []byte(`{"model_name": "M", "submitting_organization": "S", "results": {"airline": null, "retail": {"pass_1": 0.5}}}`))
	empty := writeIngestFile(t, dir, "null-submission.json", []byte(`{"model_name": "N", "submitting_organization": "S", "results": {"airline": null, "retail": null}}`))

	res, err := workbench.IngestPath(ctx, store, scored, nil, ingestTestOptions())
	if err != nil {
		t.Fatal(err)
	}
	stdout, _ := lineTexts(res)
	want := []string{scored + ": stored 1 published result of M (leaderboard submission): domains retail"}
	if res.Action != workbench.IngestPublished || res.Published != 1 || !slices.Equal(stdout, want) {
		t.Fatalf("action %v, %d published, stdout %q; want published, 1, %q", res.Action, res.Published, stdout, want)
	}
	res, err = workbench.IngestPath(ctx, store, scored, nil, ingestTestOptions())
	if err != nil {
		t.Fatal(err)
	}
	stdout, _ = lineTexts(res)
	if want := []string{scored + ": skipped, published results already stored"}; res.Action != workbench.IngestSkipped || !slices.Equal(stdout, want) {
		t.Fatalf("again: action %v, stdout %q; want skipped, %q", res.Action, stdout, want)
	}
	res, err = workbench.IngestPath(ctx, store, empty, nil, ingestTestOptions())
	if err != nil {
		t.Fatal(err)
	}
	stdout, _ = lineTexts(res)
	if want := []string{empty + ": leaderboard submission without scores (every domain is null); nothing stored"}; res.Action != workbench.IngestNoScores || !slices.Equal(stdout, want) {
		t.Fatalf("null scores: action %v, stdout %q; want no scores, %q", res.Action, stdout, want)
	}
}

func TestIngestSource_Progress(t *testing.T) {
	t.Parallel()
	store := openRunTestDB(t)
	dir := t.TempDir()
	data := fixtureBytes(t, fixtures.PassKFile)
	small := writeIngestFile(t, dir, "passk.json", data)
	// The same records padded with whitespace to the threshold.
	padded := bytes.TrimRight(data, "\n")
	padded = append(padded[:len(padded)-1:len(padded)-1], strings.Repeat(" ", workbench.ProgressThreshold)+"]"...)
	large := writeIngestFile(t, dir, "large.json", padded)
	var bar bytes.Buffer
	var asked []string
	finished := 0
	opts := ingestTestOptions()
	opts.Hints.MaxRecord = 2 * workbench.ProgressThreshold // the padding counts as the last record's tail
	opts.Progress = func(src *ingest.Source) (io.Writer, func()) {
		asked = append(asked, src.Path)
		return &bar, func() { finished++ }
	}
	for _, path := range []string{small, large} {
		if _, err := workbench.IngestPath(context.Background(), store, path, nil, opts); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(asked, []string{large}) {
		t.Fatalf("progress asked for %q, want only %s (the small file has no bar)", asked, large)
	}
	if got, want := bar.Len(), len(padded); got != want || finished != 1 {
		t.Fatalf("progress saw %d bytes and finished %d times, want %d bytes, once", got, finished, want)
	}
}

func TestIngestInputs_FailedInputsCounted(t *testing.T) {
	t.Parallel()
	store := openRunTestDB(t)
	dir := t.TempDir()
	bad := writeIngestFile(t, dir, "bad.json", []byte("[{"))
	good := writeIngestFile(t, dir, "passk.json", fixtureBytes(t, fixtures.PassKFile))
	var seen []string
	failed, err := workbench.IngestInputs(context.Background(), store, workbench.Inputs{Paths: []string{bad, good}}, nil, ingestTestOptions(), func(res workbench.Ingested, err error) {
		if err != nil {
			seen = append(seen, "error "+res.Path)
			if res.Action != 0 || len(res.Lines) != 0 {
				t.Errorf("failed input: action %v, lines %+v; want none", res.Action, res.Lines)
			}
			if !strings.Contains(err.Error(), bad) {
				t.Errorf("error %q does not name %s", err, bad)
			}
			return
		}
		seen = append(seen, "ok "+res.Path)
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"error " + bad, "ok " + good}; failed != 1 || !slices.Equal(seen, want) {
		t.Fatalf("failed %d, seen %q; want 1, %q", failed, seen, want)
	}
}

func TestIngestInputs_ErrInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	store := openRunTestDB(t)
	path := writeIngestFile(t, t.TempDir(), "passk.json", fixtureBytes(t, fixtures.PassKFile))
	_, err := workbench.IngestInputs(ctx, store, workbench.Inputs{Paths: []string{path}}, nil, ingestTestOptions(), func(workbench.Ingested, error) {
		t.Error("an interrupted input was handed over")
	})
	if want := path + ": interrupted; nothing of this file was stored"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	runs, err := store.ListRuns(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 0 {
		t.Fatalf("%d runs stored, want none", len(runs))
	}
}

func TestResumeSpec_ErrIngestedRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := openRunTestDB(t)
	path := writeIngestFile(t, t.TempDir(), "passk.json", fixtureBytes(t, fixtures.PassKFile))
	if _, err := workbench.IngestPath(ctx, store, path, nil, ingestTestOptions()); err != nil {
		t.Fatal(err)
	}
	_, _, err := workbench.ResumeSpec(ctx, store, "1")
	if !errors.Is(err, emobench.ErrRequest) || !strings.Contains(err.Error(), "nothing to resume") {
		t.Fatalf("err = %v, want an EREQUEST error: nothing to resume", err)
	}
}

func TestCollectInputs_ErrNameForManyFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeIngestFile(t, dir, "a.json", []byte("[]"))
	writeIngestFile(t, dir, "b.json", []byte("[]"))
	opts := ingestTestOptions()
	in, err := workbench.CollectInputs([]string{dir}, opts)
	if err != nil || in.Count() != 2 {
		t.Fatalf("without --name: %d inputs, err %v; want 2, nil", in.Count(), err)
	}
	opts.Hints.Flags.Name = "one"
	_, err = workbench.CollectInputs([]string{dir}, opts)
	if want := "name names one run, but 2 files were given"; !errors.Is(err, emobench.ErrRequest) || err.Error() != want {
		t.Fatalf("err = %v, want an EREQUEST error %q", err, want)
	}
	opts.Hints.Flags.Name = "42"
	_, err = workbench.CollectInputs([]string{filepath.Join(dir, "a.json")}, opts)
	if !errors.Is(err, emobench.ErrRequest) || !strings.Contains(err.Error(), "reads as a run id") {
		t.Fatalf("err = %v, want an EREQUEST error: reads as a run id", err)
	}
}

func TestIngestInputs_WalkErrorsFirst(t *testing.T) {
	t.Parallel()
	store := openRunTestDB(t)
	missing := filepath.Join(t.TempDir(), "missing.json")
	in, err := workbench.CollectInputs([]string{missing}, ingestTestOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(in.WalkErrors) != 1 || in.Count() != 1 {
		t.Fatalf("inputs %+v, want one walk error", in)
	}
	var errs []error
	failed, err := workbench.IngestInputs(context.Background(), store, in, nil, ingestTestOptions(), func(_ workbench.Ingested, err error) {
		errs = append(errs, err)
	})
	if err != nil {
		t.Fatal(err)
	}
	if failed != 1 || len(errs) != 1 || errs[0] == nil || !strings.Contains(errs[0].Error(), missing) {
		t.Fatalf("failed %d, errors %v; want 1 naming %s", failed, errs, missing)
	}
}

// ingestTestFlags are the ingest command's default flag values.
func ingestTestFlags() workbench.IngestFlags {
	return workbench.IngestFlags{Format: "auto", OnDuplicate: "refuse", MaxSpool: "4GiB", MaxRecord: "3MiB", DBPath: "runs.db"}
}

func TestIngestFlags_Options(t *testing.T) {
	t.Parallel()
	f := ingestTestFlags()
	f.Model, f.Condition, f.OnDuplicate = "gpt-x", "with-emotions", "keep-last"
	opts, err := f.Options()
	if err != nil {
		t.Fatal(err)
	}
	if opts.Hints.MaxSpool != 4<<30 || opts.Hints.MaxRecord != 3<<20 {
		t.Fatalf("sizes %d, %d; want 4 GiB, 3 MiB in bytes", opts.Hints.MaxSpool, opts.Hints.MaxRecord)
	}
	if opts.OnDuplicate != db.DuplicateKeepLast || opts.Hints.OnDuplicate != "keep-last" || opts.Hints.Flags.Model != "gpt-x" || opts.Hints.Flags.Condition != "with-emotions" || opts.DBPath != "runs.db" {
		t.Fatalf("options %+v do not carry the flags", opts)
	}
}

func TestIngestFlags_ErrOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		edit func(*workbench.IngestFlags)
		want string // the error's start
	}{
		{func(f *workbench.IngestFlags) { f.Format = "csv" }, `format "csv" is not one of auto, `},
		{func(f *workbench.IngestFlags) { f.OnDuplicate = "first" }, `on-duplicate "first" is not one of refuse, keep-last`},
		{func(f *workbench.IngestFlags) { f.MaxSpool = "0" }, `max-spool "0" is not a size such as 4GiB, 512MiB or 1000000`},
		{func(f *workbench.IngestFlags) { f.MaxRecord = "lots" }, `max-record "lots" is not a size such as 4GiB, 512MiB or 1000000`},
		{func(f *workbench.IngestFlags) { f.Condition = "calm" }, `condition "calm"`},
	} {
		f := ingestTestFlags()
		tc.edit(&f)
		_, err := f.Options()
		if !errors.Is(err, emobench.ErrRequest) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want an EREQUEST error starting %q", f, err, tc.want)
		}
	}
}

// IngestArgs opens the database only for an input it can read, prints
// each input's outcome and counts the failed ones.
func TestIngestArgs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	bad := writeIngestFile(t, dir, "bad.json", []byte("[{"))
	good := writeIngestFile(t, dir, "passk.json", fixtureBytes(t, fixtures.PassKFile))
	opened := 0
	open := func(context.Context) (*db.DB, error) { opened++; return openRunTestDB(t), nil }
	var stdout, stderr bytes.Buffer
	failed, inputs, err := workbench.IngestArgs(ctx, []string{bad, good}, nil, ingestTestOptions(), open, &stdout, &stderr, func(string) {})
	if err != nil || failed != 1 || inputs != 2 || opened != 1 {
		t.Fatalf("IngestArgs(bad, good) = %d of %d failed, %v, opened %d times; want 1 of 2, nil, once", failed, inputs, err, opened)
	}
	if !strings.Contains(stderr.String(), "error: ") || !strings.Contains(stderr.String(), bad) || stdout.Len() == 0 {
		t.Errorf("stdout %q, stderr %q: want the good input's lines and the bad one's error", stdout.String(), stderr.String())
	}
	failed, inputs, err = workbench.IngestArgs(ctx, []string{filepath.Join(dir, "missing.json")}, nil, ingestTestOptions(), open, io.Discard, io.Discard, func(string) {})
	if err != nil || failed != 1 || inputs != 1 || opened != 1 {
		t.Errorf("IngestArgs(missing) = %d of %d failed, %v, opened %d times in all; want 1 of 1 and no database opened", failed, inputs, err, opened)
	}
}

package workbench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/internal/atomicfile"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/tracer/sft"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// DefaultSealKeyFile is where the key sealing run configs is kept
// (ExecuteOptions.SealKeyFile): os.UserConfigDir()/emobench/origin.key,
// or "" without a config directory.
func DefaultSealKeyFile() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "emobench", SealKeyName)
}

// RecordedSettings are the settings of a run recorded with it (the names
// of the run command's flags): a resume takes them from the run, so a
// resume given one is refused. A role's endpoint and key
// variable (*-base-url, *-api-key-env) are recorded too, but a resume may
// change them (ResumeRun decides).
var RecordedSettings = []string{"domain", "agent", "user", "condition", "trials", "tasks", "split", "seed", "preset", "max-steps", "max-errors", "name",
	"temperature", "shard", "agent-temperature", "user-temperature", "parallel-tool-calls", "user-abandon", "episode-timeout", "user-strategy", "judge",
	"tasks-file", "task-set"}

// CheckResume refuses, before anything is opened or created, a resume of
// run ref when no database is at dbPath (an EREQUEST error about the
// setting "resume") or the price file cannot be read (CheckPriceFile).
func CheckResume(dbPath, ref, priceFile string) error {
	if _, err := os.Stat(dbPath); err != nil {
		return settingf("resume", "%s: no database at %s", ref, dbPath)
	}
	return CheckPriceFile(priceFile)
}

// GenerateProgress shows tracer.Generate's kept tasks of n and its
// candidates (GenerateOptions.Progress): a progress bar on bar (a
// terminal; nil for none), else a note every 5 s, so that a large n does
// not look like a hang. With neither (bar and note nil) it is nil.
func GenerateProgress(bar io.Writer, note func(string), n int) func(kept, candidates int) {
	if bar != nil {
		b := progressbar.NewOptions(n, progressbar.OptionSetWriter(bar), progressbar.OptionShowCount(), progressbar.OptionSetDescription("tasks kept"))
		return func(kept, candidates int) {
			b.Describe(fmt.Sprintf("tasks kept (%d candidates)", candidates))
			b.Set(kept)
		}
	}
	if note == nil {
		return nil
	}
	last := time.Now()
	return func(kept, candidates int) {
		if time.Since(last) >= 5*time.Second {
			last = time.Now()
			note(fmt.Sprintf("tracer generate: kept %d of %d tasks after %d candidates", kept, n, candidates))
		}
	}
}

// ExportSelection writes cfg.Selection's records to the file out
// (tracer.ExportFile, out checked by the caller) and, when statsPath is
// not "", the export's stats as indented JSON to statsPath (atomically).
// Tokens are counted with the Hugging Face tokenizer.json file tokenizer
// when it is not "" (sft.LoadTokenizer: its error, EINVALID, is about the
// setting tokenizer);
// cfg.Domain nil is ExportDomain. warn receives the warning that the
// selection has lost trajectories since it was stored, then each record
// not written. The stats are returned with ExportFile's error too (its
// failures counted), an EINVALID one made an EREQUEST error.
func ExportSelection(ctx context.Context, store *db.DB, out, statsPath, tokenizer string, cfg tracer.ExportConfig, warn func(string)) (sft.Stats, error) {
	if tokenizer != "" {
		tok, err := sft.LoadTokenizer(tokenizer)
		if err != nil {
			return sft.Stats{}, emobench.Settingf(emobench.EINVALID, "tokenizer", ": %w", err)
		}
		cfg.Tokenizer = tok
	}
	if cfg.Domain == nil {
		cfg.Domain = ExportDomain
	}
	if sel, err := store.FindSelection(ctx, cfg.Selection); err == nil && tracer.ShrunkWarning(sel) != "" {
		warn(tracer.ShrunkWarning(sel))
	}
	stats, err := tracer.ExportFile(ctx, store, out, true, cfg)
	err = emobench.AsRequest(err) // the selection or format given does not fit the data
	for _, f := range stats.Failures {
		warn("not written: " + f)
	}
	if err != nil || statsPath == "" {
		return stats, err
	}
	data, err := json.MarshalIndent(stats, "", "  ")
	if err == nil {
		err = atomicfile.WriteFile(ctx, statsPath, append(data, '\n'))
	}
	return stats, err
}

// ExportDomain is tracer export's domain lookup (ExportConfig.Domain)
// over the registry: a domain's policy and tool schemas; false for a
// domain it does not know.
func ExportDomain(name string) (tracer.ExportDomain, bool) {
	d, err := all.Find(name)
	if err != nil {
		return tracer.ExportDomain{}, false
	}
	return tracer.ExportDomain{Policy: d.Policy(), Tools: d.NewEnvironment().Tools()}, true
}

// Terminal is w when it is a terminal (an *os.File a user watches:
// progress bars go there), else nil.
func Terminal(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return f
	}
	return nil
}

// IngestProgress draws a progress bar of each large source's bytes
// (IngestOptions.Progress) on stderr when term, stderr's Terminal, is not
// nil; with term nil, it is nil: no bar.
func IngestProgress(term io.Writer) func(src *ingest.Source) (io.Writer, func()) {
	if term == nil {
		return nil
	}
	return func(src *ingest.Source) (io.Writer, func()) {
		bar := progressbar.DefaultBytes(src.Size, "ingest "+filepath.Base(src.Path))
		return bar, func() { bar.Finish() }
	}
}

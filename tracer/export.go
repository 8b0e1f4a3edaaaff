package tracer

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/internal/atomicfile"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer/sft"
)

// ExportDomain is what a record needs of its domain: the policy the agent
// gets as its system prompt and the tools it is offered.
type ExportDomain struct {
	Policy string
	Tools  []sim.ToolSchema
}

// Skip reasons Export counts in sft.Stats.Skipped.
const (
	// SkipImported: the run was imported from another harness: its agent
	// saw that harness's prompt and tools, not a native domain's, so no
	// record would say what it was trained on.
	SkipImported = "imported_run"
	// SkipUnknownDomain: a native run whose domain the lookup does not know.
	SkipUnknownDomain = "unknown_domain"
)

// ExportConfig says what Export writes.
type ExportConfig struct {
	// Selection names the stored selection (tracer filter) whose kept
	// trajectories are exported; required.
	Selection string
	Format    sft.Format
	// Domain returns a domain's policy and tools by name, false when there
	// is no such domain (the CLI passes one over domains/all).
	Domain func(name string) (ExportDomain, bool)
	// Tokenizer, when set, makes the stats' token counts exact.
	Tokenizer *sft.Tokenizer
	// Strict makes the first record that fails validation an error; else
	// it is counted, named in Stats.Failures and left out.
	Strict bool
}

// Export writes the records of the trajectories of cfg's selection (the
// kept ones: tracer filter drops failed and test-split trajectories) onto w as JSON lines of
// cfg.Format, in trajectory-id order, and returns their stats. Stats count
// each record under its funnel family (FunnelFamily, as tracer filter's
// funnel does): none under the without-emotions condition, unlabelled for a
// task without a family.
// Trajectories of imported runs and of unknown domains are skipped and
// counted (SkipImported, SkipUnknownDomain). It fails on a missing
// selection (ENOTFOUND), on a record that fails validation under Strict
// (the *sft.ValidationError, wrapped), when no record was written
// (a *NoRecordsError, with the stats), or on a db or write error; what was written
// before a failure is then not a complete export. Every read is of one
// snapshot of d (db.Snapshot): what a writer commits meanwhile is not seen.
func Export(ctx context.Context, d *db.DB, w io.Writer, cfg ExportConfig) (sft.Stats, error) {
	if cfg.Domain == nil {
		return sft.Stats{}, errors.New("tracer export: no domain lookup")
	}
	if _, err := sft.ParseFormat(string(cfg.Format)); err != nil {
		return sft.Stats{}, emobench.Errorf(emobench.EINVALID, "tracer export: %v", err)
	}
	if cfg.Selection == "" {
		return sft.Stats{}, emobench.Errorf(emobench.EINVALID, "tracer export: give a selection (tracer filter stores one)")
	}
	// One read transaction: a run deleted meanwhile (runs rm) is exported
	// whole or not at all, never as records without their messages.
	d, release, err := d.Snapshot(ctx)
	if err != nil {
		return sft.Stats{}, fmt.Errorf("tracer export: %w", err)
	}
	defer release()
	selID, err := d.FindSelectionID(ctx, cfg.Selection)
	if err != nil {
		return sft.Stats{}, err
	}
	sources := []func(yield func(db.ExportTrajectory, error) bool){d.SelectionExportTrajectories(ctx, selID)}
	sw := sft.NewWriter(w, cfg.Format)
	if cfg.Tokenizer != nil {
		sw.UseTokenizer(cfg.Tokenizer)
	}
	domains := map[string]*ExportDomain{}
	for _, src := range sources {
		for t, err := range src {
			if err != nil {
				return sw.Stats, err
			}
			if err := ctx.Err(); err != nil {
				return sw.Stats, err
			}
			if t.SourceFormat != emobench.SourceNative {
				sw.Skip(SkipImported)
				continue
			}
			dom, ok := domains[t.RunDomain]
			if !ok {
				if found, known := cfg.Domain(t.RunDomain); known {
					dom = &found
				}
				domains[t.RunDomain] = dom
			}
			if dom == nil {
				sw.Skip(SkipUnknownDomain)
				continue
			}
			// The funnel's family (FunnelFamily): the without-emotions
			// condition counts as none, whatever the task's family.
			family := FunnelFamily(t.Condition, t.EmotionFamily)
			rec := sft.NewRecord(t.ID, t.RunDomain, family, dom.Policy, dom.Tools, t.Messages)
			if err := sw.Write(rec); err != nil {
				var ve *sft.ValidationError
				if errors.As(err, &ve) && !cfg.Strict {
					continue
				}
				return sw.Stats, fmt.Errorf("tracer export: %w", err)
			}
		}
	}
	if sw.Stats.Records == 0 {
		return sw.Stats, &NoRecordsError{Invalid: sumInvalid(sw.Stats), Skipped: sumSkipped(sw.Stats)}
	}
	return sw.Stats, nil
}

// NoRecordsError is Export's error when no record was written: every
// trajectory was skipped or failed validation. It is a failure of the data,
// not of the request, so it carries no emobench error code (the CLI exits
// 1, without a usage hint).
type NoRecordsError struct {
	Invalid int // trajectories whose record failed validation
	Skipped int // trajectories skipped (imported runs, unknown domains)
}

func (e *NoRecordsError) Error() string {
	return fmt.Sprintf("tracer export: no record written (%d failed validation, %d skipped)", e.Invalid, e.Skipped)
}

func sumInvalid(s sft.Stats) int {
	n := 0
	for _, c := range s.Invalid {
		n += c
	}
	return n
}

func sumSkipped(s sft.Stats) int {
	n := 0
	for _, c := range s.Skipped {
		n += c
	}
	return n
}

// ExportFile is Export into the file path: it writes a temporary file in
// path's directory and renames it to path only when the export succeeded
// (atomicfile), so path never holds a half-written export. An existing
// path is refused (EINVALID) unless force is set; one that
// is not a regular file (a device, a named pipe) is refused even with
// force (*atomicfile.NotRegularError).
func ExportFile(ctx context.Context, d *db.DB, path string, force bool, cfg ExportConfig) (sft.Stats, error) {
	exists, err := atomicfile.Target(path)
	if err != nil {
		return sft.Stats{}, fmt.Errorf("tracer export: %w", err)
	}
	if exists && !force {
		return sft.Stats{}, emobench.Errorf(emobench.EINVALID, "tracer export: %s exists and overwriting it was not asked for", path)
	}
	var stats sft.Stats
	err = atomicfile.Write(ctx, path, func(w io.Writer) error {
		stats, err = Export(ctx, d, w, cfg)
		return err
	})
	return stats, err
}

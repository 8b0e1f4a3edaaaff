package workbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/tracer"
)

// WriteFilterResult tells what tracer.Filter did with req: notes (note:
// what a reader may want to know, which a quiet front end drops) and
// warnings (warn: about the data, always shown) in order, then the funnel
// to w in format ("table" or "json"; table.Funnel) and, for a table, a
// line of what was kept and stored. Errors are w's.
func WriteFilterResult(w io.Writer, req tracer.FilterRequest, res tracer.FilterResult, format string, note, warn func(string)) error {
	if res.Backfilled > 0 {
		verb := "stored with the selection"
		if req.DryRun {
			verb = "not stored (--dry-run)"
		}
		note(fmt.Sprintf("user dependence computed now for %d trajectories that had none: %s", res.Backfilled, verb))
	}
	if n := res.Funnel.Total.DependenceUnknown; n > 0 {
		what := "kept, as no --max-user-dependence is given"
		if req.Criteria.MaxUserDependence != nil {
			what = "dropped by --max-user-dependence"
		}
		note(fmt.Sprintf("%d trajectories have no known user dependence (imported tasks without a scenario): %s", n, what))
	}
	if msg := res.ImportedNote(); msg != "" {
		warn(msg)
	}
	if res.TestKept > 0 {
		warn(fmt.Sprintf("%d kept trajectories are of test-split tasks (--allow-test-tasks): training on them leaks the test set", res.TestKept))
	}
	if !res.GeneratedFromTaskSets && res.Funnel.Total.Collected > 0 {
		note("generated counts the distinct tasks collected: not every run names a task set (tracer collect) that is still there unchanged")
	}
	if err := table.Funnel(res.Funnel).Write(w, format); err != nil || format != "table" {
		return err
	}
	t, excluded := res.Funnel.Total, ""
	if t.TestExcluded > 0 {
		excluded = fmt.Sprintf("; %d of test-split tasks excluded (--allow-test-tasks keeps them)", t.TestExcluded)
	}
	var err error
	if req.DryRun {
		_, err = fmt.Fprintf(w, "dry run: %d of %d trajectories would be kept%s; nothing stored\n", t.Kept, t.Collected, excluded)
	} else {
		_, err = fmt.Fprintf(w, "selection %s (id %d): %d of %d trajectories kept%s\n", req.Name, res.SelectionID, t.Kept, t.Collected, excluded)
	}
	return err
}

// WriteFunnel writes to w in format ("table" or "json") the funnel
// selection name was stored with (table.Funnel), or, for name "", the
// list of stored selections (table.Selections). It returns the warning
// that the selection has lost trajectories since (tracer.ShrunkWarning),
// "" for none. An unknown selection is db's not-found error.
func WriteFunnel(ctx context.Context, store *db.DB, name string, w io.Writer, format string) (warning string, err error) {
	if name == "" {
		sels, err := store.ListSelections(ctx)
		if err != nil {
			return "", err
		}
		rows := make([]table.SelectionRow, len(sels))
		for i, s := range sels {
			rows[i] = table.SelectionRow{Name: s.Name, CreatedAt: s.CreatedAt.Format("2006-01-02T15:04:05Z"), Size: s.Size, Criteria: string(s.Criteria)}
		}
		return "", table.Selections(rows).Write(w, format)
	}
	sel, err := store.FindSelection(ctx, name)
	if err != nil {
		return "", err
	}
	f, err := tracer.DecodeFunnel(sel)
	if err != nil {
		return "", err
	}
	return tracer.ShrunkWarning(sel), table.Funnel(f).Write(w, format)
}

// NewFilterRequest is tracer filter's request to keep what c accepts and
// store it as the selection name (spaces trimmed; replacing one of that
// name when replace), or, when dryRun, to store nothing; the embedded
// test tasks (EmbeddedTestTasks) count as test-split tasks. It is checked
// (tracer.FilterRequest.Validate): an invalid one is an EREQUEST error
// about the setting selection, dry-run, min-reward or max-user-dependence.
func NewFilterRequest(c analysis.FilterCriteria, name string, replace, dryRun bool) (tracer.FilterRequest, error) {
	req := tracer.FilterRequest{Criteria: c, TestTasks: EmbeddedTestTasks(), Name: strings.TrimSpace(name), Replace: replace, DryRun: dryRun}
	var bad *tracer.OptionError
	if err := req.Validate(); !errors.As(err, &bad) {
		return req, err
	}
	switch bad.Field {
	case "Name":
		return req, settingf("selection", "is needed: the NAME of the selection stored (a dry run stores nothing)")
	case "DryRun":
		return req, settingf("dry-run", "stores nothing: it takes no selection name and no replace")
	case "MaxUserDependence":
		return req, settingf("max-user-dependence", "%v: %v", *c.MaxUserDependence, bad)
	}
	return req, settingf("min-reward", "%v: %v", c.MinReward, bad)
}

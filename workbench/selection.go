package workbench

import (
	"context"
	"io"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports/table"
)

// StatsRequest is what a stats command or the report asks for, as a front
// end gives it: the runs to select and how, the output format, and the
// options its statistic takes. A setting the command does not take is left
// zero. Check validates it and fills in the parsed fields.
type StatsRequest struct {
	DB   string   // the database file
	Runs []string // run ids or names; none is every run
	Pool bool     // one unit per pool of runs (Select) instead of per run

	Format     string                     // one of table.Formats
	By         []string                   // group fields, each possibly comma-separated
	Convention string                     // per-task or min-trials; "" is the default
	Ks         []int                      // the ks to report, each at least 1
	CI         string                     // pm, brackets or none; "" is none
	Bootstrap  *analysis.BootstrapOptions // nil when the statistic has no intervals

	Fields []string            // By, parsed (ParseGroupFields)
	Conv   analysis.Convention // Convention, parsed
	Style  table.CIStyle       // CI, parsed
	Boot   analysis.BootstrapOptions
}

// Check checks r's settings and fills in Fields, Conv, Style and Boot. Its
// error is an EREQUEST error naming the setting (format, by, k, ci-method,
// resamples, level), or the error of analysis.ParseConvention or
// table.ParseCIStyle as an EREQUEST error.
func (r *StatsRequest) Check() error {
	if err := CheckFormat(r.Format, table.Formats...); err != nil {
		return err
	}
	var err error
	if r.Fields, err = ParseGroupFields(strings.Join(r.By, ",")); err != nil {
		return err
	}
	if r.Convention != "" {
		if r.Conv, err = analysis.ParseConvention(r.Convention); err != nil {
			return badRequest(err)
		}
	}
	for _, k := range r.Ks {
		if k < 1 {
			return settingf("k", "%d: k must be at least 1", k)
		}
	}
	if r.CI != "" {
		if r.Style, err = table.ParseCIStyle(r.CI); err != nil {
			return badRequest(err)
		}
	}
	if r.Bootstrap != nil {
		r.Boot = *r.Bootstrap
		return CheckBootstrap(r.Boot)
	}
	return nil
}

// CheckFormat returns an EREQUEST error about setting format unless format
// is one of allowed.
func CheckFormat(format string, allowed ...string) error {
	if !slices.Contains(allowed, format) {
		return settingf("format", "%q is not one of %s", format, strings.Join(allowed, ", "))
	}
	return nil
}

// Write writes the tables ts in r's format, a blank line between two,
// their estimates shown in r's style (table.Table.ExpandEstimates).
func (r StatsRequest) Write(w io.Writer, ts ...*table.Table) error {
	for i, t := range ts {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := t.ExpandEstimates(r.Format, r.Style).Write(w, r.Format); err != nil {
			return err
		}
	}
	return nil
}

// Bare reports whether a result that came with note (NoTrajectoriesNote;
// "" for none) is better left unwritten: a text table would be a bare
// header, where csv and json still give the programs that read them their
// empty table.
func (r StatsRequest) Bare(note string) bool { return note != "" && !table.Split(r.Format) }

// TableUnits is s's units and their names for a table.
func (s Selection) TableUnits() table.Units { return table.Units{Units: s.Units, Names: s.Names} }

// badRequest gives err, a parser's error about a value of the request,
// the code EREQUEST.
func badRequest(err error) error {
	return &emobench.Error{Code: emobench.EREQUEST, Message: err.Error(), Err: err}
}

// Table is p's computation made r's table: with strict, gated beside
// strict pass^k per unit and group (ComputeStrict, table.StrictPassK),
// else pass^k and pass@k (Compute, table.PassK). The table has one row
// per row computed, so none when no unit has a task of at least k trials.
func (p PassKStats) Table(r StatsRequest, strict bool) Computation[*table.Table] {
	return func(ctx context.Context, store *db.DB, s Selection) (*table.Table, []string, error) {
		if strict {
			rows, notes, err := p.ComputeStrict(ctx, store, s)
			return table.StrictPassK(rows, s.TableUnits(), r.Fields, r.Format), notes, err
		}
		rows, notes, err := p.Compute(ctx, store, s)
		return table.PassK(rows, s.TableUnits(), r.Fields, r.Format, r.Style), notes, err
	}
}

// NoRows reports whether t has no row.
func NoRows(t *table.Table) bool { return len(t.Rows) == 0 }

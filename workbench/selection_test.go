package workbench

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/reports/table"
)

func TestStatsRequest_Check(t *testing.T) {
	boot := DefaultBootstrap
	r := StatsRequest{Format: "csv", By: []string{"run,condition", "emotion_family"}, Convention: "min-trials", Ks: []int{1, 3}, CI: "brackets", Bootstrap: &boot}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.Fields, ","); got != "condition,emotion_family" {
		t.Errorf("Fields = %q, want condition,emotion_family (run left out)", got)
	}
	if r.Conv != analysis.MinTrials || r.Style != table.Brackets || r.Boot != boot {
		t.Errorf("Conv, Style, Boot = %q, %q, %+v", r.Conv, r.Style, r.Boot)
	}

	bad := func(r StatsRequest) StatsRequest {
		if r.Format == "" {
			r.Format = "table"
		}
		return r
	}
	few := boot
	few.Resamples = 5
	for _, tc := range []struct {
		r             StatsRequest
		setting, want string
	}{
		{StatsRequest{Format: "xml"}, "format", `format "xml" is not one of table, json, csv, markdown, latex`},
		{bad(StatsRequest{By: []string{"colour"}}), "by", `no field "colour"`},
		{bad(StatsRequest{Ks: []int{2, 0}}), "k", "k 0: k must be at least 1"},
		{bad(StatsRequest{Convention: "median"}), "", `convention "median" is not one of per-task, min-trials`},
		{bad(StatsRequest{CI: "stars"}), "", `"stars" is not one of pm, brackets, none`},
		{bad(StatsRequest{Bootstrap: &few}), "resamples", "resamples 5: use at least 100"},
	} {
		err := tc.r.Check()
		var e *emobench.Error
		if !errors.As(err, &e) || e.Code != emobench.EREQUEST || e.Setting != tc.setting || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: Check() = %v (%+v), want an EREQUEST error of setting %q containing %q", tc.r, err, e, tc.setting, tc.want)
		}
	}
}

func TestInfraErrorsCheck(t *testing.T) {
	if err := InfraErrors("skip").Check(); err == nil || err.Error() != `infra-errors "skip" is not one of fail, exclude` {
		t.Errorf("InfraErrors(skip).Check() = %v", err)
	}
}

func TestStatsRequest_Bare(t *testing.T) {
	for format, want := range map[string]bool{"table": true, "markdown": true, "csv": false, "json": false} {
		if got := (StatsRequest{Format: format}).Bare("no trajectories"); got != want {
			t.Errorf("Bare in %s = %v, want %v", format, got, want)
		}
	}
	if (StatsRequest{Format: "table"}).Bare("") {
		t.Error(`Bare("") = true, want false: a result without a note is written`)
	}
}

func TestReadQuery(t *testing.T) {
	q, err := ReadQuery(t.Context(), strings.NewReader("SELECT 1"))
	if err != nil || q != "SELECT 1" {
		t.Errorf("ReadQuery = %q, %v", q, err)
	}
	_, err = ReadQuery(t.Context(), strings.NewReader(strings.Repeat("x", MaxStdinQuery+1)))
	if !errors.Is(err, emobench.ErrRequest) || !strings.Contains(err.Error(), "longer than 16 MiB") {
		t.Errorf("ReadQuery(16 MiB + 1) = %v, want an EREQUEST error about the length", err)
	}
	if _, err = ReadQuery(t.Context(), iotest.ErrReader(errors.New("boom"))); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("ReadQuery(failing reader) = %v, want its error", err)
	}
}

// Write writes several tables in order, a blank line between two.
func TestStatsRequest_WriteTables(t *testing.T) {
	r := StatsRequest{Format: "csv"}
	a := &table.Table{Columns: []string{"x"}, Rows: [][]any{{1}}}
	b := &table.Table{Columns: []string{"y"}, Rows: [][]any{{2}}}
	var out bytes.Buffer
	if err := r.Write(&out, a, b); err != nil || out.String() != "x\n1\n\ny\n2\n" {
		t.Errorf("Write(a, b) = %q, %v; want both tables, a blank line between", out.String(), err)
	}
}

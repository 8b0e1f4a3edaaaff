package workbench_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/workbench"
)

// PassKStats.Table makes the table stats passk prints: one row per row
// computed, the strict one when asked, none when no task has k trials.
func TestPassKStats_Table(t *testing.T) {
	store := testDB(t)
	s := mustSelect(t, store, []int64{1}, false)
	r := workbench.StatsRequest{Format: "csv", CI: "none"}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		k      int
		strict bool
		rows   int
		column string
	}{
		{2, false, 1, "pass_hat_k"},
		{2, true, 1, "strict_pass_hat_k"},
		{5, false, 0, "pass_hat_k"},
	} {
		stats := workbench.PassKStats{Options: analysis.PassKOptions{Convention: analysis.PerTask, Ks: []int{tt.k}}}
		tab, _, err := stats.Table(r, tt.strict)(t.Context(), store, s)
		if err != nil {
			t.Fatal(err)
		}
		if len(tab.Rows) != tt.rows || workbench.NoRows(tab) != (tt.rows == 0) {
			t.Errorf("k %d strict %v: %d rows (NoRows %v), want %d", tt.k, tt.strict, len(tab.Rows), workbench.NoRows(tab), tt.rows)
		}
		var out bytes.Buffer
		if err := r.Write(&out, tab); err != nil {
			t.Fatal(err)
		}
		if header, _, _ := strings.Cut(out.String(), "\n"); !strings.Contains(header, tt.column) {
			t.Errorf("k %d strict %v: header %q has no column %s", tt.k, tt.strict, header, tt.column)
		}
	}
}

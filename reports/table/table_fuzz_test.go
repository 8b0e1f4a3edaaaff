package table

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/emobench/emobench/internal/csvsafe"
)

// FuzzTableWriters renders arbitrary cell text and numbers in every output
// format and checks each stays well formed: csv reads back the same cells,
// json is valid with one object per row, table and markdown keep one line
// per row with no control characters, and LaTeX passes CheckLaTeX.
func FuzzTableWriters(f *testing.F) {
	f.Add("retail", "with-emotions", 0.5, int64(3))
	f.Add("a|b\nc", "</script>\x1b[31m", math.NaN(), int64(-1))
	f.Add("100% _#&$ {x}", "\\", math.Inf(1), int64(0))
	f.Fuzz(func(t *testing.T, a, b string, x float64, n int64) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			t.Skip("writers take UTF-8 text: SQLite text columns hold UTF-8")
		}
		tab := &Table{Columns: []string{"name", "other", "value", "count"}, Rows: [][]any{{a, b, x, n}, {b, a, -x, n + 1}}}
		for _, format := range Formats {
			var out bytes.Buffer
			if err := tab.Write(&out, format); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			checkFormatOutput(t, format, out.String(), tab)
		}
	})
}

func checkFormatOutput(t *testing.T, format, out string, tab *Table) {
	t.Helper()
	switch format {
	case "csv":
		records, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(records) != len(tab.Rows)+1 {
			t.Fatalf("csv does not read back (%v): %q", err, out)
		}
		// encoding/csv reads a quoted \r\n back as \n (documented); a
		// formula-leading cell is written after a quote (csvsafe).
		if got, want := records[1][0], strings.ReplaceAll(csvsafe.Cell(tab.Rows[0][0].(string)), "\r\n", "\n"); got != want {
			t.Fatalf("csv cell %q, want %q", got, want)
		}
	case "json":
		var rows []map[string]any
		if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != len(tab.Rows) {
			t.Fatalf("json invalid (%v): %q", err, out)
		}
	case "table", "markdown":
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		want := len(tab.Rows) + 1
		if format == "markdown" {
			want++
		}
		if len(lines) != want {
			t.Fatalf("%s has %d lines, want %d: %q", format, len(lines), want, out)
		}
		for _, r := range out {
			if r != '\n' && (r < 0x20 || r == 0x7f) {
				t.Fatalf("%s holds control character %U: %q", format, r, out)
			}
		}
	case "latex":
		if err := CheckLaTeX(out); err != nil {
			t.Fatalf("latex: %v\n%s", err, out)
		}
	}
}

func TestCheckLaTeX_CatchesErrors(t *testing.T) {
	good := "\\begin{tabular}{lr}\n\\toprule\na & b \\\\\n\\midrule\nx\\_y & $1 \\pm 2$ \\\\\n\\bottomrule\n\\end{tabular}\n"
	if err := CheckLaTeX(good); err != nil {
		t.Fatalf("good table refused: %v", err)
	}
	for _, bad := range []string{
		strings.Replace(good, `x\_y`, "x_y", 1),
		strings.Replace(good, ` & $1`, ` $1`, 1),
		strings.Replace(good, `\bottomrule`, "", 1),
	} {
		if CheckLaTeX(bad) == nil {
			t.Errorf("bad table accepted:\n%s", bad)
		}
	}
}

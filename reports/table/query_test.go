package table_test

import (
	"bytes"
	"testing"

	"github.com/emobench/emobench/reports/table"
)

func TestQueryWriter(t *testing.T) {
	rows := [][]any{{int64(1), `{"a": [1, 2]}`, nil}, {int64(2), "[not json", 0.5}}
	tests := []struct{ format, want string }{
		{"csv", "id,info,x\n1,\"{\"\"a\"\": [1, 2]}\",\n2,[not json,0.5\n"},
		{"json", "[\n  {\"id\": 1, \"info\": {\"a\":[1,2]}, \"x\": null},\n  {\"id\": 2, \"info\": \"[not json\", \"x\": 0.5}\n]\n"},
		{"markdown", "| id | info | x |\n| --- | --- | --- |\n| 1 | {\"a\": [1, 2]} |  |\n| 2 | [not json | 0.5000 |\n"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		q := table.NewQueryWriter(&out, tt.format)
		if err := q.Header([]string{"id", "info", "x"}); err != nil {
			t.Fatal(err)
		}
		row := make([]any, 3)
		for _, r := range rows {
			copy(row, r) // the caller reuses its slice, as database/sql scanning does
			if err := q.Row(row); err != nil {
				t.Fatal(err)
			}
		}
		if err := q.End(); err != nil {
			t.Fatal(err)
		}
		if got := out.String(); got != tt.want {
			t.Errorf("%s:\n%q\nwant\n%q", tt.format, got, tt.want)
		}
	}
}

// A result set without rows is an empty array in json and a header in csv.
func TestQueryWriter_NoRows(t *testing.T) {
	for format, want := range map[string]string{"json": "[]\n", "csv": "n\n"} {
		var out bytes.Buffer
		q := table.NewQueryWriter(&out, format)
		q.Header([]string{"n"})
		if err := q.End(); err != nil || out.String() != want {
			t.Errorf("%s: %q, %v; want %q", format, out.String(), err, want)
		}
	}
}

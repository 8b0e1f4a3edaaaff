package ingest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/emobench/emobench/ingest"
)

// A parse error names the record, where it starts, and the byte of the
// error itself: the offending character, or the end of a truncated file.
func TestTauBench_ParseErrorOffset(t *testing.T) {
	t.Parallel()
	rec := func(id string) string {
		return `{"task_id": ` + id + `, "reward": 1.0, "info": {"reward_info": {"reward": 1.0}}, "traj": [{"role": "user", "content": "hello there"}], "trial": 0}`
	}
	array := "[" + rec("0") + ",\n " + rec("1") + ",\n " + rec("2") + "]"
	lines := rec("0") + "\n" + rec("1") + "\n" + rec("2") + "\n"
	start2 := int64(strings.Index(array, `{"task_id": 2`))
	start1 := int64(strings.Index(array, `{"task_id": 1`))
	junkAt := strings.Index(array, `"hello there"}], "trial": 0}]`) // in record 2, where a value begins
	tests := []struct {
		name, in string
		want     ingest.RecordError
		text     string
	}{
		{"junk in record 2", array[:junkAt] + "x" + array[junkAt:],
			ingest.RecordError{Index: 2, Offset: start2, At: int64(junkAt)},
			"record 2 (starts at byte 281): invalid JSON: invalid character 'x' looking for beginning of value at byte 390"},
		{"truncated in record 1", array[:start1+40],
			ingest.RecordError{Index: 1, Offset: start1, At: start1 + 40},
			"record 1 (starts at byte 141): truncated file: unexpected end of JSON at byte 181"},
		{"JSON Lines, junk in record 1", strings.Replace(lines, `"task_id": 1,`, `"task_id": 1 x`, 1),
			ingest.RecordError{Index: 1, Offset: int64(strings.Index(lines, `{"task_id": 1`)), At: int64(strings.Index(lines, `"task_id": 1,`) + len(`"task_id": 1 `))},
			"record 1 (starts at byte 138): invalid JSON: invalid character 'x' after object key:value pair at byte 152"},
		{"JSON Lines, truncated in record 2", lines[:len(lines)-30],
			ingest.RecordError{Index: 2, Offset: int64(strings.Index(lines, `{"task_id": 2`)), At: int64(len(lines) - 30)},
			"record 2 (starts at byte 276): truncated file: unexpected end of JSON at byte 384"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := collect(t, ingest.TauBench(strings.NewReader(tt.in)))
			var got *ingest.RecordError
			if !errors.As(err, &got) {
				t.Fatalf("error %v, want a *RecordError", err)
			}
			if got.Index != tt.want.Index || got.Offset != tt.want.Offset || got.At != tt.want.At {
				t.Errorf("record %d, starts at %d, error at %d; want %d, %d, %d", got.Index, got.Offset, got.At, tt.want.Index, tt.want.Offset, tt.want.At)
			}
			if err.Error() != tt.text {
				t.Errorf("error %q\nwant  %q", err, tt.text)
			}
		})
	}
}

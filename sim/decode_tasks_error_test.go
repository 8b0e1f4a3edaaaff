package sim

import (
	"strings"
	"testing"
)

// TestDecodeTasks_ErrorNamesRecord: a tasks file that does not decode is
// refused with where it went wrong: the byte of a syntax error, the index
// and id of a task whose field has the wrong type.
func TestDecodeTasks_ErrorNamesRecord(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`[{"id":"a"},`, "unexpected end of JSON input (at byte 12)"},
		{`[{"id":"a"} {"id":"b"}]`, "after array element (at byte 13)"},
		{`[{"id":"a","domain":"retail"},{"id":"t-2","actions":5}]`, "task 1 (id t-2): json: cannot unmarshal number"},
		{`[{"actions":5}]`, "task 0: json: cannot unmarshal number"},
	} {
		_, err := DecodeTasks([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("DecodeTasks(%s) = %v, want an error with %q", tc.data, err, tc.want)
		}
	}
}

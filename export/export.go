// Package export writes stored runs in formats other tools read: τ-bench
// result files, τ²-bench Results files, JSON Lines, CSV tables and Parquet
// tables. Every writer takes run descriptions and an iterator of
// trajectories and holds one trajectory at a time, so memory stays flat
// whatever the run's size. It imports only the root types; callers open the
// database and hand the iterators in.
package export

import (
	"bytes"
	"encoding/json"
	"iter"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
)

// Format names, as `emobench export --format` spells them.
const (
	FormatTauBench = "taubench" // one JSON array of τ-bench records per run
	FormatTau2     = "tau2"     // one τ²-bench Results object per run
	FormatJSONL    = "jsonl"    // one JSON object per trajectory, any number of runs
	FormatCSV      = "csv"      // runs.csv, trajectories.csv, messages.csv
	FormatParquet  = "parquet"  // runs, tasks, trajectories and messages .parquet
)

// Formats lists every format, in the order the CLI documents them.
var Formats = []string{FormatTauBench, FormatTau2, FormatParquet, FormatCSV, FormatJSONL}

// PerRun reports whether format writes one file per run (τ-bench and
// τ²-bench files describe exactly one run each).
func PerRun(format string) bool {
	return format == FormatTauBench || format == FormatTau2
}

// Run is one run to export: its stored description and its trajectories.
// Tau2 ranges over Trajectories twice (the Results format lists the tasks
// before the simulations), so it must yield the same sequence each time, as
// db.Trajectories does; the other writers range over it once.
type Run struct {
	emobench.Run
	Trajectories iter.Seq2[*emobench.Trajectory, error]
}

// FileName returns the file name for a run in a per-run format: the run's
// name with characters other than letters, digits, '.', '-' and '_'
// replaced by '_', or run-<id> when the name is empty, plus ext. Names that
// follow `<model>-<domain>-(with|without)-emotions` keep the metadata
// `emobench ingest` reads from file names.
func FileName(run emobench.Run, ext string) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, run.Name)
	name = strings.Trim(name, ".")
	if name == "" {
		name = "run-" + strconv.FormatInt(run.ID, 10)
	}
	return name + ext
}

// marshal encodes v as compact JSON without escaping <, > and & (tool
// results and instructions read as written).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// rawOrNull returns raw, or JSON null when it is empty.
func rawOrNull(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// argumentsText returns a tool call's arguments as the JSON text an
// OpenAI-style message carries: the raw text when the source's arguments
// were malformed, else the parsed JSON compacted.
func argumentsText(c emobench.ToolCall) string {
	if c.ArgumentsMalformed {
		var s string
		if json.Unmarshal(c.Arguments, &s) == nil {
			return s
		}
	}
	if isNull(c.Arguments) {
		return "{}"
	}
	var b bytes.Buffer
	if json.Compact(&b, c.Arguments) != nil {
		return string(c.Arguments)
	}
	return b.String()
}

// lastUserText returns the content of the trajectory's last user message.
func lastUserText(msgs []emobench.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == emobench.RoleUser {
			return msgs[i].Content
		}
	}
	return ""
}

// extraMap returns the trajectory's Extra as an object, or nil. Extra that
// is not an object is kept under the key "extra".
func extraMap(raw json.RawMessage) map[string]json.RawMessage {
	if isNull(raw) {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return map[string]json.RawMessage{"extra": raw}
	}
	return m
}

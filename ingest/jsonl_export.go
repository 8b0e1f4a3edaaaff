package ingest

import "errors"

// FormatJSONLExport names emobench's own JSON Lines export (`emobench
// export --format jsonl`): one {run, task, trial, …} object per line.
const FormatJSONLExport = "emobench-jsonl"

// ErrAnalysisFormat is the error of ingesting a JSON Lines export.
var ErrAnalysisFormat = errors.New("this is emobench's JSON Lines export (emobench export --format jsonl), an analysis format, not a results format: " +
	"ingest the result files it was exported from, or export --format taubench (or tau2) for a file that ingests again")

// jsonlExportFormat is the JSON Lines export's row in Formats: an object
// whose first keys are run and task. It is detected only to be refused
// plainly.
var jsonlExportFormat = Format{
	Name: FormatJSONLExport,
	Detect: func(s Shape) bool {
		return !s.Array && len(s.Keys) == 2 && s.Keys[0] == "run" && s.Keys[1] == "task"
	},
	Open: func(*Source, Hints) (*Opened, error) { return nil, ErrAnalysisFormat },
}

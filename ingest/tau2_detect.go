package ingest

import (
	"encoding/json"
	"io"
)

// DetectFormat names the format of the result file r by reading as little
// of it as it needs: a JSON array is FormatTauBench; an object with a
// simulations key, or with both info and tasks, is FormatTau2; an object
// with model_name, model_organization, submitting_organization or
// submission_date is FormatSubmission. Anything else, including an object
// with task_id (a τ-bench record of JSON Lines, or a lone τ²-bench
// simulation) and input that is not JSON, is FormatTauBench, whose reader
// explains what it found.
func DetectFormat(r io.Reader) string {
	dec := json.NewDecoder(newNonFiniteReader(skipBOM(r)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return FormatTauBench
	}
	var info, tasks bool
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tok {
		case "simulations":
			return FormatTau2
		case "info":
			info = true
		case "tasks":
			tasks = true
		case "model_name", "model_organization", "submitting_organization", "submission_date":
			return FormatSubmission
		case "task_id", "traj", "reward":
			return FormatTauBench
		}
		if info && tasks {
			return FormatTau2
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return FormatTauBench
}

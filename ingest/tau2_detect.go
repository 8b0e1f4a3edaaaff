package ingest

import (
	"encoding/json"
	"io"
)

// DetectFormat names the format of the result file r by reading as little
// of it as it needs: a JSON array is FormatTauBench unless its first
// element has a key only a τ²-bench simulation has (messages,
// termination_reason, reward_info, ticks) before any of τ-bench's (traj,
// reward, info), which makes it FormatTau2 (a bare array of simulations);
// an object with a
// simulations key, or with both info and tasks, is FormatTau2; an object
// with model_name, model_organization, submitting_organization or
// submission_date is FormatSubmission. Anything else, including an object
// with task_id (a τ-bench record of JSON Lines, or a lone τ²-bench
// simulation) and input that is not JSON, is FormatTauBench, whose reader
// explains what it found.
func DetectFormat(r io.Reader) string {
	dec := json.NewDecoder(newNonFiniteReader(skipBOM(r)))
	tok, err := dec.Token()
	if err == nil && tok == json.Delim('[') {
		return detectArray(dec)
	}
	if err != nil || tok != json.Delim('{') {
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

// detectArray names the format of an array from the keys of its first
// element, read one at a time up to the first that decides.
func detectArray(dec *json.Decoder) string {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return FormatTauBench
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tok {
		case "traj", "reward", "info":
			return FormatTauBench
		case "messages", "termination_reason", "reward_info", "ticks":
			return FormatTau2
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return FormatTauBench
}

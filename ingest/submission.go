package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
)

// FormatSubmission names τ²-bench's leaderboard submission.json: one object
// {model_name, model_organization, submitting_organization,
// submission_date, results: {<domain>: {pass_1, ..., pass_k, cost} | null},
// methodology: {user_simulator, evaluation_date, ...}, ...} with pass^k in
// percent. It holds aggregate scores, no trajectories.
const FormatSubmission = "submission"

// submissionFormat is the leaderboard submission's row in Formats: an
// object with model_name, model_organization, submitting_organization or
// submission_date.
var submissionFormat = Format{
	Name: FormatSubmission,
	Detect: func(s Shape) bool {
		switch s.Last() {
		case "model_name", "model_organization", "submitting_organization", "submission_date":
			return !s.Array
		}
		return false
	},
	Open: openSubmission,
}

// openSubmission reads a submission whole: its scores are few. Only
// Run.SourceSHA256 (of the bytes read) and Run.SourcePath are set.
func openSubmission(src *Source, h Hints) (*Opened, error) {
	o := &Opened{Format: FormatSubmission}
	results, err := SubmissionWith(src.reader(), SubmissionOptions{Note: func(n string) { o.notes = append(o.notes, n) }, MaxRecord: h.MaxRecord})
	if err != nil {
		return nil, err
	}
	if o.Run.SourceSHA256, err = src.Finish(); err != nil {
		return nil, err
	}
	o.Run.SourceFormat, o.Run.SourcePath = FormatSubmission, absolute(src.Path, src.ModTime)
	for i := range results {
		results[i].SourceFile = o.Run.SourcePath
	}
	o.Published = results
	return o, nil
}

// Submission reads a leaderboard submission from r and returns one
// PublishedResult per domain and k, domains in file order and k ascending.
// pass_k percentages become 0–1 fractions; a null domain or a null pass_k is
// skipped. Organization is model_organization (else
// submitting_organization), Date is submission_date (else
// methodology.evaluation_date), UserSimulator is methodology.user_simulator
// and Cost the domain's cost (nil when null); Modality and SubmissionType
// are modality (text, voice) and submission_type (standard, custom). SourceFile is left for the
// caller. A leading UTF-8 byte-order mark is skipped.
//
// A file whose pass_k values are all at most 1 (and not all 0) holds
// fractions already, as some submissions do: they are kept, not divided by
// 100 (see SubmissionWithNotes for the note).
//
// It returns an error for input that is not one JSON object, a missing or
// non-string model_name, a missing results object, or a pass_k that is not a
// number between 0 and 100.
func Submission(r io.Reader) ([]emobench.PublishedResult, error) {
	return SubmissionWithNotes(r, nil)
}

// SubmissionWithNotes is Submission that also hands note what it read in a
// way the user should know: pass_k values taken as fractions, a key
// repeated in one object (the last value is kept), and a cost given as a
// string ("results.retail.cost is the string "1.5": read as
// 1.5"). A nil note drops them.
func SubmissionWithNotes(r io.Reader, note func(string)) ([]emobench.PublishedResult, error) {
	return SubmissionWith(r, SubmissionOptions{Note: note})
}

// SubmissionOptions says how SubmissionWith reads.
type SubmissionOptions struct {
	// Note receives the notes of SubmissionWithNotes; nil drops them.
	Note func(string)
	// MaxRecord is the most bytes the submission, one record, may take,
	// counted as they are read; 0 means DefaultMaxRecord. A longer one is
	// refused with an error wrapping a *RecordTooLargeError.
	MaxRecord int64
}

// SubmissionWith is SubmissionWithNotes with a limit on the submission's
// size.
func SubmissionWith(r io.Reader, opts SubmissionOptions) ([]emobench.PublishedResult, error) {
	note := opts.Note
	if note == nil {
		note = func(string) {}
	}
	dec := newLimitedDecoder(newNonFiniteReader(skipBOM(r)), opts.MaxRecord)
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		if err == io.EOF {
			return nil, errors.New("empty file: want a τ²-bench leaderboard submission object")
		}
		if errors.As(err, new(*RecordTooLargeError)) {
			return nil, fmt.Errorf("the submission (byte %d): %w", dec.InputOffset(), err)
		}
		return nil, fmt.Errorf("not JSON: %w", explainJSON(err, "submission"))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the submission at byte %d", dec.InputOffset())
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf("top level is %s, want a leaderboard submission object {model_name, results, ...}", jsonKind(raw))
	}
	var dups dupKeyScanner
	if paths := dups.duplicates(raw); paths != nil {
		note(duplicateNote(paths))
	}
	var sub struct {
		ModelName              json.RawMessage `json:"model_name"`
		ModelOrganization      json.RawMessage `json:"model_organization"`
		SubmittingOrganization json.RawMessage `json:"submitting_organization"`
		SubmissionDate         json.RawMessage `json:"submission_date"`
		SubmissionType         json.RawMessage `json:"submission_type"`
		Modality               json.RawMessage `json:"modality"`
		Results                json.RawMessage `json:"results"`
		Methodology            json.RawMessage `json:"methodology"`
	}
	if err := json.Unmarshal(raw, &sub); err != nil {
		return nil, explainJSON(err, "submission")
	}
	base := emobench.PublishedResult{
		Model:          stringOf(sub.ModelName),
		Organization:   firstString(sub.ModelOrganization, sub.SubmittingOrganization),
		UserSimulator:  stringOf(jsonPath(sub.Methodology, "user_simulator")),
		Date:           firstString(sub.SubmissionDate, jsonPath(sub.Methodology, "evaluation_date")),
		Modality:       stringOf(sub.Modality),
		SubmissionType: stringOf(sub.SubmissionType),
	}
	switch {
	case isNull(sub.ModelName):
		return nil, errors.New("missing model_name")
	case sub.ModelName[0] != '"':
		return nil, fmt.Errorf("model_name is %s, want a string", jsonKind(sub.ModelName))
	case strings.TrimSpace(base.Model) == "":
		return nil, errors.New("model_name is an empty string")
	case isNull(sub.Results):
		return nil, errors.New("missing results")
	case sub.Results[0] != '{':
		return nil, fmt.Errorf("results is %s, want an object of domains", jsonKind(sub.Results))
	}
	domains, err := orderedObject(sub.Results)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	var out []emobench.PublishedResult
	seen := map[string]bool{}
	for _, d := range domains {
		switch {
		case d.key == "":
			return nil, errors.New("results has an empty domain name")
		case seen[d.key]:
			return nil, fmt.Errorf("results: domain %q appears twice", d.key)
		}
		seen[d.key] = true
		if isNull(d.value) {
			continue
		}
		scores, err := domainScores(base, d.key, d.value, note)
		if err != nil {
			return nil, fmt.Errorf("results.%s%w", d.key, err)
		}
		out = append(out, scores...)
	}
	largest := 0.0
	for _, r := range out {
		largest = max(largest, r.PassHatK)
	}
	if largest > 0 && largest <= 1 {
		note(fmt.Sprintf("every pass_k is at most 1 (largest %v): read as 0–1 fractions, not percentages", largest))
		return out, nil
	}
	// A domain whose every pass_k is at most 1 beside percent domains may
	// have been written as fractions: say so rather than guess.
	domainLargest := map[string]float64{}
	for _, r := range out {
		domainLargest[r.Domain] = max(domainLargest[r.Domain], r.PassHatK)
	}
	var fractionLike []string
	for d, l := range domainLargest {
		if l > 0 && l <= 1 {
			fractionLike = append(fractionLike, d)
		}
	}
	sort.Strings(fractionLike)
	if len(fractionLike) > 0 {
		note(fmt.Sprintf("read as percentages (the largest pass_k is %v), but every pass_k of %s is at most 1: if those were fractions, fix the file", largest, strings.Join(fractionLike, ", ")))
	}
	for i := range out {
		out[i].PassHatK /= 100
	}
	return out, nil
}

// domainScores reads one domain's {pass_1, ..., cost}. Its errors start
// with the key's path below the domain (".pass_1 is ...").
// PassHatK is the value as written (percent or fraction), for the caller
// to scale.
func domainScores(base emobench.PublishedResult, domain string, raw json.RawMessage, note func(string)) ([]emobench.PublishedResult, error) {
	if raw[0] != '{' {
		return nil, fmt.Errorf(" is %s, want an object {pass_1, ..., cost}", jsonKind(raw))
	}
	fields, err := orderedObject(raw)
	if err != nil {
		return nil, fmt.Errorf(": %w", err)
	}
	var out []emobench.PublishedResult
	var c *float64
	ks := map[int]bool{}
	for _, f := range fields {
		if f.key == "cost" {
			var msg string
			if c, msg = cost(f.value); msg != "" {
				note(fmt.Sprintf("results.%s.cost %s", domain, msg))
			}
			continue
		}
		digits, ok := strings.CutPrefix(f.key, "pass_")
		if !ok {
			continue
		}
		k, err := strconv.Atoi(digits)
		if err != nil || k < 1 || strconv.Itoa(k) != digits {
			return nil, fmt.Errorf(".%s: %q is not a k of 1 or more", f.key, digits)
		}
		if ks[k] {
			return nil, fmt.Errorf(".%s appears twice", f.key)
		}
		ks[k] = true
		if isNull(f.value) {
			continue
		}
		var pct float64
		if f.value[0] == '"' || json.Unmarshal(f.value, &pct) != nil {
			kind := jsonKind(f.value)
			if kind == "a number" {
				kind = "out of range"
			}
			return nil, fmt.Errorf(".%s is %s (%s), want a number (percent)", f.key, kind, truncate(string(f.value), 40))
		}
		if pct < 0 || pct > 100 {
			return nil, fmt.Errorf(".%s is %v, want a percentage between 0 and 100", f.key, pct)
		}
		r := base
		r.Domain, r.K, r.PassHatK = domain, k, pct
		out = append(out, r)
	}
	for i := range out {
		out[i].Cost = c
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].K < out[j].K })
	return out, nil
}

type keyValue struct {
	key   string
	value json.RawMessage
}

// orderedObject returns the members of the JSON object raw in file order.
func orderedObject(raw json.RawMessage) ([]keyValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // '{'
		return nil, err
	}
	var out []keyValue
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return nil, err
		}
		value, err := rawValue(dec, key)
		if err != nil {
			return nil, err
		}
		out = append(out, keyValue{key, value})
	}
	return out, nil
}

// firstString returns the first of values that is a non-empty JSON string.
func firstString(values ...json.RawMessage) string {
	for _, v := range values {
		if s := stringOf(v); s != "" {
			return s
		}
	}
	return ""
}

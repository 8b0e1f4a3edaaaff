// Package ingest holds one reader per foreign result format. A reader turns
// bytes into emobench types one record at a time, so memory stays flat
// whatever the file's size; it never writes anywhere.
//
// A Source is one input (a file, a stream, a τ²-bench run directory),
// hashed while it is read; Collect expands arguments into sources; Open
// detects the format from the registry Formats and reads the run, whose
// metadata follows one rule (Resolve): flags, then the file's content,
// then its name.
//
// To add a format, write one file holding its reader and a Format
// {Name, Detect, Open} whose Open describes the run with Hints.describe
// and streams src.verified trajectories, and add that Format to Formats.
package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/emobench/emobench"
)

// FormatTauBench names τ-bench's result file format: a JSON array of
// {task_id, reward, info: {task, source, user_cost, reward_info}, traj, trial}
// records, as written by sierra-research/tau-bench (Yao et al. 2024) and by
// τ-Emotion-Bench, whose tasks add emotion_family, emotion_leaf and
// dimension_{politeness,urgency,trust_in_agent}.
const FormatTauBench = "taubench"

// Markers the τ-bench user simulator writes to end a conversation.
const (
	StopMarker        = "###STOP###"
	UnsatisfiedMarker = "###UNSATISFIED###"
)

// RecordError is a problem with one record of a result file.
type RecordError struct {
	Index  int   // 0-based position of the record in the file's array
	Offset int64 // byte offset in the file where reading stopped; for a parse error, where the record starts
	// At is the byte offset of a parse error itself (the offending
	// character, or the end of a truncated file); 0 for other errors.
	At  int64
	Err error
}

func (e *RecordError) Error() string {
	if e.At > 0 {
		return fmt.Sprintf("record %d (starts at byte %d): %v at byte %d", e.Index, e.Offset, e.Err, e.At)
	}
	return fmt.Sprintf("record %d (byte %d): %v", e.Index, e.Offset, e.Err)
}

// parseRecordError is the error err of record i, which dec could not
// parse (not JSON, or cut short): it names where the record starts and
// where the error is.
func parseRecordError(dec *json.Decoder, i int, err error) *RecordError {
	if start, at, ok := parseErrorAt(dec); ok {
		return &RecordError{Index: i, Offset: start, At: at, Err: err}
	}
	return &RecordError{Index: i, Offset: dec.InputOffset(), Err: err}
}

func (e *RecordError) Unwrap() error { return e.Err }

// tauBenchFormat is τ-bench's row in Formats: an array whose first record
// has traj, reward or info, or a record object (JSON Lines) with task_id,
// traj or reward.
var tauBenchFormat = Format{
	Name: FormatTauBench,
	Detect: func(s Shape) bool {
		switch s.Last() {
		case "traj", "reward":
			return true
		case "info":
			return s.Array
		case "task_id":
			return !s.Array
		}
		return false
	},
	Open: openTauBench,
}

// openTauBench reads the first record, whose info.emobench is the file's
// content in the metadata precedence, before it describes the run.
func openTauBench(src *Source, h Hints) (*Opened, error) {
	o := &Opened{Format: FormatTauBench, empty: func() string { return "no records in this τ-bench file" }}
	var content Metadata
	trajectories := src.peekFirst(TauBenchWith(src.reader(), TauBenchOptions{
		Note:      func(n string) { o.notes = append(o.notes, n) },
		MaxRecord: h.MaxRecord,
		Metadata:  func(m Metadata) { content = m },
	}))
	h.describe(o, src, baseName(src.Path), content, nil)
	o.Trajectories = src.verified(trajectories)
	return o, nil
}

// TauBench reads a τ-bench result file from r and yields one trajectory per
// record, in file order. Unknown keys are ignored; info keys other than task
// and reward_info are kept in Trajectory.Extra. The first malformed record
// ends the sequence with a *RecordError (or a plain error when the file is
// not a JSON array at all); nothing after it is yielded. JSON Lines (one
// record object per line) are read too. Python's non-finite floats (NaN,
// Infinity) are read as null.
//
// Termination reasons are derived as τ-bench v1 records allow:
// reward_info.info.reason == "user_abandoned" or a final ###UNSATISFIED### is
// user_unsatisfied; info.error with an empty traj is error; info.source naming
// a transfer tool is transfer; reward_info null with a non-empty traj is
// max_steps (τ-bench's 30-step cap, not evaluated); a last user message
// holding ###STOP### is user_stop; anything else is unknown. A reason
// emobench's own export wrote to info.emobench_termination_reason (one of
// emobench's termination reasons) wins over all of these, and the
// reward_info that export moved to info.emobench_reward_info (an evaluated
// max_steps trajectory) is restored, evaluated; info.emobench_evaluable
// false (a τ²-bench infrastructure_error or context_window_exceeded) makes
// the trajectory non-evaluable and unevaluated. None of these keys is kept in
// Extra, nor is info.emobench, the run metadata that export writes (see
// TauBenchOptions.Metadata).
func TauBench(r io.Reader) iter.Seq2[*emobench.Trajectory, error] {
	return TauBenchWithNotes(r, nil)
}

// TauBenchWithNotes is TauBench that also hands note what it tolerated
// but the user should know, each naming its record ("record 3: info.agent_cost
// is the string "0.5": read as 0.5"): a key repeated in one object of a
// record (the last value is kept, as Python does, also in the raw JSON kept
// from the record; one note lists a record's repeated keys) and a cost
// given as a string. At most 20 notes come one by one; a last note counts
// the rest. A nil note drops them.
func TauBenchWithNotes(r io.Reader, note func(string)) iter.Seq2[*emobench.Trajectory, error] {
	return TauBenchWith(r, TauBenchOptions{Note: note})
}

// TauBenchOptions says how TauBenchWith reads.
type TauBenchOptions struct {
	// Note receives the notes of TauBenchWithNotes; nil drops them.
	Note func(string)
	// MaxRecord is the most bytes one record may take, counted as they
	// are read; 0 means DefaultMaxRecord. A longer record ends the
	// sequence with a *RecordError wrapping a *RecordTooLargeError, and
	// nothing after it is read.
	MaxRecord int64
	// Metadata, when set, receives the run metadata of the first record's
	// info.emobench ({model, user_model, domain, condition, run_name}, as
	// emobench's τ-bench export writes it), before that record is yielded.
	// That key is not kept in Extra.
	Metadata func(Metadata)
}

// TauBenchWith is TauBenchWithNotes with a limit on the size of a record.
func TauBenchWith(r io.Reader, opts TauBenchOptions) iter.Seq2[*emobench.Trajectory, error] {
	return func(yield func(*emobench.Trajectory, error) bool) {
		notes := &noteSink{send: opts.Note}
		defer notes.flush()
		br := skipBOM(r)
		if firstNonSpace(br) == '{' {
			readRecordLines(newLimitedDecoder(newNonFiniteReader(br), opts.MaxRecord), notes, opts.Metadata, yield)
			return
		}
		recorder := &byteRecorder{r: newNonFiniteReader(br)}
		dec := newLimitedDecoder(recorder, opts.MaxRecord)
		if err := expectArray(dec); err != nil {
			yield(nil, err)
			return
		}
		var dups dupKeyScanner
		for i := 0; ; i++ {
			if !dec.More() {
				break
			}
			start := dec.InputOffset()
			recorder.forget(start)
			traj, rec, whole, err := decodeTauRecord(dec)
			var paths []string
			if whole {
				span := recorder.span(start, dec.InputOffset())
				if paths = dups.duplicates(span); paths != nil {
					// Decoded again with only the last value of each
					// repeated key, so that the raw JSON kept from the
					// record (reward_info, extra) holds what the typed
					// fields hold, as Python would read it.
					traj, rec, err = tauRecordFrom(lastWins(span))
				}
			}
			if err != nil && !whole {
				yield(nil, parseRecordError(dec, i, err))
				return
			}
			if err != nil {
				yield(nil, &RecordError{Index: i, Offset: dec.InputOffset(), Err: err})
				return
			}
			if paths != nil {
				notes.add("record %d: %s", i, duplicateNote(paths))
			}
			for _, n := range rec.notes {
				notes.add("record %d: %s", i, n)
			}
			if rec.meta != nil && i == 0 && opts.Metadata != nil {
				opts.Metadata(*rec.meta)
			}
			if !yield(traj, nil) {
				return
			}
		}
		if err := expectEnd(dec); err != nil {
			yield(nil, err)
		}
	}
}

// noteCap is how many notes a reader hands on one by one; the rest are
// counted in a last note.
const noteCap = 20

// noteSink hands notes to send, at most noteCap of them.
type noteSink struct {
	send func(string)
	n    int
}

func (s *noteSink) add(format string, args ...any) {
	s.n++
	if s.send != nil && s.n <= noteCap {
		s.send(fmt.Sprintf(format, args...))
	}
}

// flush sends the count of the notes not sent.
func (s *noteSink) flush() {
	if s.send != nil && s.n > noteCap {
		s.send(fmt.Sprintf("%d more notes not shown", s.n-noteCap))
	}
}

// readRecordLines reads a stream of record objects (JSON Lines), refusing
// other top-level objects such as τ²-bench Results.
func readRecordLines(dec *json.Decoder, notes *noteSink, meta func(Metadata), yield func(*emobench.Trajectory, error) bool) {
	var dups dupKeyScanner
	for i := 0; dec.More(); i++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil && isParseError(err) {
			yield(nil, parseRecordError(dec, i, explainJSON(err, "record")))
			return
		} else if err != nil {
			yield(nil, &RecordError{Index: i, Offset: dec.InputOffset(), Err: explainJSON(err, "record")})
			return
		}
		if i == 0 {
			if err := checkRecordObject(raw); err != nil {
				yield(nil, err)
				return
			}
		}
		paths := dups.duplicates(raw)
		if paths != nil {
			raw = lastWins(raw)
		}
		traj, rec, err := tauRecordFrom(raw)
		if err != nil {
			yield(nil, &RecordError{Index: i, Offset: dec.InputOffset(), Err: err})
			return
		}
		if paths != nil {
			notes.add("record %d: %s", i, duplicateNote(paths))
		}
		for _, n := range rec.notes {
			notes.add("record %d: %s", i, n)
		}
		if rec.meta != nil && i == 0 && meta != nil {
			meta(*rec.meta)
		}
		if !yield(traj, nil) {
			return
		}
	}
	if _, err := dec.Token(); errors.As(err, new(*RecordTooLargeError)) {
		yield(nil, fmt.Errorf("after the last record (byte %d): %w", dec.InputOffset(), err))
	}
}

// checkRecordObject explains a top-level object that is not a τ-bench record.
func checkRecordObject(raw json.RawMessage) error {
	var probe struct {
		TaskID      json.RawMessage `json:"task_id"`
		Simulations json.RawMessage `json:"simulations"`
		Tasks       json.RawMessage `json:"tasks"`
		Messages    json.RawMessage `json:"messages"`
		Termination json.RawMessage `json:"termination_reason"`
		Traj        json.RawMessage `json:"traj"`
		ModelName   json.RawMessage `json:"model_name"`
	}
	if json.Unmarshal(raw, &probe) != nil {
		return nil
	}
	if probe.TaskID != nil && probe.Traj == nil && (probe.Messages != nil || probe.Termination != nil) {
		return errors.New("this looks like a τ²-bench simulation (task_id, messages, termination_reason), not a τ-bench record: ingest the τ²-bench run it belongs to (its Results file, or the directory holding results.json and simulations/)")
	}
	if probe.TaskID != nil {
		return nil
	}
	if probe.ModelName != nil {
		return errors.New("this looks like a τ²-bench leaderboard submission (aggregate scores per domain, no trajectories), not τ-bench records: read it with the submission format")
	}
	if probe.Simulations != nil || probe.Tasks != nil {
		return errors.New("top level is a JSON object, want an array of τ-bench records: this looks like a τ²-bench Results file ({timestamp, info, tasks, simulations}); read it with the tau2 format")
	}
	return errors.New("top level is a JSON object without task_id, want an array of τ-bench records (or JSON Lines of records)")
}

// firstNonSpace returns the first byte after leading white space without
// consuming anything, or 0 when there is none.
func firstNonSpace(br *bufio.Reader) byte {
	for n := 1; ; n *= 2 {
		b, err := br.Peek(n)
		for _, c := range b {
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return c
			}
		}
		if err != nil || n >= br.Size() {
			return 0
		}
	}
}

// skipBOM drops a leading UTF-8 byte-order mark, which some editors write.
func skipBOM(r io.Reader) *bufio.Reader {
	br := newPeekReader(r)
	if b, _ := br.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	return br
}

func expectArray(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err == io.EOF {
		return errors.New("empty file: want a JSON array of τ-bench records")
	}
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	switch tok {
	case json.Delim('['):
		return nil
	}
	return fmt.Errorf("top level is %s, want an array of τ-bench records", describeToken(tok))
}

func expectEnd(dec *json.Decoder) error {
	if _, err := dec.Token(); err != nil { // the closing ']'
		return fmt.Errorf("after last record (byte %d): %w", dec.InputOffset(), explainJSON(err, "array"))
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("trailing data after the array at byte %d", dec.InputOffset())
	}
	return nil
}

func describeToken(tok json.Token) string {
	switch v := tok.(type) {
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	default:
		return fmt.Sprint(v)
	}
}

// explainJSON turns the decoder's errors into words a user can act on;
// subject names the value being decoded ("record", "info.task", ...).
func explainJSON(err error, subject string) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errors.New("truncated file: unexpected end of JSON")
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("invalid JSON: %v", syn)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		if typ.Field == "" {
			return fmt.Errorf("%s is %s, want %s", subject, article(typ.Value), jsonTypeName(typ.Type))
		}
		field := typ.Field
		if subject != "record" {
			field = subject + "." + field
		}
		return fmt.Errorf("%s is %s, want %s", field, article(typ.Value), jsonTypeName(typ.Type))
	}
	return err
}

// jsonTypeName names the JSON kind a Go type decodes from.
func jsonTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64, reflect.Float64, reflect.Float32, reflect.Int32:
		return "a number"
	case reflect.Pointer:
		return jsonTypeName(t.Elem())
	}
	return "another JSON value"
}

func article(jsonKind string) string {
	switch jsonKind {
	case "array", "object":
		return "an " + jsonKind
	case "null":
		return "null"
	}
	return "a " + jsonKind
}

// tauRecord is one τ-bench result record. Fields that vary between harness
// versions stay raw until checked.
type tauRecord struct {
	TaskID json.RawMessage            `json:"task_id"`
	Reward json.RawMessage            `json:"reward"`
	Trial  json.RawMessage            `json:"trial"`
	Info   map[string]json.RawMessage `json:"info"`
	Traj   []tauMessage               `json:"traj"`
	// A τ²-bench simulation's keys, only to say what it is.
	Messages    json.RawMessage `json:"messages"`
	Termination json.RawMessage `json:"termination_reason"`
	notes       []string        // what trajectory tolerated, without the record index
	meta        *Metadata       // info.emobench, as emobench's τ-bench export writes it
}

// tauRunInfo is info.emobench: the run metadata emobench's τ-bench export
// writes into every record.
type tauRunInfo struct {
	Model     string `json:"model"`
	UserModel string `json:"user_model"`
	Domain    string `json:"domain"`
	Condition string `json:"condition"`
	RunName   string `json:"run_name"`
}

type tauTask struct {
	UserID        string          `json:"user_id"`
	Instruction   string          `json:"instruction"`
	Actions       json.RawMessage `json:"actions"`
	Outputs       json.RawMessage `json:"outputs"`
	EmotionFamily string          `json:"emotion_family"`
	EmotionLeaf   string          `json:"emotion_leaf"`
	Politeness    string          `json:"dimension_politeness"`
	Urgency       string          `json:"dimension_urgency"`
	Trust         string          `json:"dimension_trust_in_agent"`
}

type tauMessage struct {
	Role         string        `json:"role"`
	Content      tauContent    `json:"content"`
	ToolCalls    []tauToolCall `json:"tool_calls"`
	FunctionCall *tauFunction  `json:"function_call"`
	Name         string        `json:"name"`
	ToolCallID   string        `json:"tool_call_id"`
}

// tauContent is a message's content as given. A string, by far the most
// common and the bulk of a file's bytes, is decoded straight from the
// decoder's buffer; anything else is kept raw for contentText to judge.
type tauContent struct {
	raw    json.RawMessage // the value when it is not a string; nil when absent
	text   string
	isText bool
}

func (c *tauContent) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		text, err := unquote(b)
		*c = tauContent{text: text, isText: true}
		return err
	}
	*c = tauContent{raw: append(json.RawMessage(nil), b...)}
	return nil
}

type tauToolCall struct {
	ID       string      `json:"id"`
	Function tauFunction `json:"function"`
}

type tauFunction struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// decodeTauRecord decodes the next record of dec. whole reports whether
// dec read the whole record (it did unless the JSON is malformed or cut
// short), whose bytes can then be scanned even when err is not nil.
func decodeTauRecord(dec *json.Decoder) (traj *emobench.Trajectory, rec *tauRecord, whole bool, err error) {
	rec = &tauRecord{}
	if err := dec.Decode(rec); err != nil {
		var syn *json.SyntaxError
		whole = !errors.As(err, &syn) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF)
		return nil, nil, whole, explainJSON(err, "record")
	}
	traj, err = rec.trajectory()
	return traj, rec, true, err
}

// tauRecordFrom maps the record raw, a JSON value a json.Decoder has
// checked.
func tauRecordFrom(raw []byte) (*emobench.Trajectory, *tauRecord, error) {
	rec := &tauRecord{}
	if err := json.Unmarshal(raw, rec); err != nil {
		return nil, nil, explainJSON(err, "record")
	}
	traj, err := rec.trajectory()
	return traj, rec, err
}

func (rec *tauRecord) trajectory() (*emobench.Trajectory, error) {
	if isNull(rec.TaskID) && isNull(rec.Reward) && len(rec.Traj) == 0 && len(rec.Info) == 0 {
		return nil, errors.New("not a τ-bench result: the record has none of task_id, reward, info and traj " +
			"(τ-bench files are arrays of {task_id, reward, info, traj, trial}; see --format)")
	}
	if rec.Reward == nil && rec.Traj == nil && (rec.Messages != nil || rec.Termination != nil) {
		return nil, errors.New("this is a τ²-bench simulation (messages, termination_reason, reward_info), not a τ-bench record: " +
			"a bare array of τ²-bench simulations reads with --format tau2 (or auto)")
	}
	key, err := taskKey(rec.TaskID)
	if err != nil {
		return nil, err
	}
	traj := &emobench.Trajectory{Task: emobench.Task{Key: key}}
	if traj.Reward, err = reward(rec.Reward); err != nil {
		return nil, err
	}
	if traj.Trial, err = trial(rec.Trial); err != nil {
		return nil, err
	}
	if err := rec.applyInfo(traj); err != nil {
		return nil, err
	}
	for i, m := range rec.Traj {
		msg, err := m.message()
		if err != nil {
			return nil, fmt.Errorf("traj[%d]: %w", i, err)
		}
		traj.Messages = append(traj.Messages, msg)
	}
	traj.TerminationReason = rec.terminationReason(traj)
	restored := false
	if ri := rec.Info["emobench_reward_info"]; !traj.Evaluated && !isNull(ri) && isNull(rec.Info["reward_info"]) {
		// emobench's τ-bench export moved the reward_info of an evaluated
		// max_steps trajectory here, to write τ-bench's step-cap signal.
		traj.RewardInfo, traj.Evaluated, restored = ri, true, true
	}
	// An error record is unevaluated unless it carries its own reward_info
	// (a τ²-bench agent_error exported to τ-bench keeps its evaluation).
	errorUnscored := traj.TerminationReason == emobench.TerminationError && isNull(rec.Info["reward_info"])
	if (traj.TerminationReason == emobench.TerminationMaxSteps && !restored) || errorUnscored || !traj.IsEvaluable() {
		traj.Evaluated = false // a non-evaluable trajectory never passes, whatever its reward_info
	}
	if err := checkDepths(traj, depthFields{rewardInfo: "info.reward_info", extra: "info", actions: "info.task.actions", outputs: "info.task.outputs"}); err != nil {
		return nil, err
	}
	for _, n := range checkReward(traj) {
		rec.notes = append(rec.notes, fmt.Sprintf("task %s, trial %d: %s", traj.Task.Key, traj.Trial, n))
	}
	RedactTrajectory(traj)
	return traj, nil
}

func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

func taskKey(raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", errors.New("missing task_id")
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", fmt.Errorf("task_id: %w", err)
		}
		if s == "" {
			return "", errors.New("task_id is an empty string")
		}
		return s, nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if n, ok := integral(raw); ok {
			return strconv.FormatInt(n, 10), nil // 3.0 and 3 name the same task
		}
		return string(raw), nil
	}
	return "", fmt.Errorf("task_id is %s, want a number or a string", jsonKind(raw))
}

// reward reads a record's reward: a JSON number, or null (not
// evaluated). Python's NaN and ±Infinity arrive here as null
// (nonFiniteReader), so they too mean not evaluated. A number too large
// for a float64 (1e400) is refused, as no reward. Finite rewards outside
// [−1, 1] are kept as given: τ-bench's rewards are in [0, 1] and
// τ-Emotion-Bench's −1 marks user_unsatisfied, and no stored source has
// others, but a pass is a reward of 1 ± 1e-6 whatever the scale, so they
// only fail.
func reward(raw json.RawMessage) (*float64, error) {
	if len(raw) == 0 {
		return nil, errors.New("missing reward")
	}
	if isNull(raw) {
		return nil, nil
	}
	var v float64
	if raw[0] == '"' || json.Unmarshal(raw, &v) != nil {
		if _, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64); errors.Is(err, strconv.ErrRange) {
			return nil, fmt.Errorf("reward %s is out of range: not a finite number", truncate(string(raw), 40))
		}
		return nil, fmt.Errorf("reward is %s (%s), want a number", jsonKind(raw), truncate(string(raw), 40))
	}
	return &v, nil
}

// checkReward applies the reward rules a reader cannot see in one field,
// and returns their notes (the caller names the record): an evaluated
// trajectory whose reward is null (or NaN or ±Infinity, which arrive as
// null) is not evaluated; a reward outside [−1, 1] is kept as given, and
// said.
func checkReward(traj *emobench.Trajectory) []string {
	var notes []string
	if traj.Evaluated && traj.Reward == nil {
		traj.Evaluated = false
		notes = append(notes, "reward is null or not a finite number (NaN, Infinity) beside a reward_info: stored as not evaluated")
	}
	if r := traj.Reward; r != nil && !(*r >= -1 && *r <= 1) {
		notes = append(notes, fmt.Sprintf("reward %s is outside [-1, 1]: kept as given (it never passes), and every mean reward over it says so",
			strconv.FormatFloat(*r, 'g', -1, 64)))
	}
	return notes
}

func trial(raw json.RawMessage) (int, error) {
	if isNull(raw) {
		return 0, nil
	}
	n, ok := integral(raw)
	if !ok || n < math.MinInt32 || n > math.MaxInt32 {
		return 0, fmt.Errorf("trial is %s (%s), want an integer", jsonKind(raw), truncate(string(raw), 40))
	}
	return int(n), nil
}

// integral returns the integer a JSON number spells, accepting integral
// floats such as 2.0 (Python writes them), or false.
func integral(raw json.RawMessage) (int64, bool) {
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

func jsonKind(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "missing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// applyInfo copies info's task, costs, reward_info and error into traj and
// keeps every other info key in traj.Extra.
func (rec *tauRecord) applyInfo(traj *emobench.Trajectory) error {
	extra := map[string]json.RawMessage{}
	for k, v := range rec.Info {
		switch k {
		case "task":
			if err := applyTask(&traj.Task, v); err != nil {
				return err
			}
		case "user_cost", "agent_cost":
			c, note := cost(v)
			if note != "" {
				rec.notes = append(rec.notes, "info."+k+" "+note)
			}
			if k == "user_cost" {
				traj.UserCost = c
			} else {
				traj.AgentCost = c
			}
		case "reward_info":
			if !isNull(v) {
				traj.RewardInfo = v
				traj.Evaluated = true
			}
		case "error":
			traj.Error = errorText(v)
			extra[k] = v
		case "emobench_evaluable":
			if strings.TrimSpace(string(v)) == "false" { // emobench's export of a τ²-bench non-evaluable ending
				traj.Evaluable = new(bool)
			} else if strings.TrimSpace(string(v)) != "true" {
				extra[k] = v // not emobench's: kept as any other key
			}
		case "emobench_termination_reason":
			if _, ok := emobenchReason(v); !ok {
				extra[k] = v // not emobench's: kept as any other key
			}
		case "emobench":
			var ri tauRunInfo
			if json.Unmarshal(v, &ri) != nil || isNull(v) {
				extra[k] = v // not emobench's: kept as any other key
				continue
			}
			cond, _ := emobench.ParseCondition(ri.Condition) // "" when unknown: not the file's to say
			rec.meta = &Metadata{Name: ri.RunName, Model: ri.Model, UserModel: ri.UserModel, Domain: ri.Domain, Condition: cond}
		case "emobench_reward_info":
			if isNull(v) || !isNull(rec.Info["reward_info"]) {
				extra[k] = v // not restored by trajectory: kept
			}
		default:
			extra[k] = v
		}
	}
	if len(extra) > 0 {
		b, err := json.Marshal(extra)
		if err != nil {
			return fmt.Errorf("info: %w", err)
		}
		traj.Extra = b
	}
	return nil
}

func applyTask(task *emobench.Task, raw json.RawMessage) error {
	if isNull(raw) {
		return nil
	}
	var t tauTask
	if err := json.Unmarshal(raw, &t); err != nil {
		return explainJSON(err, "info.task")
	}
	task.UserID = t.UserID
	task.Instruction = t.Instruction // redacted with the trajectory (RedactTrajectory), before the task is hashed
	task.Actions = jsonOr(t.Actions, "[]")
	task.Outputs = jsonOr(t.Outputs, "[]")
	task.Emotion = emobench.EmotionProfile{
		Family: t.EmotionFamily, Leaf: t.EmotionLeaf,
		Politeness: t.Politeness, Urgency: t.Urgency, Trust: t.Trust,
	}
	return nil
}

func jsonOr(raw json.RawMessage, empty string) json.RawMessage {
	if isNull(raw) {
		return json.RawMessage(empty)
	}
	return raw
}

// number returns the JSON number raw holds, or nil for null, a missing value
// or anything that is not a number: a cost nobody recorded is unknown, not 0.
func number(raw json.RawMessage) *float64 {
	var v float64
	if isNull(raw) || raw[0] == '"' || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	return &v
}

// cost reads a cost in USD: a number, or a string that spells a finite
// one ("0.5"), which some harnesses write. note says what was made of
// anything but a number or null: "is the string \"0.5\": read as 0.5", or
// "is the string \"n/a\", not a number: stored as unknown (NULL)".
func cost(raw json.RawMessage) (c *float64, note string) {
	switch {
	case isNull(raw):
		return nil, ""
	case raw[0] == '"':
		if v, err := strconv.ParseFloat(strings.TrimSpace(stringOf(raw)), 64); err == nil && !math.IsInf(v, 0) && !math.IsNaN(v) {
			return &v, fmt.Sprintf("is the string %s: read as %s", truncate(string(raw), 40), strconv.FormatFloat(v, 'g', -1, 64))
		}
		return nil, fmt.Sprintf("is the string %s, not a number: stored as unknown (NULL)", truncate(string(raw), 40))
	}
	if c = number(raw); c != nil {
		return c, ""
	}
	kind := jsonKind(raw)
	if kind == "a number" {
		kind = "a number out of range"
	}
	return nil, fmt.Sprintf("is %s (%s), not a cost: stored as unknown (NULL)", kind, truncate(string(raw), 40))
}

func errorText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func (m *tauMessage) message() (emobench.Message, error) {
	msg := emobench.Message{Role: emobench.Role(m.Role), ToolCallID: m.ToolCallID}
	if m.Role == "" {
		return msg, errors.New("message without a role")
	}
	content, err := contentText(m.Content)
	if err != nil {
		return msg, err
	}
	msg.Content = content
	if msg.Role == emobench.RoleTool {
		msg.ToolName = m.Name
	}
	for _, c := range m.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, toolCall(c.ID, c.Function))
	}
	if m.FunctionCall != nil && len(m.ToolCalls) == 0 && m.FunctionCall.Name != "" {
		msg.ToolCalls = append(msg.ToolCalls, toolCall("", *m.FunctionCall))
	}
	return msg, nil
}

// contentText accepts a string, null, or an array of content parts
// ({"type": "text", "text": ...}) and returns the text.
func contentText(c tauContent) (string, error) {
	if c.isText {
		return c.text, nil
	}
	raw := c.raw
	if isNull(raw) {
		return "", nil
	}
	switch raw[0] {
	case '"':
		return unquote(raw)
	case '[':
		var parts []struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", explainJSON(err, "content part")
		}
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("content is %s, want a string", jsonKind(raw))
}

// toolCall parses the arguments of a function call. OpenAI-style sources
// carry them as a JSON string; one that does not parse is kept as a JSON
// string literal of its raw text and flagged, never fatal.
func toolCall(id string, f tauFunction) emobench.ToolCall {
	call := emobench.ToolCall{ID: id, Name: f.Name}
	args := f.Arguments
	switch {
	case isNull(args):
		call.Arguments = json.RawMessage("{}")
	case args[0] == '"':
		s, _ := unquote(args) // the decoder already checked the literal
		// Compact fails exactly when s is not valid JSON.
		var b bytes.Buffer
		b.Grow(len(s))
		if json.Compact(&b, []byte(s)) == nil && emobench.JSONDepth(b.Bytes()) <= emobench.MaxToolArgumentsDepth {
			call.Arguments = b.Bytes()
		} else {
			call.Arguments = args
			call.ArgumentsMalformed = true
		}
	case emobench.JSONDepth(args) > emobench.MaxToolArgumentsDepth:
		// Nested deeper than the store takes: malformed, kept as the
		// text written.
		call.Arguments, _ = json.Marshal(string(args)) // a string always marshals
		call.ArgumentsMalformed = true
	default:
		// An object as written, often pretty-printed: stored compact, as
		// parsed strings are, so that SQL comparisons on it work.
		var b bytes.Buffer
		if json.Compact(&b, args) == nil {
			call.Arguments = b.Bytes()
		} else {
			call.Arguments = args
		}
	}
	return call
}

// depthFields names, as a source file spells them, the fields of a
// trajectory that checkDepths checks.
type depthFields struct {
	rewardInfo       string // where RewardInfo comes from
	extra            string // the object whose keys Extra keeps; "" for the record itself
	actions, outputs string // where the task's actions and outputs come from
}

// checkDepths returns an error naming traj's task and trial and the first
// field nested deeper than the store takes (emobench.MaxJSONDepth; a key
// kept in Extra one level less, as Extra holds it in an object): "task 12,
// trial 0: field info.reward_info is nested 1500 deep; at most 1000".
// Tool-call arguments are not checked: toolCall flags deep ones malformed.
func checkDepths(traj *emobench.Trajectory, f depthFields) error {
	type field struct {
		name  string
		raw   json.RawMessage
		limit int
	}
	fields := []field{
		{f.rewardInfo, traj.RewardInfo, emobench.MaxJSONDepth},
		{f.actions, traj.Task.Actions, emobench.MaxJSONDepth},
		{f.outputs, traj.Task.Outputs, emobench.MaxJSONDepth},
	}
	if emobench.JSONDepth(traj.Extra) > emobench.MaxJSONDepth {
		var extra map[string]json.RawMessage
		_ = json.Unmarshal(traj.Extra, &extra) // it was marshalled from such a map
		for _, k := range slices.Sorted(maps.Keys(extra)) {
			fields = append(fields, field{strings.TrimPrefix(f.extra+"."+k, "."), extra[k], emobench.MaxJSONDepth - 1})
		}
	}
	for _, field := range fields {
		if err := emobench.CheckJSONDepth(field.name, field.raw, field.limit); err != nil {
			return fmt.Errorf("task %s, trial %d: %w", traj.Task.Key, traj.Trial, err)
		}
	}
	return nil
}

// unquote returns the text of raw, a JSON string literal that a json.Decoder
// has already checked, exactly as json.Unmarshal into a string would (invalid
// UTF-8 and lone surrogates become U+FFFD) but without validating raw again:
// content strings are most of a result file's bytes.
func unquote(raw []byte) (string, error) {
	if s, ok := unescape(raw); ok {
		return s, nil
	}
	var s string // not a checked literal after all: let encoding/json say why
	err := json.Unmarshal(raw, &s)
	return s, err
}

// unescape decodes the JSON string literal raw, following encoding/json's
// unquote rules. It reports false for anything that is not a well-formed
// literal.
func unescape(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	s := raw[1 : len(raw)-1]
	r := 0
	for r < len(s) {
		c := s[r]
		if c == '\\' || c == '"' || c < ' ' {
			break
		}
		if c < utf8.RuneSelf {
			r++
			continue
		}
		rr, size := utf8.DecodeRune(s[r:])
		if rr == utf8.RuneError && size == 1 {
			break
		}
		r += size
	}
	if r == len(s) {
		return string(s), true
	}
	var b strings.Builder
	b.Grow(len(s))
	for start := 0; r < len(s); start = r {
		for r < len(s) && s[r] >= ' ' && s[r] < utf8.RuneSelf && s[r] != '\\' && s[r] != '"' {
			r++ // a run of plain ASCII, copied at once
		}
		b.Write(s[start:r])
		if r == len(s) {
			break
		}
		switch c := s[r]; {
		case c == '\\':
			if r+1 >= len(s) {
				return "", false
			}
			switch e := s[r+1]; e {
			case '"', '\\', '/', '\'':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				rr := hex4(s[r+2:])
				if rr < 0 {
					return "", false
				}
				r += 6
				if utf16.IsSurrogate(rr) {
					if len(s) >= r+6 && s[r] == '\\' && s[r+1] == 'u' {
						if dec := utf16.DecodeRune(rr, hex4(s[r+2:])); dec != unicode.ReplacementChar {
							r += 6
							b.WriteRune(dec)
							continue
						}
					}
					rr = unicode.ReplacementChar
				}
				b.WriteRune(rr)
				continue
			default:
				return "", false
			}
			r += 2
		case c == '"', c < ' ':
			return "", false
		default:
			rr, size := utf8.DecodeRune(s[r:])
			r += size
			b.WriteRune(rr) // invalid UTF-8 was decoded as U+FFFD
		}
	}
	return b.String(), true
}

// hex4 returns the value of the four hex digits at the start of s, or -1.
func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

func (rec *tauRecord) terminationReason(traj *emobench.Trajectory) emobench.TerminationReason {
	lastUser := ""
	for i := len(traj.Messages) - 1; i >= 0; i-- {
		if traj.Messages[i].Role == emobench.RoleUser {
			lastUser = traj.Messages[i].Content
			break
		}
	}
	if r, ok := emobenchReason(rec.Info["emobench_termination_reason"]); ok {
		return r
	}
	source := errorText(rec.Info["source"])
	switch {
	case len(traj.Messages) == 0 && traj.Error != "":
		return emobench.TerminationError
	case abandoned(traj.RewardInfo) || strings.Contains(lastUser, UnsatisfiedMarker):
		return emobench.TerminationUserUnsatisfied
	case strings.HasPrefix(source, "transfer"):
		return emobench.TerminationTransfer
	case !traj.Evaluated && traj.Error != "":
		return emobench.TerminationError
	case !traj.Evaluated && len(traj.Messages) > 0:
		return emobench.TerminationMaxSteps
	case strings.Contains(lastUser, StopMarker):
		return emobench.TerminationUserStop
	case traj.Error != "":
		return emobench.TerminationError
	}
	return emobench.TerminationUnknown
}

// emobenchReason returns the termination reason emobench's exporters write
// under emobench_termination_reason when a format's own signals cannot say
// it; false when raw is not one of emobench's termination reasons.
func emobenchReason(raw json.RawMessage) (emobench.TerminationReason, bool) {
	switch r := emobench.TerminationReason(stringOf(raw)); r {
	case emobench.TerminationUserStop, emobench.TerminationUserUnsatisfied, emobench.TerminationTransfer,
		emobench.TerminationUserTransfer, emobench.TerminationUserOutOfScope, emobench.TerminationAgentStop, emobench.TerminationMaxSteps, emobench.TerminationTooManyErrors,
		emobench.TerminationError, emobench.TerminationUnknown:
		return r, true
	}
	return "", false
}

// abandoned reports whether reward_info says the user ended the
// conversation with ###UNSATISFIED### (τ-Emotion-Bench).
func abandoned(rewardInfo json.RawMessage) bool {
	if isNull(rewardInfo) {
		return false
	}
	if bytes.IndexByte(rewardInfo, '\\') < 0 && !bytes.Contains(rewardInfo, []byte(`"user_abandoned"`)) {
		return false // without escapes the reason would appear as written
	}
	var ri struct {
		Info struct {
			Reason string `json:"reason"`
		} `json:"info"`
	}
	return json.Unmarshal(rewardInfo, &ri) == nil && ri.Info.Reason == "user_abandoned"
}

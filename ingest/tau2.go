package ingest

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/redact"
)

// FormatTau2 names τ²-bench's Results format (sierra-research/tau2-bench,
// Barres et al. 2025): one JSON object {timestamp, info, tasks, simulations}
// as written by v0.x and by 1.x (τ³) with simulations inline, or 1.x's
// directory layout: results.json (no simulations key) beside a simulations/
// folder holding one simulation per file.
const FormatTau2 = "tau2"

// tau2Format is τ²-bench's row in Formats: an object with simulations, or
// with info and tasks; an array whose first element has a key only a
// simulation has (messages, termination_reason, reward_info, ticks).
var tau2Format = Format{
	Name: FormatTau2,
	Detect: func(s Shape) bool {
		if s.Array {
			switch s.Last() {
			case "messages", "termination_reason", "reward_info", "ticks":
				return true
			}
			return false
		}
		return s.Last() == "simulations" || s.Has("info") && s.Has("tasks")
	},
	Open: openTau2,
}

// defaultMaxSpool is Hints.MaxSpool's default.
const defaultMaxSpool = 4 << 30

// openTau2 reads a Results file (passing over it again for simulations
// before tasks, or spooling them from a stream) or a run directory.
func openTau2(src *Source, h Hints) (*Opened, error) {
	opts := Tau2Options{MaxRecord: h.MaxRecord}
	var rd *Tau2Reader
	var err error
	switch src.kind {
	case kindDir:
		if rd, err = Tau2DirWith(src.verify, opts); err == nil {
			err = src.verify.check()
		}
	case kindFile:
		opts.Rewind = func() (io.Reader, error) {
			r, err := src.newPass()
			return bufio.NewReaderSize(r, 256<<10), err
		}
		rd, err = Tau2With(src.reader(), opts)
	default:
		src.spool = &spoolFile{max: cmp.Or(h.MaxSpool, defaultMaxSpool)}
		opts.Spool = src.spool
		rd, err = Tau2With(src.reader(), opts)
	}
	if err != nil {
		return nil, err
	}
	info := rd.Info()
	o := &Opened{Format: FormatTau2, warnings: rd.Warnings, empty: func() string {
		return fmt.Sprintf("no simulations in this τ²-bench run (it lists %s)", countOf(rd.Info().Tasks, "task", "tasks"))
	}}
	content := Metadata{
		Model: info.AgentModel, AgentStrategy: info.AgentImplementation, UserModel: info.UserModel,
		UserStrategy: info.UserImplementation, Domain: info.Domain, Condition: info.Condition,
		Name: info.RunName, // emobench's export; else the file's name
	}
	tau2 := map[string]any{"timestamp": info.Timestamp}
	if info.Raw != nil {
		tau2["info"] = info.Raw
	}
	if info.Wrapper != nil {
		tau2["wrapper"] = info.Wrapper
	}
	h.describe(o, src, baseName(src.Path), content, map[string]any{"tau2": tau2})
	if t, ok := parseTau2Time(info.Timestamp); ok {
		o.Run.CreatedAt = t
	}
	for _, path := range info.Redacted {
		o.note("info.%s holds a credential: stored as %q in runs.config", path, redact.Placeholder)
	}
	o.Trajectories = src.verified(rd.Trajectories())
	return o, nil
}

// parseTau2Time reads a Results timestamp (its zone unrecorded, taken as
// UTC).
func parseTau2Time(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// Tau2Info is the run-level metadata of a τ²-bench Results file. Empty
// strings mean the file does not say.
type Tau2Info struct {
	Timestamp           string             // top-level timestamp as written (the run's local time, no zone)
	AgentModel          string             // info.agent_info.llm
	AgentImplementation string             // info.agent_info.implementation, e.g. llm_agent
	UserModel           string             // info.user_info.llm
	UserImplementation  string             // info.user_info.implementation, e.g. user_simulator
	Domain              string             // info.environment_info.domain_name
	Condition           emobench.Condition // info.emobench_condition (emobench's export); empty when absent or invalid
	RunName             string             // info.emobench_run_name (emobench's export): the run's name; empty when absent
	Tasks               int                // number of entries of the tasks array
	Raw                 json.RawMessage    // info as given, credentials redacted (redact.Config); nil when absent
	Redacted            []string           // paths in info of the credentials left out of Raw
	// Wrapper holds the top-level model, domain and agent keys of a
	// Results-like wrapper object, as given with credentials redacted; nil
	// when it has none. They fill AgentModel, AgentImplementation and
	// Domain where info does not say.
	Wrapper json.RawMessage
	// Bare is set for a bare JSON array of simulations (no Results
	// wrapper): no info and no tasks.
	Bare bool
}

// SimulationError is a problem with one simulation of a τ²-bench run.
type SimulationError struct {
	Index  int    // 0-based position of the simulation in the run
	File   string // the simulation's file in the directory layout; empty for inline simulations
	Offset int64  // byte offset where reading stopped (in File when set)
	Err    error
}

func (e *SimulationError) Error() string {
	if e.File != "" {
		return fmt.Sprintf("simulation %d (%s, byte %d): %v", e.Index, e.File, e.Offset, e.Err)
	}
	return fmt.Sprintf("simulation %d (byte %d): %v", e.Index, e.Offset, e.Err)
}

func (e *SimulationError) Unwrap() error { return e.Err }

// Tau2Reader reads one τ²-bench run. Info is known as soon as Tau2 or
// Tau2Dir returns, so a caller can create the run before it streams the
// trajectories.
type Tau2Reader struct {
	info  Tau2Info
	tasks map[string]*emobench.Task

	dec      *json.Decoder   // inside the simulations array when streaming
	buffered json.RawMessage // the simulations array, when it came before info or tasks (no Tau2Options)
	opts     Tau2Options
	early    bool       // simulations came before info or tasks and were skipped, to be read again
	tee      *switchTee // what the header decoder reads through, to spool early simulations
	spoolAt  int64      // byte offset of the spooled simulations in the input
	spooled  bool       // early simulations are in opts.Spool
	inSpool  bool       // dec reads the spool, whose bytes after the array are not checked again
	index    []string   // simulation ids of results.json's simulation_index, in order
	hasIndex bool
	fsys     fs.FS    // the run directory of the 1.x layout; nil for one file
	simFiles []string // the simulation files of fsys, in reading order
	used     bool

	dups         dupKeyScanner
	headerDups   []string        // repeated keys of the Results object outside simulations, as paths
	firstBare    json.RawMessage // a bare array's first simulation, read to tell it from τ-bench records
	wrapper      map[string]json.RawMessage
	simulated    map[string]bool // listed tasks that have a simulation
	warnings     []string
	moreWarnings int
	trialNull    []int // simulations whose trial was null or missing
	unlisted     int   // simulations whose task is not in tasks
	firstUnlist  string
}

// Info returns the run's metadata.
func (t *Tau2Reader) Info() Tau2Info { return t.info }

// Warnings returns what the reader tolerated but the user should know (a
// null trial read as 0, simulations of tasks the file does not list). It is
// complete once Trajectories has been iterated to the end.
func (t *Tau2Reader) Warnings() []string {
	w := append([]string(nil), t.warnings...)
	if t.moreWarnings > 0 {
		w = append(w, fmt.Sprintf("%d more warnings not shown", t.moreWarnings))
	}
	return w
}

// Tau2 reads the header of a τ²-bench Results object from r: everything
// before the simulations array (timestamp, info, tasks), which real files
// write first. Trajectories then streams the simulations one at a time. A
// file whose simulations come before info or tasks is still read, by
// holding the simulations array in memory (at most DefaultMaxRecord bytes
// of it); Tau2With reads it in bounded memory instead. A leading UTF-8 byte-order mark is skipped and Python's
// NaN and Infinity read as null.
//
// Tau2 returns an error when r is not a JSON object or has none of the keys
// info, tasks and simulations (a lone simulation object, for instance).
func Tau2(r io.Reader) (*Tau2Reader, error) {
	return Tau2With(r, Tau2Options{})
}

// Tau2Options says how Tau2With reads a Results object whose simulations
// come before its tasks (json.dump(..., sort_keys=True) writes them so).
// With neither field set, the simulations array is held in memory.
type Tau2Options struct {
	// Rewind returns the input again from its first byte. The simulations
	// are skipped on the first pass, which reads info and tasks, and
	// streamed on a second pass over the same input.
	Rewind func() (io.Reader, error)
	// Spool, used when Rewind is nil, receives the input from the start of
	// the simulations array while the first pass skips it, and is read back
	// from its start (after Seek) to stream them. An error of its Write
	// (a full spool, say) ends Tau2With with that error.
	Spool io.ReadWriteSeeker
	// MaxRecord is the most bytes one simulation, or one other top-level
	// value of the Results object (its info, its tasks), may take, counted
	// as they are read; 0 means DefaultMaxRecord. A longer one is refused
	// with an error wrapping a *RecordTooLargeError, and nothing after it
	// is read. Without Rewind or Spool, simulations that come before the
	// tasks are one value, the array.
	MaxRecord int64
}

// Tau2With is Tau2 with a bounded-memory way to read simulations that come
// before tasks (see Tau2Options).
func Tau2With(r io.Reader, opts Tau2Options) (*Tau2Reader, error) {
	t := &Tau2Reader{tasks: map[string]*emobench.Task{}, opts: opts}
	in := newNonFiniteReader(skipBOM(r))
	if opts.Rewind == nil && opts.Spool != nil {
		t.tee = &switchTee{r: in}
		in = t.tee
	}
	dec := newLimitedDecoder(in, opts.MaxRecord)
	if err := t.readHeader(dec); err != nil {
		if t.tee != nil && t.tee.err != nil {
			return nil, t.tee.err
		}
		return nil, err
	}
	if t.headerDups != nil {
		t.warn("%s", duplicateNote(t.headerDups))
	}
	t.applyWrapper()
	return t, nil
}

// switchTee copies what is read through it to w while w is set.
type switchTee struct {
	r   io.Reader
	w   io.Writer
	err error // the first error of w
}

func (s *switchTee) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 && s.w != nil {
		if _, werr := s.w.Write(p[:n]); werr != nil {
			s.err, s.w = werr, nil
			return 0, werr
		}
	}
	return n, err
}

// skipEarlySimulations reads past the simulations array that comes before
// info or tasks, keeping at most one simulation in memory; with a spool it
// copies the array there on the way.
func (t *Tau2Reader) skipEarlySimulations(dec *json.Decoder) error {
	if t.tee != nil {
		t.spoolAt = dec.InputOffset()
		t.tee.w = t.opts.Spool
		defer func() { t.tee.w = nil }()
		if _, err := t.opts.Spool.Write(bufferedBytes(dec)); err != nil {
			t.tee.err = err
			return err
		}
	}
	isArray, err := openArray(dec, "simulations")
	if err != nil || !isArray {
		return err
	}
	t.early, t.spooled = true, t.tee != nil
	for i := 0; dec.More(); i++ {
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return &SimulationError{Index: i, Offset: dec.InputOffset(), Err: explainJSON(err, "simulations")}
		}
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("simulations (byte %d): %w", dec.InputOffset(), explainJSON(err, "simulations"))
	}
	return nil
}

func bufferedBytes(dec *json.Decoder) []byte {
	b, _ := io.ReadAll(dec.Buffered())
	return b
}

// reopenSimulations positions t.dec inside the simulations array skipped
// by the first pass: in the input read again, or in the spool.
func (t *Tau2Reader) reopenSimulations() error {
	if t.spooled {
		if _, err := t.opts.Spool.Seek(0, io.SeekStart); err != nil {
			return err
		}
		br := bufio.NewReaderSize(t.opts.Spool, 64<<10)
		for { // the spool starts right after the key: skip ':' and space
			c, err := br.ReadByte()
			if err != nil {
				return fmt.Errorf("spooled simulations: %w", err)
			}
			if c == '[' {
				br.UnreadByte()
				break
			}
			t.spoolAt++
		}
		t.dec, t.inSpool = newLimitedDecoder(br, t.opts.MaxRecord), true
		_, err := t.dec.Token()
		return err
	}
	r, err := t.opts.Rewind()
	if err != nil {
		return err
	}
	dec := newLimitedDecoder(newNonFiniteReader(skipBOM(r)), t.opts.MaxRecord)
	if _, err := dec.Token(); err != nil { // '{', checked on the first pass
		return err
	}
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return err
		}
		if key == "simulations" {
			if _, err := openArray(dec, key); err != nil {
				return err
			}
			t.dec = dec
			return nil
		}
		if _, err := rawValue(dec, key); err != nil {
			return err
		}
	}
	return errors.New("the second reading found no simulations: the file changed while it was read")
}

// tau2Keys are the top-level keys that identify a Results object.
type tau2Keys struct {
	info, tasks, simulations bool
	taskID, messages         bool
}

func (t *Tau2Reader) readHeader(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err == io.EOF {
		return errors.New("empty file: want a τ²-bench Results object {timestamp, info, tasks, simulations}")
	}
	if err != nil {
		return fmt.Errorf("not JSON: %w", explainJSON(err, "file"))
	}
	if tok == json.Delim('[') {
		return t.readBareHeader(dec)
	}
	if tok != json.Delim('{') {
		return fmt.Errorf("top level is %s, want a τ²-bench Results object {timestamp, info, tasks, simulations}", describeToken(tok))
	}
	var seen tau2Keys
	keys := map[string]bool{}
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return err
		}
		if keys[key] {
			t.headerDups = appendNew(t.headerDups, key)
		}
		keys[key] = true
		if key == "simulations" {
			seen.simulations = true
			if seen.info && seen.tasks {
				streaming, err := openArray(dec, "simulations")
				if err != nil {
					return err
				}
				if streaming {
					t.dec = dec
					return nil
				}
				continue
			}
			if t.opts.Rewind != nil || t.opts.Spool != nil {
				if err := t.skipEarlySimulations(dec); err != nil {
					return err
				}
				continue
			}
			raw, err := rawValue(dec, key)
			if err != nil {
				return err
			}
			if !isNull(raw) && raw[0] != '[' {
				return fmt.Errorf("simulations is %s, want an array", jsonKind(raw))
			}
			t.buffered = raw
			continue
		}
		if key == "tasks" {
			seen.tasks = true
			if err := t.streamTasks(dec); err != nil {
				return err
			}
			continue
		}
		raw, err := rawValue(dec, key)
		if err != nil {
			return err
		}
		raw = t.headerLastWins(key, raw)
		switch key {
		case "timestamp":
			t.info.Timestamp = stringOf(raw)
		case "info":
			seen.info = true
			t.readInfo(raw)
		case "simulation_index":
			if err := t.readIndex(raw); err != nil {
				return err
			}
		case "task_id":
			seen.taskID = true
		case "messages", "ticks", "termination_reason":
			seen.messages = true
		case "model", "domain", "agent":
			if t.wrapper == nil {
				t.wrapper = map[string]json.RawMessage{}
			}
			t.wrapper[key] = raw
		}
	}
	if err := closeObject(dec, "the Results object"); err != nil {
		return err
	}
	if !seen.info && !seen.tasks && !seen.simulations {
		if seen.taskID && seen.messages {
			return errors.New("this is a single τ²-bench simulation (task_id, messages, termination_reason), not a Results object: read the run it belongs to (its Results file, or the directory holding results.json and simulations/)")
		}
		return errors.New("a JSON object without info, tasks or simulations: not a τ²-bench Results object")
	}
	return nil
}

// headerLastWins returns raw, the value of the top-level key, with only
// the last value of each key repeated in one of its objects, and keeps
// their paths for the header's note.
func (t *Tau2Reader) headerLastWins(key string, raw json.RawMessage) json.RawMessage {
	paths := t.dups.duplicates(raw)
	if paths == nil {
		return raw
	}
	if key == "" {
		key = `""` // the empty key, named
	}
	for _, p := range paths {
		if p[0] != '[' {
			p = "." + p
		}
		t.headerDups = appendNew(t.headerDups, key+p)
	}
	return lastWins(raw)
}

// appendNew appends s to list unless list holds it.
func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// readBareHeader reads the start of a bare JSON array of τ²-bench
// simulations, as some people save a run's simulations without the Results
// wrapper. Its first element must look like a simulation (messages,
// termination_reason, reward_info or ticks; no traj and no top-level
// reward, which are τ-bench's), else it is τ-bench's format. An empty
// array is a run without simulations.
func (t *Tau2Reader) readBareHeader(dec *json.Decoder) error {
	t.info.Bare = true
	t.dec = dec
	if !dec.More() {
		return nil
	}
	first, err := rawValue(dec, "simulation 0")
	if err != nil {
		return err
	}
	if !looksLikeSimulation(first) {
		return errors.New("top level is an array (τ-bench's format), want a τ²-bench Results object {timestamp, info, tasks, simulations} or an array of τ²-bench simulations")
	}
	t.firstBare = first
	return nil
}

// looksLikeSimulation reports whether raw is an object with a key only a
// τ²-bench simulation has and none that only a τ-bench record has.
func looksLikeSimulation(raw json.RawMessage) bool {
	var probe map[string]json.RawMessage
	if isNull(raw) || raw[0] != '{' || json.Unmarshal(raw, &probe) != nil {
		return false
	}
	tau2 := false
	for k := range probe {
		switch k {
		case "traj", "reward":
			return false
		case "messages", "termination_reason", "reward_info", "ticks":
			tau2 = true
		}
	}
	return tau2
}

// applyWrapper fills what info does not say from a wrapper's top-level
// model, domain and agent: model and domain are strings (or objects with
// llm, model or name); agent is an object {llm, implementation}, or a
// string that names an implementation when it ends in "agent"
// (llm_agent) and the agent model otherwise.
func (t *Tau2Reader) applyWrapper() {
	if t.wrapper == nil {
		return
	}
	w := t.wrapper
	raw, _ := json.Marshal(w)
	t.info.Wrapper, _ = redact.Config(raw)
	var model, implementation string
	if a := w["agent"]; !isNull(a) && a[0] == '"' {
		if name := stringOf(a); strings.HasSuffix(strings.ToLower(name), "agent") {
			implementation = name
		} else {
			model = name
		}
	} else if !isNull(a) && a[0] == '{' {
		model = modelName(a)
		implementation = stringOf(jsonPath(a, "implementation"))
	}
	t.info.AgentModel = cmp.Or(t.info.AgentModel, modelName(w["model"]), model)
	t.info.AgentImplementation = cmp.Or(t.info.AgentImplementation, implementation)
	t.info.Domain = cmp.Or(t.info.Domain, modelName(w["domain"]))
}

// modelName returns a string, or the llm, model or name string of an
// object.
func modelName(raw json.RawMessage) string {
	if s := stringOf(raw); s != "" {
		return s
	}
	return firstString(jsonPath(raw, "llm"), jsonPath(raw, "model"), jsonPath(raw, "name"))
}

// objectKey reads the next key of an object.
func objectKey(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", fmt.Errorf("byte %d: %w", dec.InputOffset(), explainJSON(err, "object"))
	}
	key, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("byte %d: invalid JSON: object key is %s", dec.InputOffset(), describeToken(tok))
	}
	return key, nil
}

// rawValue reads the value of key.
func rawValue(dec *json.Decoder, key string) (json.RawMessage, error) {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s (byte %d): %w", key, dec.InputOffset(), explainJSON(err, key))
	}
	return raw, nil
}

// openArray reads the '[' that opens the array value of key and reports
// whether there is one; null reads as no array.
func openArray(dec *json.Decoder, key string) (bool, error) {
	tok, err := dec.Token()
	if err != nil {
		return false, fmt.Errorf("%s (byte %d): %w", key, dec.InputOffset(), explainJSON(err, key))
	}
	switch tok {
	case json.Delim('['):
		return true, nil
	case nil:
		return false, nil
	case json.Delim('{'):
		return false, fmt.Errorf("%s is an object, want an array", key)
	}
	return false, fmt.Errorf("%s is %s, want an array", key, describeToken(tok))
}

// closeObject reads the rest of an object whose keys are no longer of
// interest, its closing brace, and checks that nothing follows.
func closeObject(dec *json.Decoder, what string) error {
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return err
		}
		if _, err := rawValue(dec, key); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("end of %s (byte %d): %w", what, dec.InputOffset(), explainJSON(err, what))
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("trailing data after %s at byte %d", what, dec.InputOffset())
	}
	return nil
}

func (t *Tau2Reader) readInfo(raw json.RawMessage) {
	// A repeated info key: the last one is the run's info.
	t.info.Raw, t.info.Redacted, t.info.Condition, t.info.RunName = nil, nil, "", ""
	if isNull(raw) {
		return
	}
	t.info.Raw, t.info.Redacted = redact.Config(raw)
	t.info.AgentModel = stringOf(jsonPath(raw, "agent_info", "llm"))
	t.info.AgentImplementation = stringOf(jsonPath(raw, "agent_info", "implementation"))
	t.info.UserModel = stringOf(jsonPath(raw, "user_info", "llm"))
	t.info.UserImplementation = stringOf(jsonPath(raw, "user_info", "implementation"))
	t.info.Domain = stringOf(jsonPath(raw, "environment_info", "domain_name"))
	if c, err := emobench.ParseCondition(stringOf(jsonPath(raw, "emobench_condition"))); err == nil {
		t.info.Condition = c
	}
	t.info.RunName = strings.TrimSpace(stringOf(jsonPath(raw, "emobench_run_name")))
}

// readIndex keeps the simulation ids of a 1.x simulation_index, in order.
func (t *Tau2Reader) readIndex(raw json.RawMessage) error {
	if isNull(raw) {
		return nil
	}
	var entries []struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(raw, &entries); err != nil {
		return fmt.Errorf("simulation_index: %w", explainJSON(err, "simulation_index"))
	}
	t.hasIndex = true
	for i, e := range entries {
		id := stringOf(e.ID)
		if id == "" {
			return fmt.Errorf("simulation_index[%d]: id is %s, want a string", i, jsonKind(e.ID))
		}
		t.index = append(t.index, id)
	}
	return nil
}

// jsonPath returns the value at keys inside nested objects, or nil when any
// step is missing or not an object.
func jsonPath(raw json.RawMessage, keys ...string) json.RawMessage {
	for _, k := range keys {
		if isNull(raw) || raw[0] != '{' {
			return nil
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return nil
		}
		raw = m[k]
	}
	return raw
}

// stringOf returns the JSON string raw holds, or "" for anything else.
func stringOf(raw json.RawMessage) string {
	if isNull(raw) || raw[0] != '"' {
		return ""
	}
	s, err := unquote(raw)
	if err != nil {
		return ""
	}
	return s
}

// Trajectories yields one trajectory per simulation, in file order (in the
// directory layout: inline simulations of results.json, then the files of
// simulations/ in simulation_index order, or sorted by name without an
// index). The first malformed simulation ends the sequence with a
// *SimulationError; so does a malformed end of the file after the last
// simulation. It can be iterated once.
//
// Mapping: task_id is Task.Key, with the task's content from tasks;
// reward_info.reward is the raw reward and reward_info the RewardInfo (as
// given); reward_info null or absent means not evaluated. termination_reason
// user_stop, agent_stop, max_steps and too_many_errors map to themselves;
// timeout, agent_error, user_error, infrastructure_error,
// context_window_exceeded and unexpected_error map to error with the
// original reason in Trajectory.Error; anything else is unknown. Extra keeps
// the original termination_reason, simulation_id, seed, duration, the
// timestamps, mode and, for full-duplex voice simulations, the number of
// ticks. A null trial reads as 0 with a warning.
//
// Files written by emobench's own export come back as they were: a
// simulation's info.emobench_termination_reason (one of emobench's
// termination reasons) wins over termination_reason, with info.error as the
// error of an error; a task's emobench object gives its user_id and emotion
// profile.
func (t *Tau2Reader) Trajectories() iter.Seq2[*emobench.Trajectory, error] {
	return func(yield func(*emobench.Trajectory, error) bool) {
		if t.used {
			yield(nil, errors.New("τ²-bench trajectories can be read only once"))
			return
		}
		t.used = true
		i := 0
		if !t.readInline(yield, &i) {
			return
		}
		if t.fsys != nil && !t.readFiles(yield, &i) {
			return
		}
		t.summarize()
	}
}

// readInline yields the simulations of the Results object, streamed or
// buffered; it reports whether to go on.
func (t *Tau2Reader) readInline(yield func(*emobench.Trajectory, error) bool, i *int) bool {
	if t.early {
		if err := t.reopenSimulations(); err != nil {
			yield(nil, fmt.Errorf("simulations: %w", err))
			return false
		}
	}
	dec := t.dec
	if dec == nil {
		if isNull(t.buffered) {
			return true
		}
		dec = newLimitedDecoder(bytes.NewReader(t.buffered), t.opts.MaxRecord)
		dec.Token() // '[', checked when buffered
	}
	base := int64(0)
	if t.inSpool {
		base = t.spoolAt
	}
	if t.firstBare != nil {
		traj, err := t.simulation(t.firstBare, *i)
		if err != nil {
			yield(nil, &SimulationError{Index: *i, Offset: dec.InputOffset(), Err: err})
			return false
		}
		*i++
		if !yield(traj, nil) {
			return false
		}
	}
	for dec.More() {
		traj, err := t.decodeSimulation(dec, *i)
		if err != nil {
			yield(nil, &SimulationError{Index: *i, Offset: base + dec.InputOffset(), Err: err})
			return false
		}
		*i++
		if !yield(traj, nil) {
			return false
		}
	}
	if _, err := dec.Token(); err != nil { // ']'
		yield(nil, &SimulationError{Index: *i, Offset: base + dec.InputOffset(), Err: explainJSON(err, "simulations")})
		return false
	}
	if t.info.Bare {
		if _, err := dec.Token(); err != io.EOF {
			yield(nil, fmt.Errorf("trailing data after the simulations array at byte %d", dec.InputOffset()))
			return false
		}
		return true
	}
	if t.dec != nil && !t.inSpool {
		if err := closeObject(dec, "the Results object"); err != nil {
			yield(nil, fmt.Errorf("after the simulations array: %w", err))
			return false
		}
	}
	return true
}

func (t *Tau2Reader) decodeSimulation(dec *json.Decoder, i int) (*emobench.Trajectory, error) {
	// Decoded from its bytes, which are then scanned for repeated keys.
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, explainSimulation(err)
	}
	return t.simulation(raw, i)
}

// simulation maps the simulation raw, the i-th of the run. A simulation
// with repeated keys is read with only the last value of each, in its
// typed fields and in the raw JSON kept (reward_info, extra), and a
// warning lists them.
func (t *Tau2Reader) simulation(raw json.RawMessage, i int) (*emobench.Trajectory, error) {
	paths := t.dups.duplicates(raw)
	if paths != nil {
		raw = lastWins(raw)
	}
	var sim tau2Simulation
	if err := json.Unmarshal(raw, &sim); err != nil {
		return nil, explainSimulation(err)
	}
	traj, err := t.trajectory(&sim, i)
	if err == nil && paths != nil {
		t.warn("simulation %d: %s", i, duplicateNote(paths))
	}
	return traj, err
}

// explainSimulation words a decoding error of one simulation.
func explainSimulation(err error) error {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Field == "" {
		return fmt.Errorf("simulation is %s, want an object", article(typ.Value))
	}
	return explainJSON(err, "record")
}

func (t *Tau2Reader) warn(format string, args ...any) {
	if len(t.warnings) >= 20 {
		t.moreWarnings++
		return
	}
	t.warnings = append(t.warnings, fmt.Sprintf(format, args...))
}

// summarize adds the warnings that are counted over the whole run.
func (t *Tau2Reader) summarize() {
	if n := len(t.trialNull); n > 0 {
		list := fmt.Sprint(t.trialNull)
		if n > 10 {
			list = fmt.Sprint(t.trialNull[:10]) + "…"
		}
		t.warn("%s with trial null or missing, stored as trial 0 (simulations %s)", countOf(n, "simulation", "simulations"), strings.Trim(list, "[]"))
	}
	if t.unlisted > 0 && !t.info.Bare {
		t.warn("%s of tasks not listed in the file's tasks (first: task %q), stored without instruction, actions or outputs",
			countOf(t.unlisted, "simulation", "simulations"), t.firstUnlist)
	}
	if missing := len(t.tasks) - len(t.simulated); missing > 0 && (len(t.simulated) > 0 || t.unlisted > 0) {
		t.warn("%d of %d listed tasks have no simulation (a partial run?); statistics cover the other %d", missing, len(t.tasks), len(t.simulated))
	}
	if t.info.Bare && t.unlisted > 0 {
		t.warn("a bare array of τ²-bench simulations (no Results wrapper): it lists no tasks, so %s stored without instruction, actions or outputs, and it names no model or domain",
			countOf(t.unlisted, "simulation is", "simulations are"))
	}
}

func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

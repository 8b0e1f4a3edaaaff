package ingest

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/emobench/emobench"
)

// Format is one result format in the registry: a new format is one file
// holding its reader and its Format, plus its row in Formats.
type Format struct {
	// Name is what --format calls it, and what runs.source_format holds.
	Name string
	// Detect reports whether a source whose top level has shape s is in
	// this format. Detection asks every format after each key it reads;
	// the first to claim the source wins.
	Detect func(s Shape) bool
	// Open reads the source's header and returns its run, whose metadata
	// follows Hints.Describe; its trajectories stream as they are ranged
	// over. Open reads the source through src.reader.
	Open func(src *Source, h Hints) (*Opened, error)
}

// Formats is the registry, in the order detection asks. The first row,
// τ-bench, is also what a source no format claims is read as: its reader
// explains what it found.
var Formats = []Format{
	tauBenchFormat,
	tau2Format,
	submissionFormat,
	jsonlExportFormat,
}

// FormatNames lists the names of Formats that --format accepts.
func FormatNames() []string {
	var names []string
	for _, f := range Formats {
		if f.Open != nil && f.Name != FormatJSONLExport {
			names = append(names, f.Name)
		}
	}
	return names
}

// Shape is what detection has read of a source so far: whether its top
// level is an array (then Keys are its first element's) or an object, and
// the keys read, in order; the last key is the one just read.
type Shape struct {
	Array bool
	Keys  []string
}

// Last is the key just read; "" before any.
func (s Shape) Last() string {
	if len(s.Keys) == 0 {
		return ""
	}
	return s.Keys[len(s.Keys)-1]
}

// Has reports whether key was read.
func (s Shape) Has(key string) bool { return slices.Contains(s.Keys, key) }

// DetectFormat names the format of the result file r by reading as little
// of it as it needs: the top-level keys (or the first array element's) one
// at a time, each asked of every Format's Detect (see the Formats' own
// rules). Input that is not a JSON object or array, or that no format
// claims, is FormatTauBench, whose reader explains what it found.
func DetectFormat(r io.Reader) string {
	fallback := Formats[0].Name
	dec := json.NewDecoder(newNonFiniteReader(skipBOM(r)))
	tok, err := dec.Token()
	var s Shape
	switch {
	case err != nil:
		return fallback
	case tok == json.Delim('['):
		s.Array = true
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return fallback
		}
	case tok != json.Delim('{'):
		return fallback
	}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			break
		}
		s.Keys = append(s.Keys, key)
		for _, f := range Formats {
			if f.Detect != nil && f.Detect(s) {
				return f.Name
			}
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return fallback
}

// Metadata is what one layer (flags, a file's content, its name) says of
// a run; "" is unknown.
type Metadata struct {
	Name          string
	Model         string // the agent's model
	AgentStrategy string
	UserModel     string
	UserStrategy  string
	Domain        string
	Condition     emobench.Condition
}

// Resolve is the one precedence rule for run metadata: field by field, the
// first layer that knows it, in the order given (flags, then the file's
// content, then its name).
func Resolve(layers ...Metadata) Metadata {
	var m Metadata
	for _, l := range layers {
		m.Name = cmpOr(m.Name, l.Name)
		m.Model = cmpOr(m.Model, l.Model)
		m.AgentStrategy = cmpOr(m.AgentStrategy, l.AgentStrategy)
		m.UserModel = cmpOr(m.UserModel, l.UserModel)
		m.UserStrategy = cmpOr(m.UserStrategy, l.UserStrategy)
		m.Domain = cmpOr(m.Domain, l.Domain)
		m.Condition = cmpOr(m.Condition, l.Condition)
	}
	return m
}

func cmpOr[T comparable](a, b T) T {
	var zero T
	if a != zero {
		return a
	}
	return b
}

// Hints is what the caller knows of a source beyond its bytes.
type Hints struct {
	// Format names the source's format; "" or "auto" detects it.
	Format string
	// Flags is the metadata given on the command line: it wins over the
	// file's content and its name.
	Flags Metadata
	// OnDuplicate is recorded in runs.config as ingest.on_duplicate.
	OnDuplicate string
	// MaxRecord is the most bytes one record may take; 0 means
	// DefaultMaxRecord. Detection reads at most MaxRecord + 1 MiB.
	MaxRecord int64
	// MaxSpool is the most bytes a stream's τ²-bench simulations may take
	// in a temporary file when they come before its tasks; 0 means 4 GiB.
	MaxSpool int64
	// Progress, when set, receives a copy of every byte parsed on the
	// source's first pass (a progress bar).
	Progress io.Writer
}

// Opened is a source being read: its run (or published results) and its
// trajectories, streamed once.
type Opened struct {
	// Format is the name of the source's Format.
	Format string
	// Run is the run the source becomes; SourceSHA256 is "" for a stream
	// (see Source.Finish). For a submission only SourceFormat, SourcePath
	// and SourceSHA256 (of the bytes read) are set.
	Run emobench.Run
	// Trajectories yields the run's trajectories in source order. For a
	// file or a directory it ends with an error when the bytes parsed are
	// not those Source.Hash read, so a transaction storing them keeps
	// nothing. Nil for a submission.
	Trajectories iter.Seq2[*emobench.Trajectory, error]
	// Published holds a leaderboard submission's scores, each with
	// SourceFile set; nil for other formats.
	Published []emobench.PublishedResult

	notes    []string
	warnings func() []string
	empty    func() string
}

// Notes returns what the reader tolerated or could not tell (a repeated
// key, a cost given as a string, a file name that gives no model), each a
// sentence without the source's path. It is complete once Trajectories
// has been ranged over to its end.
func (o *Opened) Notes() []string { return o.notes }

// Warnings returns problems in the data the user should check (a null
// trial, simulations of unlisted tasks); complete once Trajectories has
// been ranged over.
func (o *Opened) Warnings() []string {
	if o.warnings == nil {
		return nil
	}
	return o.warnings()
}

// EmptyNote says why a run that holds no trajectories is empty.
func (o *Opened) EmptyNote() string {
	if o.empty == nil {
		return "no records"
	}
	return o.empty()
}

func (o *Opened) note(format string, args ...any) {
	o.notes = append(o.notes, fmt.Sprintf(format, args...))
}

// Open detects the source's format (unless h.Format names it), reads its
// header and returns what it holds. A regular file or a directory is
// hashed first when Hash was not called. Errors name the source.
func Open(src *Source, h Hints) (*Opened, error) {
	o, err := open(src, h)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Path, err)
	}
	return o, nil
}

func open(src *Source, h Hints) (*Opened, error) {
	if h.Format == "" {
		h.Format = "auto"
	}
	if src.kind != kindStream {
		if _, err := src.Hash(); err != nil {
			return nil, errors.Unwrap(err) // Hash names the path, Open does too
		}
	}
	if src.kind == kindDir {
		if h.Format != "auto" && h.Format != FormatTau2 {
			return nil, fmt.Errorf("a τ²-bench run directory (results.json and simulations/), but --format is %s", h.Format)
		}
		return openTau2(src, h)
	}
	r, err := src.newPass()
	if err != nil {
		return nil, err
	}
	name := h.Format
	if name == "auto" {
		max := h.MaxRecord
		if max == 0 {
			max = DefaultMaxRecord
		}
		if name, r, err = detectPrefix(r, DetectFormat, max+maxDetectSlack); err != nil {
			return nil, err
		}
	}
	r = bufio.NewReaderSize(r, 256<<10)
	if h.Progress != nil {
		r = io.TeeReader(r, h.Progress)
	}
	src.current = r
	for _, f := range Formats {
		if f.Name == name && f.Open != nil {
			return f.Open(src, h)
		}
	}
	return nil, fmt.Errorf("no format %q (formats: %s)", name, strings.Join(FormatNames(), ", "))
}

// describe builds the run of src from the three layers of metadata
// (h.Flags, content, the file name) by Resolve. The run is named by the
// flags, else the content, else base (the file name without its
// extension); the condition is none when no layer gives it. config is
// stored in runs.config beside ingest.{format, on_duplicate}.
func (h Hints) describe(o *Opened, src *Source, base string, content Metadata, config map[string]any) {
	p := src.Path
	if strings.EqualFold(filepath.Base(p), Tau2ResultsFile) {
		p = filepath.Dir(p)
	}
	fromName := MetadataFromFileName(filepath.Join(filepath.Dir(p), base+".json")) // a parent folder may name the domain
	nameLayer := fromName.Metadata()
	nameLayer.Name = base
	m := Resolve(h.Flags, content, nameLayer)
	if m.Model == "" && fromName.Note != "" && !src.isStdin() {
		o.note("%s: model unknown (correct it with `emobench runs set RUN --model M`, or give --model)", fromName.Note)
	}
	o.Run = emobench.Run{
		Name:          m.Name,
		SourceFormat:  o.Format,
		SourcePath:    absolute(src.Path, src.ModTime),
		SourceSHA256:  src.sum,
		AgentModel:    m.Model,
		AgentStrategy: m.AgentStrategy,
		UserModel:     m.UserModel,
		UserStrategy:  m.UserStrategy,
		Domain:        m.Domain,
		Condition:     cmpOr(m.Condition, emobench.ConditionNone),
		CreatedAt:     src.ModTime,
	}
	if config == nil {
		config = map[string]any{}
	}
	config["ingest"] = map[string]string{"format": o.Format, "on_duplicate": h.OnDuplicate}
	if fromName.Temperature != "" {
		config["file_name"] = map[string]string{"temperature": fromName.Temperature}
	}
	o.Run.Config, _ = json.Marshal(config)
}

// baseName is the name a run takes from its source: the file name without
// its extension, or the folder of a results.json.
func baseName(path string) string {
	if strings.EqualFold(filepath.Base(path), Tau2ResultsFile) {
		return filepath.Base(filepath.Dir(path))
	}
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// absolute returns path made absolute when it is a file on disk, so the
// stored source_path still names it from anywhere.
func absolute(path string, modTime time.Time) string {
	if modTime.IsZero() {
		return path // embedded fixture or pipe
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

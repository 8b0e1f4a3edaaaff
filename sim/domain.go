package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/emobench/emobench"
)

// DomainSpec declares a domain over its state type S: everything a domain
// package states. NewDomain turns it into a Domain; the copy-on-write
// episode state, the state hash, the deep copy the conformance suite
// compares against and the task files' decoding live here, once.
//
// S is a struct whose exported fields are each a Table (a collection tools
// read and write), a Reference (read-only data) or a plain value (bool,
// number or string: a counter), with JSON tags. NewDomain panics, naming
// the field, on any other field (a map, slice or pointer would be shared
// between episodes).
type DomainSpec[S any] struct {
	// Name is the domain's registry name ("retail").
	Name string
	// Policy is the agent's system prompt (the domain's policy.md).
	Policy string
	// Initial builds the initial state (e.g. GenerateDB(Seed)); NewDomain
	// calls it once, on first use, and freezes the result.
	Initial func() *S
	// Tools are the domain's tools in the order agents see them.
	Tools []Tool[S]
	// TransferTool names the tool that hands the user to a human.
	TransferTool string
	// Catalog returns the intent catalog Tracer generates tasks from; nil
	// for a domain without one (its Domain is then not a CatalogDomain).
	Catalog func() *Catalog
	// TaskSets are the embedded task files and how they were generated.
	TaskSets TaskSets
}

// TaskSets are a domain's embedded task files: the test split and the
// train split, with what the one generator program (tracer/gentasks, run
// by `go generate` in the domain's directory) needs to write them again
// byte for byte.
type TaskSets struct {
	Test, Train TaskSet
	// Generation are the Tracer settings both splits were generated with.
	Generation Generation
}

// TaskSet is one embedded task file.
type TaskSet struct {
	// File is the file's name in the domain's directory ("tasks.json").
	File string
	// Data is the file's content (//go:embed), decoded on first use.
	Data []byte
	// Count is the number of tasks the file holds; Seed is Tracer's seed.
	Count int
	Seed  uint64
}

// Generation are the Tracer settings a domain's task sets were generated
// with (tracer.GenerateOptions). A zero field means Tracer's default. The
// test split is generated with Tracer's test-split shares
// (GenerateOptions.MeasurePolicy); the train split excludes the test
// tasks' action sets.
type Generation struct {
	// ForbiddenShare and TransferShare are the least shares of refusal and
	// transfer tasks, in [0, 1].
	ForbiddenShare, TransferShare float64
	// SpreadIntents tries the least-kept intent of a kind first.
	SpreadIntents bool
	// IntentsDist and WalkStepsDist weight the number of intents a task
	// combines and the walk length of one intent.
	IntentsDist, WalkStepsDist []float64
}

// TaskSetDomain is a Domain declared with NewDomain: it gives its task
// sets to the generator program and a deep copy of its initial state to
// the conformance suite.
type TaskSetDomain interface {
	Domain
	// TaskSets returns the domain's embedded task files and settings.
	TaskSets() TaskSets
	// NewDeepEnvironment returns an environment over a deep copy of the
	// initial state (through its JSON), sharing nothing with any other:
	// what every episode's copy-on-write state must equal.
	NewDeepEnvironment() Environment
	// VerifyInitial returns an error when the frozen initial state has
	// changed since it was frozen: a tool changed a row it only read.
	VerifyInitial() error
}

// NewDomain returns the Domain that spec declares: a CatalogDomain when
// spec.Catalog is set, and always a TaskSetDomain. Its tasks are the test
// then the train tasks of spec.TaskSets, decoded on first use; a file
// that does not decode panics naming the domain and file (the files are
// generated and checked by the domain's tests). It panics when S is not a
// struct of Tables, References and plain values.
func NewDomain[S any](spec DomainSpec[S]) Domain {
	fields := stateFieldsOf[S]()
	d := &templateDomain[S]{spec: spec, fields: fields}
	d.initial = sync.OnceValue(func() *S {
		s := spec.Initial()
		freezeState(s, fields)
		return s
	})
	d.initialJSON = sync.OnceValue(func() []byte {
		b, err := json.Marshal(d.initial())
		if err != nil {
			panic(fmt.Sprintf("%s: initial state is not JSON-encodable: %v", spec.Name, err))
		}
		return b
	})
	test := embeddedSet(spec.Name, spec.TaskSets.Test)
	train := embeddedSet(spec.Name+" train", spec.TaskSets.Train)
	d.tasks = func() []emobench.TaskSpec { return append(test(), train()...) }
	if spec.Catalog != nil {
		return &catalogTemplateDomain[S]{d}
	}
	return d
}

func embeddedSet(name string, set TaskSet) func() []emobench.TaskSpec {
	if set.Data == nil {
		return func() []emobench.TaskSpec { return nil }
	}
	return EmbeddedTasks(name, set.Data)
}

type templateDomain[S any] struct {
	spec    DomainSpec[S]
	fields  []stateField
	initial func() *S
	// initialJSON is the frozen initial state's JSON, made once, which
	// every deep copy decodes.
	initialJSON func() []byte
	tasks       func() []emobench.TaskSpec
}

type catalogTemplateDomain[S any] struct{ *templateDomain[S] }

// Catalog returns the domain's intent catalog.
func (d *catalogTemplateDomain[S]) Catalog() *Catalog { return d.spec.Catalog() }

func (d *templateDomain[S]) Name() string               { return d.spec.Name }
func (d *templateDomain[S]) Policy() string             { return d.spec.Policy }
func (d *templateDomain[S]) Tasks() []emobench.TaskSpec { return d.tasks() }
func (d *templateDomain[S]) TransferTool() string       { return d.spec.TransferTool }
func (d *templateDomain[S]) TaskSets() TaskSets         { return d.spec.TaskSets }

// NewEnvironment returns an environment over a copy-on-write fork of the
// frozen initial state.
func (d *templateDomain[S]) NewEnvironment() Environment {
	return NewStateEnv(forkState(d.initial(), d.fields), d.spec.Tools)
}

// NewDeepEnvironment returns an environment over a deep copy of the
// initial state (see TaskSetDomain).
func (d *templateDomain[S]) NewDeepEnvironment() Environment {
	b := d.initialJSON()
	s := new(S)
	if err := json.Unmarshal(b, s); err != nil {
		panic(fmt.Sprintf("%s: initial state does not decode from its JSON: %v", d.spec.Name, err))
	}
	return NewStateEnv(s, d.spec.Tools)
}

// VerifyInitial checks every row and reference of the frozen initial
// state against the digest it was frozen with (see TaskSetDomain).
func (d *templateDomain[S]) VerifyInitial() error {
	s := reflect.ValueOf(d.initial()).Elem()
	var errs []error
	for _, f := range d.fields {
		if f.kind == plainField {
			continue
		}
		if err := s.Field(f.index).Addr().Interface().(frozenField).verify(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %s: %w", d.spec.Name, f.name, err))
		}
	}
	return errors.Join(errs...)
}

// stateField is one exported field of a state type.
type stateField struct {
	index int
	name  string // the JSON name
	kind  fieldKind
}

type fieldKind int

const (
	plainField fieldKind = iota
	tableField
	referenceField
)

// frozenField is a Table or a Reference (through its pointer).
type frozenField interface {
	sectionDigest() [32]byte
	verify() error
}

// tableFreezer and tableForker are a *Table's in-place freeze and fork.
type tableFreezer interface{ freezeInPlace() }
type tableForker interface{ forkInPlace() }
type referenceFreezer interface{ freeze() }

func (t *Table[V]) freezeInPlace() { *t = *t.freeze() }
func (t *Table[V]) forkInPlace()   { *t = t.fork() }

var stateFieldsCache sync.Map // reflect.Type → []stateField

// stateFieldsOf returns S's exported fields and their kinds, in
// declaration order; it panics on a field that is not a Table, a
// Reference or a plain value.
func stateFieldsOf[S any]() []stateField {
	typ := reflect.TypeFor[S]()
	if cached, ok := stateFieldsCache.Load(typ); ok {
		return cached.([]stateField)
	}
	if typ.Kind() != reflect.Struct {
		panic(fmt.Sprintf("sim: state type %s is not a struct", typ))
	}
	var fields []stateField
	for i := range typ.NumField() {
		sf := typ.Field(i)
		if !sf.IsExported() {
			panic(fmt.Sprintf("sim: state type %s: field %s is unexported: the state is its exported fields only", typ, sf.Name))
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			panic(fmt.Sprintf("sim: state type %s: field %s has no JSON name", typ, sf.Name))
		}
		f := stateField{index: i, name: name}
		ptr := reflect.PointerTo(sf.Type)
		switch {
		case ptr.Implements(reflect.TypeFor[tableFreezer]()):
			f.kind = tableField
		case ptr.Implements(reflect.TypeFor[referenceFreezer]()):
			f.kind = referenceField
		case isPlainKind(sf.Type.Kind()):
			f.kind = plainField
		default:
			panic(fmt.Sprintf("sim: state type %s: field %s (%s) is neither a sim.Table, a sim.Reference nor a plain value", typ, sf.Name, sf.Type))
		}
		fields = append(fields, f)
	}
	stateFieldsCache.Store(typ, fields)
	return fields
}

func isPlainKind(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return false
}

// freezeState freezes s's tables and references in place.
func freezeState[S any](s *S, fields []stateField) {
	v := reflect.ValueOf(s).Elem()
	for _, f := range fields {
		switch f.kind {
		case tableField:
			v.Field(f.index).Addr().Interface().(tableFreezer).freezeInPlace()
		case referenceField:
			v.Field(f.index).Addr().Interface().(referenceFreezer).freeze()
		}
	}
}

// forkState returns a copy-on-write fork of the frozen state s.
func forkState[S any](s *S, fields []stateField) *S {
	out := *s
	v := reflect.ValueOf(&out).Elem()
	for _, f := range fields {
		if f.kind == tableField {
			v.Field(f.index).Addr().Interface().(tableForker).forkInPlace()
		}
	}
	return &out
}

// CopyState returns a copy of a template state s (see DomainSpec) that
// shares nothing changeable with it: each Table's snapshot rows are
// shared (no one changes them), the rows s wrote are copied. It costs
// O(rows s wrote), so a test or a generator may copy a state in the
// middle of an episode to try a call on the copy.
func CopyState[S any](s *S) *S { return forkState(s, stateFieldsOf[S]()) }

// HashState returns the hex sha256 of a template state (see DomainSpec):
// over each field's JSON name and, for a Table, the digest of its rows
// (Table.sectionDigest), for a Reference the digest of its data, and for a
// plain value the sha256 of its JSON. Equal states give equal hashes,
// whether forked or deep-copied.
func HashState[S any](s *S) string {
	fields := stateFieldsOf[S]()
	v := reflect.ValueOf(s).Elem()
	h := sha256.New()
	for _, f := range fields {
		writeLengthPrefixed(h, f.name)
		var d [32]byte
		if f.kind == plainField {
			b, err := json.Marshal(v.Field(f.index).Interface())
			if err != nil {
				panic(fmt.Sprintf("sim: state field %s is not JSON-encodable: %v", f.name, err))
			}
			d = sha256.Sum256(b)
		} else {
			d = v.Field(f.index).Addr().Interface().(frozenField).sectionDigest()
		}
		h.Write(d[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// isTemplateState reports whether S is a state type NewDomain accepts
// with at least one Table or Reference (StateEnv.Hash then uses
// HashState).
func isTemplateState[S any]() bool {
	typ := reflect.TypeFor[S]()
	if known, ok := templateStateCache.Load(typ); ok {
		return known.(bool)
	}
	ok := typ.Kind() == reflect.Struct && func() (ok bool) {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		return slices.ContainsFunc(stateFieldsOf[S](), func(f stateField) bool { return f.kind != plainField })
	}()
	templateStateCache.Store(typ, ok)
	return ok
}

var templateStateCache sync.Map // reflect.Type → bool

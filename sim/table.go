package sim

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"
	"iter"
	"maps"
	"slices"
)

// Table is one collection of a domain's state (users, orders, flights, …):
// entities of type V keyed by id, read and written only through its
// methods so that the episode clone and the state hash are right by
// construction. A domain's state type is a struct of Tables (one field per
// collection, with a JSON tag), References (read-only data) and plain
// values (counters); NewDomain freezes the initial state and gives every
// episode a copy-on-write fork of it.
//
// A fork shares every row with the frozen snapshot until a tool takes the
// row for writing (Edit), which copies it first; so making an episode's
// state costs nothing per row, and hashing it encodes only the rows that
// changed. Get and All return rows that must not be changed: a tool that
// changes a row calls Edit (or Put) first. The conformance suite
// (sim/domaintest) runs every task on a fork and on a deep copy and checks
// that the snapshot is unchanged, which catches a row changed through Get.
//
// The zero Table is empty and ready to use. Its JSON encoding is an
// object keyed by id, with the keys sorted, as encoding/json writes a map.
// A Table is not safe for concurrent writes; forks of one snapshot may be
// used concurrently.
type Table[V any] struct {
	// base is the frozen snapshot this table forks (nil: none).
	base *frozenRows[V]
	// own holds the rows this table wrote since base: a changed or added
	// row, or nil for a deleted one. Without base, own holds every row.
	own map[string]*V
	// count is the number of rows.
	count int
}

// frozenRows is a Table frozen by NewDomain: rows that no one changes,
// their sorted keys and the sha256 of each row's JSON (of its StateForm
// when the row is a StateFormer), and the section digest of the whole.
type frozenRows[V any] struct {
	rows    map[string]*V
	keys    []string
	digests map[string][32]byte
	sum     [32]byte
}

// NewTable returns a table of rows, keyed by id (kept, not copied: the
// caller must not change them afterwards except through the table). A nil
// row panics, as Put does.
func NewTable[V any](rows map[string]*V) Table[V] {
	var t Table[V]
	for _, id := range slices.Sorted(maps.Keys(rows)) {
		t.Put(id, rows[id])
	}
	return t
}

// Len returns the number of rows.
func (t *Table[V]) Len() int { return t.count }

// Get returns the row of id for reading, and whether there is one. The
// row must not be changed: call Edit to change it.
func (t *Table[V]) Get(id string) (*V, bool) {
	if v, ok := t.own[id]; ok {
		return v, v != nil
	}
	if t.base != nil {
		v, ok := t.base.rows[id]
		return v, ok
	}
	return nil, false
}

// At returns the row of id for reading, nil when there is none (Get
// without the ok, for code that reads a field of a row it knows exists or
// tests for nil). The row must not be changed.
func (t *Table[V]) At(id string) *V {
	v, _ := t.Get(id)
	return v
}

// Has reports whether the table has a row of id.
func (t *Table[V]) Has(id string) bool {
	_, ok := t.Get(id)
	return ok
}

// Edit returns the row of id for changing, and whether there is one: on a
// fork, a deep copy of the snapshot's row made the first time (through the
// row's JSON encoding, which is the state), the table's own row after.
func (t *Table[V]) Edit(id string) (*V, bool) {
	if v, ok := t.own[id]; ok {
		return v, v != nil
	}
	if t.base == nil {
		return nil, false
	}
	v, ok := t.base.rows[id]
	if !ok {
		return nil, false
	}
	c := deepCopy(v)
	t.setOwn(id, c)
	return c, true
}

// Put sets the row of id to v (adding it or replacing the old one). The
// table keeps v: the caller must not change it afterwards except through
// Edit.
func (t *Table[V]) Put(id string, v *V) {
	if v == nil {
		panic(fmt.Sprintf("sim: Table.Put(%q, nil): use Delete", id))
	}
	if !t.Has(id) {
		t.count++
	}
	t.setOwn(id, v)
}

// Delete removes the row of id; it does nothing when there is none.
func (t *Table[V]) Delete(id string) {
	if !t.Has(id) {
		return
	}
	t.count--
	if t.base != nil {
		if _, inBase := t.base.rows[id]; inBase {
			t.setOwn(id, nil)
			return
		}
	}
	delete(t.own, id)
}

func (t *Table[V]) setOwn(id string, v *V) {
	if t.own == nil {
		t.own = map[string]*V{}
	}
	t.own[id] = v
}

// Keys returns the ids in increasing order, in a new slice.
func (t *Table[V]) Keys() []string {
	if len(t.own) == 0 {
		if t.base == nil {
			return []string{}
		}
		return slices.Clone(t.base.keys)
	}
	keys := make([]string, 0, t.count)
	if t.base != nil {
		for _, k := range t.base.keys {
			if v, ok := t.own[k]; !ok || v != nil {
				keys = append(keys, k)
			}
		}
	}
	added := false
	for k, v := range t.own {
		if v == nil {
			continue
		}
		if t.base != nil {
			if _, inBase := t.base.rows[k]; inBase {
				continue
			}
		}
		keys, added = append(keys, k), true
	}
	if added {
		slices.Sort(keys)
	}
	return keys
}

// All yields every row in increasing order of id, for reading only (see
// Get).
func (t *Table[V]) All() iter.Seq2[string, *V] {
	return func(yield func(string, *V) bool) {
		for _, k := range t.Keys() {
			v, _ := t.Get(k)
			if !yield(k, v) {
				return
			}
		}
	}
}

// MarshalJSON encodes the table as a JSON object keyed by id, keys sorted.
func (t Table[V]) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range t.Keys() {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		v, _ := t.Get(k)
		vb, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("row %q: %w", k, err)
		}
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON decodes a JSON object keyed by id into a table of its own
// rows (no snapshot). A null row is an error.
func (t *Table[V]) UnmarshalJSON(b []byte) error {
	var rows map[string]*V
	if err := json.Unmarshal(b, &rows); err != nil {
		return err
	}
	for k, v := range rows {
		if v == nil {
			return fmt.Errorf("row %q is null", k)
		}
	}
	*t = Table[V]{own: rows, count: len(rows)}
	return nil
}

// freeze returns a table over a frozen snapshot of t's rows: t's rows are
// kept, not copied, and must not be changed afterwards.
func (t *Table[V]) freeze() *Table[V] {
	rows := make(map[string]*V, t.count)
	for k, v := range t.All() {
		rows[k] = v
	}
	f := &frozenRows[V]{rows: rows, keys: slices.Sorted(maps.Keys(rows)), digests: EntityDigests(rows)}
	f.sum = sectionSum(f.keys, func(k string) [32]byte { return f.digests[k] })
	return &Table[V]{base: f, count: len(rows)}
}

// fork returns a copy-on-write table over t's snapshot and t's own rows
// (copied only as a map of pointers: rows are copied on Edit).
func (t *Table[V]) fork() Table[V] {
	out := Table[V]{base: t.base, count: t.count}
	if len(t.own) > 0 {
		// A fork of a table with rows of its own would share them; copy
		// each, so neither sees the other's writes.
		out.own = make(map[string]*V, len(t.own))
		for k, v := range t.own {
			if v != nil {
				v = deepCopy(v)
			}
			out.own[k] = v
		}
	}
	return out
}

// sectionDigest returns the sha256 of the table's rows: over each id in
// increasing order and the sha256 of its row's JSON (see frozenRows). A
// fork that wrote nothing returns its snapshot's, made once; otherwise
// only the rows it wrote are encoded. A deep copy with the same rows
// gives the same digest.
func (t *Table[V]) sectionDigest() [32]byte {
	if len(t.own) == 0 && t.base != nil {
		return t.base.sum
	}
	return sectionSum(t.Keys(), func(k string) [32]byte {
		if v, ok := t.own[k]; ok {
			return entityDigest(v)
		}
		return t.base.digests[k]
	})
}

// verify reports the first snapshot row whose JSON no longer has the
// digest it was frozen with: a row changed through Get.
func (t *Table[V]) verify() error {
	if t.base == nil {
		return nil
	}
	for _, k := range t.base.keys {
		if entityDigest(t.base.rows[k]) != t.base.digests[k] {
			return fmt.Errorf("row %q of the initial state was changed in place (a tool changed a row it read with Get instead of Edit)", k)
		}
	}
	return nil
}

func sectionSum(keys []string, digest func(string) [32]byte) [32]byte {
	h := sha256.New()
	writeCount(h, len(keys))
	for _, k := range keys {
		writeLengthPrefixed(h, k)
		d := digest(k)
		h.Write(d[:])
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

func writeCount(h hash.Hash, n int) {
	var b [8]byte
	for i := range b {
		b[7-i] = byte(uint64(n) >> (8 * i))
	}
	h.Write(b[:])
}

// deepCopy returns a copy of v that shares nothing with it, through v's
// JSON encoding (which is the state: a field JSON leaves out is not part
// of it). It panics when v does not round-trip, a bug in the domain's
// types.
func deepCopy[V any](v *V) *V {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("sim: state row is not JSON-encodable: %v", err))
	}
	out := new(V)
	if err := json.Unmarshal(b, out); err != nil {
		panic(fmt.Sprintf("sim: state row does not decode from its JSON: %v", err))
	}
	return out
}

// Reference is read-only data of a domain's state (a drug interaction
// list, a fare table): shared by every episode, hashed once. No tool may
// change it; the conformance suite checks that none does.
type Reference[T any] struct {
	v      *T
	digest *[32]byte
}

// NewReference returns a Reference to v, which must not be changed
// afterwards.
func NewReference[T any](v *T) Reference[T] { return Reference[T]{v: v} }

// Get returns the data, for reading only; nil for the zero Reference.
func (r Reference[T]) Get() *T { return r.v }

// MarshalJSON encodes the data (null for the zero Reference).
func (r Reference[T]) MarshalJSON() ([]byte, error) { return json.Marshal(r.v) }

// UnmarshalJSON decodes the data.
func (r *Reference[T]) UnmarshalJSON(b []byte) error {
	var v *T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = Reference[T]{v: v}
	return nil
}

func (r *Reference[T]) freeze() {
	d := entityDigest(r.v)
	r.digest = &d
}

func (r *Reference[T]) sectionDigest() [32]byte {
	if r.digest != nil {
		return *r.digest
	}
	return entityDigest(r.v)
}

func (r *Reference[T]) verify() error {
	if r.digest != nil && entityDigest(r.v) != *r.digest {
		return fmt.Errorf("reference data was changed in place")
	}
	return nil
}

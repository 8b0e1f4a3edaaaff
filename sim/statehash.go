package sim

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash"
	"maps"
	"slices"
	"strings"
)

// HashSection writes one collection of a domain's state to h: its name,
// its size and, in key order, each key and the sha256 of the entity's
// JSON (of its StateForm when it is a StateFormer). An entity equal (by equal) to the same key's entity in base takes
// its digest from baseDigests instead of being encoded again, so hashing a
// state costs O(changed entities) encodings; baseKeys are base's keys in
// increasing order. It panics when an entity cannot be encoded as JSON, a
// bug in the domain's types.
func HashSection[V any](h hash.Hash, name string, cur, base map[string]V, baseDigests map[string][32]byte, baseKeys []string, equal func(a, b V) bool) {
	writeLengthPrefixed(h, name)
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(cur)))
	h.Write(n[:])
	keys := baseKeys
	if !sameKeys(cur, base) {
		keys = slices.Sorted(maps.Keys(cur))
	}
	for _, k := range keys {
		writeLengthPrefixed(h, k)
		d, ok := baseDigests[k]
		if b, inBase := base[k]; !ok || !inBase || !equal(cur[k], b) {
			d = entityDigest(cur[k])
		}
		h.Write(d[:])
	}
}

// SamePointerOr is equal with a shortcut for HashSection over maps of
// pointers: a and b are equal when they are the same entity, as in a
// copy-on-write clone, which shares the entities no tool took with the
// snapshot it was cloned from.
func SamePointerOr[T any](equal func(a, b *T) bool) func(a, b *T) bool {
	return func(a, b *T) bool { return a == b || equal(a, b) }
}

// EntityDigests returns the sha256 of each entity's JSON by key: the
// baseDigests of HashSection.
func EntityDigests[V any](m map[string]V) map[string][32]byte {
	out := make(map[string][32]byte, len(m))
	for k, v := range m {
		out[k] = entityDigest(v)
	}
	return out
}

// sameKeys reports whether a and b have the same keys.
func sameKeys[V any](a, b map[string]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

func writeLengthPrefixed(h hash.Hash, s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	h.Write([]byte(s))
}

// StateFormer is an entity whose state hash is taken over a canonical form
// of it rather than over itself: HashSection and EntityDigests digest the
// JSON of StateForm() instead. A domain's hash.go gives its entities one
// so that states differing only in what should not decide a task hash
// alike: free-text fields (a cancellation or appointment reason, a
// ticket's notes) through NormalizeFreeText, and lists that are sets (a
// reservation's passengers and payments, an order's items) through
// AsSet. StateForm must not change the entity, and must keep every
// field that matters: two entities with equal forms are the same state.
type StateFormer interface {
	StateForm() any
}

// AsSet returns a sorted copy of s, ordered by each element's JSON, for a
// StateForm: a list whose order does not matter hashes as a multiset. A
// nil s stays nil and an empty one empty, as JSON tells them apart. It
// panics when an element cannot be encoded as JSON, as HashSection does.
func AsSet[T any](s []T) []T {
	if len(s) < 2 {
		return s
	}
	type keyed struct {
		key string
		v   T
	}
	ks := make([]keyed, len(s))
	for i, v := range s {
		b, err := json.Marshal(v)
		if err != nil {
			panic(fmt.Sprintf("state is not JSON-encodable: %v", err))
		}
		ks[i] = keyed{string(b), v}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	out := make([]T, len(s))
	for i, k := range ks {
		out[i] = k.v
	}
	return out
}

func entityDigest(v any) [32]byte {
	if f, ok := v.(StateFormer); ok {
		v = f.StateForm()
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("state is not JSON-encodable: %v", err))
	}
	return sha256.Sum256(b)
}

package sim

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash"
	"slices"
	"strings"
)

// EntityDigests returns the sha256 of each entity's JSON (of its
// StateForm when it is a StateFormer) by key: a frozen Table's digests.
func EntityDigests[V any](m map[string]V) map[string][32]byte {
	out := make(map[string][32]byte, len(m))
	for k, v := range m {
		out[k] = entityDigest(v)
	}
	return out
}

func writeLengthPrefixed(h hash.Hash, s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	h.Write([]byte(s))
}

// StateFormer is an entity whose state hash is taken over a canonical form
// of it rather than over itself: a Table's row digests are over the
// JSON of StateForm() instead. A domain gives its row types one (in state.go)
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
// panics when an element cannot be encoded as JSON, as a row digest does.
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

package sim_test

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"testing"

	"github.com/emobench/emobench/sim"
)

// A section hashed with base digests equals one hashed from scratch, and
// a changed, added or removed entity changes it.
func TestHashSection(t *testing.T) {
	t.Parallel()
	base := map[string]int{"a": 1, "b": 2, "c": 3}
	digests, keys := sim.EntityDigests(base), slices.Sorted(maps.Keys(base))
	hashOf := func(cur map[string]int, withBase bool) string {
		h := sha256.New()
		b, d, k := base, digests, keys
		if !withBase {
			b, d, k = nil, nil, nil
		}
		sim.HashSection(h, "things", cur, b, d, k, func(x, y int) bool { return x == y })
		return hex.EncodeToString(h.Sum(nil))
	}
	same := hashOf(maps.Clone(base), true)
	if fresh := hashOf(maps.Clone(base), false); same != fresh {
		t.Fatalf("with base digests %s, from scratch %s", same, fresh)
	}
	for name, cur := range map[string]map[string]int{
		"changed": {"a": 1, "b": 5, "c": 3},
		"added":   {"a": 1, "b": 2, "c": 3, "d": 4},
		"removed": {"a": 1, "b": 2},
	} {
		got := hashOf(cur, true)
		if got == same {
			t.Errorf("%s: hash unchanged", name)
		}
		if fresh := hashOf(cur, false); got != fresh {
			t.Errorf("%s: with base digests %s, from scratch %s", name, got, fresh)
		}
	}
}

func TestSamePointerOr(t *testing.T) {
	t.Parallel()
	calls := 0
	never := func(a, b *int) bool { calls++; return false }
	x, y := 1, 1
	if eq := sim.SamePointerOr(never); !eq(&x, &x) || calls != 0 {
		t.Fatalf("same pointer: want equal without calling equal (calls %d)", calls)
	}
	if eq := sim.SamePointerOr(never); eq(&x, &y) || calls != 1 {
		t.Fatalf("different pointers: want equal's answer (calls %d)", calls)
	}
}

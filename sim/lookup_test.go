package sim

import "testing"

// TestLookup checks that a lookup finds a row for reading or changing,
// and names what it looked for and the id when there is none.
func TestLookup(t *testing.T) {
	type row struct{ N int }
	tab := NewTable(map[string]*row{"a": {N: 1}})
	if v, err := Lookup(&tab, "order", "a"); err != nil || v.N != 1 {
		t.Errorf("Lookup(a) = %v, %v; want row 1", v, err)
	}
	v, err := LookupEdit(&tab, "order", "a")
	if err != nil {
		t.Fatal(err)
	}
	v.N = 2
	if got := tab.At("a").N; got != 2 {
		t.Errorf("after LookupEdit, row a holds %d, want 2", got)
	}
	for _, lookup := range []func(*Table[row], string, string) (*row, error){Lookup[row], LookupEdit[row]} {
		if _, err := lookup(&tab, "order", "zz"); err == nil || err.Error() != `order "zz" not found` {
			t.Errorf("lookup(zz) error = %v, want order \"zz\" not found", err)
		}
	}
}

package sim_test

import (
	"slices"
	"testing"

	"github.com/emobench/emobench/sim"
)

// Every leaf the user simulator plays is a state of its family in the Atlas.
func TestTaxonomyWithinAtlas(t *testing.T) {
	for _, f := range sim.Taxonomy.Families {
		for _, leaf := range f.Leaves {
			if !slices.Contains(sim.AtlasStates[f.Name], leaf) {
				t.Errorf("%s/%s is not an Atlas state of %s", f.Name, leaf, f.Name)
			}
			if got := sim.AtlasFamilyOf(leaf); got != f.Name {
				t.Errorf("AtlasFamilyOf(%q) = %q, want %q", leaf, got, f.Name)
			}
		}
	}
	if got := sim.AtlasFamilyOf("Fury"); got != "anger" {
		t.Errorf("AtlasFamilyOf(Fury) = %q, want anger", got)
	}
	if got := sim.AtlasFamilyOf("boredom"); got != "" {
		t.Errorf("AtlasFamilyOf(boredom) = %q, want none", got)
	}
}

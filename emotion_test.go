package emobench_test

import (
	"slices"
	"testing"

	"github.com/emobench/emobench"
)

// Every leaf the user simulator plays is a state of its family in the Atlas.
func TestTaxonomyWithinAtlas(t *testing.T) {
	for _, f := range emobench.Taxonomy.Families {
		for _, leaf := range f.Leaves {
			if !slices.Contains(emobench.AtlasStates[f.Name], leaf) {
				t.Errorf("%s/%s is not an Atlas state of %s", f.Name, leaf, f.Name)
			}
			if got := emobench.AtlasFamilyOf(leaf); got != f.Name {
				t.Errorf("AtlasFamilyOf(%q) = %q, want %q", leaf, got, f.Name)
			}
		}
	}
	if got := emobench.AtlasFamilyOf("Fury"); got != "anger" {
		t.Errorf("AtlasFamilyOf(Fury) = %q, want anger", got)
	}
	if got := emobench.AtlasFamilyOf("boredom"); got != "" {
		t.Errorf("AtlasFamilyOf(boredom) = %q, want none", got)
	}
}

// The one list of dimensions and group fields, in the order tables use.
func TestDimensionsAndGroupFields(t *testing.T) {
	if got, want := emobench.EmotionDimensions, []string{"emotion_family", "emotion_leaf", "politeness", "urgency", "trust"}; !slices.Equal(got, want) {
		t.Errorf("EmotionDimensions = %q, want %q", got, want)
	}
	if got, want := emobench.GroupFields, []string{"domain", "agent_model", "user_model", "condition", "emotion_family", "emotion_leaf", "politeness", "urgency", "trust"}; !slices.Equal(got, want) {
		t.Errorf("GroupFields = %q, want %q", got, want)
	}
	if cap(emobench.EmotionDimensions) != len(emobench.EmotionDimensions) || cap(emobench.GroupFields) != len(emobench.GroupFields) {
		t.Error("a shared list has spare capacity: an append to it would write into it")
	}
	for _, d := range emobench.ProfileDimensions {
		if len(emobench.Taxonomy.Dimensions[d]) != 3 {
			t.Errorf("Taxonomy has no three values of %s: %q", d, emobench.Taxonomy.Dimensions[d])
		}
	}
	if f, ok := emobench.FindFamily("fear"); !ok || f.Leaves[0] != "nervousness" || !emobench.NegativeFamily("fear") || emobench.NegativeFamily("enjoyment") || emobench.NegativeFamily("") {
		t.Errorf("FindFamily(fear) = %+v, %v; or NegativeFamily wrong", f, ok)
	}
}

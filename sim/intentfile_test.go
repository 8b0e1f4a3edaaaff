package sim

import (
	"strings"
	"testing"
)

// TestReadIntents checks that an intents file's intents come in its
// order with their grounders, and that each malformed file is an error
// naming what is wrong.
func TestReadIntents(t *testing.T) {
	g := func(GroundContext) (Grounding, bool) { return Grounding{}, true }
	ok := `[{"name": "a", "kind": "write", "note": "why", "path": ["x", "y"], "templates": ["t {s}"]},
		{"name": "b", "kind": "read", "path": ["x"], "families": ["anger"], "templates": ["u"]}]`
	got, err := ReadIntents([]byte(ok), map[string]Grounder{"a": g, "b": g})
	if err != nil || len(got) != 2 || got[0].Name != "a" || got[0].Kind != IntentWrite || len(got[0].Path) != 2 || got[0].Templates[0] != "t {s}" ||
		got[0].Families != nil || got[1].Families[0] != "anger" || got[1].Ground == nil {
		t.Fatalf("ReadIntents = %+v, %v", got, err)
	}
	for _, c := range []struct{ data, want string }{
		{`[{"name": "a", "kind": "write", "path": [], "templates": [], "extra": 1}]`, "unknown field"},
		{`[{"name": "a", "kind": "wish", "path": [], "templates": []}]`, `unknown kind "wish"`},
		{`[{"name": "a", "kind": "write"}, {"name": "a", "kind": "write"}]`, `"a" declared twice`},
		{`[{"name": "c", "kind": "write"}]`, `"c" has no grounder`},
		{`[{"name": "a", "kind": "write"}]`, `grounder "b" has no intent`},
		{`{}`, "intents file"},
	} {
		if _, err := ReadIntents([]byte(c.data), map[string]Grounder{"a": g, "b": g}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadIntents(%s): %v, want an error holding %q", c.data, err, c.want)
		}
	}
}

package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// intentDecl is an intent as an intents file declares it: all of Intent
// but its grounder, plus a note for the reader.
type intentDecl struct {
	Name      string     `json:"name"`
	Kind      IntentKind `json:"kind"`
	Note      string     `json:"note,omitempty"` // why the intent is as it is; not read
	Path      []string   `json:"path"`
	Families  []string   `json:"families,omitempty"`
	Templates []string   `json:"templates"`
}

// Grounder is an Intent's Ground function.
type Grounder = func(GroundContext) (Grounding, bool)

// ReadIntents returns the intents an intents file declares, in its order,
// each with the grounder of its name in ground. The file (data) is a JSON
// array of objects with the fields name, kind, path, templates, and
// optionally families (nil: all five) and note (prose for the reader). It
// keeps a catalog's wording, which is data, apart from its grounders,
// which are code. An unknown field, a kind that is none of the four, a
// name given twice, an intent without a grounder and a grounder without
// an intent are errors.
func ReadIntents(data []byte, ground map[string]Grounder) ([]Intent, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var decls []intentDecl
	if err := dec.Decode(&decls); err != nil {
		return nil, fmt.Errorf("intents file: %w", err)
	}
	out := make([]Intent, 0, len(decls))
	seen := map[string]bool{}
	for _, d := range decls {
		switch {
		case seen[d.Name]:
			return nil, fmt.Errorf("intents file: intent %q declared twice", d.Name)
		case d.Kind != IntentWrite && d.Kind != IntentRead && d.Kind != IntentForbidden && d.Kind != IntentTransfer:
			return nil, fmt.Errorf("intents file: intent %q: unknown kind %q", d.Name, d.Kind)
		case ground[d.Name] == nil:
			return nil, fmt.Errorf("intents file: intent %q has no grounder", d.Name)
		}
		seen[d.Name] = true
		out = append(out, Intent{Name: d.Name, Kind: d.Kind, Path: d.Path, Families: d.Families, Templates: d.Templates, Ground: ground[d.Name]})
	}
	for _, name := range slices.Sorted(maps.Keys(ground)) {
		if !seen[name] {
			return nil, fmt.Errorf("intents file: grounder %q has no intent", name)
		}
	}
	return out, nil
}

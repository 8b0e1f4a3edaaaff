package emobench

import "fmt"

// MaxJSONDepth is the deepest nesting of arrays and objects the store
// takes in one JSON column: SQLite's json_valid refuses JSON nested deeper
// (its JSON_MAX_DEPTH), while Go's decoder takes up to 10,000 levels.
const MaxJSONDepth = 1000

// MaxToolArgumentsDepth is the deepest nesting of a tool call's arguments
// the store takes: a message keeps its calls in an array of objects, two
// levels above the arguments. Deeper arguments are malformed (kept as the
// raw text, ToolCall.ArgumentsMalformed set).
const MaxToolArgumentsDepth = MaxJSONDepth - 2

// JSONDepth returns the deepest nesting of arrays and objects in raw: 0
// for a scalar, 1 for {} or [1, 2], 2 for {"a": []}. Brackets inside
// strings do not count. It does not check that raw is JSON; for text that
// is not, the count is of its brackets outside strings.
func JSONDepth(raw []byte) int {
	deepest := 0
	WalkJSONStructure(raw, func(c byte, depth int) {
		if c == '[' || c == '{' {
			deepest = max(deepest, depth)
		}
	})
	return deepest
}

// WalkJSONStructure calls visit with every byte of raw that lies outside
// JSON strings (quotes and escapes understood), and the nesting depth of
// arrays and objects once that byte is read: 1 for the opening '[' of a
// top-level array and for a comma between its elements, 0 for its ']'.
// raw is not checked to be JSON.
func WalkJSONStructure(raw []byte, visit func(c byte, depth int)) {
	depth := 0
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		case c == '"':
			inString = true
			continue
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		}
		visit(c, depth)
	}
}

// CheckJSONDepth returns an error naming field when raw is nested deeper
// than limit (JSONDepth): "field info.reward_info is nested 1500 deep; at
// most 1000". It returns nil otherwise.
func CheckJSONDepth(field string, raw []byte, limit int) error {
	if d := JSONDepth(raw); d > limit {
		return fmt.Errorf("field %s is nested %d deep; at most %d", field, d, limit)
	}
	return nil
}

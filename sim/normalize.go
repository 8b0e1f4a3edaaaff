package sim

import (
	"strings"
	"unicode"
)

// articles are the words NormalizeFreeText drops.
var articles = map[string]bool{"a": true, "an": true, "the": true}

// NormalizeFreeText returns the form in which a free-text field (a
// cancellation or appointment reason, a note) enters a state hash or a
// comparison: lowercased, punctuation turned into spaces, the articles a,
// an and the dropped, and runs of space collapsed, so that "Schedule
// change" and "a schedule change." are equal. Digits and letters of any
// script are kept.
func NormalizeFreeText(s string) string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	kept := words[:0]
	for _, w := range words {
		if !articles[w] {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

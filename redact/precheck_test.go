package redact

import (
	"slices"
	"strings"
	"testing"
)

// The pre-checks skip a costly search only where it cannot find anything.
func TestMayHoldQuotedName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		q    byte
		want bool
	}{
		{`{"Mechanical Keyboard": "1656367028", "note": "keys"}`, '"', false},
		{`{"item": "keyboard", "api_key": "sk-1"}`, '"', true},
		{`{'api_key' :  'x'}`, '\'', true},
		{`{'api_key': 'x'}`, '"', false},
		{`"api_key" "x"`, '"', false},             // no colon
		{`"api_key": 12`, '"', false},             // the value is not quoted
		{`"my\api_key": "x"`, '"', false},         // a name holds no backslash
		{`"my\"api_key": "x"`, '"', true},         // the regular expression knows no escapes
		{"\"api_\u212aey\": \"x\"", '"', true},    // Kelvin sign: lower-cases to k
		{"\"credent\u0130al\": \"x\"", '"', true}, // dotted capital I: lower-cases to i
	} {
		if got := mayHoldQuotedName(tc.in, tc.q, true); got != tc.want {
			t.Errorf("mayHoldQuotedName(%q, %q) = %v, want %v", tc.in, tc.q, got, tc.want)
		}
	}
}

func TestMayHoldSpacedName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		"api_key = x":                      true,
		"Received API Key = x":             true,
		"api_key value: x":                 true, // a two-word name
		"Incorrect API key provided: sk-1": true,
		"the keyboard is here: yes":        false, // "is" is a third word
		"Mechanical Keyboard\t: 3":         true,
		"tokens  left, then: 3":            false,
		"no hint here = 3":                 false,
		"api_\u212aey = x":                 true,
	} {
		if got := mayHoldSpacedName(in, true); got != want {
			t.Errorf("mayHoldSpacedName(%q) = %v, want %v", in, got, want)
		}
	}
}

// A name that only Unicode lower-casing makes a credential's is still found
// once some ASCII hint let the text in.
func TestText_FoldedName(t *testing.T) {
	t.Parallel()
	in := "{\"token_usage\": 1, \"api_\u212aey\": \"LEAK\"}"
	if got, want := Text(in), "{\"token_usage\": 1, \"api_\u212aey\": \"[redacted]\"}"; got != want {
		t.Errorf("Text(%q) = %q, want %q", in, got, want)
	}
}

func TestHintSet(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]uint64{
		"":                       0,
		"plain words":            0,
		"Bearer x, TOKEN y":      hintBearer | hintToken,
		"?code=1 and the key":    hintCode | 1<<0,
		"sk-abc hf_x":            1<<providerHints | 1<<(providerHints+10),
		"passphrase, pwd, auths": 1<<3 | 1<<4 | 1<<5,
		"task_id, risk_level":    0, // no provider hint in "sk_"
	} {
		if got := hintSet(in); got != want {
			t.Errorf("hintSet(%q) = %b, want %b", in, got, want)
		}
	}
}

// TestProviderKeyPrefixes checks mayHoldProviderKey against providerKey's
// pattern: each of its alternatives begins, after \b, with literal text
// (or a choice among a few literals) that holds one of
// providerKeyPrefixes at its start, so no text without them can match.
func TestProviderKeyPrefixes(t *testing.T) {
	t.Parallel()
	alts := splitTopLevel(providerKey().String())
	if len(alts) < 15 {
		t.Fatalf("providerKey has %d alternatives, want its formats (15 or more)", len(alts))
	}
	for _, alt := range alts {
		starts := literalStarts(alt)
		if len(starts) == 0 {
			t.Errorf("alternative %q begins with no literal text", alt)
		}
		for _, lit := range starts {
			if !slices.ContainsFunc(providerKeyPrefixes, func(p string) bool { return strings.HasPrefix(lit, p) }) {
				t.Errorf("alternative %q may begin %q, which starts with none of providerKeyPrefixes", alt, lit)
			}
		}
	}
	for in, want := range map[string]bool{
		"travel to Asia with basic hooks":   false,
		"key AKIAIOSFODNN7EXAMPLE":          true,
		"sk-proj-abc":                       true,
		"rk_live_x":                         true,
		"ghs_x":                             true,
		"through the high ghost":            false,
		"token eyj lower-case is not a jwt": false,
	} {
		if got := mayHoldProviderKey(in); got != want {
			t.Errorf("mayHoldProviderKey(%q) = %v, want %v", in, got, want)
		}
		if !mayHoldProviderKey(in) && providerKey().MatchString(in) {
			t.Errorf("providerKey matches %q, which mayHoldProviderKey skips", in)
		}
	}
}

// splitTopLevel splits a pattern at the | outside groups and classes.
func splitTopLevel(re string) []string {
	var out []string
	depth, class, start := 0, false, 0
	for i := 0; i < len(re); i++ {
		switch c := re[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			out = append(out, re[start:i])
			start = i + 1
		}
	}
	return append(out, re[start:])
}

// literalStarts returns the texts an alternative's match must begin with:
// its literal characters after \b, expanding a class of single characters
// ([rs]) or a group of literals ((?:AKIA|ASIA)) not followed by a
// quantifier, up to the first other element.
func literalStarts(alt string) []string {
	starts := []string{""}
	extend := func(choices []string) {
		var next []string
		for _, s := range starts {
			for _, c := range choices {
				next = append(next, s+c)
			}
		}
		starts = next
	}
	quantified := func(j int) bool { return j < len(alt) && strings.IndexByte("*+?{", alt[j]) >= 0 }
	isLit := func(c byte) bool { return c == '_' || c == '-' || c >= '0' && c <= '9' || isASCIILetter(c) }
	for i := 0; i < len(alt); {
		switch {
		case strings.HasPrefix(alt[i:], `\b`):
			i += 2
		case strings.HasPrefix(alt[i:], `\.`) && !quantified(i+2):
			extend([]string{"."})
			i += 2
		case isLit(alt[i]) && !quantified(i+1):
			extend([]string{alt[i : i+1]})
			i++
		case alt[i] == '[':
			end := strings.IndexByte(alt[i:], ']') + i
			body := alt[i+1 : end]
			if strings.ContainsAny(body, `-\^`) || quantified(end+1) {
				return nonEmpty(starts)
			}
			extend(strings.Split(body, ""))
			i = end + 1
		case strings.HasPrefix(alt[i:], "(?:"):
			end := strings.IndexByte(alt[i:], ')') + i
			group := splitTopLevel(alt[i+3 : end])
			for _, g := range group {
				for j := 0; j < len(g); j++ {
					if !isLit(g[j]) {
						return nonEmpty(starts)
					}
				}
			}
			if quantified(end + 1) {
				return nonEmpty(starts)
			}
			extend(group)
			i = end + 1
		default:
			return nonEmpty(starts)
		}
	}
	return nonEmpty(starts)
}

func nonEmpty(starts []string) []string {
	if starts[0] == "" {
		return nil
	}
	return starts
}

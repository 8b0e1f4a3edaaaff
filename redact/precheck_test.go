package redact

import "testing"

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

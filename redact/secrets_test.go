package redact_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/emobench/emobench/redact"
)

func TestRedactSecrets(t *testing.T) {
	t.Parallel()
	in := `{"agent_info":{"llm":"gpt-4.1","llm_args":{"api_key":"sk-live-123","temperature":0.10,"max_tokens":4096,"eos_token":"</s>",
		"aws_secret_access_key":"S1","aws_access_key_id":"S2","aws_session_token":"S3","azure_ad_token":"S4","vertex_credentials":{"k":"S5"},
		"api_token":"S6","github_token":"S7","azure_openai_key":"S8","private_key":"S9","db_password":"S10","passwd":"S11",
		"accessToken":"S12","clientSecret":"S13","api_keys":["S14"],"openai_api_key":{"value":"S15"},
		"api_base":"https://user:S16@host.example/v1?api-key=S17&region=eu","rate_limit_tokens":100,"task_key":"t1"}},
		"user_info":{"llm_args":{"OPENAI-API-KEY":"sk-2","headers":[{"Authorization":"Bearer x","Ocp-Apim-Subscription-Key":"S18","Cookie":"S19"}],"token":""}},"seed":300}`
	out, paths := redact.Secrets(json.RawMessage(in))
	for i := 1; i <= 19; i++ {
		if secret := `S` + itoa(i); strings.Contains(string(out), secret+`"`) || strings.Contains(string(out), secret+"@") || strings.Contains(string(out), secret+"&") {
			t.Errorf("output still holds %s: %s", secret, out)
		}
	}
	for _, secret := range []string{"sk-live-123", "sk-2", "Bearer x"} {
		if strings.Contains(string(out), secret) {
			t.Errorf("output still holds %q: %s", secret, out)
		}
	}
	for _, kept := range []string{`"temperature":0.10`, `"max_tokens":4096`, `"eos_token":"</s>"`, `"token":""`, `"seed":300`,
		`"llm":"gpt-4.1"`, `"rate_limit_tokens":100`, `"task_key":"t1"`, "region=eu", "host.example/v1"} {
		if !strings.Contains(string(out), kept) {
			t.Errorf("output lost %s: %s", kept, out)
		}
	}
	if got, want := len(paths), 21; got != want {
		t.Errorf("%d paths, want %d: %v", got, want, paths)
	}
	if !strings.Contains(strings.Join(paths, " "), "agent_info.llm_args.api_base") {
		t.Errorf("paths %v lack the URL", paths)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// A repeated key must not carry an earlier credential through.
func TestRedactSecrets_DuplicateKey(t *testing.T) {
	t.Parallel()
	out, _ := redact.Secrets(json.RawMessage(`{"api_key": "SK-hidden", "api_key": ""}`))
	if strings.Contains(string(out), "SK-hidden") {
		t.Errorf("output still holds the first api_key: %s", out)
	}
}

func TestRedactSecrets_NothingToRedact(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"llm":"gpt-4.1","temperature":0.0}`: `{"llm":"gpt-4.1","temperature":0.0}`,
		`{ "b": 1e400, "a": [1, -0, 0.10] }`:  `{"a":[1,-0,0.10],"b":1e400}`,
		`not json`:                            `not json`,
		`null`:                                `null`,
		`{"url":"https://example.com/a?b=c"}`: `{"url":"https://example.com/a?b=c"}`,
		`{"use_api_key":true,"api_key":null}`: `{"api_key":null,"use_api_key":true}`,
	} {
		out, paths := redact.Secrets(json.RawMessage(in))
		if string(out) != want || paths != nil {
			t.Errorf("RedactSecrets(%s) = %s, %v; want %s and no paths", in, out, paths, want)
		}
	}
}

func TestKeyWordsSecret(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]bool{
		"api_key": true, "X-Api-Key": true, "apiKey": true, "APIKEY": true, "OPENAI_API_KEY": true, "access_token": true,
		"max_tokens": false, "max_completion_tokens": false, "eos_token": false, "sort_key": false, "task_key": false,
		"temperature": false, "tokenizer": false, "keyword": false, "monkey": false, "auth": true, "author": false,
	} {
		out, _ := redact.Secrets(json.RawMessage(`{"` + key + `":"v"}`))
		if got := strings.Contains(string(out), redact.Placeholder); got != want {
			t.Errorf("key %q redacted = %v, want %v", key, got, want)
		}
	}
}

// Redacting twice finds nothing the second time.
func TestRedactSecrets_Idempotent(t *testing.T) {
	t.Parallel()
	once, paths := redact.Secrets(json.RawMessage(`{"api_key":"sk-1","u":"https://a:b@h/x?token=t"}`))
	if len(paths) != 2 {
		t.Fatalf("first pass found %v", paths)
	}
	twice, paths := redact.Secrets(once)
	if string(twice) != string(once) || paths != nil {
		t.Errorf("second pass: %s %v, want %s and nothing found", twice, paths, once)
	}
}

// FuzzRedactSecrets: any input, no panic; valid JSON stays valid, and a
// second pass finds nothing; RedactText and RedactContent over the input
// as text change nothing the second time either, nor does Arguments, which
// keeps JSON valid; Known leaves no secret and keeps JSON valid. The credential shapes of real files are
// in testdata/fuzz/FuzzRedactSecrets.
// decodedHolding decodes raw, then every string and key in it that is JSON
// text, layer after layer, and returns the first string or key holding
// secret.
func decodedHolding(raw []byte, secret string) (string, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	var walk func(v any) (string, bool)
	str := func(s string) (string, bool) {
		if strings.Contains(s, secret) {
			return s, true
		}
		return decodedHolding([]byte(s), secret)
	}
	walk = func(v any) (string, bool) {
		switch x := v.(type) {
		case map[string]any:
			for k, child := range x {
				if s, ok := str(k); ok {
					return s, true
				}
				if s, ok := walk(child); ok {
					return s, true
				}
			}
		case []any:
			for _, child := range x {
				if s, ok := walk(child); ok {
					return s, true
				}
			}
		case string:
			return str(x)
		}
		return "", false
	}
	return walk(v)
}

func FuzzRedactSecrets(f *testing.F) {
	for _, seed := range []string{`{"api_key":"x"}`, `{"a":[{"Token":"t"}],"u":"http://u:p@h?apikey=1"}`, `[1,"s",null]`, `{"x":1e999}`, `nope`,
		`{"args":"\"\\u006bey12345\""}`, `["\"{\\\"\\\\u006bey12345\\\":1}\""]`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if once := redact.Text(in); redact.Text(once) != once {
			t.Fatalf("RedactText is not idempotent over %q: %q, then %q", in, once, redact.Text(once))
		}
		if once := redact.Content(in); redact.Content(once) != once {
			t.Fatalf("RedactContent is not idempotent over %q: %q, then %q", in, once, redact.Content(once))
		}
		out, _ := redact.Secrets(json.RawMessage(in))
		known := redact.Known([]byte(in), "key12345")
		if strings.Contains(string(known), "key12345") {
			t.Fatalf("Known(%q) = %q: the secret is left", in, known)
		}
		if !json.Valid([]byte(in)) {
			return
		}
		if !json.Valid(known) {
			t.Fatalf("Known(%s) = %s: not JSON", in, known)
		}
		if s, ok := decodedHolding(known, "key12345"); ok {
			t.Fatalf("Known(%s) = %s: decoded again and again it still holds the secret in %q", in, known, s)
		}
		if !json.Valid(out) {
			t.Fatalf("RedactSecrets(%s) = %s: not JSON", in, out)
		}
		if again, paths := redact.Secrets(out); paths != nil || string(again) != string(out) {
			t.Fatalf("second pass over %s found %v: %s", out, paths, again)
		}
		args := redact.Arguments(json.RawMessage(in))
		if !json.Valid(args) {
			t.Fatalf("Arguments(%s) = %s: not JSON", in, args)
		}
		if again := redact.Arguments(args); string(again) != string(args) {
			t.Fatalf("Arguments is not idempotent over %s: %s, then %s", in, args, again)
		}
	})
}

// Credentials in free text are replaced where they stand; the rest of the
// text keeps its order and punctuation.
func TestRedactText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Error\nOPENAI_API_KEY=sk-LEAK1\nnext":                     "Error\nOPENAI_API_KEY=[redacted]\nnext",
		"env says OPENAI_API_KEY=sk-LEAK2 here":                    "env says OPENAI_API_KEY=[redacted] here",
		"see https://h.example/a%zz?key=LEAK3":                     "see https://h.example/a%zz?key=[redacted]",
		"GET (https://h.example/v1?b=2&a=1&key=LEAK4). next":       "GET (https://h.example/v1?b=2&a=1&key=[redacted]). next",
		"https://h.example/v1?a=1;key=LEAK5":                       "https://h.example/v1?a=1;key=[redacted]",
		"Authorization: Bearer sk-LEAK6":                           "Authorization: Bearer [redacted]",
		"curl -H 'api-key: LEAK7' https://x":                       "curl -H 'api-key: [redacted]' https://x",
		"postgres://user:LEAK8@db:5432/x":                          "postgres://user:[redacted]@db:5432/x",
		"https://shop.example/track?code=ORDER42&lang=en":          "https://shop.example/track?code=ORDER42&lang=en",
		"https://acct.blob.core.windows.net/c?sv=1&sig=LEAK9&se=2": "https://acct.blob.core.windows.net/c?sv=1&sig=[redacted]&se=2",
		"plain text: a=b, key points":                              "plain text: a=b, key points",
	} {
		if got := redact.Text(in); got != want {
			t.Errorf("RedactText(%q) = %q, want %q", in, got, want)
		}
	}
}

// Keys that only look like credentials, and task ground truth, stay.
func TestRedactSecrets_NotCredentials(t *testing.T) {
	t.Parallel()
	in := `{"key_points":["a"],"secretary":"Ann","tokens":["a","b"],"token_type":"bearer","next_page_token":"p2",` +
		`"actions":[{"name":"update","kwargs":{"key":"color","password":"new-pass"}}],"key":"color",` +
		`"config":"{\"api_key\": \"sk-LEAK10\"}"}`
	out, paths := redact.Secrets(json.RawMessage(in))
	if len(paths) != 1 || paths[0] != "config" || strings.Contains(string(out), "LEAK10") {
		t.Errorf("paths %v, out %s: want only the JSON string's api_key redacted", paths, out)
	}
	for _, kept := range []string{`"key_points":["a"]`, `"secretary":"Ann"`, `"tokens":["a","b"]`, `"token_type":"bearer"`,
		`"next_page_token":"p2"`, `"password":"new-pass"`, `"key":"color"`} {
		if !strings.Contains(string(out), kept) {
			t.Errorf("lost %s: %s", kept, out)
		}
	}
}

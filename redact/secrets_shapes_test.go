package redact_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench/redact"
)

// Credential shapes found in real result files, in text: each is replaced
// where it stands and the rest of the text stays as written.
func TestRedactText_Shapes(t *testing.T) {
	for in, want := range map[string]string{
		// Python's repr of a headers dict, in an error message.
		"headers={'Authorization': 'Bearer sk-LEAK1abc', 'Accept': 'json'}": "headers={'Authorization': 'Bearer [redacted]', 'Accept': 'json'}",
		// A bearer token anywhere.
		"retrying with bearer eyJhbGciOiJIUzI1NiJ9.e30.LEAK2 now": "retrying with bearer [redacted] now",
		"curl -H Bearer sk-LEAK3-1234 https://x":                  "curl -H Bearer [redacted] https://x",
		// LiteLLM's authentication error.
		"Authentication Error, Invalid proxy server token passed. Received API Key = sk-LEAK4abcd, Key Hash (Token) =7d": "Authentication Error, Invalid proxy server token passed. Received API Key = [redacted], Key Hash (Token) =7d",
		// An argument list, as text and as Python's repr of a list.
		"exec: python run.py --api-key sk-LEAK5 --model gpt-4": "exec: python run.py --api-key [redacted] --model gpt-4",
		"argv=['run.py', '--api-key', 'sk-LEAK6', '-v']":       "argv=['run.py', '--api-key', '[redacted]', '-v']",
		// A traceback's source line and locals.
		"  File \"a.py\", line 3\n    api_key = 'sk-LEAK7'\n": "  File \"a.py\", line 3\n    api_key = '[redacted]'\n",
		"client = OpenAI(api_key=\"sk-LEAK8\", timeout=3)":    "client = OpenAI(api_key=\"[redacted]\", timeout=3)",
		// JSON inside an error string.
		`Error 400: body {"model": "m", "api_key": "sk-LEAK9"} rejected`: `Error 400: body {"model": "m", "api_key": "[redacted]"} rejected`,
		// pwd as a key; the shell command stays.
		"mysql://h/db?user=a&pwd=LEAK10": "mysql://h/db?user=a&pwd=[redacted]",
		`{'user': 'a', 'pwd': 'LEAK11'}`: `{'user': 'a', 'pwd': '[redacted]'}`,
		// An OAuth redirect's code; an order's code stays.
		"GET /oauth/callback?code=LEAK12&state=xyz":        "GET /oauth/callback?code=[redacted]&state=xyz",
		"https://app.example/cb?state=s1&code=LEAK13 done": "https://app.example/cb?state=s1&code=[redacted] done",
	} {
		if got := redact.Text(in); got != want {
			t.Errorf("RedactText(%q)\n = %q\nwant %q", in, got, want)
		}
		if got := redact.Text(want); got != want {
			t.Errorf("second pass over %q changed it: %q", want, got)
		}
	}
}

// Look-alikes that are not credentials stay as written.
func TestRedactText_NotCredentials(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"The Bearer of this letter is my agent.",
		"Bearer authentication is required.",
		"$ pwd\n/home/ana",
		"pwd: /home/ana",
		"https://shop.example/track?code=ORDER42&lang=en",
		"Enter the zip code: 94110",
		"run.py --api-key-file /etc/key --max-tokens 100",
		"Your api key: none",
		"primary key: order_id",
		"Max tokens: 4096",
		"Authorization: Bearer [redacted]",
	} {
		if got := redact.Text(in); got != in {
			t.Errorf("RedactText(%q) = %q, want it unchanged", in, got)
		}
	}
}

// Credential shapes in JSON: named values and argument lists.
func TestRedactSecrets_Shapes(t *testing.T) {
	t.Parallel()
	in := `{"env": [{"name": "OPENAI_API_KEY", "value": "sk-LEAK1"}, {"name": "MODEL", "value": "gpt-4"}],
		"headers": [{"key": "Authorization", "value": "Bearer sk-LEAK2"}],
		"args": ["--api-key", "sk-LEAK3", "--model", "gpt-4", "--password", "-x"],
		"db": {"host": "h", "pwd": "LEAK4"},
		"actions": [{"name": "login", "kwargs": {"password": "keep", "args": ["--api-key", "keep"]}}]}`
	out, paths := redact.Secrets(json.RawMessage(in))
	want := `{"actions":[{"kwargs":{"args":["--api-key","keep"],"password":"keep"},"name":"login"}],"args":["--api-key","[redacted]","--model","gpt-4","--password","-x"],"db":{"host":"h","pwd":"[redacted]"},"env":[{"name":"OPENAI_API_KEY","value":"[redacted]"},{"name":"MODEL","value":"gpt-4"}],"headers":[{"key":"Authorization","value":"[redacted]"}]}`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("RedactSecrets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"args[1]", "db.pwd", "env[0].value", "headers[0].value"}, paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	again, paths := redact.Secrets(out)
	if string(again) != string(out) || paths != nil {
		t.Errorf("second pass: %s %v", again, paths)
	}
}

// Conversation text keeps its colon labels, which are data there (these
// come from the real τ-Emotion-Bench files); the unambiguous shapes are
// still found.
func TestRedactContent(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"### **Regarding Immediate Authorization:** the system": "### **Regarding Immediate Authorization:** the system",
		"Credentials: MD, FAAN\nYears of Experience: 21":        "Credentials: MD, FAAN\nYears of Experience: 21",
		"- Insurance Authorization: AUTH-2024-0042":             "- Insurance Authorization: AUTH-2024-0042",
		"Authorization: Bearer sk-LEAK1-123456":                 "Authorization: Bearer [redacted]",
		"proxy said: Received API Key = sk-LEAK2abc, Key Hash":  "proxy said: Received API Key = [redacted], Key Hash",
		`tool error: {"api_key": "sk-LEAK3"}`:                   `tool error: {"api_key": "[redacted]"}`,
		"see https://app.example/oauth/callback?code=LEAK4&x=1": "see https://app.example/oauth/callback?code=[redacted]&x=1",
	} {
		if got := redact.Content(in); got != want {
			t.Errorf("RedactContent(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}

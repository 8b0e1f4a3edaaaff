package redact_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench/redact"
)

// Shapes an adversarial tester found past the rules: each is replaced
// where it stands, in text and in conversation text alike, and a second
// pass changes nothing; look-alikes stay.
func TestRedactText_TesterShapes(t *testing.T) {
	t.Parallel()
	const key = "sk-proj-LEAKA1b2C3d4E5f6G7h8I9j0"
	for in, want := range map[string]string{
		// A double-quoted flag value, also with its quotes escaped.
		`python run.py --api-key "LEAK1" --model m`:   `python run.py --api-key "[redacted]" --model m`,
		`python run.py --api-key \"LEAK2\" --model m`: `python run.py --api-key \"[redacted]\" --model m`,
		`python run.py --api-key 'LEAK3' --model m`:   `python run.py --api-key '[redacted]' --model m`,
		// A credential label after another label.
		`config loaded: api_key: "LEAK4"`: `config loaded: api_key: "[redacted]"`,
		// A Python tuple or list of name and value.
		`headers: [('api_key', 'LEAK5'), ('Accept', 'json')]`: `headers: [('api_key', '[redacted]'), ('Accept', 'json')]`,
		`("Authorization", "Bearer LEAK6")`:                   `("Authorization", "Bearer [redacted]")`,
		// OpenAI's own error text.
		"Error code: 401 - Incorrect API key provided: LEAK7abc. You can find": "Error code: 401 - Incorrect API key provided: [redacted]. You can find",
		// token <token>.
		"using token ghx-LEAK8-0123456789 now": "using token [redacted] now",
		// Provider key formats anywhere.
		"failed for " + key + " (quota)":                     "failed for [redacted] (quota)",
		"keys: sk-ant-api03-LEAK9aaaaaaaaaaaaaaaaaaaa, done": "keys: [redacted], done",
		"aws AKIAIOSFODNN7EXAMPLE in env":                    "aws [redacted] in env",
		"gh ghp_LEAK10aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa ok":    "gh [redacted] ok",
		"slack xoxb-1234567890-LEAK11 ok":                    "slack [redacted] ok",
		"google AIzaSyLEAK12aaaaaaaaaaaaaaaaaaaaaaaaaaa ok":  "google [redacted] ok",
		"hf hf_LEAK13aaaaaaaaaaaaaaaaaaaaaaaaaaaa ok":        "hf [redacted] ok",
		// Look-alikes stay as written.
		"pip install sk-learn-compatible-models-and-more": "pip install sk-learn-compatible-models-and-more",
		"ask-me-anything-about-your-order-today":          "ask-me-anything-about-your-order-today",
		"Shipping to Asia takes 10 days":                  "Shipping to Asia takes 10 days",
		"the token expired, token authentication failed":  "the token expired, token authentication failed",
		"max token 4096":                                   "max token 4096",
		"API key provided: [redacted]":                     "API key provided: [redacted]",
		`('name', 'Ann'), ('city', 'Oslo')`:                `('name', 'Ann'), ('city', 'Oslo')`,
		`run.py --model "gpt-4" --api-key-file "/etc/key"`: `run.py --model "gpt-4" --api-key-file "/etc/key"`,
	} {
		for _, redact := range []func(string) string{redact.Text, redact.Content} {
			if got := redact(in); got != want {
				t.Errorf("redact(%q)\n = %q\nwant %q", in, got, want)
			}
			if got := redact(want); got != want {
				t.Errorf("second pass over %q changed it: %q", want, got)
			}
		}
	}
}

// In conversation text an unambiguous credential label is redacted; a
// label that is data there stays.
func TestRedactContent_CredentialLabels(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`config loaded: api_key: "LEAK1"`:           `config loaded: api_key: "[redacted]"`,
		"access_token: LEAK2\nuser: ana":            "access_token: [redacted]\nuser: ana",
		"OPENAI_API_KEY: LEAK3":                     "OPENAI_API_KEY: [redacted]",
		"X-Api-Key: LEAK4":                          "X-Api-Key: [redacted]",
		"client_secret: 'LEAK5'":                    "client_secret: '[redacted]'",
		"my password: LEAK6":                        "my password: [redacted]",
		"apikey: LEAK7, secret_key: LEAK8":          "apikey: [redacted], secret_key: [redacted]",
		"Credentials: MD, FAAN":                     "Credentials: MD, FAAN",
		"- Insurance Authorization: AUTH-2024-0042": "- Insurance Authorization: AUTH-2024-0042",
		"Authorization: pending":                    "Authorization: pending",
		"Token: 42\nSecret: the blue door":          "Token: 42\nSecret: the blue door",
		"API Key: see the portal":                   "API Key: see the portal",
		"pwd: /home/ana":                            "pwd: /home/ana",
		"Password: none":                            "Password: none",
	} {
		if got := redact.Content(in); got != want {
			t.Errorf("RedactContent(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}

// Name/Value in any case is a named value; kwargs and arguments are kept
// only as a tool call's (an object with a name) or an action's; a config's
// kwargs are redacted.
func TestRedactSecrets_TesterShapes(t *testing.T) {
	t.Parallel()
	in := `{"Environment": [{"Name": "OPENAI_API_KEY", "Value": "LEAK1"}, {"Name": "MODEL", "Value": "m"}],
		"Parameters": [{"ParameterKey": "DbPassword", "ParameterValue": "LEAK2"}],
		"agent_info": {"llm_args": {"kwargs": {"api_key": "LEAK3", "temperature": 0}}},
		"arguments": {"password": "LEAK4"},
		"actions": [{"name": "login", "kwargs": {"password": "keep1"}, "note": "pwd=LEAK5"}],
		"tool_calls": [{"id": "c1", "function": {"name": "login", "arguments": "{\"api_key\": \"keep2\"}"}}],
		"action_checks": [{"action": {"name": "auth", "arguments": {"token": "keep3"}}}]}`
	out, paths := redact.Secrets(json.RawMessage(in))
	want := `{"Environment":[{"Name":"OPENAI_API_KEY","Value":"[redacted]"},{"Name":"MODEL","Value":"m"}],` +
		`"Parameters":[{"ParameterKey":"DbPassword","ParameterValue":"[redacted]"}],` +
		`"action_checks":[{"action":{"arguments":{"token":"keep3"},"name":"auth"}}],` +
		`"actions":[{"kwargs":{"password":"keep1"},"name":"login","note":"pwd=[redacted]"}],` +
		`"agent_info":{"llm_args":{"kwargs":{"api_key":"[redacted]","temperature":0}}},` +
		`"arguments":{"password":"[redacted]"},` +
		`"tool_calls":[{"function":{"arguments":"{\"api_key\": \"keep2\"}","name":"login"},"id":"c1"}]}`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("RedactSecrets (-want +got):\n%s", diff)
	}
	wantPaths := []string{"Environment[0].Value", "Parameters[0].ParameterValue", "actions[0].note", "agent_info.llm_args.kwargs.api_key", "arguments.password"}
	if diff := cmp.Diff(wantPaths, paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if again, paths := redact.Secrets(out); string(again) != string(out) || paths != nil {
		t.Errorf("second pass: %s %v", again, paths)
	}
}

package redact_test

import (
	"encoding/json"
	"testing"

	"github.com/emobench/emobench/redact"
	"github.com/google/go-cmp/cmp"
)

// Shapes a final adversarial pass found: a label before NAME = VALUE, an
// LLM client's kwargs beside a name in a run config, keys about credentials
// that are not credentials, and conversation words after a credential label.
func TestRedact_FinalShapes(t *testing.T) {
	t.Parallel()
	text := []struct{ in, want string }{
		{"Traceback: api_key = 'SECRETVAL123abc'", "Traceback: api_key = '[redacted]'"},
		{"Error: password = 'hunter2'", "Error: password = '[redacted]'"},
		{"Your order key=AB12CD ships today", "Your order key=AB12CD ships today"},
		{"GET /v1?alt=json&key=LEAK5", "GET /v1?alt=json&key=[redacted]"},
	}
	for _, tt := range text {
		for name, redact := range map[string]func(string) string{"RedactText": redact.Text, "RedactContent": redact.Content} {
			if got := redact(tt.in); got != tt.want {
				t.Errorf("%s(%q) = %q, want %q", name, tt.in, got, tt.want)
			}
			if again := redact(tt.want); again != tt.want {
				t.Errorf("%s is not idempotent over %q: %q", name, tt.want, again)
			}
		}
	}
	content := []struct{ in, want string }{
		{"Reset password: click the link", "Reset password: click the link"},
		{"access_token: pending", "access_token: pending"},
		{"my password: hunter2", "my password: [redacted]"},
	}
	for _, tt := range content {
		if got := redact.Content(tt.in); got != tt.want {
			t.Errorf("RedactContent(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}

	config := json.RawMessage(`{"llm_args":{"name":"openai","kwargs":{"api_key":"K1"}},"actions":[{"name":"login","kwargs":{"password":"gold"}}]}`)
	got, paths := redact.Config(config)
	if want := `{"actions":[{"kwargs":{"password":"gold"},"name":"login"}],"llm_args":{"kwargs":{"api_key":"[redacted]"},"name":"openai"}}`; string(got) != want {
		t.Errorf("RedactConfig = %s, want %s", got, want)
	}
	if !cmp.Equal(paths, []string{"llm_args.kwargs.api_key"}) {
		t.Errorf("RedactConfig paths = %v", paths)
	}
	// In a trajectory's fields, a kwargs beside a name is a tool call's.
	if got, _ := redact.Secrets(json.RawMessage(`{"action":{"name":"login","arguments":{"token":"keep3"}}}`)); string(got) != `{"action":{"arguments":{"token":"keep3"},"name":"login"}}` {
		t.Errorf("RedactSecrets changed a tool call's arguments: %s", got)
	}

	data := json.RawMessage(`{"token_usage":{"prompt":3},"public_key":"ssh-ed25519 AAAA","prior_authorization":"PA-77","authorization_status":"approved","credential_type":"MD","password_last_changed":"2024-01-02","secret_question":"pet?","pwd_changed":true,"api_key":"sk-live"}`)
	got, paths = redact.Secrets(data)
	if want := `{"api_key":"[redacted]","authorization_status":"approved","credential_type":"MD","password_last_changed":"2024-01-02","prior_authorization":"PA-77","public_key":"ssh-ed25519 AAAA","pwd_changed":true,"secret_question":"pet?","token_usage":{"prompt":3}}`; string(got) != want {
		t.Errorf("RedactSecrets = %s, want %s", got, want)
	}
	if !cmp.Equal(paths, []string{"api_key"}) {
		t.Errorf("paths = %v, want [api_key]", paths)
	}
}

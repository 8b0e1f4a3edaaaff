package ingest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench/ingest"
)

func TestRedactSecrets(t *testing.T) {
	in := `{"agent_info":{"llm":"gpt-4.1","llm_args":{"api_key":"sk-live-123","temperature":0.10,"max_tokens":4096,"eos_token":"</s>"}},
		"user_info":{"llm_args":{"OPENAI-API-KEY":"sk-2","headers":[{"Authorization":"Bearer x"}],"token":""}},"seed":300}`
	out, paths := ingest.RedactSecrets(json.RawMessage(in))
	if diff := cmp.Diff([]string{"agent_info.llm_args.api_key", "user_info.llm_args.OPENAI-API-KEY", "user_info.llm_args.headers[0].Authorization"}, paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	for _, secret := range []string{"sk-live-123", "sk-2", "Bearer x"} {
		if strings.Contains(string(out), secret) {
			t.Errorf("output still holds %q: %s", secret, out)
		}
	}
	for _, kept := range []string{`"temperature":0.10`, `"max_tokens":4096`, `"eos_token":"</s>"`, `"token":""`, `"seed":300`, `"llm":"gpt-4.1"`} {
		if !strings.Contains(string(out), kept) {
			t.Errorf("output lost %s: %s", kept, out)
		}
	}
}

func TestRedactSecrets_Unchanged(t *testing.T) {
	for _, in := range []string{`{"llm":"gpt-4.1","temperature":0.0}`, `not json`, `null`, `[1,2]`} {
		out, paths := ingest.RedactSecrets(json.RawMessage(in))
		if string(out) != in || paths != nil {
			t.Errorf("RedactSecrets(%s) = %s, %v; want it unchanged", in, out, paths)
		}
	}
}

package ingest

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Redacted replaces a credential's value in stored JSON.
const Redacted = "[redacted]"

// secretKeys are key names (lower case, '-' read as '_') whose string
// values are credentials. Result files carry them in LLM arguments, e.g.
// τ²-bench's info.agent_info.llm_args.api_key.
var secretKeys = map[string]bool{
	"api_key": true, "apikey": true, "secret": true, "client_secret": true, "password": true,
	"authorization": true, "token": true, "access_token": true, "auth_token": true,
	"refresh_token": true, "bearer_token": true, "session_token": true, "hf_token": true,
}

// isSecretKey reports whether a key names a credential: one of secretKeys,
// or any key ending in api_key (openai_api_key, x-api-key, …).
func isSecretKey(key string) bool {
	k := strings.ReplaceAll(strings.ToLower(key), "-", "_")
	return secretKeys[k] || strings.HasSuffix(k, "api_key") || strings.HasSuffix(k, "apikey")
}

// RedactSecrets returns raw with the non-empty string value of every
// credential key (isSecretKey), at any depth, replaced by Redacted, and the
// dotted paths of those keys. raw comes back unchanged when it holds none
// or is not valid JSON.
func RedactSecrets(raw json.RawMessage) (json.RawMessage, []string) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers keep their digits
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw, nil
	}
	var paths []string
	redactValue(v, "", &paths)
	if len(paths) == 0 {
		return raw, nil
	}
	slices.Sort(paths)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // keep "<" as written
	if err := enc.Encode(v); err != nil {
		return raw, nil
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), paths
}

func redactValue(v any, path string, paths *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			p := strings.TrimPrefix(path+"."+k, ".")
			if s, ok := child.(string); ok && s != "" && isSecretKey(k) {
				x[k] = Redacted
				*paths = append(*paths, p)
				continue
			}
			redactValue(child, p, paths)
		}
	case []any:
		for i, child := range x {
			redactValue(child, path+"["+strconv.Itoa(i)+"]", paths)
		}
	}
}

package ingest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/emobench/emobench"
)

// Redacted replaces a credential's value in stored JSON.
const Redacted = "[redacted]"

// secretWords make a key a credential wherever they appear in it
// (aws_secret_access_key, vertex_credentials, Cookie, db_password, …).
var secretWords = map[string]bool{
	"secret": true, "secrets": true, "password": true, "passwd": true, "passphrase": true,
	"credential": true, "credentials": true, "cookie": true, "cookies": true, "authorization": true,
}

// notCredentialKey are words before "key" that make a key a name, not a
// credential (sort_key, cache_key, task_key).
var notCredentialKey = map[string]bool{
	"sort": true, "cache": true, "primary": true, "foreign": true, "task": true, "group": true,
	"partition": true, "lookup": true, "hash": true, "row": true, "column": true, "index": true,
	"dedup": true, "unique": true, "idempotency": true, "routing": true, "shard": true, "map": true,
}

// notCredentialToken are words that make a token key a count or a special
// token of a tokenizer (max_tokens, eos_token, rate_limit_tokens).
var notCredentialToken = map[string]bool{
	"max": true, "min": true, "num": true, "n": true, "count": true, "limit": true, "total": true,
	"prompt": true, "completion": true, "input": true, "output": true, "reasoning": true, "cached": true,
	"eos": true, "bos": true, "pad": true, "unk": true, "sep": true, "cls": true, "mask": true,
	"stop": true, "rate": true, "per": true, "budget": true, "thinking": true, "context": true,
	"type": true, "page": true, "next": true, "continuation": true, "cursor": true, "id": true, "ids": true,
}

// keyWords splits a key into lower-case words at '-', '_', '.', spaces and
// camelCase humps: "accessToken" and "X-Api-Key" give [access token] and
// [x api key].
func keyWords(key string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	runes := []rune(key)
	for i, r := range runes {
		switch {
		case r == '-' || r == '_' || r == '.' || unicode.IsSpace(r):
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(runes[i-1]) || i+1 < len(runes) && unicode.IsLower(runes[i+1])):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// secretParts make a key a credential wherever they appear in it, even
// inside a word (PGPASSWORD, secretkey, OPENAIAPIKEY).
var secretParts = []string{"password", "passwd", "passphrase", "credential", "apikey", "api_key", "api-key",
	"secretkey", "secret_key", "secretaccess", "clientsecret", "client_secret"}

// isSecretKey reports whether a key names a credential: it holds one of
// secretParts or a secretWords word, or "key"/"apikey" not after a notCredentialKey word
// (api_key, x-api-key, private_key, aws_access_key_id, Ocp-Apim-Subscription-Key),
// or "token" with no notCredentialToken word (access_token, api_token,
// aws_session_token, accessToken; not max_tokens).
func isSecretKey(key string) bool {
	lower := strings.ToLower(key)
	for _, part := range secretParts {
		if strings.Contains(lower, part) {
			return true
		}
	}
	words := keyWords(key)
	hasToken, countLike := false, false
	for i, w := range words {
		switch {
		case secretWords[w], w == "apikey", w == "apikeys", w == "auth" && len(words) == 1:
			return true
		case w == "key" || w == "keys":
			// api_key, private_key, Ocp-Apim-Subscription-Key; not a bare
			// "key" (a kwarg such as key="color") or key_points.
			if i > 0 && !notCredentialKey[words[i-1]] {
				return true
			}
		case w == "token":
			hasToken = true
		case notCredentialToken[w]:
			countLike = true
		}
	}
	return hasToken && !countLike
}

// RedactSecrets returns raw re-encoded (compact, numbers as written) with
// every credential replaced by Redacted, and the dotted paths of what it
// replaced. Credentials are the values (strings, arrays, objects) of keys
// isSecretKey accepts, at any depth, and the password or secret query
// parameters of URLs in any string. raw comes back unchanged when it is
// not valid JSON.
func RedactSecrets(raw json.RawMessage) (json.RawMessage, []string) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers keep their digits
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw, nil
	}
	var paths []string
	v = redactValue(v, "", &paths)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // keep "<" as written
	if err := enc.Encode(v); err != nil {
		return raw, nil
	}
	// Re-encoded even when nothing was found: a key repeated in raw (its
	// last value wins) must not carry an earlier credential through.
	slices.Sort(paths)
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), paths
}

func redactValue(v any, path string, paths *[]string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if groundTruth[k] {
				continue // tool arguments of a task, as tasks.actions keeps them
			}
			p := strings.TrimPrefix(path+"."+k, ".")
			if isSecretKey(k) && isCredentialValue(child) {
				x[k] = Redacted
				*paths = append(*paths, p)
				continue
			}
			x[k] = redactValue(child, p, paths)
		}
	case []any:
		// A [name, value] pair, as in extra_headers: [["Authorization", "Bearer …"]].
		if name, ok := pairName(x); ok && isSecretKey(name) && isCredentialValue(x[1]) {
			x[1] = Redacted
			*paths = append(*paths, path+"[1]")
			return x
		}
		for i, child := range x {
			x[i] = redactValue(child, path+"["+strconv.Itoa(i)+"]", paths)
		}
	case string:
		if strings.HasPrefix(strings.TrimSpace(x), "{") && json.Valid([]byte(x)) {
			// JSON kept as a string, e.g. an LLM config serialized into a field.
			if clean, found := RedactSecrets(json.RawMessage(x)); found != nil {
				*paths = append(*paths, path)
				return string(clean)
			}
			return x
		}
		if clean := RedactText(x); clean != x {
			*paths = append(*paths, path)
			return clean
		}
	}
	return v
}

// headerName matches what may name the value beside it in a pair.
var headerName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// groundTruth are keys whose values are tool calls and their arguments
// (a reward_info's actions): data to compare, never configuration.
var groundTruth = map[string]bool{"actions": true, "kwargs": true, "arguments": true}

// pairName returns the name of a [name, value] pair of strings, such as a
// header; an array of two other strings has none.
func pairName(x []any) (string, bool) {
	if len(x) != 2 {
		return "", false
	}
	name, ok := x[0].(string)
	_, isString := x[1].(string)
	return name, ok && isString && headerName.MatchString(name)
}

// assignment matches NAME=VALUE anywhere in text: environment lines,
// URL query parameters (?key=…&sig=…), curl flags.
var assignment = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_.-]*)=([^\s&;"'<>(),]+)`)

// userinfo matches the password of a URL's user:password@.
var userinfo = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://[^/@\s:"'<>]*):([^/@\s"'<>]+)@`)

// headerLine matches "Authorization: Bearer …"-like header text.
var headerLine = regexp.MustCompile(`(?i)\b(authorization|proxy-authorization|x-api-key|api-key|cookie|x-goog-api-key)(\s*:\s*)(bearer\s+|basic\s+|token\s+)?([^\s"',;]+)`)

// RedactText returns s with credentials replaced by Redacted: the password
// of a URL's userinfo, the value of NAME=VALUE where NAME is a credential
// key or a signing query parameter (Gemini's ?key=, Azure's sig=), and the
// value of Authorization-like header text. Everything else stays as
// written, in order.
func RedactText(s string) string {
	if !strings.Contains(s, "=") && !strings.Contains(s, "@") && !strings.Contains(s, ":") {
		return s
	}
	s = userinfo.ReplaceAllStringFunc(s, func(m string) string {
		sub := userinfo.FindStringSubmatch(m)
		if sub[2] == Redacted {
			return m
		}
		return sub[1] + ":" + Redacted + "@"
	})
	s = assignment.ReplaceAllStringFunc(s, func(m string) string {
		name, value, _ := strings.Cut(m, "=")
		if value == Redacted || !(isSecretKey(name) || secretURLParams[strings.ToLower(name)]) {
			return m
		}
		return name + "=" + Redacted
	})
	return headerLine.ReplaceAllStringFunc(s, func(m string) string {
		sub := headerLine.FindStringSubmatch(m)
		if sub[4] == Redacted {
			return m
		}
		return sub[1] + sub[2] + sub[3] + Redacted
	})
}

// isCredentialValue reports whether v can hold a credential: a non-empty
// string not redacted already, an array or an object (numbers, booleans
// and null cannot).
func isCredentialValue(v any) bool {
	switch x := v.(type) {
	case string:
		return x != "" && x != Redacted
	case []any, map[string]any:
		return true
	}
	return false
}

// secretURLParams are query parameters that sign or authorize a request
// (Gemini's key, Azure SAS sig, AWS and Google signatures).
var secretURLParams = map[string]bool{
	"key": true, "sig": true, "signature": true, "x-amz-signature": true, "x-amz-credential": true,
	"x-amz-security-token": true, "x-goog-signature": true, "x-goog-credential": true,
}

// secretHints are what a JSON text must contain, in any case, to be worth
// decoding for credentials: most reward_info and extra fields have none.
var secretHints = [][]byte{[]byte("key"), []byte("token"), []byte("secret"), []byte("passw"), []byte("auth"),
	[]byte("credential"), []byte("cookie"), []byte("://"), []byte("sig"), []byte("phrase")}

func mayHoldSecret(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	lower := bytes.ToLower(raw)
	for _, h := range secretHints {
		if bytes.Contains(lower, h) {
			return true
		}
	}
	return false
}

// RedactTrajectory redacts credentials in the fields of t that keep source
// JSON or text as given (Extra, RewardInfo, Error), by the rules of
// RedactSecrets and RedactText; a field without any stays byte for byte as
// the source wrote it.
func RedactTrajectory(t *emobench.Trajectory) {
	for _, raw := range []*json.RawMessage{&t.Extra, &t.RewardInfo} {
		if mayHoldSecret(*raw) {
			if clean, paths := RedactSecrets(*raw); paths != nil {
				*raw = clean
			}
		}
	}
	t.Error = RedactText(t.Error)
}

// Package redact replaces credentials (API keys, tokens, passwords, signed
// URLs) in stored JSON and text with Placeholder. It imports the standard
// library only, so that any package may use it: ingest and sim call it, and
// cmd hands its functions to db's merge and scrub and to export.
package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math/bits"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Placeholder replaces a credential's value in stored JSON.
const Placeholder = "[redacted]"

// secretWords make a key a credential wherever they appear in it
// (aws_secret_access_key, vertex_credentials, Cookie, db_password, …).
var secretWords = map[string]bool{
	"secret": true, "secrets": true, "password": true, "passwd": true, "passphrase": true,
	"credential": true, "credentials": true, "cookie": true, "cookies": true, "authorization": true,
	"pwd": true, // as a key (pwd=…, "pwd": …); the shell command in prose is no key
}

// notCredentialKey are words before "key" that make a key a name, not a
// credential (sort_key, cache_key, task_key).
var notCredentialKey = map[string]bool{
	"sort": true, "cache": true, "primary": true, "foreign": true, "task": true, "group": true,
	"partition": true, "lookup": true, "hash": true, "row": true, "column": true, "index": true,
	"dedup": true, "unique": true, "idempotency": true, "routing": true, "shard": true, "map": true,
	"parameter": true, // CloudFormation's ParameterKey names a parameter
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

// spacedKeyQualifiers are the words that make "WORD key" in prose name a
// credential ("API Key = …", LiteLLM's error), unlike "order key".
var spacedKeyQualifiers = map[string]bool{"api": true, "secret": true, "private": true, "access": true,
	"auth": true, "license": true, "subscription": true, "encryption": true, "signing": true}

// notSecretLast are last words that make a key name something about a
// credential, not the credential: its usage, type, status or date.
var notSecretLast = map[string]bool{
	"usage": true, "type": true, "types": true, "status": true, "question": true, "questions": true,
	"changed": true, "hint": true, "length": true, "policy": true, "required": true, "expires": true,
	"expiry": true, "expiration": true, "count": true, "at": true, "date": true, "time": true,
	"set": true, "enabled": true, "reset": true, "url": true, "uri": true, "endpoint": true,
}

// notSecretFirst are first words of keys that name no secret: a public key,
// a prior authorization (insurance).
var notSecretFirst = map[string]bool{"public": true, "prior": true, "has": true, "is": true}

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
	if words := keyWords(key); len(words) > 1 && (notSecretLast[words[len(words)-1]] || notSecretFirst[words[0]]) {
		return false // token_usage, password_last_changed, public_key, prior_authorization
	}
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

// Secrets returns raw re-encoded (compact, numbers as written) with
// every credential replaced by Placeholder, and the dotted paths of what it
// replaced. Credentials are the values (strings, arrays, objects) of keys
// isSecretKey accepts, at any depth, the value of a named value whose name
// is one (namedValueKeys), the argument after a credential flag in a list,
// and what Text finds in any string. A tool call's arguments are
// kept as written: the kwargs or arguments of an object with a string
// name, or of an item of an actions list; a kwargs elsewhere is redacted. raw comes back unchanged when it is not valid JSON.
func Secrets(raw json.RawMessage) (json.RawMessage, []string) {
	return redactJSON(raw, true)
}

// Config is Secrets for a run's configuration, which holds no
// tool calls: a kwargs or arguments beside a name (an LLM client's) is
// redacted like any other value. Only an actions list's arguments stay.
func Config(raw json.RawMessage) (json.RawMessage, []string) {
	return redactJSON(raw, false)
}

func redactJSON(raw json.RawMessage, toolCalls bool) (json.RawMessage, []string) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers keep their digits
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw, nil
	}
	var paths []string
	v = redactValue(v, "", &paths, toolCalls)
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

func redactValue(v any, path string, paths *[]string, toolCalls bool) any {
	switch x := v.(type) {
	case map[string]any:
		// A named value, as environment lists and HAR headers write them:
		// {"name": "OPENAI_API_KEY", "value": "…"}, {"key": "Authorization", "value": "Bearer …"}.
		// Any case (CloudFormation's and .NET's Name/Value), and
		// CloudFormation's ParameterKey/ParameterValue.
		for _, vk := range namedValueKeys(x) {
			x[vk] = Placeholder
			*paths = append(*paths, strings.TrimPrefix(path+"."+vk, "."))
		}
		_, toolCall := x["name"].(string)
		toolCall = toolCall && toolCalls
		for k, child := range x {
			if toolCall && (k == "kwargs" || k == "arguments") {
				continue // a tool call's arguments, as reward_info's action_checks keep them
			}
			if k == "actions" {
				if list, ok := child.([]any); ok {
					x[k] = redactActions(list, strings.TrimPrefix(path+"."+k, "."), paths, toolCalls)
					continue
				}
			}
			p := strings.TrimPrefix(path+"."+k, ".")
			if isSecretKey(k) && isCredentialValue(child) {
				x[k] = Placeholder
				*paths = append(*paths, p)
				continue
			}
			x[k] = redactValue(child, p, paths, toolCalls)
		}
	case []any:
		// A [name, value] pair, as in extra_headers: [["Authorization", "Bearer …"]].
		if name, ok := pairName(x); ok && isSecretKey(name) && isCredentialValue(x[1]) {
			x[1] = Placeholder
			*paths = append(*paths, path+"[1]")
			return x
		}
		// An argument list: ["--api-key", "…"].
		for i := 0; i+1 < len(x); i++ {
			if flag, ok := x[i].(string); ok && isSecretFlag(flag) {
				if value, ok := x[i+1].(string); ok && value != "" && value != Placeholder && !strings.HasPrefix(value, "-") {
					x[i+1] = Placeholder
					*paths = append(*paths, path+"["+strconv.Itoa(i+1)+"]")
				}
			}
		}
		for i, child := range x {
			x[i] = redactValue(child, path+"["+strconv.Itoa(i)+"]", paths, toolCalls)
		}
	case string:
		if strings.HasPrefix(strings.TrimSpace(x), "{") && json.Valid([]byte(x)) {
			// JSON kept as a string, e.g. an LLM config serialized into a field.
			if clean, found := Secrets(json.RawMessage(x)); found != nil {
				*paths = append(*paths, path)
				return string(clean)
			}
			return x
		}
		if clean := Text(x); clean != x {
			*paths = append(*paths, path)
			return clean
		}
	}
	return v
}

// namedValueKeys returns the keys of x's values when x is a named value
// whose name names a credential: {"name": "OPENAI_API_KEY", "value": …},
// {"Key": "Authorization", "Value": …} (names in any case), or
// {"ParameterKey": "DbPassword", "ParameterValue": …}; every value key,
// sorted, when x has several ("Value" and "ParameterValue"), so that one
// pass redacts them all.
func namedValueKeys(x map[string]any) []string {
	named := false
	var values []string
	for k := range x {
		switch strings.ToLower(k) {
		case "name", "key", "parameterkey":
			named = named || namesSecret(x[k])
		case "value", "parametervalue":
			if isCredentialValue(x[k]) {
				values = append(values, k)
			}
		}
	}
	if !named {
		return nil
	}
	slices.Sort(values)
	return values
}

// redactActions redacts a list of actions (reward_info.actions): an
// action's arguments are ground truth, kept as written, wherever they sit
// in it; the rest of each action is redacted as any other value.
func redactActions(list []any, path string, paths *[]string, toolCalls bool) []any {
	for i, item := range list {
		p := path + "[" + strconv.Itoa(i) + "]"
		action, ok := item.(map[string]any)
		if !ok {
			list[i] = redactValue(item, p, paths, toolCalls)
			continue
		}
		kept := map[string]any{}
		for _, k := range []string{"kwargs", "arguments"} {
			if v, ok := action[k]; ok {
				kept[k] = v
				delete(action, k)
			}
		}
		redactValue(action, p, paths, toolCalls)
		for k, v := range kept {
			action[k] = v
		}
	}
	return list
}

// namesSecret reports whether v is a string that isSecretKey accepts.
func namesSecret(v any) bool {
	name, ok := v.(string)
	return ok && isSecretKey(name)
}

// isSecretFlag reports whether s is a command-line flag naming a
// credential (--api-key, --password), not one naming where it is kept
// (--api-key-file, --token-env).
func isSecretFlag(s string) bool {
	name := strings.TrimLeft(s, "-")
	if len(name) == len(s) || name == "" || strings.ContainsAny(name, "= ") || !isSecretKey(name) {
		return false
	}
	words := keyWords(name)
	switch words[len(words)-1] {
	case "file", "path", "env", "var", "dir":
		return false
	}
	return true
}

// lazyRegexp compiles expr at its first use, not at package init: most
// commands (stats, runs) never redact, and the rules' expressions took
// most of the process start-up this package cost.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// lazyRegexps is lazyRegexp of several expressions, in order.
func lazyRegexps(exprs ...string) func() []*regexp.Regexp {
	return sync.OnceValue(func() []*regexp.Regexp {
		res := make([]*regexp.Regexp, len(exprs))
		for i, e := range exprs {
			res[i] = regexp.MustCompile(e)
		}
		return res
	})
}

// headerName matches what may name the value beside it in a pair.
var headerName = lazyRegexp(`^[A-Za-z][A-Za-z0-9_-]*$`)

// pairName returns the name of a [name, value] pair of strings, such as a
// header; an array of two other strings has none.
func pairName(x []any) (string, bool) {
	if len(x) != 2 {
		return "", false
	}
	name, ok := x[0].(string)
	_, isString := x[1].(string)
	return name, ok && isString && headerName().MatchString(name)
}

// assignment matches NAME=VALUE anywhere in text: environment lines,
// URL query parameters (?key=…&sig=…), curl flags.
var assignment = lazyRegexp(`([A-Za-z_][A-Za-z0-9_.-]*)=([^\s&;"'<>(),]+)`)

// userinfo matches the password of a URL's user:password@.
var userinfo = lazyRegexp(`([a-zA-Z][a-zA-Z0-9+.-]*://[^/@\s:"'<>]*):([^/@\s"'<>]+)@`)

// headerLine matches "Authorization: Bearer …"-like header text.
var headerLine = lazyRegexp(`(?i)\b(authorization|proxy-authorization|x-api-key|api-key|cookie|x-goog-api-key)(\s*:\s*)(bearer\s+|basic\s+|token\s+)?([^\s"',;]+)`)

// spacedAssignment matches NAME = VALUE and NAME: VALUE, where NAME may be
// two words ("Received API Key = …", LiteLLM's error) and VALUE may be
// quoted (api_key = '…' in a traceback, OpenAI(api_key="…")).
var spacedAssignment = lazyRegexp(`\b([A-Za-z][A-Za-z0-9_-]*(?: [A-Za-z][A-Za-z0-9_-]*)?)([ \t]*[=:][ \t]*)('[^'\n]*'|"[^"\n]*"|[^\s'",;()\[\]{}<>]+)`)

// quotedPair matches a quoted key and its quoted value, as JSON or Python's
// repr writes them inside text: {"api_key": "…"}, {'Authorization': 'Bearer …'}.
var quotedPair = lazyRegexps(
	`"([^"\\\n]{1,64})"(\s*:\s*)"((?:[^"\\\n]|\\.)*)"`,
	`'([^'\\\n]{1,64})'(\s*:\s*)'((?:[^'\\\n]|\\.)*)'`,
)

// bearerToken matches "Bearer <token>" and "token <token>" anywhere in text.
var bearerToken = lazyRegexp(`(?i)\b(bearer|token)(\s+)([A-Za-z0-9._~+/-]+=*)`)

// tuplePair matches a quoted name and its quoted value as the first two
// items of a Python tuple or list in text: ('api_key', '…'),
// [("Authorization", "Bearer …")].
var tuplePair = lazyRegexps(
	`([(\[]')([^'\\\n]{1,64})('\s*,\s*')((?:[^'\\\n]|\\.)*)'`,
	`([(\[]")([^"\\\n]{1,64})("\s*,\s*")((?:[^"\\\n]|\\.)*)"`,
)

// keyProvided matches the key OpenAI's authentication error quotes:
// "Incorrect API key provided: sk-…".
var keyProvided = lazyRegexp(`(?i)\b(api key provided:[ \t]*)([A-Za-z0-9_*-]+)`)

// providerKey matches API keys by their providers' own formats, anywhere
// in text: OpenAI and Anthropic (sk-, sk-proj-, sk-ant-… and 20 or more
// key characters), AWS access key ids (AKIA…), GitHub tokens (ghp_…,
// github_pat_…), Slack tokens (xoxb-…), Google API keys (AIza…),
// Hugging Face tokens (hf_…), GitLab tokens (glpat-…), JSON Web Tokens (three or more base64url
// segments joined by dots, the first a JSON header: eyJ…), Stripe secret
// and restricted keys (sk_live_, sk_test_, rk_live_, rk_test_ and 20 or
// more characters), Groq keys (gsk_ and 40 or more, also inside an
// identifier), xAI keys (xai- and 40 or more: xai-grok-2 is a model),
// npm tokens (npm_ and 36), PyPI tokens (pypi-AgEI…), Replicate tokens
// (r8_ and 30 or more), Google OAuth access tokens (ya29. and 30 or more)
// and AWS temporary access key ids (ASIA…).
var providerKey = lazyRegexp(`\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*|\bsk-[A-Za-z0-9_-]{20,}|` + awsKeyID +
	`|\bgh[pousr]_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{22,}|\bxox[abposr]-[A-Za-z0-9-]{10,}|\bAIza[0-9A-Za-z_-]{35}|\bhf_[A-Za-z0-9]{30,}|\bglpat-[A-Za-z0-9_-]{20,}` +
	`|\b[rs]k_(?:live|test)_[A-Za-z0-9]{20,}|gsk_[A-Za-z0-9]{40,}|\bxai-[A-Za-z0-9]{40,}|\bnpm_[A-Za-z0-9]{36,}|\bpypi-AgEI[A-Za-z0-9_-]{40,}|\br8_[A-Za-z0-9]{30,}|\bya29\.[A-Za-z0-9_-]{30,}`)

// providerKeyPrefixes are the literal beginnings of providerKey's
// formats, in their case: every match of providerKey starts with one
// (TestProviderKeyPrefixes reads them off its pattern). The hints that
// let providerKey run ignore case, and "asia", "basic" or "hooks" are
// common words; a text without any of these prefixes is left to the
// other rules without running providerKey's slow alternation.
var providerKeyPrefixes = []string{"eyJ", "sk-", "AKIA", "ASIA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "AIza", "hf_", "glpat-",
	"rk_live_", "rk_test_", "sk_live_", "sk_test_", "gsk_", "xai-", "npm_", "pypi-AgEI", "r8_", "ya29."}

// mayHoldProviderKey reports whether s holds one of providerKeyPrefixes:
// unless it does, providerKey cannot match in s.
func mayHoldProviderKey(s string) bool {
	return slices.ContainsFunc(providerKeyPrefixes, func(p string) bool { return strings.Contains(s, p) })
}

// awsKeyID matches an AWS access key id: long-term (AKIA…) or temporary (ASIA…).
const awsKeyID = `\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`

// webhookURL matches a Slack or Discord webhook URL up to its secret
// path, which follows: hooks.slack.com/services/T…/B…/…, and
// discord.com/api/webhooks/ID/TOKEN (also discordapp.com, ptb. and canary.).
var webhookURL = lazyRegexp(`(?i)(\bhooks\.slack\.com/(?:services|workflows|triggers)/|\b(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/(?:v[0-9]+/)?webhooks/)([A-Za-z0-9_./-]{8,})`)

// redactWebhooks replaces the secret path of the webhook URLs in s.
func redactWebhooks(s string) string {
	return webhookURL().ReplaceAllString(s, "${1}"+Placeholder)
}

// awsSecretReach is how far (in bytes) from an AWS access key id a bare
// secret access key is looked for.
const awsSecretReach = 256

// redactAWSSecrets replaces the bare AWS secret access keys of s that
// stand within awsSecretReach bytes of an access key id: 40 characters of
// [A-Za-z0-9/+], with an upper-case letter, a lower-case letter and a
// digit, not part of a longer word, path or base64 text. Alone, 40 such
// characters may be anything; beside a key id they are its secret (a
// CSV of credentials, "AKIA… wJalr…").
func redactAWSSecrets(s string) string {
	ids := awsKeyIDs().FindAllStringIndex(s, -1)
	if ids == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isAWSSecretByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isAWSSecretByte(s[j]) {
			j++
		}
		if j-i == 40 && (i == 0 || !strings.ContainsRune("_-.=", rune(s[i-1]))) && !continuesWord(s, j) &&
			strings.ContainsAny(s[i:j], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && strings.ContainsAny(s[i:j], "abcdefghijklmnopqrstuvwxyz") &&
			strings.ContainsAny(s[i:j], "0123456789") && slices.ContainsFunc(ids, func(id []int) bool {
			return id[0]-j <= awsSecretReach && i-id[1] <= awsSecretReach
		}) {
			b.WriteString(s[last:i])
			b.WriteString(Placeholder)
			last = j
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// awsKeyIDs matches awsKeyID alone.
var awsKeyIDs = lazyRegexp(awsKeyID)

// continuesWord reports whether s goes on at j with more of a word than
// a sentence's full stop: '_', '-', '=', or '.' before a letter or digit.
func continuesWord(s string, j int) bool {
	return j < len(s) && (strings.IndexByte("_-=", s[j]) >= 0 || s[j] == '.' && j+1 < len(s) && isAWSSecretByte(s[j+1]))
}

func isAWSSecretByte(c byte) bool {
	return isASCIILetter(c) || '0' <= c && c <= '9' || c == '/' || c == '+'
}

// isProviderKey reports whether m, a providerKey match, is a key: an sk-
// key holds a digit or a capital after its prefix (sk-learn-compatible-models
// is a name).
func isProviderKey(m string) bool {
	if !strings.HasPrefix(m, "sk-") {
		return true
	}
	return strings.ContainsAny(m[3:], "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
}

// flagValue matches a command-line flag and the value after it, bare
// (--api-key sk-…), quoted (--api-key "sk-…", also with the quotes
// escaped) or quoted in a Python list (['--api-key', 'sk-…']).
var flagValue = lazyRegexps(
	`(^|\s)(--?[A-Za-z][A-Za-z0-9_-]*)(\s+)(\\?["'])([^"'\\\n]*)(\\?["'])`,
	`(^|\s)(--?[A-Za-z][A-Za-z0-9_-]*)(\s+)()([^\s'"\\]+)()`,
	`(['"])(--?[A-Za-z][A-Za-z0-9_-]*)(['"]\s*,\s*)(['"])([^'"\n]*)(['"])`,
)

// urlQuery matches a URL (or path) with its query string.
var urlQuery = lazyRegexp(`[^\s"'<>?]*\?[^\s"'<>#]+`)

// oauthCode matches the code parameter of a query.
var oauthCode = lazyRegexp(`([?&])code=([^&]+)`)

// secretTextHints are what text must contain, in any case, for any rule
// but a URL's userinfo to find something: every name isSecretKey accepts
// holds one, as do the signing parameters, "Bearer" and "code=".
var secretTextHints = []string{"key", "token", "secret", "pass", "pwd", "auth", "cookie", "credential",
	"bearer", "sig", "code=",
	// providerKey's prefixes, from providerHints on
	"sk-", "akia", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "aiza", "hf_", "eyj",
	// the rules of redactBlocks
	"glpat-", "basic", "-----begin",
	// more of providerKey's (not "sk_", which "task_" holds), an AWS key id's and the webhook URLs'
	"k_live", "k_test", "gsk_", "xai-", "npm_", "pypi-", "r8_", "ya29.", "asia", "hooks"}

// providerHints is the index of the first of secretTextHints that only
// providerKey needs.
const providerHints = 11

// hintFirst and hintSecond hold, for each byte in either case, the bit
// set of the secretTextHints whose first (second) byte it is.
var hintFirst, hintSecond = func() (first, second [256]uint64) {
	for n, h := range secretTextHints {
		for _, c := range []byte{h[0], h[0] &^ 0x20} {
			first[c] |= 1 << n
		}
		for _, c := range []byte{h[1], h[1] &^ 0x20} {
			second[c] |= 1 << n
		}
	}
	return first, second
}()

// secretHintsIn reports whether s holds one of the secretTextHints the
// rules need (rules) and one of those providerKey needs (keys), ignoring
// ASCII case, in one pass of two table look-ups a byte: message content is
// most of a file's bytes.
func secretHintsIn(s string) (rules, keys bool) {
	for i := 0; i+1 < len(s); i++ {
		m := hintFirst[s[i]] & hintSecond[s[i+1]]
		for m != 0 {
			n := bits.TrailingZeros64(m)
			if hasPrefixFold(s[i:], secretTextHints[n]) {
				if n < providerHints {
					rules = true
				} else {
					keys = true
				}
				if rules && keys {
					return rules, keys
				}
			}
			m &^= 1 << n
		}
	}
	return rules, keys
}

// hintSet returns the bit set of the secretTextHints s holds, ignoring
// ASCII case: one pass of two table look-ups a byte.
func hintSet(s string) uint64 {
	var found uint64
	for i := 0; i+1 < len(s); i++ {
		for m := hintFirst[s[i]] & hintSecond[s[i+1]] &^ found; m != 0; m &= m - 1 {
			if n := bits.TrailingZeros64(m); hasPrefixFold(s[i:], secretTextHints[n]) {
				found |= 1 << n
			}
		}
	}
	return found
}

// hintBit is the bit of the secretTextHints word w in a hintSet.
func hintBit(w string) uint64 { return 1 << slices.Index(secretTextHints, w) }

var hintBearer, hintToken, hintCode = hintBit("bearer"), hintBit("token"), hintBit("code=")

var hintBasic, hintPEM, hintCookie = hintBit("basic"), hintBit("-----begin"), hintBit("cookie")

var hintAWS, hintWebhook = hintBit("akia") | hintBit("asia"), hintBit("hooks")

// pemPrivateKey matches a PEM private key block, its END line optional (a
// truncated key), the body as written or with its newlines escaped (a
// JSON dump in text), with RFC 1421 headers (Proc-Type: …).
var pemPrivateKey = lazyRegexp(`-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----((?:[A-Za-z0-9+/=\s]|\\[nr]|[A-Za-z-]+: [^\n\\]*)*)(-----END [A-Z0-9 ]*PRIVATE KEY-----)?`)

// basicAuth matches "Basic <base64>", as an Authorization header sends
// user:password.
var basicAuth = lazyRegexp(`(?i)\b(basic)(\s+)([A-Za-z0-9+/]{4,}={0,2})`)

// cookieHeader matches a Cookie or Set-Cookie header's value.
var cookieHeader = lazyRegexp(`(?i)\b((?:set-)?cookie)(\s*:\s*)([^\r\n"']+)`)

// cookiePair matches one name=value of a cookie header.
var cookiePair = lazyRegexp(`([A-Za-z0-9_.!#$%&*+^|~-]+)=([^;\s,]*)`)

// isBasicCredential reports whether b64 decodes to user:password text.
func isBasicCredential(b64 string) bool {
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return false
	}
	user, pass, ok := strings.Cut(string(b), ":")
	if !ok || pass == "" || !utf8.Valid(b) {
		return false
	}
	for _, r := range user + pass {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// redactBlocks redacts, in conversation text and error text alike: PEM
// private key blocks (the body, keeping the BEGIN and END lines), the
// credential of "Basic <base64 of user:password>", and the values of the
// name=value pairs of a Cookie or Set-Cookie header. found is s's hintSet.
func redactBlocks(s string, found uint64) string {
	if found&hintPEM != 0 && strings.Contains(s, "PRIVATE KEY-----") {
		re := pemPrivateKey()
		s = replaceEach(re, s, 0, func(string) bool { return false }, func(sub []string) (string, bool) {
			if strings.TrimSpace(sub[2]) == "" {
				return "", false // redacted already (Placeholder follows), or empty
			}
			return "-----BEGIN " + sub[1] + "PRIVATE KEY-----" + Placeholder + sub[3], true
		})
	}
	if found&hintBasic != 0 {
		s = replaceEach(basicAuth(), s, 0, func(string) bool { return false }, func(sub []string) (string, bool) {
			if !isBasicCredential(sub[3]) {
				return "", false
			}
			return sub[1] + sub[2] + Placeholder, true
		})
	}
	if found&hintCookie != 0 && strings.Contains(s, "=") {
		s = replaceEach(cookieHeader(), s, 0, func(string) bool { return false }, func(sub []string) (string, bool) {
			value := cookiePair().ReplaceAllStringFunc(sub[3], func(m string) string {
				name, v, _ := strings.Cut(m, "=")
				if v == "" || strings.HasPrefix(v, Placeholder) || cookieAttributes[strings.ToLower(name)] {
					return m
				}
				return name + "=" + Placeholder
			})
			return sub[1] + sub[2] + value, value != sub[3]
		})
	}
	return s
}

// cookieAttributes are Set-Cookie attributes, not cookies.
var cookieAttributes = map[string]bool{"path": true, "domain": true, "expires": true, "max-age": true, "samesite": true}

// hasPrefixFold reports whether s starts with h (lower-case ASCII letters,
// '=', '-' and '_'), ignoring the case of its letters.
func hasPrefixFold(s, h string) bool {
	if len(s) < len(h) {
		return false
	}
	for j := 1; j < len(h); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != h[j] {
			return false
		}
	}
	return true
}

// containsFold reports whether s holds sub (lower-case ASCII letters and
// '='), ignoring case.
func containsFold(s, sub string) bool {
	for i := 0; i < len(s); i++ {
		if s[i]|0x20 == sub[0] && hasPrefixFold(s[i:], sub) {
			return true
		}
	}
	return false
}

// Text returns s with credentials replaced by Placeholder, keeping the
// rest of the text as written, in order:
//   - the password of a URL's userinfo (user:…@);
//   - API keys in their providers' formats and JSON Web Tokens, anywhere
//     (providerKey), a bare AWS secret access key beside an access key id
//     (redactAWSSecrets), and the secret path of a Slack or Discord
//     webhook URL (webhookURL);
//   - NAME=VALUE, NAME = VALUE and NAME: VALUE where NAME is a credential
//     key (isSecretKey; it may be two words, as in "Received API Key = …")
//     or, without spaces, a signing query parameter (Gemini's ?key=,
//     Azure's sig=); a quoted VALUE keeps its quotes. "pwd: …" is shell
//     output, not a key, and stays;
//   - the quoted value of a quoted credential key, as JSON or Python's repr
//     writes them inside text ("api_key": "…", 'Authorization': 'Bearer …'),
//     or as a tuple's first two items (('api_key', '…'));
//   - the key of OpenAI's "Incorrect API key provided: …";
//   - Authorization-like header text (Authorization: …, X-Api-Key: …);
//   - the token of "Bearer <token>" anywhere, when it looks like one (20
//     characters or more, or 8 or more with a digit: "Bearer authentication"
//     stays), and of "token <token>" when it also holds a digit or one of
//     _-./+~ ("token authentication" stays);
//   - the value after a credential flag (--api-key …, --api-key "…",
//     ['--password', '…']);
//   - the code parameter of an OAuth redirect: a query that also has
//     state=, scope=, session_state= or redirect_uri=, or a path with
//     oauth, callback or authorize in it (an order's ?code= stays).
//
// A scheme word (Bearer, Basic, Token) before a value is kept. Text already
// redacted is left alone, so a second pass changes nothing.
func Text(s string) string { return redactText(s, true) }

// Content is Text for conversation text (message content, a
// task's instruction): labels with a colon (NAME: VALUE, Authorization: …)
// are left out, since in a conversation or a tool's answer they are data
// ("Credentials: MD, FAAN", "Insurance Authorization: A-1234"), unless
// NAME names a credential unambiguously (isCredentialLabel: api_key: …,
// password: …); a Bearer token after Authorization: is still found.
func Content(s string) string { return redactText(s, false) }

func redactText(s string, labels bool) string {
	// One pass can bring a match within another rule's reach (a shorter
	// quoted key, say): repeat until nothing changes, so that redacting
	// redacted text changes nothing. Each pass only replaces secrets with
	// Placeholder, so a few passes suffice.
	for range maxRedactPasses {
		next := redactTextOnce(s, labels)
		if next == s {
			break
		}
		s = next
	}
	return s
}

// maxRedactPasses bounds redactText's passes.
const maxRedactPasses = 8

func redactTextOnce(s string, labels bool) string {
	if strings.Contains(s, "@") && strings.Contains(s, "://") {
		s = userinfo().ReplaceAllStringFunc(s, func(m string) string {
			sub := userinfo().FindStringSubmatch(m)
			if strings.HasPrefix(sub[2], Placeholder) {
				return m
			}
			return sub[1] + ":" + Placeholder + "@"
		})
	}
	// No replacement below adds a hint word (each puts Placeholder between
	// text that was there), so found stays true of every later s where it
	// says a word is absent.
	found := hintSet(s)
	rules, keys := found&(1<<providerHints-1) != 0, found>>providerHints != 0
	names := found&nameHints != 0
	if keys {
		if found&hintAWS != 0 {
			s = redactAWSSecrets(s) // before the key ids that show them go
		}
		if found&hintWebhook != 0 {
			s = redactWebhooks(s)
		}
		if mayHoldProviderKey(s) {
			s = providerKey().ReplaceAllStringFunc(s, func(m string) string {
				if !isProviderKey(m) {
					return m
				}
				return Placeholder
			})
		}
		s = redactBlocks(s, found)
	} else if found&hintCookie != 0 {
		s = redactBlocks(s, found)
	}
	if !rules {
		return s
	}
	if strings.Contains(s, "=") {
		s = redactAssignments(s)
		if found&hintCode != 0 && containsFold(s, "code=") {
			s = urlQuery().ReplaceAllStringFunc(s, redactOAuthCode)
		}
	}
	if strings.Contains(s, ":") {
		for i, re := range quotedPair() {
			if !mayHoldQuotedName(s, `"'`[i], names) {
				continue
			}
			s = re.ReplaceAllStringFunc(s, func(m string) string {
				sub := re.FindStringSubmatch(m)
				if !isSecretKey(sub[1]) {
					return m
				}
				scheme, value := splitScheme(sub[3])
				if value == "" || strings.HasPrefix(value, Placeholder) {
					return m
				}
				q := m[:1]
				return q + sub[1] + q + sub[2] + q + scheme + Placeholder + q
			})
		}
		if labels {
			s = headerLine().ReplaceAllStringFunc(s, func(m string) string {
				sub := headerLine().FindStringSubmatch(m)
				if strings.HasPrefix(sub[4], Placeholder) {
					return m
				}
				return sub[1] + sub[2] + sub[3] + Placeholder
			})
		}
	}
	if strings.Contains(s, ",") && (strings.Contains(s, "('") || strings.Contains(s, "['") || strings.Contains(s, "(\"") || strings.Contains(s, "[\"")) {
		for _, re := range tuplePair() {
			s = re.ReplaceAllStringFunc(s, func(m string) string {
				sub := re.FindStringSubmatch(m)
				if !isSecretKey(sub[2]) {
					return m
				}
				scheme, value := splitScheme(sub[4])
				if value == "" || strings.HasPrefix(value, Placeholder) {
					return m
				}
				return sub[1] + sub[2] + sub[3] + scheme + Placeholder + m[len(m)-1:]
			})
		}
	}
	if strings.ContainsAny(s, "=:") && mayHoldSpacedName(s, names) && hintBeforeSeparator(s) {
		// A declined match is searched again from its value on: in
		// "config loaded: api_key: …" the first match is "config loaded".
		s = replaceEach(spacedAssignment(), s, 3, func(string) bool { return true }, func(sub []string) (string, bool) {
			name, sep, value := sub[1], sub[2], sub[3]
			colon := strings.Contains(sep, ":")
			if first, second, two := strings.Cut(name, " "); two && strings.EqualFold(second, "key") && !spacedKeyQualifiers[strings.ToLower(first)] {
				return "", false // prose: "order key = AB12", not "API Key = …"
			}
			if !isSecretKey(name) || colon && (strings.EqualFold(name, "pwd") || !labels && !isCredentialLabel(name)) {
				return "", false
			}
			quote := ""
			if value[0] == '\'' || value[0] == '"' {
				quote, value = value[:1], value[1:len(value)-1]
			}
			switch strings.ToLower(value) {
			case "", strings.ToLower(Placeholder), "bearer", "basic", "token", "none", "null", "true", "false":
				return "", false
			}
			if colon && !labels && quote == "" && !secretLooking(value) {
				return "", false // conversation: "Reset password: click the link"
			}
			return name + sep + quote + Placeholder + quote, true
		})
		if containsFold(s, "provided:") {
			s = keyProvided().ReplaceAllString(s, "${1}"+Placeholder)
		}
	}
	if found&hintBearer != 0 && containsFold(s, "bearer") || found&hintToken != 0 && containsFold(s, "token") {
		s = replaceEach(bearerToken(), s, 3, func(v string) bool { return strings.EqualFold(v, "token") || strings.EqualFold(v, "bearer") }, func(sub []string) (string, bool) {
			token := strings.TrimRight(sub[3], ".") // a sentence's full stop stays
			if !looksLikeToken(token) || strings.EqualFold(sub[1], "token") && !strings.ContainsAny(token, "0123456789_-./+~") {
				return "", false
			}
			return sub[1] + sub[2] + Placeholder + sub[3][len(token):], true
		})
	}
	if mayHoldFlag(s) {
		for _, re := range flagValue() {
			s = re.ReplaceAllStringFunc(s, func(m string) string {
				sub := re.FindStringSubmatch(m)
				if !isSecretFlag(sub[2]) || sub[5] == "" || strings.HasPrefix(sub[5], Placeholder) || strings.HasPrefix(sub[5], "-") {
					return m
				}
				return sub[1] + sub[2] + sub[3] + sub[4] + Placeholder + sub[6]
			})
		}
	}
	return s
}

// nameHints is the bit set of the secretTextHints that every name
// isSecretKey accepts holds: key, token, secret, pass, pwd, auth, cookie and
// credential.
const nameHints = 1<<8 - 1

// forEachNameHint calls found with the end of each nameHints word in s
// (ASCII case ignored) until it returns true, and reports whether one did.
func forEachNameHint(s string, found func(end int) bool) bool {
	for i := 0; i+1 < len(s); i++ {
		m := hintFirst[s[i]] & hintSecond[s[i+1]] & nameHints
		for m != 0 {
			n := bits.TrailingZeros64(m)
			if hasPrefixFold(s[i:], secretTextHints[n]) && found(i+len(secretTextHints[n])) {
				return true
			}
			m &^= 1 << n
		}
	}
	return false
}

// foldsToASCII reports whether s holds a letter that strings.ToLower or
// (?i) turns into an ASCII one (the Kelvin sign, dotted capital I, long s),
// which the ASCII look-ups of forEachNameHint do not see but isSecretKey
// and the regular expressions do. Text with one takes the full search.
func foldsToASCII(s string) bool {
	return strings.Contains(s, "\u212a") || strings.Contains(s, "\u0130") || strings.Contains(s, "\u017f")
}

// mayHoldQuotedName reports whether some quotedPair match with quote q
// could name a credential; names is whether s holds a name hint at all. Its name holds a name hint and no q, so it is
// the text between the q's either side of the hint; it must be one that
// isSecretKey accepts, followed by blanks, ':', blanks and q. Most JSON in
// conversation text has none ("Mechanical Keyboard": …), and the regular
// expression is costly.
func mayHoldQuotedName(s string, q byte, names bool) bool {
	return foldsToASCII(s) || names && forEachNameHint(s, func(j int) bool {
		// A name of 64 runes takes at most 256 bytes.
		w := max(0, j-300)
		open := strings.LastIndexByte(s[w:j], q)
		if open < 0 {
			return false
		}
		open += w
		// The closing q is looked for no further than a name of 64 runes
		// can reach: scanning on to the end of s for every hint made text
		// of many hints and no q ("Authorization: " repeated) quadratic.
		// The hint may end past that reach (a q 257 to 300 bytes before it):
		// then no name of 64 runes holds it, and j may be len(s).
		end := min(len(s), open+1+256+1)
		for j < end && s[j] != q && s[j] != '\\' && s[j] != '\n' {
			j++
		}
		if j >= end || s[j] != q {
			return false
		}
		if name := s[open+1 : j]; strings.ContainsAny(name, "\\\n") || utf8.RuneCountInString(name) > 64 || !isSecretKey(name) {
			return false
		}
		j = skipSpace(s, j+1, "\t\n\f\r ")
		if j == len(s) || s[j] != ':' {
			return false
		}
		j = skipSpace(s, j+1, "\t\n\f\r ")
		return j < len(s) && s[j] == q
	})
}

// mayHoldSpacedName reports whether some spacedAssignment match could name
// a credential (names as for mayHoldQuotedName): a name hint is followed by the rest of its word, maybe one
// space and a second word, then blanks and '=' or ':'. It is a necessary
// condition only, and cheap: conversation text seldom meets it.
func mayHoldSpacedName(s string, names bool) bool {
	// A hint inside the word another hint ended in gives the same answer
	// (it depends on the word's end only): skipping it keeps a long word
	// of many hints linear.
	wordEnd := -1
	return foldsToASCII(s) || names && forEachNameHint(s, func(j int) bool {
		if j <= wordEnd {
			return false
		}
		j = skipNameChars(s, j)
		wordEnd = j
		if k := skipSpace(s, j, " \t"); k < len(s) && (s[k] == '=' || s[k] == ':') {
			return true
		}
		if j+1 < len(s) && s[j] == ' ' && isASCIILetter(s[j+1]) {
			k := skipSpace(s, skipNameChars(s, j+1), " \t")
			return k < len(s) && (s[k] == '=' || s[k] == ':')
		}
		return false
	})
}

// skipNameChars returns the index of the first byte from i on that is not
// in [A-Za-z0-9_-].
func skipNameChars(s string, i int) int {
	for i < len(s) && (isASCIILetter(s[i]) || '0' <= s[i] && s[i] <= '9' || s[i] == '_' || s[i] == '-') {
		i++
	}
	return i
}

// skipSpace returns the index of the first byte from i on not in space.
func skipSpace(s string, i int, space string) int {
	for i < len(s) && strings.IndexByte(space, s[i]) >= 0 {
		i++
	}
	return i
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// hintBeforeSeparator reports whether some '=' or ':' of s has a secret
// hint word within the 96 bytes before it: every NAME spacedAssignment
// may accept holds one, and conversation text is mostly without, so the
// costly search is skipped.
func hintBeforeSeparator(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '=' && s[i] != ':' {
			continue
		}
		if rules, _ := secretHintsIn(s[max(0, i-96):i]); rules {
			return true
		}
	}
	return false
}

// redactAssignments redacts NAME=VALUE where NAME names a credential, or
// is a signing parameter (key, sig, …) of a URL's query: after ?, & or ;, so
// that "order key=AB12CD" in prose stays.
func redactAssignments(s string) string {
	var b strings.Builder
	last := 0
	for _, loc := range assignment().FindAllStringSubmatchIndex(s, -1) {
		name, value := s[loc[2]:loc[3]], s[loc[4]:loc[5]]
		inQuery := loc[0] > 0 && strings.IndexByte("?&;", s[loc[0]-1]) >= 0
		if strings.HasPrefix(value, Placeholder) || !(isSecretKey(name) || inQuery && secretURLParams[strings.ToLower(name)]) {
			continue
		}
		b.WriteString(s[last:loc[4]])
		b.WriteString(Placeholder)
		last = loc[5]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// secretLooking reports whether an unquoted label value in conversation
// text looks like a secret rather than words: it holds a digit or a
// symbol, or is one long run of letters.
func secretLooking(v string) bool {
	if len(v) >= 12 {
		return true
	}
	for _, r := range v {
		if !unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// replaceEach is re.ReplaceAllStringFunc for a func that may decline a
// match (ok false): the search then resumes at the start of submatch
// resume when retry accepts it, so a credential that a declined match
// overlaps is still found, and at the match's end otherwise.
func replaceEach(re *regexp.Regexp, s string, resume int, retry func(string) bool, f func(sub []string) (string, bool)) string {
	var b strings.Builder
	changed, pos, last := false, 0, 0
	for pos < len(s) {
		loc := re.FindStringSubmatchIndex(s[pos:])
		if loc == nil {
			break
		}
		sub := make([]string, len(loc)/2)
		for i := range sub {
			if loc[2*i] >= 0 {
				sub[i] = s[pos+loc[2*i] : pos+loc[2*i+1]]
			}
		}
		if out, ok := f(sub); ok {
			b.WriteString(s[last : pos+loc[0]])
			b.WriteString(out)
			changed, last = true, pos+loc[1]
			pos = max(last, pos+loc[0]+1)
			continue
		}
		next := pos + loc[1]
		if loc[2*resume] >= 0 && retry(sub[resume]) {
			next = pos + loc[2*resume]
		}
		pos = max(next, pos+loc[0]+1)
	}
	if !changed {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// isCredentialLabel reports whether NAME in a "NAME: VALUE" label of
// conversation text names a credential unambiguously, so that its value
// is redacted there too: one identifier that isSecretKey accepts and that
// holds a password word (password, passwd, passphrase) or a fused one
// (apikey, secretkey, clientsecret), or joins two or more words with '_',
// '-' or camelCase one of which is key, token, secret or pwd (api_key,
// access_token, client_secret, OPENAI_API_KEY, X-Api-Key, db_pwd). The
// last word of a two-word NAME is taken alone ("my password: …"). A label
// that is data in a conversation stays: Credentials, Authorization,
// Cookie, Token, Secret or Key alone, and any label of words spaced apart
// ("Insurance Authorization: A-1234", "API Key: …").
func isCredentialLabel(name string) bool {
	if _, last, ok := strings.Cut(name, " "); ok {
		name = last
	}
	if !isSecretKey(name) {
		return false
	}
	lower := strings.ToLower(name)
	for _, part := range []string{"password", "passwd", "passphrase", "apikey", "secretkey", "clientsecret"} {
		if strings.Contains(lower, part) {
			return true
		}
	}
	words := keyWords(name)
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		switch w {
		case "key", "keys", "token", "secret", "secrets", "pwd":
			return true
		}
	}
	return false
}

// mayHoldFlag reports whether s holds a '-' at the start of a word
// (after a space, a quote or the start of s) and before a letter or a
// second '-', as flagValue's flags start: most hyphens are inside words
// or start a list item.
func mayHoldFlag(s string) bool {
	for i := strings.IndexByte(s, '-'); i >= 0; {
		start := i == 0 || s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\n' || s[i-1] == '\r' || s[i-1] == '\'' || s[i-1] == '"'
		if start && i+1 < len(s) && (s[i+1] == '-' || 'a' <= s[i+1]|0x20 && s[i+1]|0x20 <= 'z') {
			return true
		}
		j := strings.IndexByte(s[i+1:], '-')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// splitScheme splits an authorization scheme word off a header value.
func splitScheme(v string) (scheme, rest string) {
	word, after, ok := strings.Cut(v, " ")
	switch strings.ToLower(word) {
	case "bearer", "basic", "token":
		if ok {
			return word + " ", strings.TrimLeft(after, " ")
		}
	}
	return "", v
}

// looksLikeToken reports whether t is long or digit-bearing enough to be a
// bearer token rather than a word.
func looksLikeToken(t string) bool {
	return len(t) >= 20 || len(t) >= 8 && strings.ContainsAny(t, "0123456789")
}

// redactOAuthCode redacts the code parameter of an OAuth redirect URL.
func redactOAuthCode(u string) string {
	path, query, _ := strings.Cut(u, "?")
	lowerPath, lowerQuery := strings.ToLower(path), "&"+strings.ToLower(query)
	oauth := strings.Contains(lowerPath, "oauth") || strings.Contains(lowerPath, "callback") || strings.Contains(lowerPath, "authorize")
	for _, p := range []string{"&state=", "&scope=", "&session_state=", "&redirect_uri="} {
		oauth = oauth || strings.Contains(lowerQuery, p)
	}
	if !oauth {
		return u
	}
	return oauthCode().ReplaceAllStringFunc(u, func(m string) string {
		if strings.HasSuffix(m, "="+Placeholder) {
			return m
		}
		return m[:1] + "code=" + Placeholder
	})
}

// isCredentialValue reports whether v can hold a credential: a non-empty
// string not redacted already, an array or an object (numbers, booleans
// and null cannot).
func isCredentialValue(v any) bool {
	switch x := v.(type) {
	case string:
		return x != "" && x != Placeholder
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
var secretHints = [][]byte{[]byte("key"), []byte("token"), []byte("secret"), []byte("passw"), []byte("auth"), []byte("pwd"), []byte("bearer"), []byte("code="),
	[]byte("credential"), []byte("cookie"), []byte("://"), []byte("sig"), []byte("phrase"),
	[]byte("sk-"), []byte("akia"), []byte("ghp_"), []byte("gho_"), []byte("ghu_"), []byte("ghs_"), []byte("ghr_"), []byte("github_pat_"),
	[]byte("xox"), []byte("aiza"), []byte("hf_"), []byte("eyj"), []byte("glpat-"), []byte("basic"), []byte("-----begin"),
	[]byte("k_live"), []byte("k_test"), []byte("gsk_"), []byte("xai-"), []byte("npm_"), []byte("pypi-"), []byte("r8_"), []byte("ya29."), []byte("asia"), []byte("hooks")}

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

// Field is Secrets for a field kept as the source wrote it (a trajectory's
// extra fields, its reward_info): raw comes back byte for byte, same slice,
// when it holds no credential or is not valid JSON; otherwise its
// re-encoding with every credential replaced.
func Field(raw json.RawMessage) json.RawMessage {
	if mayHoldSecret(raw) {
		if clean, paths := Secrets(raw); paths != nil {
			return clean
		}
	}
	return raw
}

// Arguments is Field for a tool call's arguments (parsed JSON, or a JSON
// string of the raw text when they did not parse): raw comes back byte for
// byte when it holds no credential; otherwise re-encoded, still valid JSON,
// with the values of credential keys (password, token, api_key, secret,
// authorization, …) and what Text finds in any string replaced by
// Placeholder. Ordinary arguments (ids, emails, amounts) stay as written.
// Unlike Field, a kwargs or arguments beside a name is redacted too: the
// arguments are the agent's, not a task's ground truth.
func Arguments(raw json.RawMessage) json.RawMessage {
	if mayHoldSecret(raw) {
		if clean, paths := redactJSON(raw, false); paths != nil {
			return clean
		}
	}
	return raw
}

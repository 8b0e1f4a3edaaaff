package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/redact"
)

// Defaults of LLMConfig.
const (
	DefaultLLMBaseURL    = "https://api.openai.com/v1"
	DefaultLLMTimeout    = 60 * time.Second
	DefaultLLMMaxRetries = 4
	DefaultLLMRetryDelay = 500 * time.Millisecond
)

const (
	// llmMaxBackoff caps one computed backoff wait, as the SDK does.
	llmMaxBackoff = 8 * time.Second
	// llmMaxRetryAfter is the longest server-directed wait honoured; a
	// longer Retry-After ends the retries with the error in hand.
	llmMaxRetryAfter = 2 * time.Minute
)

// LLMConfig configures an LLMClient. It is filled by cmd (from flags and
// OPENAI_BASE_URL / OPENAI_API_KEY); package sim reads no environment.
type LLMConfig struct {
	// BaseURL is the root of an OpenAI-compatible API, such as
	// "https://api.openai.com/v1", "http://localhost:8000/v1" (vLLM,
	// SGLang), "http://localhost:11434/v1" (Ollama) or
	// "https://openrouter.ai/api/v1". Empty means DefaultLLMBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token; empty sends no Authorization
	// header. It never appears in errors.
	APIKey string
	// Model is the model name sent with every request. Required.
	Model string
	// Temperature is sent when non-nil; nil leaves the server's default.
	Temperature *float64
	// Timeout bounds each request attempt. Zero means DefaultLLMTimeout.
	Timeout time.Duration
	// MaxRetries is how many times a failed request is retried after the
	// first attempt. Zero means DefaultLLMMaxRetries; negative means none.
	MaxRetries int
	// RetryDelay is the base of the exponential backoff: the n-th retry
	// waits RetryDelay·2ⁿ (capped at 8 s) less up to 25% jitter, unless the
	// server sent Retry-After. Zero means DefaultLLMRetryDelay.
	RetryDelay time.Duration
	// Prices gives the cost of the model's tokens; nil or a table without
	// the model leaves Usage.Cost nil.
	Prices PriceTable
	// HTTPClient sends the requests; nil means a plain http.Client.
	HTTPClient *http.Client
	// Note, when not nil, receives a note the first time a reply's usage
	// is missing or implausible and the first time a cost is not finite
	// (both are then stored as unknown); it may be called from several
	// goroutines at once.
	Note func(note string)
}

// Price is the price of a model's tokens in USD per million tokens.
type Price struct {
	PromptPerMTok     float64 `json:"prompt_per_mtok"`
	CompletionPerMTok float64 `json:"completion_per_mtok"`
}

// PriceTable maps a model name, as sent in requests or returned by the
// server, to its Price.
type PriceTable map[string]Price

// Cost returns the USD cost of a call to model:
// (prompt·PromptPerMTok + completion·CompletionPerMTok) / 10⁶.
// It returns nil when the table has no price for model (never 0).
// A cost that is not finite (a finite price of 1e308 times a token count)
// is nil too: unknown, never infinite.
func (t PriceTable) Cost(model string, promptTokens, completionTokens int) *float64 {
	p, ok := t[model]
	if !ok {
		return nil
	}
	return finiteOrNil((float64(promptTokens)*p.PromptPerMTok + float64(completionTokens)*p.CompletionPerMTok) / 1e6)
}

// MaxPlausibleTokens is the largest token count of one call that usage
// accounting believes; a larger count (or a negative, fractional or
// non-numeric one) is unknown.
const MaxPlausibleTokens = 1e12

// plausibleTokens reads a token count as the server wrote it (raw JSON):
// ok only for a non-negative integer of at most MaxPlausibleTokens.
func plausibleTokens(raw string) (int, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
	if err != nil || !(f >= 0 && f <= MaxPlausibleTokens) || f != math.Trunc(f) {
		return 0, false
	}
	return int(f), true
}

// LoadPriceTable reads a JSON object mapping model names to
// {"prompt_per_mtok": x, "completion_per_mtok": y}. Both prices are
// required and must be finite and non-negative; unknown fields are errors.
func LoadPriceTable(r io.Reader) (PriceTable, error) {
	type entry struct {
		Prompt     *float64 `json:"prompt_per_mtok"`
		Completion *float64 `json:"completion_per_mtok"`
	}
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var raw map[string]entry
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("price table: %w", err)
	}
	t := make(PriceTable, len(raw))
	for model, e := range raw {
		switch {
		case e.Prompt == nil:
			return nil, fmt.Errorf("price table: model %q: missing prompt_per_mtok", model)
		case e.Completion == nil:
			return nil, fmt.Errorf("price table: model %q: missing completion_per_mtok", model)
		case !validPrice(*e.Prompt) || !validPrice(*e.Completion):
			return nil, fmt.Errorf("price table: model %q: prices must be finite and non-negative", model)
		}
		t[model] = Price{PromptPerMTok: *e.Prompt, CompletionPerMTok: *e.Completion}
	}
	return t, nil
}

func validPrice(p float64) bool { return p >= 0 && !math.IsInf(p, 0) }

// LLMError is the error of a chat completion that failed after its retries
// were exhausted, or that could not be retried. Its text names the model
// and the HTTP status and never contains the API key.
type LLMError struct {
	Model string
	// StatusCode is the HTTP status of the last attempt; 0 when no response
	// arrived (timeout, connection failure).
	StatusCode int
	// Attempts is the number of requests made.
	Attempts int
	// Err is the cause: an *openai.Error, context.DeadlineExceeded, a
	// transport error, or a malformed response.
	Err error

	msg string // the redacted text
}

// Error returns the redacted message.
func (e *LLMError) Error() string { return e.msg }

// Unwrap returns the cause.
func (e *LLMError) Unwrap() error { return e.Err }

// LLMClient sends Chat Completions requests to an OpenAI-compatible server
// with per-attempt timeouts, retries and usage accounting. It is safe for
// concurrent use. LLMAgent and LLMUser share one.
type LLMClient struct {
	cfg  LLMConfig
	chat openai.ChatCompletionService

	// usageNoted and costNoted make each note once per client.
	usageNoted, costNoted sync.Once
}

// NewLLMClient returns a client for cfg, with defaults filled in. It
// returns an error when Model is empty or BaseURL is not an http(s) URL.
func NewLLMClient(cfg LLMConfig) (*LLMClient, error) {
	if cfg.Model == "" {
		return nil, errors.New("llm: no model")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultLLMBaseURL
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("llm %s: base url %q is not an http(s) URL", cfg.Model, cfg.BaseURL)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultLLMTimeout
	}
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultLLMMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	if cfg.RetryDelay <= 0 {
		cfg.RetryDelay = DefaultLLMRetryDelay
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	// openai.NewClient would read OPENAI_* variables; the bare service
	// reads only the options given here. The SDK's own retries are off:
	// it does not retry a per-attempt timeout, so the loop in Complete
	// retries everything under one budget.
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL),
		option.WithAPIKey(cfg.APIKey),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
	}
	c := &LLMClient{cfg: cfg}
	// readReply is outermost: it sees no event stream, which
	// refuseEventStream turns into an error unread.
	c.chat = openai.NewChatCompletionService(append(opts, option.WithMiddleware(c.readReply, refuseEventStream))...)
	return c, nil
}

// MaxReplyBytes is the most bytes of one reply's body (a completion or an
// error) the client reads, as ingest.DefaultMaxRecord bounds one record
// of a file: 3 MiB. A longer reply is a *ReplyTooLargeError.
const MaxReplyBytes = 3 << 20

// ReplyTooLargeError is the cause of an LLMError when the server's reply
// was longer than MaxReplyBytes: it is not read further, nor retried, and
// the episode ends in an error, as with a malformed reply.
type ReplyTooLargeError struct {
	Endpoint string // the URL that answered
	Limit    int64  // MaxReplyBytes
}

func (e *ReplyTooLargeError) Error() string {
	return fmt.Sprintf("%s answered with a reply of more than %d MiB (%d bytes), the most emobench reads of one reply",
		e.Endpoint, e.Limit>>20, e.Limit)
}

// readReply reads the reply's body, at most MaxReplyBytes of it, and
// hands the SDK that body with the API key replaced by "[redacted]" in
// every field (content, refusal, reasoning, tool-call ids, names and
// arguments, error messages), however JSON escapes it: an endpoint that
// echoes the key reaches neither the transcript, nor a tool result built
// from a tool name, nor the stored run.
func (c *LLMClient) readReply(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if err != nil {
		return res, err
	}
	defer res.Body.Close()
	tooLarge := &ReplyTooLargeError{Endpoint: c.endpoint(), Limit: MaxReplyBytes}
	if res.ContentLength > MaxReplyBytes {
		return nil, tooLarge
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, MaxReplyBytes+1))
	if err != nil {
		return nil, fmt.Errorf("error reading response body: %w", err)
	}
	if len(body) > MaxReplyBytes {
		return nil, tooLarge
	}
	if k := c.secretKey(); k != "" {
		body = redact.Known(body, k)
	}
	res.Body, res.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	res.Header.Del("Content-Length")
	return res, nil
}

// StreamError is the cause of an LLMError when the server answered a
// non-streaming request with an event stream, which the client does not
// read (some proxies stream whatever is asked).
type StreamError struct {
	Endpoint string // the URL that streamed
}

func (e *StreamError) Error() string {
	return fmt.Sprintf("%s answered with an event stream (text/event-stream) to a request that asked for none; "+
		"emobench reads only JSON completions: use an endpoint (or a proxy setting) that honours \"stream\": false", e.Endpoint)
}

// refuseEventStream turns a successful event-stream response into a
// *StreamError before the SDK tries to decode it as JSON.
func refuseEventStream(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if err != nil || res.StatusCode >= 400 {
		return res, err
	}
	if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); mt == "text/event-stream" {
		res.Body.Close()
		u := *req.URL
		u.RawQuery, u.User = "", nil
		return nil, &StreamError{Endpoint: u.String()}
	}
	return res, nil
}

// RequestSeed is the sampling seed of one request: a hash of the episode
// seed, the role ("agent" or "user") and the turn (the transcript's length
// when the request is made), in [0, 2³¹) so that every server's seed type
// holds it. It differs by trial and by role, so trials are independent on
// servers that honour seeds, and the same episode seed repeats it.
func RequestSeed(episodeSeed uint64, role string, turn int) int64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%d", episodeSeed, role, turn)
	// FNV-1a of strings that differ in their last byte differ mostly in
	// low bits: SplitMix64's finaliser spreads them over the range.
	z := h.Sum64()
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return int64(z & math.MaxInt32)
}

// Model returns the configured model name.
func (c *LLMClient) Model() string { return c.cfg.Model }

// Complete sends params, with the client's model and temperature set (the
// caller sets the seed: RequestSeed), and returns the first choice's message and the call's usage (Cost from
// the price table; nil when the model has no price or the server reported
// no usage). The API key, when it is at least 8 characters long, is
// replaced by "[redacted]" in every field of the reply (readReply), tool
// calls included. Requests answered 408, 409, 429 or 5xx, attempts that time
// out and connection failures are retried with exponential backoff and
// jitter, honouring Retry-After-Ms and Retry-After; ctx bounds everything.
// A server that answers with an event stream (text/event-stream) is not
// retried: emobench never asks for streaming. Failures are returned as
// *LLMError.
func (c *LLMClient) Complete(ctx context.Context, params openai.ChatCompletionNewParams) (openai.ChatCompletionMessage, emobench.Usage, error) {
	params.Model = c.cfg.Model
	if c.cfg.Temperature != nil {
		params.Temperature = openai.Float(*c.cfg.Temperature)
	}
	for attempt := 0; ; attempt++ {
		comp, err := c.attempt(ctx, params)
		if err == nil {
			if len(comp.Choices) == 0 {
				return openai.ChatCompletionMessage{}, emobench.Usage{}, c.fail(errors.New("response has no choices"), attempt+1)
			}
			// readReply took the key out of every field already.
			return comp.Choices[0].Message, c.usage(comp), nil
		}
		if ctx.Err() != nil {
			return openai.ChatCompletionMessage{}, emobench.Usage{}, c.fail(err, attempt+1)
		}
		delay, retry := c.retryDelay(err, attempt)
		if !retry || attempt >= c.cfg.MaxRetries {
			return openai.ChatCompletionMessage{}, emobench.Usage{}, c.fail(err, attempt+1)
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return openai.ChatCompletionMessage{}, emobench.Usage{}, c.fail(ctx.Err(), attempt+1)
		case <-t.C:
		}
	}
}

// attempt makes one request under the per-attempt timeout. The SDK reads
// the whole body before returning, so cancelling afterwards is safe.
func (c *LLMClient) attempt(ctx context.Context, params openai.ChatCompletionNewParams) (*openai.ChatCompletion, error) {
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	return c.chat.New(actx, params)
}

// usage is the call's usage as the server reported it. A missing or null
// usage, or a token count that is not a plausible non-negative integer
// (plausibleTokens), gives unknown tokens (stored as NULL, never 0) and
// an unknown cost; a cost that is not finite is unknown too.
func (c *LLMClient) usage(comp *openai.ChatCompletion) emobench.Usage {
	prompt, okP := plausibleTokens(comp.Usage.JSON.PromptTokens.Raw())
	completion, okC := plausibleTokens(comp.Usage.JSON.CompletionTokens.Raw())
	if !comp.JSON.Usage.Valid() || !okP || !okC {
		c.note(&c.usageNoted, "llm %s: a reply's usage is missing or not plausible token counts (%s): its tokens and cost are stored as unknown (NULL); later such replies are not noted",
			c.cfg.Model, c.redact(clip(comp.JSON.Usage.Raw(), 120)))
		return emobench.Usage{TokensUnknown: true}
	}
	u := emobench.Usage{PromptTokens: prompt, CompletionTokens: completion}
	model := c.cfg.Model
	if _, ok := c.cfg.Prices[model]; !ok && comp.Model != "" {
		model = comp.Model
	}
	if _, priced := c.cfg.Prices[model]; priced {
		if u.Cost = c.cfg.Prices.Cost(model, prompt, completion); u.Cost == nil {
			c.note(&c.costNoted, "llm %s: the cost of %d prompt and %d completion tokens at the price table's prices of %s is not a finite number: stored as unknown (NULL); later such costs are not noted",
				c.cfg.Model, prompt, completion, model)
		}
	}
	return u
}

func (c *LLMClient) note(once *sync.Once, format string, args ...any) {
	if c.cfg.Note != nil {
		once.Do(func() { c.cfg.Note(fmt.Sprintf(format, args...)) })
	}
}

// clip is s, or its first n bytes and "…"; "" reads "none".
func clip(s string, n int) string {
	switch {
	case s == "":
		return "none"
	case len(s) > n:
		return strings.ToValidUTF8(s[:n], "") + "…"
	}
	return s
}

// retryDelay reports whether err is worth another attempt and how long to
// wait first.
func (c *LLMClient) retryDelay(err error, attempt int) (time.Duration, bool) {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		var h http.Header
		if apiErr.Response != nil {
			h = apiErr.Response.Header
		}
		switch h.Get("X-Should-Retry") {
		case "true":
		case "false":
			return 0, false
		default:
			s := apiErr.StatusCode
			if s != http.StatusRequestTimeout && s != http.StatusConflict && s != http.StatusTooManyRequests && s < 500 {
				return 0, false
			}
		}
		if d, ok := retryAfter(h); ok {
			return d, d <= llmMaxRetryAfter
		}
		return c.backoff(attempt), true
	}
	var urlErr *url.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &urlErr) {
		return c.backoff(attempt), true
	}
	return 0, false // a malformed response or a request we could not build
}

func (c *LLMClient) backoff(attempt int) time.Duration {
	d := llmMaxBackoff
	if b := float64(c.cfg.RetryDelay) * math.Pow(2, float64(attempt)); b < float64(llmMaxBackoff) {
		d = time.Duration(b)
	}
	if j := int64(d / 4); j > 0 {
		d -= time.Duration(rand.Int64N(j))
	}
	return d
}

// retryAfter reads Retry-After-Ms (milliseconds) or Retry-After (seconds
// or an HTTP date).
func retryAfter(h http.Header) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && !math.IsInf(ms, 0) {
			return time.Duration(math.Min(ms, float64(llmMaxRetryAfter/time.Millisecond)+1) * float64(time.Millisecond)), true
		}
	}
	if v := h.Get("Retry-After"); v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && !math.IsInf(s, 0) {
			return time.Duration(math.Min(s, float64(llmMaxRetryAfter/time.Second)+1) * float64(time.Second)), true
		}
		if t, err := http.ParseTime(v); err == nil {
			return max(time.Until(t), 0), true
		}
	}
	return 0, false
}

// fail wraps err as an *LLMError whose text names the model, the HTTP
// status and the server's message, with the API key blotted out.
func (c *LLMClient) fail(err error, attempts int) error {
	e := &LLMError{Model: c.cfg.Model, Attempts: attempts, Err: err}
	var b strings.Builder
	fmt.Fprintf(&b, "llm %s: ", c.cfg.Model)
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		e.StatusCode = apiErr.StatusCode
		fmt.Fprintf(&b, "HTTP %d %s", apiErr.StatusCode, http.StatusText(apiErr.StatusCode))
		if m := c.redact(strings.TrimSpace(apiErr.Message)); m != "" {
			const limit = 300
			if r := []rune(m); len(r) > limit {
				m = string(r[:limit]) + "…"
			}
			fmt.Fprintf(&b, ": %q", m)
		}
	} else {
		var urlErr *url.Error
		switch {
		case errors.As(err, &urlErr): // it names the endpoint
			b.WriteString("no HTTP response: ")
		case errors.Is(err, context.DeadlineExceeded):
			fmt.Fprintf(&b, "no HTTP response from %s: ", c.endpoint())
		}
		b.WriteString(err.Error())
	}
	fmt.Fprintf(&b, " (after %d attempt", attempts)
	if attempts != 1 {
		b.WriteString("s")
	}
	b.WriteString(")")
	e.msg = c.redact(b.String())
	return e
}

// endpoint is the URL requests go to, without credentials or query.
func (c *LLMClient) endpoint() string {
	u, err := url.Parse(strings.TrimRight(c.cfg.BaseURL, "/") + "/chat/completions")
	if err != nil {
		return c.cfg.BaseURL
	}
	u.User, u.RawQuery = nil, ""
	return u.String()
}

func (c *LLMClient) redact(s string) string {
	if k := c.secretKey(); k != "" {
		s = strings.ReplaceAll(s, k, redact.Placeholder)
	}
	return s
}

// secretKey is the API key to take out of replies and errors, or "": a
// placeholder key of a local server ("1", "EMPTY") is no secret, and
// replacing every occurrence of it would garble the message.
func (c *LLMClient) secretKey() string {
	if k := strings.TrimSpace(c.cfg.APIKey); len(k) >= minSecretKeyLen {
		return k
	}
	return ""
}

// minSecretKeyLen is the shortest API key redact treats as a secret.
const minSecretKeyLen = 8

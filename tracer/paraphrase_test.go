package tracer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// paraphraseServer is an httptest Chat Completions server that rewrites
// the TEXT of each request with rewrite and records the requests' bodies.
type paraphraseServer struct {
	mu     sync.Mutex
	bodies []map[string]any
}

var textRe = regexp.MustCompile(`(?s)TEXT:\n(.*)\n\nKEEP:`)

func newParaphraseServer(t *testing.T, rewrite func(n int, text string) string) (*paraphraseServer, *sim.LLMClient) {
	t.Helper()
	p := &paraphraseServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			t.Errorf("%s %s, want POST /v1/chat/completions", r.Method, r.URL.Path)
		}
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Errorf("body: %v", err)
		}
		p.mu.Lock()
		n := len(p.bodies)
		p.bodies = append(p.bodies, body)
		p.mu.Unlock()
		msgs := body["messages"].([]any)
		user := msgs[len(msgs)-1].(map[string]any)["content"].(string)
		m := textRe.FindStringSubmatch(user)
		if m == nil {
			t.Errorf("request %d holds no TEXT: %q", n, user)
			return
		}
		content, _ := json.Marshal(rewrite(n, m[1]))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c%d","object":"chat.completion","created":1,"model":"para-1","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":%s}}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`, n, content)
	}))
	t.Cleanup(srv.Close)
	client, err := sim.NewLLMClient(sim.LLMConfig{BaseURL: srv.URL + "/v1", Model: "para-1", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return p, client
}

// TestLLMParaphraser: rewrites that keep every fact are kept; a rewrite
// that loses one (every third request drops the order id) rejects the
// task as paraphrase_lost_fact.
func TestLLMParaphraser(t *testing.T) {
	orderID := regexp.MustCompile(`#W\d+`)
	srv, client := newParaphraseServer(t, func(n int, text string) string {
		if n%3 == 2 {
			return "Please help me, " + orderID.ReplaceAllString(text, "my order")
		}
		return "Hello. " + text
	})
	g := generate(t, shopDomain{}, genOptions(12, 3, func(o *tracer.GenerateOptions) {
		o.WalkStepsDist = uniform3
		o.IntentsDist = uniform3
		o.Paraphraser = &tracer.LLMParaphraser{Client: client}
	}))
	if g.Rejected[tracer.RejectParaphraseLostFact] == 0 {
		t.Fatalf("rejected %v, want paraphrase_lost_fact", g.Rejected)
	}
	for _, task := range g.Tasks {
		if !strings.HasPrefix(task.Instruction, "Hello. ") {
			t.Errorf("%s: instruction %q is not the paraphrase", task.ID, task.Instruction)
		}
		for _, v := range task.Scenario.Facts {
			if strings.HasPrefix(v, "#W") && strings.Contains(task.Instruction, "my order") {
				t.Errorf("%s: a fact was lost: %q", task.ID, task.Instruction)
			}
		}
	}
	first := srv.bodies[0]
	if first["model"] != "para-1" || first["seed"] == nil {
		t.Fatalf("request %v: want model para-1 and a seed", first)
	}
	if sys := first["messages"].([]any)[0].(map[string]any)["content"].(string); !strings.Contains(sys, "exactly as written") {
		t.Fatalf("system prompt %q", sys)
	}
}

func TestLLMParaphraser_ErrServer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"no such model"}}`, http.StatusNotFound)
	}))
	defer srv.Close()
	client, err := sim.NewLLMClient(sim.LLMConfig{BaseURL: srv.URL + "/v1", Model: "nope", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tracer.Generate(context.Background(), shopDomain{}, genOptions(2, 1, func(o *tracer.GenerateOptions) { o.Paraphraser = &tracer.LLMParaphraser{Client: client} }))
	if err == nil || !strings.Contains(err.Error(), "paraphrase") || !strings.Contains(err.Error(), "shop-test-000") {
		t.Fatalf("err %v, want the paraphrase error naming the task", err)
	}
}

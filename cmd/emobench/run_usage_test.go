package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A misbehaving endpoint's usage is stored as unknown (#20 item 15): a
// missing or null usage, or a count that is not a plausible non-negative
// integer, gives NULL tokens and cost (never 0, never the count); a cost
// that overflows (a finite price of 1e308) is NULL, never +Inf, with a note.
func TestRun_ImplausibleUsageStoredAsNull(t *testing.T) {
	t.Parallel()
	good := `{"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}`
	for _, tc := range []struct {
		name, usage string // usage "" leaves the field out
		price       float64
		want        string // the agent message's prompt_tokens,completion_tokens,cost and the trajectory's agent_cost
		note        string
	}{
		{"Missing", "", 1, ",,,", "usage is missing or not plausible token counts (none)"},
		{"Null", "null", 1, ",,,", "usage is missing"},
		{"Negative", `{"prompt_tokens": -9200000000000000000, "completion_tokens": 2, "total_tokens": 0}`, 1, ",,,", "-9200000000000000000"},
		{"Fractional", `{"prompt_tokens": 10.5, "completion_tokens": 2, "total_tokens": 12.5}`, 1, ",,,", "10.5"},
		{"Huge", `{"prompt_tokens": 10, "completion_tokens": 46000000000000000000, "total_tokens": 0}`, 1, ",,,", "46000000000000000000"},
		{"String", `{"prompt_tokens": "10", "completion_tokens": 2, "total_tokens": 12}`, 1, ",,,", `"10"`},
		{"InfiniteCost", good, 1e308, "10,2,,", "is not a finite number"},
		{"Good", good, 1, "10,2,1.2e-05,1.2e-05", ""},
		{"UserNull", "user:null", 1, "10,0,1e-05,1e-05", "llm fake-user: a reply's usage is missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			agentUsage, userUsage := tc.usage, good
			if u, ok := strings.CutPrefix(tc.usage, "user:"); ok {
				agentUsage, userUsage = `{"prompt_tokens": 10, "completion_tokens": 0, "total_tokens": 10}`, u
			}
			srv := newChatServer(t, map[string]func(c *chatCall){
				"fake-agent": func(c *chatCall) { rawReply(c, "How can I help?", agentUsage) },
				"fake-user": func(c *chatCall) {
					if c.n == 0 {
						rawReply(c, "Hi, I want to cancel an order.", good)
						return
					}
					rawReply(c, "###STOP###", userUsage)
				},
			})
			prices, _ := json.Marshal(map[string]any{"fake-agent": map[string]float64{"prompt_per_mtok": tc.price, "completion_per_mtok": tc.price}})
			priceFile := filepath.Join(dir, "prices.json")
			if err := os.WriteFile(priceFile, prices, 0o644); err != nil {
				t.Fatal(err)
			}
			dbPath := filepath.Join(dir, "u.db")
			r := runCLI(t, "", "--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions", "--agent", "llm:fake-agent", "--user", "llm:fake-user",
				"--base-url", srv.baseURL(), "--price-file", priceFile, "--concurrency", "1")
			if r.code != 0 {
				t.Fatalf("run: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			got := sqlCSV(t, dbPath, "SELECT m.prompt_tokens, m.completion_tokens, m.cost, t.agent_cost FROM messages m JOIN trajectories t ON t.id = m.trajectory_id WHERE m.role = 'assistant'")
			if want := "prompt_tokens,completion_tokens,cost,agent_cost\n" + tc.want + "\n"; got != want {
				t.Errorf("stored usage:\n%s\nwant:\n%s", got, want)
			}
			if strings.HasPrefix(tc.usage, "user:") {
				// The user's last turn has no usage: its tokens and cost are NULL, the first turn's are kept.
				if got, want := sqlCSV(t, dbPath, "SELECT prompt_tokens, completion_tokens, cost FROM messages WHERE role = 'user' ORDER BY idx"),
					"prompt_tokens,completion_tokens,cost\n10,2,\n,,\n"; got != want {
					t.Errorf("user usage:\n%s\nwant:\n%s", got, want)
				}
			} else if tc.note != "" && !strings.Contains(r.stderr, "note: llm fake-agent: ") {
				t.Errorf("stderr %q does not note the agent", r.stderr)
			}
			if tc.note != "" && !strings.Contains(r.stderr, tc.note) {
				t.Errorf("stderr %q does not note %q", r.stderr, tc.note)
			}
			if tc.note == "" && strings.Contains(r.stderr, "llm fake-agent") {
				t.Errorf("stderr %q notes a plausible usage", r.stderr)
			}
		})
	}
}

// rawReply answers with one text choice and usage as raw JSON ("" leaves
// the field out).
func rawReply(c *chatCall, content, usage string) {
	msg, _ := json.Marshal(content)
	u := ""
	if usage != "" {
		u = `, "usage": ` + usage
	}
	c.w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(c.w, `{"id": "chatcmpl-%s-%d", "object": "chat.completion", "created": 1700000000, "model": %q, "choices": [{"index": 0, "message": {"role": "assistant", "content": %s}, "finish_reason": "stop"}]%s}`,
		c.model, c.n, c.model, msg, u)
}

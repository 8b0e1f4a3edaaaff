package sim_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// runAgainst runs one episode of an llm: agent at baseURL and the scripted
// user under the episode timeout given (0: the default, 10m).
func runAgainst(t *testing.T, baseURL string, timeout time.Duration) (*emobench.Trajectory, time.Duration) {
	t.Helper()
	client, err := sim.NewLLMClient(sim.LLMConfig{BaseURL: baseURL, Model: "agent-m", Timeout: 2 * time.Second, MaxRetries: 1, RetryDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	task := toyTask(angrySkeptic)
	start := time.Now()
	traj, err := sim.RunEpisode(t.Context(), sim.EpisodeConfig{
		Domain: toyDomain{}, Task: &task, Agent: sim.NewLLMAgent(client), User: sim.ScriptedUser{}, WithEmotions: true, Timeout: timeout,
	})
	if err != nil {
		t.Fatal(err)
	}
	return traj, time.Since(start)
}

// An episode whose LLM connection is refused stores the refusal with the
// endpoint, not the episode time limit it never reached; an episode that
// outlives its own timeout (a hung server) names the limit.
func TestRunEpisode_ErrorNamesItsCause(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close() // nothing listens there now
		traj, _ := runAgainst(t, "http://"+addr+"/v1", 0)
		if traj.TerminationReason != emobench.TerminationError {
			t.Fatalf("termination %s, want error", traj.TerminationReason)
		}
		want := `agent: llm agent-m: no HTTP response: Post "http://` + addr + `/v1/chat/completions": dial tcp ` + addr + `: connect: connection refused (after 2 attempts)`
		if traj.Error != want {
			t.Fatalf("error\n %q\nwant\n %q", traj.Error, want)
		}
	})
	t.Run("hung", func(t *testing.T) {
		done := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-done:
			}
		}))
		t.Cleanup(srv.Close)
		t.Cleanup(func() { close(done) }) // before Close, which waits for the handler
		traj, took := runAgainst(t, srv.URL+"/v1", 300*time.Millisecond)
		if traj.TerminationReason != emobench.TerminationError {
			t.Fatalf("termination %s, want error", traj.TerminationReason)
		}
		want := "episode time limit 300ms reached after 1 messages: agent: llm agent-m: no HTTP response from " + srv.URL + "/v1/chat/completions: context deadline exceeded (after 1 attempt)"
		if traj.Error != want {
			t.Fatalf("error\n %q\nwant\n %q", traj.Error, want)
		}
		if took > 1500*time.Millisecond {
			t.Fatalf("episode took %v: the 300ms limit did not end it", took)
		}
	})
}

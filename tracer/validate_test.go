package tracer

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

func TestFactsReachable(t *testing.T) {
	writes := map[string]bool{"pay": true}
	read := emobench.Action{Name: "get", Arguments: json.RawMessage(`{"id":"u1"}`)}
	pay := func(args string) []emobench.Action {
		return []emobench.Action{read, {Name: "pay", Arguments: json.RawMessage(args)}}
	}
	results := []string{`{"methods":["card_77"],"balance":12.5}`, "ok"}
	facts := map[string]string{"id": "u1", "reason": "late"}
	for _, c := range []struct {
		args, want string // want "" is reachable
	}{
		{`{"id":"u1","method":"card_77"}`, ""},
		{`{"items":["card_77","u1"],"amount":12.5,"note":{"why":"late"}}`, ""},
		{`{"method":"card_99"}`, `method value "card_99"`},
		{`{"amount":13}`, `amount value "13"`},
		{`{"ok":true}`, `ok value "true"`},
		{`{"summary":"anything at all"}`, ""}, // exempt
		{`{"x":null}`, ""},
		{`not json`, "arguments"},
	} {
		err := factsReachable(pay(c.args), results, writes, facts, []string{"summary"}, map[string]map[string]bool{"pay": {"mode": true}})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want reachable", c.args, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: err %v, want %q", c.args, err, c.want)
		}
	}
	// A value only a later read shows is not reachable.
	acts := []emobench.Action{{Name: "pay", Arguments: json.RawMessage(`{"method":"card_77"}`)}, read}
	if err := factsReachable(acts, []string{"ok", results[0]}, writes, facts, nil, nil); err == nil {
		t.Fatal("a value read after the write counted as reachable")
	}
}

func TestNearestLength(t *testing.T) {
	in := func(n int) *sim.Intent { return &sim.Intent{Path: make([]string, n)} }
	cands := []*sim.Intent{in(1), in(3), in(5)}
	for want, path := range map[int]int{0: 1, 1: 1, 2: 1, 3: 3, 4: 3, 6: 5} {
		if got := nearestLength(cands, want); got != path {
			t.Errorf("nearest to %d: %d, want %d", want, got, path)
		}
	}
}

func TestPickWeighted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	counts := map[int]int{}
	for i := 0; i < 4000; i++ {
		counts[pickWeighted(r, []int{2, 3, 4}, []float64{1, 0, 3})]++
	}
	// Expected 1000 and 3000 (weights 1:3); a 5-sigma band is ±137.
	if counts[3] != 0 || counts[2] < 860 || counts[2] > 1140 || counts[4] < 2860 {
		t.Fatalf("counts %v, want about 1000 twos, no threes and 3000 fours", counts)
	}
}

func TestJoinSentences(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	got := joinSentences(r, []string{"You want A.", "Your order B is late.", "I need C.", "UPS lost D.", "Hana Xu, born 1990, will fly.", "Zoe is my sister.", "A storm is coming.", "Dropped calls on my line.", "Dr. Kim is my doctor."},
		[]bool{false, false, false, false, true, false, true, true, false})
	if !strings.HasPrefix(got, "You want A. ") || !strings.Contains(got, "your order B is late.") ||
		!strings.Contains(got, "I need C.") || !strings.Contains(got, "UPS lost D.") ||
		!strings.Contains(got, "Hana Xu, born 1990, will fly.") || !strings.Contains(got, "zoe is my sister.") || !strings.Contains(got, "a storm is coming.") || !strings.Contains(got, "dropped calls on my line.") || !strings.Contains(got, "Dr. Kim is my doctor.") {
		t.Fatalf("joined %q", got)
	}
	if got := joinSentences(r, []string{"Only one."}, nil); got != "Only one." {
		t.Fatalf("one sentence: %q", got)
	}
}

func TestMergeFacts(t *testing.T) {
	facts := map[string]string{"order_id": "#1", "email": "a@x"}
	if !mergeFacts(facts, map[string]string{"order_id": "#2", "email": "a@x"}) || !mergeFacts(facts, map[string]string{"order_id": "#3"}) {
		t.Fatal("merge refused")
	}
	if facts["order_id"] != "#1" || facts["second_order_id"] != "#2" || facts["third_order_id"] != "#3" || len(facts) != 4 {
		t.Fatalf("facts %v", facts)
	}
	if !mergeFacts(facts, map[string]string{"order_id": "#2"}) || len(facts) != 4 {
		t.Fatalf("a repeated value added a key: %v", facts)
	}
}

func TestFittingFamilies(t *testing.T) {
	if got := fittingFamilies([][]string{nil, nil}); got != nil {
		t.Fatalf("all nil: %v", got)
	}
	got := fittingFamilies([][]string{{"anger", "fear"}, nil, {"fear", "sadness"}})
	if len(got) != 1 || got[0] != "fear" {
		t.Fatalf("got %v, want [fear]", got)
	}
	if got := fittingFamilies([][]string{{"anger"}, {"fear"}}); got == nil || len(got) != 0 {
		t.Fatalf("disjoint: %v, want empty non-nil", got)
	}
}

// No connector twice in one instruction while another is left: five
// sentences use four different ones.
func TestJoinSentences_NoRepeatedConnector(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		got := joinSentences(rand.New(rand.NewPCG(seed, 2)), []string{"You want A.", "You want B.", "You want C.", "You want D.", "You want E."}, nil)
		for _, c := range connectors {
			if n := strings.Count(got, c); n > 1 {
				t.Fatalf("seed %d: %q used %d times in %q", seed, c, n, got)
			}
		}
	}
}

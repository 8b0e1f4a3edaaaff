package sim_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/emobench/emobench/sim"
)

// labelledMessage is one line of testdata/refusal_messages.jsonl: an
// agent message, whether it tells the user the request cannot be done,
// what kind of message it is (refusal, mixed_done_and_refusal,
// near_miss, promise, apology_no_refusal, confirmation, clarification,
// transfer, warning, information) and its set: "tuning" for the messages
// the rule was written against, "held_out" for those written after the
// rule was frozen, which say how it does on wordings it never saw.
type labelledMessage struct {
	Text    string `json:"text"`
	Refusal *bool  `json:"refusal"`
	Kind    string `json:"kind"`
	Set     string `json:"set"`
}

func readLabelled(t *testing.T, path string) []labelledMessage {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelledMessage
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var m labelledMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: record %d: %v", path, line, err)
		}
		if m.Text == "" || m.Refusal == nil || m.Kind == "" || m.Set != "tuning" && m.Set != "held_out" {
			t.Fatalf("%s: record %d: want text, refusal, kind and set (tuning or held_out)", path, line)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// refusalFigures are the rule's counts on a set of labelled messages.
type refusalFigures struct{ tp, fp, fn, tn int }

func (f refusalFigures) precision() float64 { return float64(f.tp) / float64(f.tp+f.fp) }
func (f refusalFigures) recall() float64    { return float64(f.tp) / float64(f.tp+f.fn) }

func (f refusalFigures) String() string {
	return fmt.Sprintf("%d messages (%d refusals): precision %.3f, recall %.3f (tp %d, fp %d, fn %d, tn %d)",
		f.tp+f.fp+f.fn+f.tn, f.tp+f.fn, f.precision(), f.recall(), f.tp, f.fp, f.fn, f.tn)
}

// TestSaysRefusal_LabelledSet measures the offline refusal rule on the
// labelled agent messages: precision = messages the rule calls refusals
// that are, over those it calls refusals; recall = refusals it finds over
// refusals. Over the whole set both must be at least 0.95; the held-out
// part's figures are printed beside them.
func TestSaysRefusal_LabelledSet(t *testing.T) {
	t.Parallel()
	const path = "testdata/refusal_messages.jsonl"
	msgs := readLabelled(t, path)
	if len(msgs) < 200 {
		t.Fatalf("%s: %d messages, want at least 200", path, len(msgs))
	}
	var all refusalFigures
	bySet := map[string]*refusalFigures{"tuning": {}, "held_out": {}}
	var wrong []string
	for i, m := range msgs {
		got := sim.SaysRefusal(m.Text)
		for _, f := range []*refusalFigures{&all, bySet[m.Set]} {
			switch {
			case got && *m.Refusal:
				f.tp++
			case got:
				f.fp++
			case *m.Refusal:
				f.fn++
			default:
				f.tn++
			}
		}
		if got != *m.Refusal {
			wrong = append(wrong, fmt.Sprintf("record %d (%s, %s): labelled %v, rule says %v: %q", i+1, m.Kind, m.Set, *m.Refusal, got, m.Text))
		}
	}
	figures := fmt.Sprintf("SaysRefusal on %s; tuning part %s; held-out part %s", all, bySet["tuning"], bySet["held_out"])
	t.Log(figures)
	for _, w := range wrong {
		t.Log("misread: " + w)
	}
	if all.precision() < 0.95 || all.recall() < 0.95 {
		t.Errorf("%s: want precision and recall >= 0.95; misread:\n%s", figures, strings.Join(wrong, "\n"))
	}
}

// The two examples, and the shapes the rule documents.
func TestSaysRefusal_Examples(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"I'm afraid I have to decline that request.":                          true,
		"I can't wait to get this sorted for you!":                            false,
		"I\u2019m sorry, order #W1 can\u2019t be cancelled under our policy.": true,
		"Once it's cancelled, this cannot be undone. Shall I proceed?":        false,
		"I can't make changes until you confirm your date of birth.":          false,
		"If it had shipped, I couldn't cancel it, but I've cancelled it now.": false,
		"That order is not eligible for a return.":                            true,
		"Your card was declined.":                                             false,
	} {
		if got := sim.SaysRefusal(text); got != want {
			t.Errorf("SaysRefusal(%q) = %v, want %v", text, got, want)
		}
	}
}

package workbench

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
)

// conformanceCase is one hand-written transcript of a domain's
// conformance suite (domains/<d>/testdata/conformance/cases.json): the
// file scored, the reward `emobench evaluate` must give it, the check that
// must fail ("" for a pass), and the situation it covers.
type conformanceCase struct {
	File         string  `json:"file"`
	ExpectReward float64 `json:"expect_reward"`
	FailingCheck string  `json:"failing_check"`
	Covers       string  `json:"covers"`
}

// minConformanceCases is how many transcripts each domain's suite holds
// at least (issue #21).
const minConformanceCases = 25

// TestConformance scores every domain's hand-written transcripts through
// EvaluateFile, what `emobench evaluate` runs, and holds each to its
// expected reward and failing check. Every check kind a case names fails
// in some case and passes in another (a pass records every check of its
// task's basis as passed).
func TestConformance(t *testing.T) {
	t.Parallel()
	for _, name := range all.Names() {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "domains", name, "testdata", "conformance")
			raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
			if errors.Is(err, os.ErrNotExist) {
				t.Fatalf("domain %s has no conformance suite (%s)", name, dir)
			}
			if err != nil {
				t.Fatal(err)
			}
			var cases []conformanceCase
			if err := json.Unmarshal(raw, &cases); err != nil {
				t.Fatalf("%s/cases.json: %v", dir, err)
			}
			if len(cases) < minConformanceCases {
				t.Errorf("%s: %d cases, want at least %d", dir, len(cases), minConformanceCases)
			}
			passed, failed := map[string]bool{}, map[string]bool{}
			for _, c := range cases {
				ev, err := EvaluateFile(context.Background(), EvaluateRequest{Path: filepath.Join(dir, c.File), Domain: name, Split: emobench.SplitTest})
				if err != nil {
					t.Errorf("%s (%s): %v", c.File, c.Covers, err)
					continue
				}
				if len(ev.Records) != 1 {
					t.Errorf("%s: %d records, want 1", c.File, len(ev.Records))
					continue
				}
				r := ev.Records[0]
				if r.ToolResultMismatches != 0 {
					t.Errorf("%s (%s): %d tool results differ from the replay: the transcript records results the tools do not give", c.File, c.Covers, r.ToolResultMismatches)
				}
				if r.Reward == nil || *r.Reward != c.ExpectReward {
					t.Errorf("%s (%s): reward %v, want %v; checks %+v", c.File, c.Covers, rewardText(r.Reward), c.ExpectReward, r.Checks)
				}
				var failedHere []string
				for _, ch := range r.Checks {
					switch {
					case ch.Passed == nil:
					case *ch.Passed:
						passed[ch.Name] = true
					default:
						failed[ch.Name] = true
						failedHere = append(failedHere, ch.Name)
					}
				}
				if c.FailingCheck != "" && !slices.Contains(failedHere, c.FailingCheck) {
					t.Errorf("%s (%s): want check %s to fail; failed %v", c.File, c.Covers, c.FailingCheck, failedHere)
				}
			}
			for kind := range failed {
				if !passed[kind] {
					t.Errorf("%s: check %s fails in some case and passes in none", dir, kind)
				}
			}
			for _, c := range cases {
				if c.FailingCheck != "" && !passed[c.FailingCheck] {
					t.Errorf("%s: check %s is expected to fail but passes in no case", dir, c.FailingCheck)
				}
			}
		})
	}
}

package sim

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/emobench/emobench"
)

// failingReasons are terminations that score 0 whatever the database holds.
var failingReasons = map[emobench.TerminationReason]bool{
	emobench.TerminationUserUnsatisfied: true,
	emobench.TerminationMaxSteps:        true,
	emobench.TerminationTooManyErrors:   true,
	emobench.TerminationError:           true,
}

// RewardInfo is what Evaluate records about a reward.
type RewardInfo struct {
	DBMatch        bool            `json:"db_match"`
	OutputsMatched map[string]bool `json:"outputs_matched"`
	GoldHash       string          `json:"gold_hash"`
	FinalHash      string          `json:"final_hash"`
	Reason         string          `json:"reason,omitempty"`
}

// Evaluate scores a finished trajectory in place. The reward is 1 if and
// only if the final database hash equals the hash after replaying the
// task's ground-truth actions on a fresh database, every required output
// appears in some agent message (case-insensitive, commas in numbers
// ignored), and the termination is not user_unsatisfied, max_steps,
// too_many_errors or error. It fails only when a gold action does not
// replay, which is a bug in the task.
func Evaluate(dom Domain, task *emobench.TaskSpec, finalHash string, traj *emobench.Trajectory) error {
	goldHash, err := GoldHash(dom, task)
	if err != nil {
		return err
	}
	info := RewardInfo{DBMatch: goldHash == finalHash, GoldHash: goldHash, FinalHash: finalHash, OutputsMatched: map[string]bool{}}
	said := agentText(traj.Messages)
	allOutputs := true
	for _, out := range task.Outputs {
		found := strings.Contains(said, normalizeOutput(out))
		info.OutputsMatched[out] = found
		allOutputs = allOutputs && found
	}
	reward := 0.0
	switch {
	case failingReasons[traj.TerminationReason]:
		info.Reason = string(traj.TerminationReason)
	case info.DBMatch && allOutputs:
		reward = 1
	}
	traj.Reward = &reward
	// An episode that failed for an LLM error was not judged, as with
	// imported error records.
	traj.Evaluated = traj.TerminationReason != emobench.TerminationError
	traj.RewardInfo, err = json.Marshal(map[string]any{"reward": reward, "info": info})
	return err
}

// goldHashes caches GoldHash by domain, task id and actions: a task's gold
// state never changes, and hashing a domain's database is the engine's
// costliest step.
var goldHashes sync.Map

// GoldHash replays the task's ground-truth actions on a fresh environment
// and returns the resulting state hash.
func GoldHash(dom Domain, task *emobench.TaskSpec) (string, error) {
	actions, _ := json.Marshal(task.Actions)
	key := dom.Name() + "\x00" + task.ID + "\x00" + string(actions)
	if h, ok := goldHashes.Load(key); ok {
		return h.(string), nil
	}
	h, err := replayGold(dom, task)
	if err == nil {
		goldHashes.Store(key, h)
	}
	return h, err
}

func replayGold(dom Domain, task *emobench.TaskSpec) (string, error) {
	env := dom.NewEnvironment()
	for i, a := range task.Actions {
		if _, err := env.Call(a.Name, a.Arguments); err != nil {
			return "", fmt.Errorf("task %s: gold action %d (%s) fails: %w", task.ID, i, a.Name, err)
		}
	}
	return env.Hash(), nil
}

var digitComma = regexp.MustCompile(`(\d),(\d)`)

// normalizeOutput lowercases s and drops commas between digits, so that
// "1,234.50" and "1234.50" match.
func normalizeOutput(s string) string {
	s = strings.ToLower(s)
	for digitComma.MatchString(s) {
		s = digitComma.ReplaceAllString(s, "$1$2")
	}
	return s
}

func agentText(msgs []emobench.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		if m.Role == emobench.RoleAssistant {
			b.WriteString(normalizeOutput(m.Content))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

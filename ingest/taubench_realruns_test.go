package ingest_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
)

// realRuns is the shared folder of result files written by other people
// (see its SOURCES.md). It is never copied into the repository, so the tests
// that read it skip when it is absent.
const realRuns = "../../shared/realruns"

// readRealRun reads one file of realRuns with TauBench and indexes the
// trajectories by task key; it skips the test when the folder is missing.
func readRealRun(t *testing.T, name string) ([]*emobench.Trajectory, map[string]*emobench.Trajectory) {
	t.Helper()
	f, err := os.Open(filepath.Join(realRuns, name))
	if err != nil {
		t.Skipf("../shared/realruns not found (%v): real-run tests need the shared folder", err)
	}
	defer f.Close()
	trajs, err := collect(t, ingest.TauBench(f))
	if err != nil {
		t.Fatalf("TauBench(%s): %v", name, err)
	}
	byKey := map[string]*emobench.Trajectory{}
	for _, traj := range trajs {
		if byKey[traj.Task.Key] != nil {
			t.Fatalf("%s: task key %q appears twice", name, traj.Task.Key)
		}
		byKey[traj.Task.Key] = traj
	}
	return trajs, byKey
}

// mustKey returns the trajectory with task key k.
func mustKey(t *testing.T, byKey map[string]*emobench.Trajectory, k string) *emobench.Trajectory {
	t.Helper()
	traj := byKey[k]
	if traj == nil {
		t.Fatalf("no trajectory with task key %q", k)
	}
	return traj
}

func TestTauBench_RealRuns(t *testing.T) {
	t.Parallel()
	// Every expected number was computed independently with python3's json
	// module over the same file: passed counts |reward-1| <= 1e-6;
	// evaluated counts reward_info != null; reasons follow the precedence in
	// TauBench's doc (error with empty traj, user_abandoned or a last user
	// ###UNSATISFIED###, info.source starting "transfer", reward_info null,
	// last user ###STOP###); toolErrors counts tool messages whose content
	// starts with "error", case-insensitively.
	type want struct {
		n, passed, evaluated int
		reasons              map[emobench.TerminationReason]int
		messages, userTurns  int
		toolCalls            int
		toolErrors           int
		rewardSum            float64
		emotions             int // trajectories whose task has an emotion family
	}
	tests := []struct {
		file  string
		want  want
		check func(t *testing.T, byKey map[string]*emobench.Trajectory)
	}{
		{"taubench/grok-3-retail-nonbinary-reward.json", want{
			n: 115, passed: 0, evaluated: 115,
			reasons:  map[emobench.TerminationReason]int{emobench.TerminationUserStop: 98, emobench.TerminationTransfer: 17},
			messages: 3804, userTurns: 970, toolCalls: 932, toolErrors: 159,
			rewardSum: 67.2,
		}, checkGrok},
		{"taubench/deepseek-v3-error-only.json", want{
			n: 1, reasons: map[emobench.TerminationReason]int{emobench.TerminationError: 1},
		}, checkDeepseek},
		{"taubench/retail-single-error-record.json", want{
			n: 1, reasons: map[emobench.TerminationReason]int{emobench.TerminationError: 1},
		}, checkRetailSingleError},
		{"taubench/tau-trait-gpt5-telecom-none.json", want{
			n: 18, passed: 13, evaluated: 17,
			reasons:  map[emobench.TerminationReason]int{emobench.TerminationUserStop: 17, emobench.TerminationMaxSteps: 1},
			messages: 374, userTurns: 123, toolCalls: 64, toolErrors: 3,
			rewardSum: 13,
		}, checkTauTrait},
		{"qwen3-retail-with-emotions.json", want{
			n: 59, passed: 41, evaluated: 59,
			reasons:  map[emobench.TerminationReason]int{emobench.TerminationUserStop: 54, emobench.TerminationTransfer: 3, emobench.TerminationUserUnsatisfied: 2},
			messages: 2056, userTurns: 519, toolCalls: 509, toolErrors: 4,
			rewardSum: 39, emotions: 59,
		}, checkQwenRetailWith},
		{"qwen3-retail-without-emotions.json", want{
			n: 59, passed: 39, evaluated: 59,
			reasons:  map[emobench.TerminationReason]int{emobench.TerminationUserStop: 53, emobench.TerminationTransfer: 4, emobench.TerminationUserUnsatisfied: 2},
			messages: 2018, userTurns: 501, toolCalls: 508, toolErrors: 3,
			rewardSum: 37, emotions: 59,
		}, nil},
		{"qwen3-telehealth-with-emotions.json", want{
			n: 8, passed: 6, evaluated: 8,
			reasons:  map[emobench.TerminationReason]int{emobench.TerminationTransfer: 6, emobench.TerminationUserStop: 1, emobench.TerminationUserUnsatisfied: 1},
			messages: 166, userTurns: 40, toolCalls: 43, toolErrors: 1,
			rewardSum: 5, emotions: 8,
		}, checkQwenTelehealthWith},
		{"qwen3-telehealth-without-emotions.json", want{
			n: 8, passed: 4, evaluated: 8,
			reasons:  map[emobench.TerminationReason]int{emobench.TerminationTransfer: 4, emobench.TerminationUserStop: 2, emobench.TerminationUserUnsatisfied: 2},
			messages: 174, userTurns: 44, toolCalls: 43, toolErrors: 0,
			rewardSum: 2, emotions: 8,
		}, nil},
		{"gpt-4.1-retail.json", want{
			n: 70, passed: 39, evaluated: 70,
			reasons:  map[emobench.TerminationReason]int{emobench.TerminationUserStop: 64, emobench.TerminationTransfer: 6},
			messages: 2326, userTurns: 654, toolCalls: 509, toolErrors: 4,
			rewardSum: 39, emotions: 70,
		}, nil},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(filepath.Base(tt.file), ".json"), func(t *testing.T) {
			trajs, byKey := readRealRun(t, tt.file)
			var got want
			got.n = len(trajs)
			got.reasons = map[emobench.TerminationReason]int{}
			for _, traj := range trajs {
				if traj.Passed() {
					got.passed++
				}
				if traj.Evaluated {
					got.evaluated++
				}
				got.reasons[traj.TerminationReason]++
				c := traj.Counts()
				got.messages += c.Messages
				got.userTurns += c.UserTurns
				got.toolCalls += c.ToolCalls
				got.toolErrors += c.ToolErrors
				if traj.Reward == nil {
					t.Fatalf("task %s: Reward = nil, want the file's number", traj.Task.Key)
				}
				got.rewardSum += *traj.Reward
				if traj.Task.Emotion.Family != "" {
					got.emotions++
				}
				for _, m := range traj.Messages {
					for _, call := range m.ToolCalls {
						if call.ArgumentsMalformed || len(call.Arguments) == 0 || call.Arguments[0] != '{' || !json.Valid(call.Arguments) {
							t.Fatalf("task %s: call %s arguments %s (malformed %v), want a parsed JSON object",
								traj.Task.Key, call.Name, call.Arguments, call.ArgumentsMalformed)
						}
					}
				}
			}
			if got, want := got.n, tt.want.n; got != want {
				t.Fatalf("trajectories = %d, want %d", got, want)
			}
			if got, want := got.passed, tt.want.passed; got != want {
				t.Errorf("passed = %d, want %d", got, want)
			}
			if got, want := got.evaluated, tt.want.evaluated; got != want {
				t.Errorf("evaluated = %d, want %d", got, want)
			}
			if got, want := len(got.reasons), len(tt.want.reasons); got != want {
				t.Errorf("termination reasons %v, want %v", got, tt.want.reasons)
			}
			for r, n := range tt.want.reasons {
				if got, want := got.reasons[r], n; got != want {
					t.Errorf("%s = %d, want %d (all: %v)", r, got, want, got)
				}
			}
			if got, want := got.messages, tt.want.messages; got != want {
				t.Errorf("messages = %d, want %d", got, want)
			}
			if got, want := got.userTurns, tt.want.userTurns; got != want {
				t.Errorf("user turns = %d, want %d", got, want)
			}
			if got, want := got.toolCalls, tt.want.toolCalls; got != want {
				t.Errorf("tool calls = %d, want %d", got, want)
			}
			if got, want := got.toolErrors, tt.want.toolErrors; got != want {
				t.Errorf("tool errors = %d, want %d", got, want)
			}
			if got, want := got.rewardSum, tt.want.rewardSum; math.Abs(got-want) > 1e-9 {
				t.Errorf("sum of rewards = %v, want %v", got, want)
			}
			if got, want := got.emotions, tt.want.emotions; got != want {
				t.Errorf("trajectories with an emotion family = %d, want %d", got, want)
			}
			if tt.check != nil {
				tt.check(t, byKey)
			}
		})
	}
}

func checkGrok(t *testing.T, byKey map[string]*emobench.Trajectory) {
	// Rewards are kept raw: task 31 stored 0.6499999999999999, and its
	// reward_info keeps the extra "components" with the same composite.
	traj := mustKey(t, byKey, "31")
	if got, want := *traj.Reward, 0.6499999999999999; got != want {
		t.Fatalf("task 31: Reward = %v, want %v", got, want)
	}
	if got, want := traj.Passed(), false; got != want {
		t.Fatalf("task 31: Passed() = %v, want %v", got, want)
	}
	var ri struct {
		Components struct {
			Composite float64 `json:"composite"`
			Steps     int     `json:"steps"`
		} `json:"components"`
	}
	if err := json.Unmarshal(traj.RewardInfo, &ri); err != nil {
		t.Fatalf("task 31: RewardInfo: %v", err)
	}
	if got, want := ri.Components.Composite, 0.6499999999999999; got != want {
		t.Fatalf("task 31: components.composite = %v, want %v", got, want)
	}
	if got, want := ri.Components.Steps, 35; got != want {
		t.Fatalf("task 31: components.steps = %v, want %v", got, want)
	}
	if traj.UserCost == nil || *traj.UserCost != 0.008145 {
		t.Fatalf("task 31: UserCost = %v, want 0.008145", traj.UserCost)
	}
	// 35 distinct rewards in the file (SOURCES.md, checked with python).
	distinct := map[float64]bool{}
	for _, traj := range byKey {
		distinct[*traj.Reward] = true
	}
	if got, want := len(distinct), 35; got != want {
		t.Fatalf("distinct rewards = %d, want %d", got, want)
	}
}

func checkDeepseek(t *testing.T, byKey map[string]*emobench.Trajectory) {
	traj := mustKey(t, byKey, "0")
	if got, want := traj.Trial, 0; got != want {
		t.Fatalf("Trial = %d, want %d", got, want)
	}
	if traj.Reward == nil || *traj.Reward != 0 {
		t.Fatalf("Reward = %v, want 0", traj.Reward)
	}
	if got, want := traj.Error, "EOF when reading a line"; got != want {
		t.Fatalf("Error = %q, want %q", got, want)
	}
	if got, want := traj.Evaluated, false; got != want {
		t.Fatalf("Evaluated = %v, want %v", got, want)
	}
	if got, want := len(traj.Messages), 0; got != want {
		t.Fatalf("messages = %d, want %d", got, want)
	}
	if traj.RewardInfo != nil {
		t.Fatalf("RewardInfo = %s, want nil", traj.RewardInfo)
	}
	checkTraceback(t, traj, "EOFError: EOF when reading a line\n")
}

func checkRetailSingleError(t *testing.T, byKey map[string]*emobench.Trajectory) {
	// trial == task id == 10, stored as given; the top-level "records" key
	// is ignored.
	traj := mustKey(t, byKey, "10")
	if got, want := traj.Trial, 10; got != want {
		t.Fatalf("Trial = %d, want %d", got, want)
	}
	if got, want := traj.Evaluated, false; got != want {
		t.Fatalf("Evaluated = %v, want %v", got, want)
	}
	if !strings.HasPrefix(traj.Error, "(invalid_function_parameters) Invalid schema for function 'list_order_items'") {
		t.Fatalf("Error = %q, want the azure invalid_function_parameters message", traj.Error)
	}
	if strings.Contains(string(traj.Extra), "records") {
		t.Fatalf("Extra = %s, want no top-level keys in it", traj.Extra)
	}
	checkTraceback(t, traj, `C:\Users\t-avalsingh\tau-bench\tau_bench\run.py`)
}

// checkTraceback checks that traj.Extra keeps info's error and traceback.
func checkTraceback(t *testing.T, traj *emobench.Trajectory, part string) {
	t.Helper()
	var extra struct {
		Error     *string `json:"error"`
		Traceback string  `json:"traceback"`
	}
	if err := json.Unmarshal(traj.Extra, &extra); err != nil {
		t.Fatalf("Extra %s: %v", traj.Extra, err)
	}
	if extra.Error == nil || *extra.Error != traj.Error {
		t.Fatalf("Extra.error = %v, want %q", extra.Error, traj.Error)
	}
	if !strings.HasPrefix(extra.Traceback, "Traceback (most recent call last):") || !strings.Contains(extra.Traceback, part) {
		t.Fatalf("Extra.traceback = %q, want a Python traceback containing %q", extra.Traceback, part)
	}
}

func checkTauTrait(t *testing.T, byKey map[string]*emobench.Trajectory) {
	// Task 15 hit the step limit: reward_info and user_cost are null.
	traj := mustKey(t, byKey, "15")
	if got, want := traj.TerminationReason, emobench.TerminationMaxSteps; got != want {
		t.Fatalf("task 15: TerminationReason = %q, want %q", got, want)
	}
	if got, want := traj.Evaluated, false; got != want {
		t.Fatalf("task 15: Evaluated = %v, want %v", got, want)
	}
	if traj.UserCost != nil {
		t.Fatalf("task 15: UserCost = %v, want nil (null is unknown, not 0)", *traj.UserCost)
	}
	if traj.RewardInfo != nil {
		t.Fatalf("task 15: RewardInfo = %s, want nil", traj.RewardInfo)
	}
	if got, want := len(traj.Messages), 62; got != want {
		t.Fatalf("task 15: messages = %d, want %d", got, want)
	}
	for k, traj := range byKey {
		if k != "15" && (traj.UserCost == nil || *traj.UserCost != 0) {
			t.Fatalf("task %s: UserCost = %v, want 0", k, traj.UserCost)
		}
	}

	// Task 0's first call, from an assistant message with "annotations": []
	// and "function_call": null.
	traj = mustKey(t, byKey, "0")
	var call *emobench.ToolCall
	for _, m := range traj.Messages {
		if len(m.ToolCalls) > 0 {
			if got, want := m.Role, emobench.RoleAssistant; got != want {
				t.Fatalf("task 0: tool calls on a %q message, want %q", got, want)
			}
			call = &m.ToolCalls[0]
			break
		}
	}
	if call == nil {
		t.Fatal("task 0: no tool calls")
	}
	if got, want := call.ID, "call_VkSgUmCeOH4nyIn8HPPFkDD3"; got != want {
		t.Fatalf("task 0: call ID = %q, want %q", got, want)
	}
	if got, want := call.Name, "find_customer_by_email"; got != want {
		t.Fatalf("task 0: call Name = %q, want %q", got, want)
	}
	if got, want := string(call.Arguments), `{"email":"sarah.johnson@email.com"}`; got != want {
		t.Fatalf("task 0: call Arguments = %s, want %s", got, want)
	}
}

func checkQwenRetailWith(t *testing.T, byKey map[string]*emobench.Trajectory) {
	// Task 0's task, as in the file.
	task := mustKey(t, byKey, "0").Task
	wantEmotion := emobench.EmotionProfile{Family: "enjoyment", Leaf: "excitement", Politeness: "cold", Urgency: "high", Trust: "trusting"}
	if got, want := task.Emotion, wantEmotion; got != want {
		t.Fatalf("task 0: Emotion = %+v, want %+v", got, want)
	}
	if got, want := task.UserID, "mia.jackson2679@example.com"; got != want {
		t.Fatalf("task 0: UserID = %q, want %q", got, want)
	}
	if !strings.HasPrefix(task.Instruction, "You are Mia Jackson, authenticated via mia.jackson2679@example.com") {
		t.Fatalf("task 0: Instruction = %.80q…", task.Instruction)
	}
	var actions []emobench.Action
	if err := json.Unmarshal(task.Actions, &actions); err != nil {
		t.Fatalf("task 0: Actions: %v", err)
	}
	if got, want := len(actions), 3; got != want {
		t.Fatalf("task 0: %d actions, want %d", got, want)
	}
	if got, want := string(task.Outputs), "[]"; got != want {
		t.Fatalf("task 0: Outputs = %s, want %s", got, want)
	}
	if traj := byKey["0"]; traj.UserCost == nil || *traj.UserCost != 0.000167108 {
		t.Fatalf("task 0: UserCost = %v, want 0.000167108", traj.UserCost)
	}

	// Tasks 10 and 18: the user left with ###UNSATISFIED###, reward -1.
	for _, k := range []string{"10", "18"} {
		traj := mustKey(t, byKey, k)
		if got, want := traj.TerminationReason, emobench.TerminationUserUnsatisfied; got != want {
			t.Fatalf("task %s: TerminationReason = %q, want %q", k, got, want)
		}
		if got, want := *traj.Reward, -1.0; got != want {
			t.Fatalf("task %s: Reward = %v, want %v", k, got, want)
		}
		if got, want := traj.Passed(), false; got != want {
			t.Fatalf("task %s: Passed() = %v, want %v", k, got, want)
		}
	}
	// info.source == "transfer_to_human_agents" for tasks 2, 53 and 58.
	for _, k := range []string{"2", "53", "58"} {
		if got, want := mustKey(t, byKey, k).TerminationReason, emobench.TerminationTransfer; got != want {
			t.Fatalf("task %s: TerminationReason = %q, want %q", k, got, want)
		}
	}
}

func checkQwenTelehealthWith(t *testing.T, byKey map[string]*emobench.Trajectory) {
	// info.source == "transfer_to_human_support" for all but tasks 1 and 5.
	for _, k := range []string{"0", "2", "3", "4", "6", "7"} {
		if got, want := mustKey(t, byKey, k).TerminationReason, emobench.TerminationTransfer; got != want {
			t.Fatalf("task %s: TerminationReason = %q, want %q", k, got, want)
		}
	}
	traj := mustKey(t, byKey, "5")
	if got, want := traj.TerminationReason, emobench.TerminationUserUnsatisfied; got != want {
		t.Fatalf("task 5: TerminationReason = %q, want %q", got, want)
	}
	wantEmotion := emobench.EmotionProfile{Family: "enjoyment", Leaf: "excitement", Politeness: "neutral", Urgency: "moderate", Trust: "cautious"}
	if got, want := traj.Task.Emotion, wantEmotion; got != want {
		t.Fatalf("task 5: Emotion = %+v, want %+v", got, want)
	}
	if got, want := traj.Task.UserID, "diane.robinson@tracer-health.org"; got != want {
		t.Fatalf("task 5: UserID = %q, want %q", got, want)
	}
}

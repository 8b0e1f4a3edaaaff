package analysis

import (
	"errors"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/emobench/emobench"
)

// followUpCues are phrases that make a sentence a request to the user even
// when it does not end in a question mark ("Please provide your email.").
// They are matched against the lower-cased sentence with typographic
// apostrophes folded to "'".
var followUpCues = []string{
	"please provide", "please confirm", "please share", "please send",
	"please tell me", "please let me know", "please specify", "please enter",
	"please give me", "please reply", "please respond", "please verify",
	"please choose", "please select", "please spell",
	"let me know", "could you", "can you", "would you", "may i have",
	"what is your", "what's your", "do you want",
	"i need your", "i'll need your", "i will need your", "i need you to",
	"i'll need you to", "i will need you to",
}

// closingCourtesies are phrases that make a question a courtesy rather than
// a request: offers of further help and greetings. A question containing
// one of them is not a follow-up, whatever else it contains.
var closingCourtesies = []string{
	"anything else", "something else", "any other question", "any other request",
	"any other concern", "any other issue", "any further question", "anything more",
	"any more question", "how can i help", "how may i help", "how can i assist",
	"how may i assist", "what can i do for you", "what else can i", "what can i help",
	"how are you", "can i help you with anything", "may i help you with anything",
	"help you with today", "assist you with today", "feel free",
	"if you need anything", "if you have any", "if you need further",
	"if you need more help", "if you need any",
}

// IsFollowUp reports whether text, the content of an agent message to the
// user, asks the user for information or confirmation. The rule:
//
//  1. The text is lower-cased, ’ and ‘ become ', and it is split into
//     sentences after each '.', '!', '?' or newline that is followed by a
//     space, a closing mark ()"'”*_) or the end of the text, so "5.99" and
//     "site.com/?q=1" do not split.
//  2. A sentence is a closing courtesy when it contains an offer of more
//     help or a greeting: "anything else", "something else", "any other
//     question/request/concern/issue", "anything more", "how can/may I
//     help/assist", "what can I do for you", "help/assist you with today",
//     "how are you", "feel free", "if you need anything", "if you have
//     any", and the like (the list closingCourtesies).
//  3. A sentence is a request when it is not a courtesy and either ends in
//     '?' (ignoring trailing closing marks, so "Do you confirm (yes)?" and
//     "**Shall I proceed?**" count) or contains a request cue, so that
//     imperative requests without a question mark count too: "please
//     provide/confirm/share/send/tell me/let me know/specify/enter/give
//     me/reply/respond/verify/choose/select/spell", "let me know", "could
//     you", "can you", "would you", "may I have", "what is your", "do you
//     want", "I('ll|will) need your", "I('ll|will) need you to" (the list
//     followUpCues).
//  4. IsFollowUp is true when at least one sentence is a request.
//
// So "Is there anything else I can help you with?" is false, "Could you
// give me your email address?" and "Please confirm (yes/no)." are true, and
// statements ("Your order has been cancelled.") are false. Messages that
// carry tool calls are the caller's to exclude (TrajectoryBalance does).
func IsFollowUp(text string) bool {
	for _, s := range sentences(normalizeText(text)) {
		if isRequest(s) {
			return true
		}
	}
	return false
}

func normalizeText(text string) string {
	text = strings.ToLower(text)
	return strings.NewReplacer("’", "'", "‘", "'").Replace(text)
}

// isCloser reports whether r may follow a sentence's final mark.
func isCloser(r rune) bool {
	return strings.ContainsRune(`)"'”*_]`, r)
}

// sentences splits lower-cased text as step 1 of IsFollowUp's rule.
func sentences(text string) []string {
	rs := []rune(text)
	var out []string
	start := 0
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '\n' {
			out = append(out, string(rs[start:i]))
			start = i + 1
			continue
		}
		if r != '.' && r != '!' && r != '?' {
			continue
		}
		j := i + 1
		for j < len(rs) && isCloser(rs[j]) {
			j++
		}
		if j == len(rs) || unicode.IsSpace(rs[j]) {
			out = append(out, string(rs[start:j]))
			start = j
			i = j - 1
		}
	}
	if start < len(rs) {
		out = append(out, string(rs[start:]))
	}
	return out
}

func isRequest(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	for _, c := range closingCourtesies {
		if strings.Contains(s, c) {
			return false
		}
	}
	if strings.HasSuffix(strings.TrimRightFunc(s, func(r rune) bool {
		return isCloser(r) || unicode.IsSpace(r)
	}), "?") {
		return true
	}
	for _, c := range followUpCues {
		if strings.Contains(s, c) {
			return true
		}
	}
	return false
}

// Balance is the mix of tool execution and user follow-up in one
// trajectory.
type Balance struct {
	ToolCalls int // function calls in assistant messages
	FollowUps int // assistant messages without tool calls for which IsFollowUp holds
	// Share is ToolCalls / (ToolCalls + FollowUps), NaN when both are 0.
	Share float64
}

// TrajectoryBalance counts a trajectory's tool calls (every function call
// of every assistant message) and follow-ups (assistant messages with no
// tool calls whose content satisfies IsFollowUp), and their share
//
//	share = tool calls / (tool calls + follow-ups)
//
// after τ-Emotion-Bench's finding that success goes with a balance between
// tool execution and necessary user follow-up. Share is NaN when the
// trajectory has neither. Messages of other roles are ignored.
func TrajectoryBalance(msgs []emobench.Message) Balance {
	var b Balance
	for _, m := range msgs {
		if m.Role != emobench.RoleAssistant {
			continue
		}
		if len(m.ToolCalls) > 0 {
			b.ToolCalls += len(m.ToolCalls)
			continue
		}
		if IsFollowUp(m.Content) {
			b.FollowUps++
		}
	}
	b.Share = Share(b.ToolCalls, b.FollowUps)
	return b
}

// Share is the tool-call share of a trajectory,
//
//	share = toolCalls / (toolCalls + followUps)
//
// NaN when both are 0.
func Share(toolCalls, followUps int) float64 {
	if total := toolCalls + followUps; total > 0 {
		return float64(toolCalls) / float64(total)
	}
	return math.NaN()
}

// FollowUps counts, by trajectory id, the agent messages to the user
// (messages without tool calls) for which IsFollowUp holds.
type FollowUps map[int64]int

// Add counts text, one agent message to the user of trajectory id, when it
// is a follow-up.
func (f FollowUps) Add(id int64, text string) {
	if IsFollowUp(text) {
		f[id]++
	}
}

// BalanceTrajectory is what the balance statistics need of one trajectory.
type BalanceTrajectory struct {
	ID, RunID int64
	ToolCalls int // function calls of its assistant messages
	Turns     int // user and agent turns
	Passed    bool
	Evaluated bool // it has reward information
	Abandoned bool // it ended user_unsatisfied
}

// BalanceSample is the balance data of one unit, one element per
// trajectory with a defined Share, in trajectory order.
type BalanceSample struct {
	Shares, Turns, Abandoned []float64 // Abandoned is 1 or 0
	Passed, Evaluated        []bool
}

// BalanceByUnit is, by unit ID, the BalanceSample of the trajectories of
// every run of u, with their follow-ups counted in followUps. Trajectories
// with neither tool calls nor follow-ups (Share NaN), and of runs u does
// not hold, are left out; a unit with none is missing from the map.
func BalanceByUnit(trajectories []BalanceTrajectory, followUps FollowUps, u Units) map[int64]BalanceSample {
	data := map[int64]BalanceSample{}
	for _, t := range trajectories {
		unit, ok := u.Of(t.RunID)
		share := Share(t.ToolCalls, followUps[t.ID])
		if math.IsNaN(share) || !ok {
			continue
		}
		d := data[unit.ID]
		d.Shares = append(d.Shares, share)
		d.Passed = append(d.Passed, t.Passed)
		d.Evaluated = append(d.Evaluated, t.Evaluated)
		d.Turns = append(d.Turns, float64(t.Turns))
		d.Abandoned = append(d.Abandoned, boolFloat(t.Abandoned))
		data[unit.ID] = d
	}
	return data
}

// NotEvaluated reports whether s has trajectories and none was evaluated:
// its success is not known.
func (s BalanceSample) NotEvaluated() bool {
	return len(s.Shares) > 0 && !slices.Contains(s.Evaluated, true)
}

// Bins is SuccessByShareBinEvaluated over s with bins bins; it panics
// when bins < 1.
func (s BalanceSample) Bins(bins int) []ShareBin {
	return SuccessByShareBinEvaluated(s.Shares, s.Passed, s.Evaluated, bins)
}

// Regression is BalanceRegression over s; when s is NotEvaluated the
// error says so ("not evaluated: no trajectory has reward information").
func (s BalanceSample) Regression() (BalanceFit, error) {
	fit, err := BalanceRegression(s.Shares, s.Passed)
	if s.NotEvaluated() {
		err = errors.New(NotEvaluatedText + ": no trajectory has reward information")
	}
	return fit, err
}

// BalanceCorrelations are the Pearson correlations of the tool-call share
// with turns, with abandonment and with success (point-biserial), over N
// trajectories. Success is NaN and SuccessNotEvaluated set when no
// trajectory was evaluated.
type BalanceCorrelations struct {
	Turns, Abandonment, Success float64
	N                           int
	SuccessNotEvaluated         bool
}

// Correlations computes s's BalanceCorrelations.
func (s BalanceSample) Correlations() BalanceCorrelations {
	c := BalanceCorrelations{
		Turns:       Correlation(s.Shares, s.Turns),
		Abandonment: Correlation(s.Shares, s.Abandoned),
		Success:     Correlation(s.Shares, boolsToFloats(s.Passed)),
		N:           len(s.Shares),
	}
	if s.NotEvaluated() {
		c.Success, c.SuccessNotEvaluated = math.NaN(), true
	}
	return c
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func boolsToFloats(b []bool) []float64 {
	out := make([]float64, len(b))
	for i, v := range b {
		out[i] = boolFloat(v)
	}
	return out
}

// ShareBin is the success rate of the trajectories whose tool-call share
// falls in [Lo, Hi) (the last bin is closed: [Lo, 1]).
type ShareBin struct {
	Lo, Hi    float64
	N         int     // trajectories in the bin
	Successes int     // of which passed
	Rate      float64 // Successes / N; NaN when N = 0 or NotEvaluated
	CI        CI      // 95% Wilson score interval of Rate; Lo and Hi NaN when N = 0 or NotEvaluated
	// NotEvaluated is set when the bin has trajectories and none of them
	// was evaluated (SuccessByShareBinEvaluated): its rate is unknown, not 0.
	NotEvaluated bool
}

// SuccessByShareBin splits [0, 1] into bins equal-width bins and reports,
// for each, how many trajectories fall in it and how many passed, with the
// success rate and its 95% Wilson score interval (Wilson 1927; see Wilson). shares[i] and passed[i]
// describe trajectory i. Shares that are NaN or outside [0, 1] are skipped.
// Every bin is returned, empty ones with N = 0 and NaN rate.
//
// SuccessByShareBin panics if len(shares) != len(passed) or bins < 1; both
// are caller bugs.
func SuccessByShareBin(shares []float64, passed []bool, bins int) []ShareBin {
	return SuccessByShareBinEvaluated(shares, passed, nil, bins)
}

// SuccessByShareBinEvaluated is SuccessByShareBin where evaluated[i] says
// whether trajectory i has reward information (nil: all have). A bin with
// trajectories none of which was evaluated is NotEvaluated, with a NaN rate
// and interval; in other bins an unevaluated trajectory counts as a
// failure, as everywhere else. It panics as SuccessByShareBin does, and
// when evaluated is not nil and len(evaluated) != len(shares).
func SuccessByShareBinEvaluated(shares []float64, passed, evaluated []bool, bins int) []ShareBin {
	if len(shares) != len(passed) {
		panic("analysis: SuccessByShareBin: len(shares) != len(passed)")
	}
	if evaluated != nil && len(evaluated) != len(shares) {
		panic("analysis: SuccessByShareBinEvaluated: len(evaluated) != len(shares)")
	}
	if bins < 1 {
		panic("analysis: SuccessByShareBin: bins < 1")
	}
	out := make([]ShareBin, bins)
	evaluatedIn := make([]int, bins)
	for i := range out {
		out[i].Lo = float64(i) / float64(bins)
		out[i].Hi = float64(i+1) / float64(bins)
	}
	for i, s := range shares {
		if math.IsNaN(s) || s < 0 || s > 1 {
			continue
		}
		b := min(int(s*float64(bins)), bins-1)
		out[b].N++
		if passed[i] {
			out[b].Successes++
		}
		if evaluated == nil || evaluated[i] {
			evaluatedIn[b]++
		}
	}
	for i := range out {
		b := &out[i]
		b.Rate = math.NaN()
		if b.N > 0 {
			b.Rate = float64(b.Successes) / float64(b.N)
		}
		b.CI = Wilson(b.Successes, b.N, 0.95)
		if b.N > 0 && evaluatedIn[i] == 0 {
			b.NotEvaluated = true
			b.Rate, b.CI.Lo, b.CI.Hi = math.NaN(), math.NaN(), math.NaN()
		}
	}
	return out
}

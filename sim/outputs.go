package sim

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/emobench/emobench"
)

// A required output (TaskSpec.Outputs) is matched against each agent
// message by what it is, so that the check judges what the agent said
// rather than how it wrote it. An output is one of:
//
//   - a synonym set "on time|on schedule|scheduled": any member matching
//     counts, each member classified as below;
//   - a date ("2024-05-26", "May 26, 2024", "26 May 2024", "05/26/2024",
//     "May 26th"): any date in a message with the same month and day
//     matches, in any of those formats, and with the same year when both
//     give one (the US order month/day for slashes);
//   - a time ("09:00", "9:30 pm"): "9:00", "9 am", "09:00" and "9:00 a.m."
//     are the same time;
//   - money ("$40", "$40.00", "40 dollars", "40 USD"): a number of equal
//     value (to the cent) with a currency mark, "$" or "USD" before it or
//     "dollars", "USD" or "bucks" after it;
//   - a quantity, a number and its unit ("2 checked bags", "5 refills"):
//     a number of equal value, in digits or as a word ("two"; "no" for
//     0), followed within two extra words by every word of the unit, in
//     order, singular or plural. So "2 bags" matches "you have 2 checked
//     bags" and "two bags", while "2 checked bags" needs "checked": write
//     the unit the answer turns on, no more;
//   - a number ("385.79", "100"): a number of equal value, commas of
//     thousands ignored, outside a date or a time; money and quantities
//     count ("$385.79");
//   - an id (a single word mixing letters and digits or holding "_", such
//     as "#W1234567", "LK2009" or "pm_482913_1"): the same word;
//   - anything else is a phrase ("Unlimited Premium", "sulfa drugs"): its
//     words in sequence (an auxiliary such as "been" may stand between
//     them), numbers by value, not negated ("not", "no", "never",
//     "without", "cannot" among the ten words before it in its clause).
//
// Every match is case- and punctuation-insensitive and on token
// boundaries: "40" never matches "140", "4040" or "40.5", and "available"
// never matches "unavailable". A phrase or an id must not start or end
// inside a word. With a judge (Evaluator.Judge), a phrase output that is
// not a synonym set is free-form and the judge decides it instead, as the
// assertion "The agent told the user …".

// outputKind is how a required output matches, recorded in
// CommunicateCheck.Kind.
type outputKind string

const (
	outputDate     outputKind = "date"
	outputTime     outputKind = "time"
	outputMoney    outputKind = "money"
	outputQuantity outputKind = "quantity"
	outputNumber   outputKind = "number"
	outputID       outputKind = "id"
	outputPhrase   outputKind = "phrase"
	outputAnyOf    outputKind = "any_of" // a synonym set
)

// outputPattern is one parsed member of a required output.
type outputPattern struct {
	kind  outputKind
	value float64 // number, money, quantity
	unit  []string
	date  textDate
	// minutes since midnight, for a time.
	minutes int
	words   []token // phrase, id
}

// ValidateOutput reports why s cannot be a required output: an empty
// member of a synonym set ("on time|"), or a member shorter than 3
// characters that carries no unit ("2", "40"; "$5" has one), which would
// match too much of what an agent says. The error quotes the output.
func ValidateOutput(s string) error {
	members := strings.Split(s, "|")
	for _, m := range members {
		m = strings.TrimSpace(m)
		switch p := parseOutputMember(m); {
		case m == "":
			return fmt.Errorf("output %q: empty member", s)
		case len([]rune(m)) < 3 && p.kind != outputMoney && p.kind != outputQuantity:
			return fmt.Errorf("output %q: %q is shorter than 3 characters and has no unit (write \"2 bags\", \"$40\")", s, m)
		}
	}
	return nil
}

// CheckOutputs reports the required outputs of task that ValidateOutput
// refuses, in one error naming the task ("task t1: outputs[1]: output
// \"40\": …; outputs[3]: …"); nil when all are valid. Tracer's
// generator and audit call it on generated tasks; loading a tasks file
// does not, so older task sets still load and score.
func CheckOutputs(task *emobench.TaskSpec) error {
	var bad []string
	for i, out := range task.Outputs {
		if err := ValidateOutput(out); err != nil {
			bad = append(bad, fmt.Sprintf("outputs[%d]: %v", i, err))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("task %s: %s", task.ID, strings.Join(bad, "; "))
}

// outputKindOf returns how out matches: any_of for a synonym set, else
// its member's kind.
func outputKindOf(out string) outputKind {
	if strings.Contains(out, "|") {
		return outputAnyOf
	}
	return parseOutputMember(strings.TrimSpace(out)).kind
}

// freeFormOutput reports whether a judge decides out: a phrase that is
// not a synonym set.
func freeFormOutput(out string) bool { return outputKindOf(out) == outputPhrase }

// outputSaid reports whether some agent message in msgs says out.
func outputSaid(out string, msgs []emobench.Message) bool {
	var pats []outputPattern
	for _, m := range strings.Split(out, "|") {
		if m = strings.TrimSpace(m); m != "" {
			pats = append(pats, parseOutputMember(m))
		}
	}
	for _, msg := range msgs {
		if msg.Role != emobench.RoleAssistant || msg.Content == "" {
			continue
		}
		text := scanText(msg.Content)
		for _, p := range pats {
			if p.matches(text) {
				return true
			}
		}
	}
	return false
}

// token is one word or number of a text: lowercased letters, digits and
// underscores, or a number (num set, commas of thousands dropped), or one
// of the marks "$" and "%".
type token struct {
	text  string
	num   float64
	isNum bool
}

// scannedText is a message split into its dates, its times and the
// tokens of the rest (a date or a time leaves one "\x00" token behind, so
// that nothing matches across it and its digits are no numbers).
type scannedText struct {
	dates  []textDate
	times  []int
	tokens []token
}

// textDate is a calendar date; year 0 when the text gave none.
type textDate struct{ year, month, day int }

var (
	monthPattern = `(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`
	isoDate      = regexp.MustCompile(`\b(\d{4})-(\d{1,2})-(\d{1,2})(?:t\d{1,2}:\d{2}(?::\d{2})?)?\b`)
	slashDate    = regexp.MustCompile(`\b(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})\b`)
	monthDayDate = regexp.MustCompile(`\b` + monthPattern + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4})\b)?`)
	dayMonthDate = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthPattern + `\b\.?(?:,?\s+(\d{4})\b)?`)
	clockTime    = regexp.MustCompile(`\b(\d{1,2}):(\d{2})(?:\s*([ap])\.?m\b\.?)?`)
	hourTime     = regexp.MustCompile(`\b(\d{1,2})\s*([ap])\.?m\b\.?`)
	tokenPattern = regexp.MustCompile(`[\p{L}\p{N}_]+(?:[.,]\p{N}+)*|\$|%|\x00|[.,;:!?\x{2014}]`)
	numberToken  = regexp.MustCompile(`^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$`)
)

var monthNumbers = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}

// numberWords are the number words a quantity or a number may be said
// with.
var numberWords = map[string]float64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
	"nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}

// negations are the words that, among the ten before a phrase in its
// clause, say the opposite of it ("there is no need to call 911", "I
// cannot call 911 for you"), unless an idiom follows them (notNegating:
// "don't wait, call 911", "do not hesitate to call 911").
var negations = map[string]bool{"not": true, "no": true, "never": true, "without": true, "cannot": true}

var notNegating = map[string]bool{"wait": true, "hesitate": true, "delay": true}

// negationWindow is how many tokens before a phrase a negation reaches.
const negationWindow = 10

// clauseMark is the token of a punctuation mark that ends a clause: a
// negation does not reach across it ("if it does not improve, call 911").
const clauseMark = "\x01"

// phraseFillers are the words that may stand between two words of a
// phrase without changing what it says: "has not been resolved" says
// "not resolved".
var phraseFillers = map[string]bool{"been": true, "be": true, "being": true, "yet": true, "fully": true, "really": true}

// scanText lowercases s (typographic apostrophes straightened, "n't" made
// " not") and splits it into dates, times and tokens.
func scanText(s string) scannedText {
	s = strings.ToLower(strings.ReplaceAll(s, "\u2019", "'"))
	s = strings.ReplaceAll(s, "n't", " not")
	s = strings.ReplaceAll(s, "9-1-1", "911")
	var t scannedText
	blank := func(re *regexp.Regexp, found func(m []string)) {
		s = re.ReplaceAllStringFunc(s, func(span string) string {
			found(re.FindStringSubmatch(span))
			return " \x00 "
		})
	}
	blank(isoDate, func(m []string) {
		t.dates = append(t.dates, textDate{atoi(m[1]), atoi(m[2]), atoi(m[3])})
	})
	blank(slashDate, func(m []string) {
		y := atoi(m[3])
		if y < 100 {
			y += 2000
		}
		t.dates = append(t.dates, textDate{y, atoi(m[1]), atoi(m[2])})
	})
	blank(monthDayDate, func(m []string) {
		t.dates = append(t.dates, textDate{atoi(m[3]), monthNumbers[m[1][:3]], atoi(m[2])})
	})
	blank(dayMonthDate, func(m []string) {
		t.dates = append(t.dates, textDate{atoi(m[3]), monthNumbers[m[2][:3]], atoi(m[1])})
	})
	blank(clockTime, func(m []string) { t.times = append(t.times, clockMinutes(atoi(m[1]), atoi(m[2]), m[3])) })
	blank(hourTime, func(m []string) { t.times = append(t.times, clockMinutes(atoi(m[1]), 0, m[2])) })
	for _, w := range tokenPattern.FindAllString(s, -1) {
		if len(w) <= 3 && strings.ContainsAny(w, ".,;:!?\u2014") {
			t.tokens = append(t.tokens, token{text: clauseMark})
			continue
		}
		if numberToken.MatchString(w) {
			t.tokens = append(t.tokens, numberOrWord(w))
			continue
		}
		// "1,2" or "v2.5" is no number: split it at the marks.
		for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == '.' || r == ',' }) {
			t.tokens = append(t.tokens, numberOrWord(part))
		}
	}
	return t
}

// numberOrWord is w as a token: a number when it is one (commas of
// thousands dropped), else a word.
func numberOrWord(w string) token {
	if !numberToken.MatchString(w) {
		return token{text: w}
	}
	f, _ := strconv.ParseFloat(strings.ReplaceAll(w, ",", ""), 64)
	return token{text: w, num: f, isNum: true}
}

// clockMinutes returns minutes since midnight of h:m with an optional
// "a" or "p" for am and pm.
func clockMinutes(h, m int, ampm string) int {
	switch {
	case ampm == "p" && h < 12:
		h += 12
	case ampm == "a" && h == 12:
		h = 0
	}
	return h*60 + m
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// parseOutputMember classifies one member of a required output (see the
// comment at the top of this file).
func parseOutputMember(m string) outputPattern {
	t := scanText(m)
	toks := withoutClauseMarks(t.tokens)
	switch {
	case len(t.dates) == 1 && len(t.times) == 0 && onlyBlanks(toks):
		return outputPattern{kind: outputDate, date: t.dates[0]}
	case len(t.times) == 1 && len(t.dates) == 0 && onlyBlanks(toks):
		return outputPattern{kind: outputTime, minutes: t.times[0]}
	case len(toks) == 2 && toks[0].text == "$" && toks[1].isNum,
		len(toks) == 2 && toks[0].text == "usd" && toks[1].isNum:
		return outputPattern{kind: outputMoney, value: toks[1].num}
	case len(toks) == 2 && toks[0].isNum && currencyAfter[toks[1].text]:
		return outputPattern{kind: outputMoney, value: toks[0].num}
	case len(toks) == 1 && toks[0].isNum:
		return outputPattern{kind: outputNumber, value: toks[0].num}
	case len(toks) >= 2 && toks[0].isNum && !slices.ContainsFunc(toks[1:], func(t token) bool { return t.isNum || !isWord(t.text) }):
		unit := make([]string, len(toks)-1)
		for i, u := range toks[1:] {
			unit[i] = singular(u.text)
		}
		return outputPattern{kind: outputQuantity, value: toks[0].num, unit: unit}
	case len(toks) == 1 && len(t.dates) == 0 && len(t.times) == 0 && looksLikeID(toks[0].text):
		return outputPattern{kind: outputID, words: toks}
	}
	return outputPattern{kind: outputPhrase, words: toks}
}

// currencyAfter are the words after a number that make it money.
var currencyAfter = map[string]bool{"dollars": true, "dollar": true, "usd": true, "bucks": true}

func onlyBlanks(toks []token) bool {
	return !slices.ContainsFunc(toks, func(t token) bool { return t.text != "\x00" })
}

func isWord(s string) bool {
	return s != "" && !slices.ContainsFunc([]rune(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

// looksLikeID: a word holding both letters and digits, or an underscore.
func looksLikeID(w string) bool {
	return strings.Contains(w, "_") ||
		strings.ContainsFunc(w, unicode.IsLetter) && strings.ContainsFunc(w, unicode.IsDigit)
}

// singular drops a plural ending: "refills" → "refill", "bags" → "bag",
// "batteries" → "battery".
func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// numberAt returns the value of toks[i] as a number, in digits or as a
// word ("no" only when zeroWord).
func numberAt(toks []token, i int, zeroWord bool) (float64, bool) {
	if toks[i].isNum {
		return toks[i].num, true
	}
	if v, ok := numberWords[toks[i].text]; ok {
		return v, true
	}
	if zeroWord && (toks[i].text == "no" || toks[i].text == "none") {
		return 0, true
	}
	return 0, false
}

func sameValue(a, b float64) bool { return math.Abs(a-b) < 0.005 }

// matches reports whether the scanned message says p.
func (p outputPattern) matches(t scannedText) bool {
	toks := t.tokens
	switch p.kind {
	case outputDate:
		return slices.ContainsFunc(t.dates, func(d textDate) bool {
			return d.month == p.date.month && d.day == p.date.day && (d.year == 0 || p.date.year == 0 || d.year == p.date.year)
		})
	case outputTime:
		return slices.Contains(t.times, p.minutes)
	case outputMoney:
		for i := range toks {
			if v, ok := numberAt(toks, i, false); ok && toks[i].isNum && sameValue(v, p.value) && isMoneyAt(toks, i) {
				return true
			}
		}
	case outputNumber:
		for i := range toks {
			if v, ok := numberAt(toks, i, false); ok && sameValue(v, p.value) {
				return true
			}
		}
	case outputQuantity:
		for i := range toks {
			if v, ok := numberAt(toks, i, true); ok && sameValue(v, p.value) && unitFollows(toks[i+1:], p.unit) {
				return true
			}
		}
	case outputID:
		return phraseAt(toks, p.words, false)
	case outputPhrase:
		return phraseStated(toks, p.words)
	}
	return false
}

// hedges are the words that, before a phrase in its clause, make it a
// supposition rather than a statement: "if your flight were cancelled"
// says nothing of whether it is.
var hedges = map[string]bool{"if": true, "whether": true, "unless": true}

// phraseStated reports whether a phrase output is stated: said as
// phraseAt says it, negation guarded, and not after a hedge in its clause.
// Advice is said either way ("if it gets worse, call 911" is advice), so
// only outputs are hedge-guarded.
func phraseStated(toks, words []token) bool {
	if len(words) == 0 {
		return false
	}
	for i := range toks {
		if phraseFrom(toks[i:], words) && !negatedAt(toks, i) && !hedgedAt(toks, i) {
			return true
		}
	}
	return false
}

// hedgedAt reports whether a hedge stands among the negationWindow tokens
// before toks[i], in its clause.
func hedgedAt(toks []token, i int) bool {
	for k := i - 1; k >= max(0, i-negationWindow); k-- {
		switch {
		case toks[k].text == clauseMark || toks[k].text == "\x00":
			return false
		case hedges[toks[k].text]:
			return true
		}
	}
	return false
}

// isMoneyAt reports whether the number toks[i] carries a currency mark.
func isMoneyAt(toks []token, i int) bool {
	return i > 0 && (toks[i-1].text == "$" || toks[i-1].text == "usd") ||
		i+1 < len(toks) && currencyAfter[toks[i+1].text]
}

// unitFollows reports whether the words of unit appear in order at the
// start of rest, with at most two other words among them.
func unitFollows(rest []token, unit []string) bool {
	j, skipped := 0, 0
	for _, t := range rest {
		if j == len(unit) {
			break
		}
		if singular(t.text) == unit[j] {
			j++
			continue
		}
		if skipped++; skipped > 2 || t.isNum || t.text == "\x00" {
			return false
		}
	}
	return j == len(unit)
}

// phraseAt reports whether words appear as a run of toks (numbers equal
// by value; a phraseFillers word may stand between two of them), not
// negated when guardNegation: no negation among the negationWindow tokens
// before it in its clause.
func phraseAt(toks, words []token, guardNegation bool) bool {
	if len(words) == 0 {
		return false
	}
	for i := range toks {
		if !phraseFrom(toks[i:], words) {
			continue
		}
		if !guardNegation || !negatedAt(toks, i) {
			return true
		}
	}
	return false
}

// phraseFrom reports whether toks start with words, fillers allowed
// between them.
func phraseFrom(toks, words []token) bool {
	j := 0
	for k, t := range toks {
		switch {
		case sameToken(t, words[j]):
			j++
			if j == len(words) {
				return true
			}
		case k > 0 && (phraseFillers[t.text] || t.text == clauseMark): // "Dr. Tanaka" says "Dr Tanaka"
		default:
			return false
		}
	}
	return false
}

// withoutClauseMarks returns toks without clause marks: what a required
// output or an advice phrase says is its words.
func withoutClauseMarks(toks []token) []token {
	return slices.DeleteFunc(slices.Clone(toks), func(t token) bool { return t.text == clauseMark })
}

// negatedAt reports whether a negation stands among the negationWindow
// tokens before toks[i], in its clause, without an idiom after it that
// undoes it.
func negatedAt(toks []token, i int) bool {
	for k := i - 1; k >= max(0, i-negationWindow); k-- {
		switch {
		case toks[k].text == clauseMark || toks[k].text == "\x00":
			return false
		case negations[toks[k].text] && !(k+1 < len(toks) && notNegating[toks[k+1].text]):
			return true
		}
	}
	return false
}

func sameToken(a, b token) bool {
	if a.isNum && b.isNum {
		return sameValue(a.num, b.num)
	}
	return a.text == b.text
}

// outputChecks checks each required output of task against the agent's
// messages (outputSaid). With a judge, the free-form outputs are decided
// by it instead, in one call, as assertions "The agent told the user …";
// when the judge fails, the offline match stands and the justification
// says why. It fails only when ctx is done.
func (e *Evaluator) outputChecks(ctx context.Context, task *emobench.TaskSpec, msgs []emobench.Message, info *RewardInfo) ([]CommunicateCheck, error) {
	checks := make([]CommunicateCheck, len(task.Outputs))
	var judged []int
	var assertions []string
	for i, out := range task.Outputs {
		checks[i] = CommunicateCheck{Info: out, Met: outputSaid(out, msgs), Kind: string(outputKindOf(out))}
		if e.Judge != nil && freeFormOutput(out) {
			judged = append(judged, i)
			assertions = append(assertions, OutputAssertion(out))
		}
	}
	if len(assertions) == 0 {
		return checks, nil
	}
	verdicts, failed, err := e.judgeMore(ctx, task, msgs, assertions, info)
	if err != nil {
		return nil, err
	}
	for k, i := range judged {
		if failed != nil {
			checks[i].Justification = "judge failed, matched offline: " + failed.Error()
			continue
		}
		checks[i].Met, checks[i].Justification = verdicts[k].Met, verdicts[k].Justification
	}
	return checks, nil
}

// judgeMore asks e.Judge (which must be set) about assertions in a call of
// their own, recording its usage in info. failed is the judge's failure
// (an error, or not one verdict per assertion), with which the caller
// keeps its offline verdicts; err is ctx's error when ctx is done.
func (e *Evaluator) judgeMore(ctx context.Context, task *emobench.TaskSpec, msgs []emobench.Message, assertions []string, info *RewardInfo) (verdicts []Verdict, failed, err error) {
	verdicts, usage, failed := e.Judge.Judge(ctx, task, msgs, assertions)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	info.addJudgeUsage(e.Judge.Model(), usage)
	if failed == nil && len(verdicts) != len(assertions) {
		failed = fmt.Errorf("judge gave %d verdicts for %d assertions", len(verdicts), len(assertions))
	}
	return verdicts, failed, nil
}

// OutputAssertion is the NL assertion a judge decides for the free-form
// required output out.
func OutputAssertion(out string) string {
	return fmt.Sprintf("The agent told the user %q (in any wording).", out)
}

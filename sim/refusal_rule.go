package sim

import (
	"regexp"
	"strings"
)

// SaysRefusal reports whether an agent message tells the user that what
// they asked cannot be done: the offline rule of the REFUSAL check (with
// a judge, an NL assertion decides instead) and the scripted user's
// reading of a refusal. Its precision and recall are measured on the
// labelled messages of testdata/refusal_messages.jsonl
// (TestSaysRefusal_LabelledSet).
//
// The rule, applied to each sentence of the text after lowercasing,
// straightening apostrophes and dropping Markdown marks:
//
//  1. Phrases that look like refusals and are not are removed first:
//     "can't wait", "can't thank you enough", "can't imagine", "couldn't
//     be happier", "nothing I can't fix", "no reason (why) I can't",
//     "cannot find a reason not to", "can't see why not", "you can't go
//     wrong", a card that "was declined", and the like (notRefusals).
//  2. A sentence refuses when it holds a refusal phrase (refusalCues):
//     an inability or a prohibition said of the agent, the user or the
//     thing asked ("I can't", "we're unable to", "I'm not able to", "this
//     order cannot be cancelled", "you can't change"), ineligibility ("not
//     eligible", "doesn't qualify"), impossibility ("not possible", "won't
//     be possible", "no way to"), policy ("against our policy", "the
//     policy doesn't allow", "not permitted"), an explicit decline ("I
//     have to decline", "I must turn down") or the request left as it was
//     ("I'll have to leave it as it is").
//  3. Such a phrase does not count when it states a condition to proceed
//     rather than an answer, a verification step ("I can't make changes
//     until you confirm", "without verifying your identity"), warns about
//     what a write will
//     do ("this cannot be undone", "you won't be able to modify it once
//     it's cancelled"), says the agent cannot find, see, guarantee or
//     promise something, or is the counterfactual of a sentence starting
//     with "if" ("If it had shipped, I couldn't cancel it").
//
// The text refuses when any sentence does.
func SaysRefusal(text string) bool {
	text = strings.ToLower(text)
	text = strings.NewReplacer("\u2019", "'", "\u2018", "'", "*", "", "`", "", "#", " ", "_", " ", "\u2014", ", ", "\u2013", ", ").Replace(text)
	text = notRefusals.ReplaceAllString(text, " ")
	for _, s := range sentenceSplit.Split(text, -1) {
		if sentenceRefuses(strings.TrimSpace(s)) {
			return true
		}
	}
	return false
}

// sentenceSplit ends a sentence at . ! ? ; : or a line break followed by
// space (an order number "#W1.5" or an amount "$1.50" stays whole).
var sentenceSplit = regexp.MustCompile(`[.!?;:](\s+|$)|\n+`)

// notRefusals are phrases with a refusal's words that refuse nothing.
var notRefusals = regexp.MustCompile(`\b(` + strings.Join([]string{
	`(can't|cannot|can not|couldn't|could not) (wait|thank you enough|thank you|stress (this |that )?enough|emphasi[sz]e (this |that )?enough|say (this |that )?enough|imagine|believe|blame you|help but|help noticing|agree more|be (happier|more (pleased|delighted|glad))|recommend (it|them|this|that) enough|go wrong|beat|miss it)`,
	`(nothing|not a thing|not anything) (i|we) (can't|cannot|couldn't)`,
	`(couldn't|could not) have (put|said) (it|that) better`,
	`no reason (why )?(i|we|you) (can't|cannot|couldn't|shouldn't)`,
	`(can't|cannot|can not|couldn't) (find|see|think of) (a|any) reason (why )?not`,
	`(can't|cannot|don't) see why not`,
	`(don't|do not) see (any reason )?why (i|we|you) (can't|couldn't)`,
	`no reason not to`,
	`(was|were|been|got|get|is|are) declined`,
	`not (a|any) problem`,
	`you (can't|cannot) (go wrong|miss it|beat)`,
	`(isn't|is not|aren't|are not|wasn't) (a|an)? ?(issue|problem)`,
}, "|") + `)\b`)

// refusalCues say that what was asked cannot or will not be done.
var refusalCues = regexp.MustCompile(`\b(` + strings.Join([]string{
	`unable|not able|not allowed|not permitted|not authori[sz]ed|not in a position|no longer able|have no way|has no way|won't be able|will not be able|wouldn't be able|couldn't|could not`,
	`can't|cannot|can not`,
	`(not|isn't|aren't|wasn't|n't) (be )?(eligible|entitled)`,
	`(not|isn't|aren't|wasn't|weren't|won't|won't be|will not be|wouldn't be|is not|are not) (going to be |be |really |currently |actually |even )?(possible|feasible|doable|an option|allowed|permitted|eligible|entitled|available|supported|offered)`,
	`(not|isn't|is not|aren't|are not) (one|something|anything) (i|we) ?('m|'re| am| are)? ?(can|able|allowed|permitted|in a position)`,
	`(i|we) (won't|will not|'m not going to|am not going to|are not going to|'re not going to) (be [a-z]+ing|make|cancel|change|modify|process|book|issue|refund|make|approve|add|apply|do|reactivate|switch|move|upgrade|waive|grant|extend)`,
	`can no longer|no longer (possible|allowed|permitted|eligible)`,
	`(aren't|isn't|wasn't|weren't|are not|is not|was not|were not) able`,
	`(doesn't|does not|don't|do not|didn't|did not) (meet|satisfy|fulfil|fulfill) (the|our|its|your) (requirements?|criteria|conditions)`,
	`off the table`,
	`(won't|will not|wouldn't) (accept|allow|let)`,
	`nothing (more |else )?(i|we) (can|could|am able to|are able to) do`,
	`turn (this|that|it|your request|the request|this request|that request) down|turn down`,
	`(that's|that is|the answer is|it's|it is|i'm sorry to say that's) (a )?no`,
	`rules? (it|this|that) out`,
	`ineligible|doesn't qualify|does not qualify|don't qualify|do not qualify|not qualify`,
	`(against|violates?|outside( of)?|beyond) (our|the|company|airline|store|clinic|carrier) ?(policy|policies|rules)`,
	`(policy|policies|rules|system) (does not|doesn't|do not|don't|won't|will not) (allow|permit|let)`,
	`(policy|policies|rules) (prohibits?|forbids?|prevents?|excludes?|rules? out)`,
	`(do not|don't|does not|doesn't) (allow|permit)`,
	`(have to|has to|must|need to|going to have to|'ll have to|will have to|regret(fully)?|respectfully) (to )?(decline|turn (this |that |it )?down|refuse|say no)`,
	`\bdecline (this|that|the|your)`,
	`no way (for (me|us) )?(to|i|we)`,
	`(have to|must|'ll|will|need to) (leave|keep) (it|them|this|that|your [a-z ]{1,30}) (as (it|they) (is|are)|as is|unchanged|where (it|they) (is|are)|in place)`,
	`(don't|do not|doesn't|does not) have the (ability|authority|permission)`,
	`(outside|beyond) (of )?(what|the scope of what) (i|we) ?('m|'re| am| are)? ?(can|able|allowed|permitted)`,
}, "|") + `)\b`)

// conditionToProceed, writeWarning and unableToKnow mark a refusal
// phrase that states a step to take, a write's consequence or a lookup
// that failed, not an answer to the request.
var (
	conditionToProceed = regexp.MustCompile(`\b(until|before) ((i|we)('ve| have)? (verif|confirm|authenticat|check)|you (confirm|verify|provide|give|tell|share|send|supply)|verifying|confirming)|\bwithout (first )?(verifying|confirming|authenticat|your (email|date|zip|name|phone|user|account|order|reservation))`)
	writeWarning       = regexp.MustCompile(`\b(be )?(undone|reversed|reverted|recovered|restored|retrieved)\b|\bonce (it's|it is|it has|the|your|this|that|cancelled|canceled|processed|done|submitted)\b|\b(after|afterwards|after that|later on)\b.*\b(can't|cannot|won't be able|unable)\b`)
	unableToKnow       = regexp.MustCompile(`\b(can't|cannot|can not|couldn't|could not|unable to|not able to|wasn't able to|weren't able to) (seem to )?(find|locate|see|pull up|access|verify|guarantee|promise|predict|confirm (whether|if|the exact)|tell (whether|if|which|for sure)|speak for|control)\b`)
	counterfactual     = regexp.MustCompile(`^(if|had|were)\b.*\b(had|were|would|could|couldn't|wouldn't)\b`)
)

func sentenceRefuses(s string) bool {
	loc := refusalCues.FindStringIndex(s)
	if loc == nil {
		return false
	}
	if counterfactual.MatchString(s) {
		return false
	}
	rest := s[loc[0]:]
	if unableToKnow.MatchString(s) && !refusalCues.MatchString(unableToKnow.ReplaceAllString(s, " ")) {
		return false
	}
	if conditionToProceed.MatchString(rest) || writeWarning.MatchString(s) {
		return false
	}
	return true
}

package ingest

import (
	"cmp"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/emobench/emobench"
)

// KnownDomains lists domain names of τ-bench, τ²-bench and τ-Emotion-Bench
// that file names are searched for. ("it" is left out: it ends
// instruction-tuned model names such as gemma-3-27b-it.)
var KnownDomains = []string{
	"retail", "airline", "telecom", "telehealth", "mock", "banking",
	"healthcare", "insurance", "travel", "hotel", "restaurant", "education",
	"ecommerce", "finance", "hr", "logistics", "realestate",
}

// FileMetadata is what a result file's name says about its run; empty
// fields are unknown.
type FileMetadata struct {
	Model         string
	AgentStrategy string // tool-calling, act, react, few-shot (τ-bench names)
	UserModel     string
	UserStrategy  string // llm, react, verify, reflection (τ-bench names)
	Temperature   string // the agent's sampling temperature, as written
	Domain        string
	Condition     emobench.Condition
	// Note says why the name gives no model: it begins with a
	// benchmark's or a harness's name (tau2-…, tau-trait-…), whose words
	// are not a model's; the words where the model would be are not a
	// model's name (results, output, run1, my_experiment, a date, a
	// number); or it does not have the shape of a name that gives one.
	// Empty when the name gives a model (or is empty).
	Note string
}

// Metadata is the name's layer for Resolve.
func (m FileMetadata) Metadata() Metadata {
	return Metadata{
		Model: m.Model, AgentStrategy: m.AgentStrategy, UserModel: m.UserModel,
		UserStrategy: m.UserStrategy, Domain: m.Domain, Condition: m.Condition,
	}
}

// The expressions below are compiled at their first use (sync.OnceValue),
// not at package init, which every command would pay.

// harnessName matches a name that begins with a benchmark's or a
// harness's name (tau2-…, tau-bench-…, tau-trait-…, taubench-…,
// tau-emotion-…, τ²-…, emobench-…): what follows may be a model, a
// persona, a date, so the name gives no model.
var harnessName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:tau|τ|emobench)(?:[²³0-9]|-?bench|[-_.]|$)`)
})

// harnessWord is the benchmark's name a harnessName match begins with, as
// a note names it: tau-trait, tau-emotion, tau-bench, tau2, tau2-bench,
// emobench.
var harnessWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:(?:tau|τ)[²³0-9]*(?:[-_.]?(?:bench|trait|emotion))?|emobench)`)
})

// notModelWords are words that begin file names where a model would be but
// name none: results_no-emotion.json, output-with-emotions.json,
// my_experiment_retail.json, run1-retail.json.
var notModelWords = map[string]bool{
	"results": true, "result": true, "output": true, "outputs": true, "out": true, "run": true, "runs": true,
	"experiment": true, "experiments": true, "exp": true, "test": true, "tests": true, "eval": true, "evals": true,
	"evaluation": true, "data": true, "my": true, "emotion": true, "emotions": true, "trajectories": true,
	"traj": true, "log": true, "logs": true, "tmp": true, "temp": true, "sample": true, "samples": true,
	"example": true, "examples": true,
}

// datePrefix matches a model part that begins with a date (2024-05-01,
// 20240501) or is a version alone (v2).
var datePrefix = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:\d{4}[-_.]?\d{2}[-_.]?\d{2}(?:$|[-_.])|v\d+$)`)
})

// looksLikeModel reports whether the words where a file name puts the
// model can be a model's name: not a generic word (results, output, run,
// run1, my_…), not a date, not a number.
func looksLikeModel(model string) bool {
	first := strings.ToLower(model)
	if i := strings.IndexAny(first, "-_. "); i >= 0 {
		first = first[:i]
	}
	if notModelWords[strings.TrimRight(first, "0123456789")] || datePrefix().MatchString(model) {
		return false
	}
	return strings.ContainsFunc(model, func(r rune) bool { return unicode.IsLetter(r) })
}

// tauBenchCheckpoint matches the names τ-bench's run.py gives its result
// files: {agent_strategy}-{model}-{temperature}_range_{start}-{end}_user-
// {user_model}-{user_strategy}_{MMDDHHMMSS}, and the fork spelling
// _user{user_model}_ without a strategy. The temperature is a Python float
// (0.0, 0.7, 1e-05).
var tauBenchCheckpoint = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(tool-calling|act|react|few-shot)(?:-?think)?-(.+?)-(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)_range_(-?\d+)-(-?\d+)_user-?(.+?)(?:-(llm|react|verify|reflection|human))?_\d{6,}$`)
})

// conditionWords matches a condition anywhere in a name, as words:
// with-emotions, without_emotion, no-emotions, …
var conditionWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[-_.])(with|without|no)[-_]emotions?(?:$|[-_.])`)
})

// MetadataFromFileName infers a run's metadata from its file name. Condition
// words (with-emotions, without_emotions, no-emotion) anywhere in the name
// give the condition; the rest of the name is then read as:
//   - τ-bench's own names (see tauBenchCheckpoint): agent strategy, model,
//     temperature, user model and user strategy;
//   - <model>-<domain> before τ-Emotion-Bench's condition words: the domain
//     is a known one when the name holds one, else the last word when it is
//     made of letters only (any domain is accepted);
//   - otherwise <model>-<domain>[-words] with a domain among KnownDomains.
//
// A domain not in the name comes from a parent folder named after a known
// domain (results/retail/…). A name that begins with a benchmark's or a
// harness's name (see harnessName) gives no model, and Note says why.
func MetadataFromFileName(path string) FileMetadata {
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var meta FileMetadata
	before, rest := stem, ""
	if loc := conditionWords().FindStringSubmatchIndex(stem); loc != nil {
		meta.Condition = emobench.ConditionWithEmotions
		if w := strings.ToLower(stem[loc[2]:loc[3]]); w == "without" || w == "no" {
			meta.Condition = emobench.ConditionWithoutEmotions
		}
		before, rest = stem[:loc[0]], stem[loc[1]:]
	}
	switch m := tauBenchCheckpoint().FindStringSubmatch(joinName(before, rest)); {
	case m != nil:
		meta.AgentStrategy, meta.Model, meta.Temperature, meta.UserModel, meta.UserStrategy = m[1], m[2], m[3], m[6], m[7]
	case meta.Condition != "" && before != "":
		meta.Model, meta.Domain = splitModelDomain(before)
	default:
		meta.Model, meta.Domain = knownDomainSplit(joinName(before, rest))
	}
	base := filepath.Base(path)
	switch m := harnessName().FindString(stem); {
	case m != "":
		meta.Model = ""
		meta.Note = "file name " + base + " begins with a benchmark's name (" + cmp.Or(harnessWord().FindString(stem), strings.TrimRight(m, "-_.")) + "), not a model's"
	case meta.Model != "" && !looksLikeModel(meta.Model):
		meta.Note = fmt.Sprintf("file name %s does not name a model (%q is not a model's name)", base, meta.Model)
		meta.Model = ""
	case meta.Model == "" && strings.Trim(stem, ".") != "":
		meta.Note = "file name " + base + " does not have the shape <model>-<domain>[-(with|without)-emotions].json with a known domain"
	}
	if dir := filepath.Base(filepath.Dir(path)); meta.Domain == "" && isKnownDomain(dir) {
		meta.Domain = strings.ToLower(dir)
	}
	return meta
}

// joinName puts a name back together around removed condition words.
func joinName(before, after string) string {
	if before == "" || after == "" {
		return before + after
	}
	return before + "-" + after
}

// splitModelDomain splits <model>-<domain> (or _<domain>): at a known
// domain when there is one, else before a last word of letters only; a
// last word like 4o, 27b or mini is part of the model.
func splitModelDomain(name string) (model, domain string) {
	if model, domain = knownDomainSplit(name); domain != "" {
		return model, domain
	}
	i := strings.LastIndexAny(name, "-_")
	if i <= 0 || i == len(name)-1 {
		return name, ""
	}
	last := name[i+1:]
	if !isLetters(last) || modelSuffixes[strings.ToLower(last)] {
		return name, ""
	}
	return name[:i], last
}

// modelSuffixes are last words of model names, never domains.
var modelSuffixes = map[string]bool{
	"it": true, "instruct": true, "chat": true, "mini": true, "nano": true, "turbo": true, "preview": true,
	"sonnet": true, "opus": true, "haiku": true, "pro": true, "flash": true, "lite": true, "base": true,
	"large": true, "small": true, "medium": true, "max": true, "plus": true, "thinking": true, "coder": true,
	"latest": true, "exp": true, "hf": true, "awq": true, "gptq": true, "fp8": true,
}

func isLetters(s string) bool {
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return s != ""
}

// knownDomainSplit finds the last word (between '-' or '_') that is a
// known domain: the words before it are the model. The domain comes back in
// lower case, so Retail and retail runs pair.
func knownDomainSplit(name string) (model, domain string) {
	end := len(name)
	for end > 0 {
		start := strings.LastIndexAny(name[:end], "-_") + 1
		if word := name[start:end]; isKnownDomain(word) {
			return strings.TrimRight(name[:start], "-_"), strings.ToLower(word)
		}
		end = max(start-1, 0)
	}
	return "", ""
}

func isKnownDomain(word string) bool {
	for _, d := range KnownDomains {
		if strings.EqualFold(word, d) {
			return true
		}
	}
	return false
}

// PairName is the path with the condition words of its file name
// (with-emotions, without_emotions, no-emotion, …) replaced by "*": the
// with- and without-emotions files of one experiment, named as
// τ-Emotion-Bench names them (qwen3-retail-with-emotions.json and
// qwen3-retail-without-emotions.json), have one PairName. It is "" when
// the name holds no condition words.
func PairName(path string) string {
	base := filepath.Base(path)
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	loc := conditionWords().FindStringSubmatchIndex(stem)
	if loc == nil {
		return ""
	}
	end := loc[1]
	if strings.ContainsRune("-_.", rune(stem[end-1])) {
		end-- // the separator after the words
	}
	return filepath.Join(filepath.Dir(path), stem[:loc[2]]+"*"+stem[end:]+ext)
}

package ingest

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/emobench/emobench"
)

// KnownDomains lists domain names of τ-bench, τ²-bench and τ-Emotion-Bench
// that file names are searched for.
var KnownDomains = []string{
	"retail", "airline", "telecom", "telehealth", "mock", "banking",
	"healthcare", "insurance", "travel", "hotel", "restaurant", "education",
	"ecommerce", "finance", "hr", "it", "logistics", "realestate",
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
}

// tauBenchCheckpoint matches the names τ-bench's run.py gives its result
// files: {agent_strategy}-{model}-{temperature}_range_{start}-{end}_user-
// {user_model}-{user_strategy}_{MMDDHHMMSS}, and the fork spelling
// _user{user_model}_ without a strategy.
var tauBenchCheckpoint = regexp.MustCompile(`^(tool-calling|act|react|few-shot)(?:-?think)?-(.+)-(-?\d+(?:\.\d+)?(?:e-?\d+)?)_range_(-?\d+)-(-?\d+)_user-?(.+?)(?:-(llm|react|verify|reflection|human))?_\d{6,}$`)

// conditionWords matches a condition anywhere in a name, as words:
// with-emotions, without_emotion, no-emotions, …
var conditionWords = regexp.MustCompile(`(?i)(?:^|[-_.])(with|without|no)[-_]emotions?(?:$|[-_.])`)

// MetadataFromFileName infers a run's metadata from its file name:
//   - τ-bench's own names (see tauBenchCheckpoint) give the agent strategy,
//     model, temperature, user model and user strategy; the domain then
//     comes from a parent folder named after a known domain (results/retail/…);
//   - τ-Emotion-Bench's <model>-<domain>-(with|without)-emotions names give
//     model, domain and condition, with any <domain>; the condition words
//     may also sit in the middle (…-without-emotions.v2.json);
//   - otherwise <model>-<domain>[-words] with a domain among KnownDomains.
func MetadataFromFileName(path string) FileMetadata {
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if m := tauBenchCheckpoint.FindStringSubmatch(stem); m != nil {
		meta := FileMetadata{AgentStrategy: m[1], Model: m[2], Temperature: m[3], UserModel: m[6], UserStrategy: m[7]}
		if dir := filepath.Base(filepath.Dir(path)); isKnownDomain(dir) {
			meta.Domain = dir
		}
		return meta
	}
	var meta FileMetadata
	if loc := conditionWords.FindStringSubmatchIndex(stem); loc != nil {
		meta.Condition = emobench.ConditionWithEmotions
		if w := strings.ToLower(stem[loc[2]:loc[3]]); w == "without" || w == "no" {
			meta.Condition = emobench.ConditionWithoutEmotions
		}
		rest := stem[:loc[0]]
		if i := strings.LastIndex(rest, "-"); i > 0 && i < len(rest)-1 {
			meta.Model, meta.Domain = rest[:i], rest[i+1:]
			return meta
		}
	}
	words := strings.Split(stem, "-")
	for i := len(words) - 1; i >= 0; i-- {
		if isKnownDomain(words[i]) {
			meta.Domain = words[i]
			meta.Model = strings.Join(words[:i], "-")
			break
		}
	}
	return meta
}

func isKnownDomain(word string) bool {
	for _, d := range KnownDomains {
		if strings.EqualFold(word, d) {
			return true
		}
	}
	return false
}

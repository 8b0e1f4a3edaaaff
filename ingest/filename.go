package ingest

import (
	"path/filepath"
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
	Model     string
	Domain    string
	Condition emobench.Condition
}

// MetadataFromFileName infers a run's model, domain and condition from
// names such as <model>-<domain>-(with|without)-emotions.json and
// <model>-<domain>.json (τ-Emotion-Bench's historical_trajectories). In the
// first form any <domain> is accepted; otherwise the domain must be one of
// KnownDomains, and words after it are ignored.
func MetadataFromFileName(path string) FileMetadata {
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var meta FileMetadata
	for suffix, cond := range map[string]emobench.Condition{
		"-with-emotions":    emobench.ConditionWithEmotions,
		"-without-emotions": emobench.ConditionWithoutEmotions,
	} {
		if rest, ok := strings.CutSuffix(stem, suffix); ok {
			meta.Condition = cond
			if i := strings.LastIndex(rest, "-"); i > 0 && i < len(rest)-1 {
				meta.Model, meta.Domain = rest[:i], rest[i+1:]
			}
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

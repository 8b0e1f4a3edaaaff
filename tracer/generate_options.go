package tracer

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
)

// Defaults of NewGenerateOptions. The weights favour the longer walks (the
// multi-write intents) and more intents a task, so that default tasks hold
// on average at least 1.5 writes, 30% of them two or more (issue 11's
// shape).
var (
	DefaultWalkSteps      = []int{2, 3, 4}
	DefaultWalkStepsDist  = []float64{1, 2, 4}
	DefaultIntents        = []int{1, 2, 3}
	DefaultIntentsDist    = []float64{1, 2, 4}
	DefaultForbiddenShare = 0.10
	DefaultTransferShare  = 0.05
	DefaultReadShare      = 0.15
)

// NewGenerateOptions returns the default options: the test split, the
// Default* walk lengths, intent counts, their weights and the shares.
// N is 0: the caller sets it (Validate refuses 0), and Seed is 0.
func NewGenerateOptions() GenerateOptions {
	return GenerateOptions{
		Split:     emobench.SplitTest,
		WalkSteps: slices.Clone(DefaultWalkSteps), WalkStepsDist: slices.Clone(DefaultWalkStepsDist),
		Intents: slices.Clone(DefaultIntents), IntentsDist: slices.Clone(DefaultIntentsDist),
		ForbiddenShare: DefaultForbiddenShare, TransferShare: DefaultTransferShare, ReadShare: DefaultReadShare,
	}
}

// OptionError is a bad value of one GenerateOptions field. Field is the
// field's Go name ("WalkSteps", "ForbiddenShare", …; "" for a limit that
// spans fields, such as the shares' sum), so that a caller can name its
// own spelling of the option (a flag); the message speaks of the value.
type OptionError struct {
	Field string
	Msg   string
}

func (e *OptionError) Error() string { return e.Msg }

func optionErrorf(field, format string, args ...any) error {
	return &OptionError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks o: N ≥ 1; Split test or train; WalkSteps 2 to 50 and
// Intents 1 to 50, at least one each; weights, when not nil, one
// non-negative finite number per value and not all 0; each share in
// [0, 1] and their sum at most 1; and no EmotionWeights with
// MeasurePolicy. The error is an *OptionError naming the field.
func (o GenerateOptions) Validate() error {
	if o.N < 1 {
		return optionErrorf("N", "n %d: need at least 1 task", o.N)
	}
	if o.Split != emobench.SplitTest && o.Split != emobench.SplitTrain {
		return optionErrorf("Split", "split %q: want test or train", o.Split)
	}
	for _, d := range []struct {
		name, field string
		values      []int
		weights     []float64
		least       int
	}{{"walk steps", "WalkSteps", o.WalkSteps, o.WalkStepsDist, 2}, {"intents", "Intents", o.Intents, o.IntentsDist, 1}} {
		if len(d.values) == 0 {
			return optionErrorf(d.field, "%s: need at least one value", d.name)
		}
		for _, v := range d.values {
			if v < d.least || v > 50 {
				return optionErrorf(d.field, "%s %d: need %d to 50", d.name, v, d.least)
			}
		}
		if d.weights == nil {
			continue
		}
		if len(d.weights) != len(d.values) {
			return optionErrorf(d.field+"Dist", "%s: %d weights for %d values", d.name, len(d.weights), len(d.values))
		}
		total := 0.0
		for _, w := range d.weights {
			if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
				return optionErrorf(d.field+"Dist", "%s weight %v: need a non-negative number", d.name, w)
			}
			total += w
		}
		if total <= 0 {
			return optionErrorf(d.field+"Dist", "%s: every weight is 0", d.name)
		}
	}
	for _, s := range []struct {
		name, field string
		v           float64
	}{{"forbidden", "ForbiddenShare", o.ForbiddenShare}, {"transfer", "TransferShare", o.TransferShare}, {"read", "ReadShare", o.ReadShare}} {
		if !(s.v >= 0 && s.v <= 1) { // NaN too
			return optionErrorf(s.field, "%s share %v: need a share between 0 and 1", s.name, s.v)
		}
	}
	if o.ForbiddenShare+o.TransferShare+o.ReadShare > 1 {
		return optionErrorf("", "forbidden share %v, transfer share %v and read share %v exceed 1", o.ForbiddenShare, o.TransferShare, o.ReadShare)
	}
	if o.MeasurePolicy && o.EmotionWeights != nil {
		return optionErrorf("EmotionWeights", "emotion weights with a split that measures the policy: it gives every family the same share of each task kind")
	}
	return nil
}

// ParseInts reads a comma-separated list of whole numbers, such as
// "2,3,4" (WalkSteps, Intents); their range is Validate's. A part that is
// not a whole number is an error naming it.
func ParseInts(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number: want comma-separated whole numbers, e.g. 2,3,4", part)
		}
		out = append(out, v)
	}
	return out, nil
}

// ParseWeights reads a comma-separated list of weights, such as "1,2,4"
// (WalkStepsDist, IntentsDist); "" is nil (uniform). A part that is not a
// number is an error naming it; signs, counts and sums are Validate's.
func ParseWeights(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []float64
	for _, part := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number: want comma-separated non-negative weights, e.g. 1,2,1", part)
		}
		out = append(out, v)
	}
	return out, nil
}

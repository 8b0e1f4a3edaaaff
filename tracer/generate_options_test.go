package tracer_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench/tracer"
)

func TestNewGenerateOptions(t *testing.T) {
	o := tracer.NewGenerateOptions()
	if got, want := o.Split, "test"; string(got) != want {
		t.Fatalf("split %q, want %q", got, want)
	}
	if !slices.Equal(o.WalkSteps, []int{2, 3, 4}) || !slices.Equal(o.WalkStepsDist, []float64{1, 2, 4}) ||
		!slices.Equal(o.Intents, []int{1, 2, 3}) || !slices.Equal(o.IntentsDist, []float64{1, 2, 4}) {
		t.Fatalf("lists %v %v %v %v", o.WalkSteps, o.WalkStepsDist, o.Intents, o.IntentsDist)
	}
	if o.ForbiddenShare != 0.10 || o.TransferShare != 0.05 || o.ReadShare != 0.15 {
		t.Fatalf("shares %v %v %v, want 0.10 0.05 0.15", o.ForbiddenShare, o.TransferShare, o.ReadShare)
	}
	// The defaults are copies: editing them leaves the package's alone.
	o.WalkSteps[0] = 9
	if tracer.DefaultWalkSteps[0] != 2 {
		t.Fatal("NewGenerateOptions shares DefaultWalkSteps")
	}
	if err := o.Validate(); err == nil || !strings.Contains(err.Error(), "n 0") {
		t.Fatalf("N 0: err %v, want the count refused", err)
	}
}

func TestGenerateOptions_Validate(t *testing.T) {
	ok := genOptions(5, 1)
	if err := ok.Validate(); err != nil {
		t.Fatalf("defaults with n 5: %v", err)
	}
	none := genOptions(5, 1, func(o *tracer.GenerateOptions) { o.ForbiddenShare, o.TransferShare, o.ReadShare = 0, 0, 0 })
	if err := none.Validate(); err != nil {
		t.Fatalf("zero shares are none, not an error: %v", err)
	}
	for _, c := range []struct {
		edit  func(o *tracer.GenerateOptions)
		field string
		want  string
	}{
		{func(o *tracer.GenerateOptions) { o.N = 0 }, "N", "n 0: need at least 1 task"},
		{func(o *tracer.GenerateOptions) { o.Split = "" }, "Split", `split "": want test or train`},
		{func(o *tracer.GenerateOptions) { o.WalkSteps, o.WalkStepsDist = nil, nil }, "WalkSteps", "walk steps: need at least one value"},
		{func(o *tracer.GenerateOptions) { o.WalkSteps = []int{1, 2, 3} }, "WalkSteps", "walk steps 1: need 2 to 50"},
		{func(o *tracer.GenerateOptions) { o.Intents = []int{1, 51, 2} }, "Intents", "intents 51: need 1 to 50"},
		{func(o *tracer.GenerateOptions) { o.IntentsDist = []float64{1} }, "IntentsDist", "intents: 1 weights for 3 values"},
		{func(o *tracer.GenerateOptions) { o.WalkStepsDist = []float64{1, -1, 1} }, "WalkStepsDist", "walk steps weight -1"},
		{func(o *tracer.GenerateOptions) { o.WalkStepsDist = []float64{0, 0, 0} }, "WalkStepsDist", "every weight is 0"},
		{func(o *tracer.GenerateOptions) { o.ForbiddenShare = 1.5 }, "ForbiddenShare", "forbidden share 1.5: need a share between 0 and 1"},
		{func(o *tracer.GenerateOptions) { o.TransferShare = -0.1 }, "TransferShare", "transfer share -0.1"},
		{func(o *tracer.GenerateOptions) { o.ReadShare = math.NaN() }, "ReadShare", "read share NaN"},
		{func(o *tracer.GenerateOptions) { o.ForbiddenShare, o.TransferShare = 0.5, 0.4 }, "", "forbidden share 0.5, transfer share 0.4 and read share 0.15 exceed 1"},
		{func(o *tracer.GenerateOptions) {
			o.MeasurePolicy, o.EmotionWeights = true, map[string]float64{"anger": 1}
		}, "EmotionWeights", "emotion weights with a split that measures the policy"},
	} {
		err := genOptions(5, 1, c.edit).Validate()
		var oe *tracer.OptionError
		if !errors.As(err, &oe) || oe.Field != c.field || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err %v (field %+v), want field %q and %q", err, oe, c.field, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "--") {
			t.Errorf("%v: names a flag", err)
		}
	}
}

func TestParseInts(t *testing.T) {
	got, err := tracer.ParseInts(" 2, 3,4")
	if err != nil || !slices.Equal(got, []int{2, 3, 4}) {
		t.Fatalf("got %v, %v; want [2 3 4]", got, err)
	}
	for _, in := range []string{"", "1,x", "1.5", "2,,3"} {
		if _, err := tracer.ParseInts(in); err == nil || !strings.Contains(err.Error(), "is not a whole number") {
			t.Errorf("%q: err %v", in, err)
		}
	}
}

func TestParseWeights(t *testing.T) {
	got, err := tracer.ParseWeights("1, 2.5,0")
	if err != nil || !slices.Equal(got, []float64{1, 2.5, 0}) {
		t.Fatalf("got %v, %v; want [1 2.5 0]", got, err)
	}
	if got, err := tracer.ParseWeights(" "); got != nil || err != nil {
		t.Fatalf("blank: %v, %v; want nil (uniform)", got, err)
	}
	if _, err := tracer.ParseWeights("1,a"); err == nil || !strings.Contains(err.Error(), `"a" is not a number`) {
		t.Fatalf("err %v", err)
	}
}

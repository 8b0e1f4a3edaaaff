package tracer_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/tracer"
)

func TestFilterRequest_Validate(t *testing.T) {
	bound := func(x float64) *float64 { return &x }
	if err := (tracer.FilterRequest{Name: "sft", Criteria: analysis.FilterCriteria{MinReward: 1, MaxUserDependence: bound(0)}}).Validate(); err != nil {
		t.Fatalf("a named selection with a bound of 0: %v", err)
	}
	for _, c := range []struct {
		req   tracer.FilterRequest
		field string
		want  string
	}{
		{tracer.FilterRequest{Name: "a", Criteria: analysis.FilterCriteria{MinReward: math.NaN()}}, "MinReward", "least reward NaN: need a finite number"},
		{tracer.FilterRequest{Name: "a", Criteria: analysis.FilterCriteria{MinReward: math.Inf(-1)}}, "MinReward", "least reward -Inf"},
		{tracer.FilterRequest{Name: "a", Criteria: analysis.FilterCriteria{MaxUserDependence: bound(-1)}}, "MaxUserDependence", "user dependence bound -1"},
		{tracer.FilterRequest{Name: "a", Criteria: analysis.FilterCriteria{MaxUserDependence: bound(math.Inf(1))}}, "MaxUserDependence", "bound +Inf"},
		{tracer.FilterRequest{}, "Name", "needs a name"},
		{tracer.FilterRequest{DryRun: true, Replace: true}, "DryRun", "a dry run stores nothing"},
	} {
		err := c.req.Validate()
		var bad *tracer.OptionError
		if !errors.As(err, &bad) || bad.Field != c.field || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "--") {
			t.Errorf("%+v: err %v, want field %s and %q, no flag", c.req, err, c.field, c.want)
		}
	}
}

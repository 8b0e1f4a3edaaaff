package workbench_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/workbench"
)

// Audit refuses a bad judge before reading any task, and an unknown
// domain.
func TestAudit_Request(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		r    workbench.AuditRequest
		want string
	}{
		{workbench.AuditRequest{Domain: "retail", Judge: "gpt-4.1"}, `timeout 0s: need a positive duration`},
		{workbench.AuditRequest{Domain: "nosuch"}, "nosuch"},
	} {
		_, err := workbench.Audit(ctx, tc.r)
		if !errors.Is(err, emobench.ErrRequest) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Audit(%+v) = %v, want an EREQUEST error containing %q", tc.r, err, tc.want)
		}
	}
}

// AuditFailures counts the tasks failing a check; a report without one
// is no error.
func TestAuditFailures(t *testing.T) {
	pass := tracer.TaskAudit{Results: []tracer.AuditResult{{Status: emobench.CheckPassed}}}
	fail := tracer.TaskAudit{Results: []tracer.AuditResult{{Status: emobench.CheckPassed}, {Status: emobench.CheckFailed}}}
	if err := workbench.AuditFailures(tracer.AuditReport{Tasks: []tracer.TaskAudit{pass, pass}}); err != nil {
		t.Errorf("AuditFailures(all pass) = %v", err)
	}
	err := workbench.AuditFailures(tracer.AuditReport{Tasks: []tracer.TaskAudit{pass, fail, pass}})
	if err == nil || err.Error() != "tracer audit: 1 of 3 tasks fail a check" {
		t.Errorf("AuditFailures(one fails) = %v", err)
	}
}

// NewFilterRequest says what to give for a request that stores nothing
// or too much, and names the criterion at fault.
func TestNewFilterRequest(t *testing.T) {
	dep := math.Inf(1)
	for _, tc := range []struct {
		c              analysis.FilterCriteria
		name           string
		replace, dryRu bool
		want           string // "" for a valid request
	}{
		{analysis.FilterCriteria{MinReward: 1}, "  kept ", false, false, ""},
		{analysis.FilterCriteria{MinReward: 1}, "", false, true, ""},
		{analysis.FilterCriteria{MinReward: 1}, " ", false, false, "selection is needed: the NAME"},
		{analysis.FilterCriteria{MinReward: 1}, "kept", true, true, "dry-run stores nothing"},
		{analysis.FilterCriteria{MinReward: math.NaN()}, "kept", false, false, "min-reward NaN: "},
		{analysis.FilterCriteria{MinReward: 1, MaxUserDependence: &dep}, "kept", false, false, "max-user-dependence +Inf: "},
	} {
		req, err := workbench.NewFilterRequest(tc.c, tc.name, tc.replace, tc.dryRu)
		switch {
		case tc.want == "" && (err != nil || req.Name != strings.TrimSpace(tc.name) || len(req.TestTasks) == 0):
			t.Errorf("NewFilterRequest(%q) = %+v, %v; want a valid request named %q excluding the test tasks", tc.name, req, err, strings.TrimSpace(tc.name))
		case tc.want != "" && (!errors.Is(err, emobench.ErrRequest) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("NewFilterRequest(%+v, %q) = %v, want an EREQUEST error containing %q", tc.c, tc.name, err, tc.want)
		}
	}
}

package main

import (
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

// runTaskSource reads run's --tasks-file or --task-set: nil when neither
// is given. A file that does not decode, a task set --db does not hold,
// a --domain the source holds no task of, and both flags at once are
// usage errors.
func (e *env) runTaskSource(c *cli.Context) (*workbench.TaskSource, error) {
	src, err := e.readTaskSource(c)
	if err != nil || src == nil {
		return src, err
	}
	return src, src.CheckDomains(workbench.SplitList(c.StringSlice("domain")))
}

// readTaskSource reads --tasks-file or --task-set (workbench.ReadTaskSource):
// nil when neither is given; both are a usage error.
func (e *env) readTaskSource(c *cli.Context) (*workbench.TaskSource, error) {
	file, set := c.String("tasks-file"), c.String("task-set")
	if file != "" && set != "" {
		return nil, usagef("give --tasks-file FILE or --task-set NAME, not both")
	}
	return workbench.ReadTaskSource(c.Context, c.String("db"), file, set)
}

// planOverTasks makes req run src's tasks: its domains unless --domain is
// given, and its split unless --split is.
func planOverTasks(c *cli.Context, req *workbench.PlanRequest, src *workbench.TaskSource) {
	req.Tasks = src.Tasks
	if !c.IsSet("domain") {
		req.Domains = src.Domains()
	}
	if split := src.Split(); !c.IsSet("split") && split != "" {
		req.Options.Split = split
	}
}

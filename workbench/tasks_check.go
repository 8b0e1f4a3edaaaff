package workbench

import (
	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
)

// checkTasks checks a whole task source before any run is created, so
// that no run is stored half-done over a task that cannot run: every id
// unique, every task valid with a reward basis that checks something
// (sim.CheckRewardBasis), its domain known, and its gold actions tools
// of that domain that replay on a fresh environment without an error.
// setting and name name the source ("tasks-file", PATH; "task-set",
// NAME); the error is an EREQUEST error naming them, the task and the
// action.
func checkTasks(setting, name string, tasks []emobench.TaskSpec) error {
	seen := make(map[string]int, len(tasks))
	domains := map[string]sim.Domain{}
	for i := range tasks {
		task := &tasks[i]
		if j, dup := seen[task.ID]; dup {
			return settingf(setting, "%s: task %d and task %d share the id %q (ids must be unique)", name, j, i, task.ID)
		}
		seen[task.ID] = i
		if err := task.Validate(); err != nil {
			return settingf(setting, "%s: task %d: %v", name, i, err)
		}
		if err := sim.CheckRewardBasis(task); err != nil {
			return settingf(setting, "%s: %v", name, err)
		}
		dom, ok := domains[task.Domain]
		if !ok {
			d, err := all.Find(task.Domain)
			if err != nil {
				return settingf(setting, "%s: task %s: %v", name, task.ID, err)
			}
			dom, domains[task.Domain] = d, d
		}
		tools := map[string]bool{}
		for _, t := range dom.NewEnvironment().Tools() {
			tools[t.Name] = true
		}
		for j, a := range task.Actions {
			if !tools[a.Name] {
				return settingf(setting, "%s: task %s: gold action %d calls %q, which is no %s tool", name, task.ID, j, a.Name, task.Domain)
			}
		}
		if _, err := sim.GoldHash(dom, task); err != nil {
			return settingf(setting, "%s: %v", name, err)
		}
	}
	return nil
}

// describe is the setting and name a check error gives for the source.
func (s *TaskSource) describe() (setting, name string) {
	if s.Kind == TaskSourceDB {
		return "task-set", s.Name
	}
	return "tasks-file", s.Name
}

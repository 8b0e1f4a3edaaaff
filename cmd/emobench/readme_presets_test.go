package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/emobench/emobench/sim"
)

// TestREADME_PresetsTable holds the README's table of presets to
// sim.Presets: every setting a preset fixes, in each preset's column.
func TestREADME_PresetsTable(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "<!-- presets-table -->\n")
	if !ok {
		t.Fatal("README has no <!-- presets-table --> marker")
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(after, "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows[cells[0]] = cells[1:]
	}
	if got := rows["setting"]; fmt.Sprint(got) != fmt.Sprint(quoted(sim.PresetNames())) {
		t.Fatalf("README preset columns %v, want %v", got, quoted(sim.PresetNames()))
	}
	temp := func(v *float64) string {
		if v == nil {
			return "the server's default"
		}
		return fmt.Sprint(*v)
	}
	steps := map[string]string{sim.StepCountAgent: "each tool call, each agent message without calls", sim.StepCountMessages: "every message (agent, user, a batch of tool results)"}
	for i, p := range sim.Presets {
		errorsCell := map[string]string{sim.ErrorCountConsecutive: fmt.Sprintf("%d in a row", p.MaxErrors), sim.ErrorCountTotal: fmt.Sprintf("%d in all", p.MaxErrors), sim.ErrorCountNone: "none (`--max-errors N`: N in a row)"}[p.Protocol.ErrorCount]
		opening := map[string]string{sim.OpeningUser: "the user",
			sim.OpeningAgent:       fmt.Sprintf("the agent: %q", p.Protocol.Greeting),
			sim.OpeningUserGreeted: fmt.Sprintf("the user, answering %q (seen by the user model only)", p.Protocol.Greeting)}[p.Protocol.Opening]
		abandonReward := fmt.Sprint(*p.Protocol.UnsatisfiedReward)
		if *p.Protocol.UnsatisfiedReward < 0 {
			abandonReward = strings.Replace(abandonReward, "-", "−", 1) + " (scored as a fail)"
		}
		for row, want := range map[string]string{
			"step limit (`--max-steps`)": fmt.Sprint(p.MaxSteps),
			"a step is":                  steps[p.Protocol.StepCount],
			"tool errors that end an episode (`--max-errors`)": errorsCell,
			"parallel tool calls (`--parallel-tool-calls`)":    p.ParallelToolCalls,
			"who speaks first":  opening,
			"agent temperature": temp(p.AgentTemperature),
			"user temperature":  temp(p.UserTemperature),
			"`###UNSATISFIED###` allowed (`--user-abandon`)": string(p.UserAbandon),
			"reward of an abandoned episode":                 abandonReward,
		} {
			cells, ok := rows[row]
			if !ok || len(cells) <= i {
				t.Errorf("README presets table lacks row %q", row)
				continue
			}
			if cells[i] != want {
				t.Errorf("README presets table, %s, %s: %q, want %q", row, p.Name, cells[i], want)
			}
		}
	}
}

func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "`" + n + "`"
	}
	return out
}

package all_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
)

// FuzzEveryDomainTools calls a tool of a registered domain, both chosen by
// index, with arbitrary arguments (a model's tool call is outside input):
// a result or an error, never a panic, which StateEnv.Call reports as
// "tool ... failed", and a state that still hashes (a value a tool stored
// but cannot encode would crash the run at the next hash). The seeds are the gold actions' arguments of each
// domain's first tasks, so a new domain is fuzzed with no change here.
func FuzzEveryDomainTools(f *testing.F) {
	names := all.Names()
	domains := make([]sim.Domain, len(names))
	tools := make([][]sim.ToolSchema, len(names))
	for d, name := range names {
		dom, err := all.Find(name)
		if err != nil {
			f.Fatal(err)
		}
		domains[d], tools[d] = dom, dom.NewEnvironment().Tools()
		index := map[string]int{}
		for i, tl := range tools[d] {
			index[tl.Name] = i
			f.Add(uint8(d), uint8(i), `{}`)
		}
		for _, task := range spread(allTasks(dom), 20) {
			for _, a := range task.Actions {
				f.Add(uint8(d), uint8(index[a.Name]), string(a.Arguments))
				if huge, ok := hugeNumbers(a.Arguments); ok {
					f.Add(uint8(d), uint8(index[a.Name]), huge)
				}
			}
		}
	}
	f.Add(uint8(0), uint8(1), `{"user_id": null, "order_id": ["#W1"], "amount": -1e308}`)
	f.Fuzz(func(t *testing.T, d, i uint8, raw string) {
		d %= uint8(len(domains))
		tool := tools[d][int(i)%len(tools[d])]
		env := domains[d].NewEnvironment()
		if _, err := env.Call(tool.Name, json.RawMessage(raw)); err != nil && strings.Contains(err.Error(), "tool "+tool.Name+" failed") {
			t.Fatalf("%s %s(%s) panicked: %v", names[d], tool.Name, raw, err)
		}
		env.Hash()
	})
}

// hugeNumbers returns args with every top-level number set to 1e19 (past
// int64 in cents), and whether it had one.
func hugeNumbers(args json.RawMessage) (string, bool) {
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return "", false
	}
	changed := false
	for k, v := range m {
		if _, ok := v.(float64); ok {
			m[k], changed = 1e19, true
		}
	}
	b, _ := json.Marshal(m)
	return string(b), changed
}

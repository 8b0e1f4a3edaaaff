package sim_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

func TestRenderTemplate(t *testing.T) {
	t.Parallel()
	got, err := sim.RenderTemplate("Cancel {order} because {reason}.", map[string]string{"order": "#W1", "reason": "I moved"})
	if err != nil || got != "Cancel #W1 because I moved." {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := sim.RenderTemplate("Cancel {order}.", nil); err == nil || !strings.Contains(err.Error(), `"order"`) {
		t.Fatalf("missing slot: err %v", err)
	}
	if _, err := sim.RenderTemplate("Cancel {order", map[string]string{"order": "x"}); err == nil {
		t.Fatal("unclosed placeholder accepted")
	}
}

func TestCatalogValidate(t *testing.T) {
	t.Parallel()
	tools := []sim.ToolSchema{{Name: "find_user"}, {Name: "get_order"}, {Name: "cancel"}}
	ground := func(sim.GroundContext) (sim.Grounding, bool) { return sim.Grounding{}, false }
	catalog := func(path ...string) *sim.Catalog {
		return &sim.Catalog{
			Openers: []string{"find_user"},
			Follows: map[string][]string{"find_user": {"get_order"}, "get_order": {"cancel"}},
			Intents: []sim.Intent{{Name: "cancel", Kind: sim.IntentWrite, Path: path, Templates: []string{"x"}, Ground: ground}},
			Users:   func(sim.Environment) []string { return nil },
			Authenticate: func(sim.Environment, string, *rand.Rand) (emobench.Action, map[string]string) {
				return emobench.Action{}, nil
			},
			CheckPolicy: func(sim.Environment, string, emobench.Action) error { return nil },
		}
	}
	if err := catalog("get_order", "cancel").Validate(tools); err != nil {
		t.Fatalf("valid catalog: %v", err)
	}
	if err := catalog("cancel").Validate(tools); err == nil || !strings.Contains(err.Error(), "does not follow") {
		t.Fatalf("path off the graph: err %v", err)
	}
	if err := catalog("get_order", "refund").Validate(tools); err == nil || !strings.Contains(err.Error(), `unknown tool "refund"`) {
		t.Fatalf("unknown tool: err %v", err)
	}
}

package sim_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

func TestEncodeDecodeTasks(t *testing.T) {
	t.Parallel()
	tasks := []emobench.TaskSpec{toyTask(angrySkeptic)}
	b, err := sim.EncodeTasks(tasks)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "[\n  {\n    \"id\": \"toy-test-000\"") || !strings.HasSuffix(string(b), "]\n") {
		t.Fatalf("encoding is not the indented tasks.json form:\n%s", b)
	}
	back, err := sim.DecodeTasks(b)
	if err != nil {
		t.Fatal(err)
	}
	// The indented arguments come back compact.
	if got, want := string(back[0].Actions[0].Arguments), `{"email":"ana@example.com"}`; got != want {
		t.Errorf("arguments %s, want %s", got, want)
	}
	again, _ := sim.EncodeTasks(back)
	if string(again) != string(b) {
		t.Errorf("re-encoding differs:\n%s\nwant\n%s", again, b)
	}
}

func TestDecodeTasks_Err(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{`{`, "decode tasks"},
		{`[{"id":"x1","domain":"toy","split":"dev","instruction":"i","scenario":{"requests":[{"text":"r"}]}}]`, `task 0: task x1: split "dev"`},
	} {
		if _, err := sim.DecodeTasks([]byte(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("DecodeTasks(%s) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestEmbeddedTasks(t *testing.T) {
	t.Parallel()
	data, _ := sim.EncodeTasks([]emobench.TaskSpec{toyTask(angrySkeptic)})
	tasks := sim.EmbeddedTasks("toy", data)
	a := tasks()
	a[0].ID = "changed"
	if b := tasks(); len(b) != 1 || b[0].ID != "toy-test-000" {
		t.Errorf("second call = %v: a caller's change to the slice leaked", b)
	}
	// A domain constructed again decodes the same embedded bytes once: the
	// two functions hand out the same decoded actions; other bytes, even
	// equal ones, are decoded on their own.
	again := sim.EmbeddedTasks("toy", data)
	if x, y := &a[0].Actions[0], &again()[0].Actions[0]; x != y {
		t.Errorf("EmbeddedTasks of the same data decoded it twice")
	}
	if x, y := &a[0].Actions[0], &sim.EmbeddedTasks("toy", append([]byte(nil), data...))()[0].Actions[0]; x == y {
		t.Errorf("EmbeddedTasks of a copy of the data shares the first decoding")
	}
	bad := sim.EmbeddedTasks("toy", []byte("[{"))
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "toy: embedded tasks.json") {
			t.Errorf("recovered %v, want a panic naming the domain", r)
		}
	}()
	bad()
}

func TestParamSchema(t *testing.T) {
	t.Parallel()
	schema, required := sim.ParamSchema([]sim.Param{
		{Name: "order_id", Type: "string", Description: "The order."},
		{Name: "items", Type: "array", Description: "Item ids.", Optional: true},
	})
	want := `{"type":"object","properties":{"items":{"description":"Item ids.","items":{"type":"string"},"type":"array"},"order_id":{"description":"The order.","type":"string"}},"required":["order_id"],"additionalProperties":false}`
	if string(schema) != want {
		t.Errorf("schema\n%s\nwant\n%s", schema, want)
	}
	if len(required) != 1 || required[0] != "order_id" {
		t.Errorf("required = %v", required)
	}
	if got := string(sim.ObjectSchema(`{}`)); got != `{"type":"object","properties":{},"required":[],"additionalProperties":false}` {
		t.Errorf("ObjectSchema of no properties = %s", got)
	}
	enum, _ := sim.ParamSchema([]sim.Param{{Name: "reason", Type: "string", Description: "Why.", Enum: []string{"health", "other"}}})
	if want := `{"type":"object","properties":{"reason":{"description":"Why.","enum":["health","other"],"type":"string"}},"required":["reason"],"additionalProperties":false}`; string(enum) != want {
		t.Errorf("schema with an enum\n%s\nwant\n%s", enum, want)
	}
}

func TestTypedCall(t *testing.T) {
	t.Parallel()
	type args struct {
		OrderID string `json:"order_id"`
	}
	tool := sim.NewTool("get", "Get.", false, sim.ObjectSchema(`{"order_id":{"type":"string"}}`, "order_id"),
		sim.TypedCall([]string{"order_id"}, func(s *toyState, a *args) (string, error) { return s.Orders[a.OrderID], nil }))
	state := &toyState{Orders: map[string]string{"#W1": "pending"}}
	if got, err := tool.Call(state, json.RawMessage(`{"order_id":"#W1"}`)); err != nil || got != "pending" {
		t.Errorf("Call = %q, %v", got, err)
	}
	for in, want := range map[string]string{`{}`: `missing required argument "order_id"`, `{"order_id":"#W1","x":1}`: "unknown field"} {
		if _, err := tool.Call(state, json.RawMessage(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Call(%s) = %v, want %q", in, err, want)
		}
	}
}

func TestNewStateDomain(t *testing.T) {
	t.Parallel()
	initial := func() *toyState {
		return &toyState{Users: map[string]string{}, Orders: map[string]string{"#W1": "pending"}}
	}
	tasks := []emobench.TaskSpec{toyTask(angrySkeptic)}
	dom := sim.NewStateDomain("toy", "# Policy", initial, toyTools, func() []emobench.TaskSpec { return tasks }, "transfer_to_human_agents")
	if dom.Name() != "toy" || dom.Policy() != "# Policy" || dom.TransferTool() != "transfer_to_human_agents" || len(dom.Tasks()) != 1 {
		t.Fatalf("domain %s %q %s %d tasks", dom.Name(), dom.Policy(), dom.TransferTool(), len(dom.Tasks()))
	}
	a, b := dom.NewEnvironment(), dom.NewEnvironment()
	if _, err := a.Call("cancel_pending_order", json.RawMessage(`{"order_id":"#W1"}`)); err != nil {
		t.Fatal(err)
	}
	if a.Hash() == b.Hash() {
		t.Error("a write in one environment reached another: environments share state")
	}
	if got := len(a.Tools()); got != len(toyTools) {
		t.Errorf("%d tools, want %d", got, len(toyTools))
	}
}

func TestWriteTasksFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "tasks.json")
	tasks := []emobench.TaskSpec{toyTask(angrySkeptic)}
	if err := sim.WriteTasksFile(path, tasks, 2); err == nil || !strings.Contains(err.Error(), "built 1 tasks, want 2") {
		t.Fatalf("err = %v, want a refusal of too few tasks", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a refused write left %s (%v)", path, err)
	}
	if err := sim.WriteTasksFile(path, tasks, 1); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want, _ := sim.EncodeTasks(tasks)
	if string(got) != string(want) {
		t.Errorf("file holds\n%s\nwant\n%s", got, want)
	}
}

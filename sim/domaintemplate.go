package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/internal/atomicfile"
)

// This file is the shared template of a domain package (see
// domains/README.md): its tasks.json and its tool definitions.

// EncodeTasks encodes tasks as a domain's tasks.json stores them: an
// indented JSON array with a final newline.
func EncodeTasks(tasks []emobench.TaskSpec) ([]byte, error) {
	b, err := json.MarshalIndent(tasks, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode tasks: %w", err)
	}
	return append(b, '\n'), nil
}

// DecodeTasks decodes a JSON array of tasks (a domain's tasks.json),
// validates each (TaskSpec.Validate), refuses a vacuous reward basis
// (CheckRewardBasis) and compacts each action's arguments. Errors name the
// task by index or id.
func DecodeTasks(data []byte) ([]emobench.TaskSpec, error) {
	tasks, err := DecodeAuditTasks(data)
	if err != nil {
		return nil, err
	}
	for i := range tasks {
		if err := CheckRewardBasis(&tasks[i]); err != nil {
			return nil, fmt.Errorf("decode tasks: %w", err)
		}
	}
	return tasks, nil
}

// DecodeAuditTasks is DecodeTasks without CheckRewardBasis, for an audit,
// which reports a vacuous reward basis as a failed check instead.
func DecodeAuditTasks(data []byte) ([]emobench.TaskSpec, error) {
	var tasks []emobench.TaskSpec
	if err := json.Unmarshal(data, &tasks); err != nil {
		return nil, fmt.Errorf("decode tasks: %w", locateTaskError(data, err))
	}
	for i := range tasks {
		if err := tasks[i].Validate(); err != nil {
			return nil, fmt.Errorf("decode tasks: task %d: %w", i, err)
		}
		for j, a := range tasks[i].Actions {
			var buf bytes.Buffer
			if err := json.Compact(&buf, a.Arguments); err != nil {
				return nil, fmt.Errorf("decode tasks: task %s: action %d: %w", tasks[i].ID, j, err)
			}
			tasks[i].Actions[j].Arguments = buf.Bytes()
		}
	}
	return tasks, nil
}

// locateTaskError says where in data, a JSON array of tasks, err (from
// decoding it whole) lies: the byte of a syntax error, else the index and
// id of the first task that does not decode ("task 3 (id \"t4\"): json:
// cannot unmarshal number into ... actions"), so a user can find the
// record. It returns err itself when it finds no more.
func locateTaskError(data []byte, err error) error {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return fmt.Errorf("%w (at byte %d)", err, syntax.Offset)
	}
	var records []json.RawMessage
	if json.Unmarshal(data, &records) != nil {
		return err
	}
	for i, raw := range records {
		var task emobench.TaskSpec
		if taskErr := json.Unmarshal(raw, &task); taskErr != nil {
			var named struct {
				ID any `json:"id"`
			}
			if json.Unmarshal(raw, &named) != nil || named.ID == nil { // the id only labels the error
				return fmt.Errorf("task %d: %w", i, taskErr)
			}
			return fmt.Errorf("task %d (id %v): %w", i, named.ID, taskErr)
		}
	}
	return err
}

// CheckRewardBasis refuses a task whose own reward basis (TaskSpec.RewardBasis;
// nil, the evaluator's default, is never refused) would give reward 1 to
// an agent that does nothing, because it checks nothing: an empty basis
// (reward_basis: []), NL_ASSERTION without nl_assertions, COMMUNICATE
// without outputs, or PROCEDURE without advice (whose confirmation check
// never gates). The error names the task and why: "task t1: reward
// basis COMMUNICATE has no outputs to check".
func CheckRewardBasis(task *emobench.TaskSpec) error {
	switch b := task.RewardBasis; {
	case b == nil:
		return nil
	case len(b) == 0:
		return fmt.Errorf("task %s: reward basis is empty (reward_basis: []): nothing is checked, so an agent that does nothing passes", task.ID)
	case slices.Contains(b, emobench.CheckNLAssertion) && len(task.NLAssertions) == 0:
		return fmt.Errorf("task %s: reward basis %s has no nl_assertions to check", task.ID, emobench.CheckNLAssertion)
	case slices.Contains(b, emobench.CheckCommunicate) && len(task.Outputs) == 0:
		return fmt.Errorf("task %s: reward basis %s has no outputs to check", task.ID, emobench.CheckCommunicate)
	case slices.Contains(b, emobench.CheckProcedure) && len(task.Advice) == 0:
		return fmt.Errorf("task %s: reward basis %s has no advice to check", task.ID, emobench.CheckProcedure)
	}
	return nil
}

// EmbeddedTasks returns a function giving the tasks of a domain's embedded
// tasks.json, decoded on first use and once per process for the same data
// (a domain constructed again, as each lookup by name does, shares the
// decoding), each time in a new slice (the specs' maps and raw arguments
// are shared and must not be changed; nor must data). The function
// panics, naming the domain, when data does not decode: the file is
// generated and checked by the domain's tests, so that is a build bug.
func EmbeddedTasks(domain string, data []byte) func() []emobench.TaskSpec {
	decoded := embeddedDecoding(domain, data)
	return func() []emobench.TaskSpec { return slices.Clone(decoded()) }
}

// embeddedDecodings holds the decoding of each embedded tasks file, by
// the address and length of its bytes.
var embeddedDecodings struct {
	sync.Mutex
	byData map[embeddedKey]func() []emobench.TaskSpec
}

type embeddedKey struct {
	data *byte
	n    int
}

// embeddedDecoding returns the one decoding of data, made on first use.
func embeddedDecoding(domain string, data []byte) func() []emobench.TaskSpec {
	decode := func() []emobench.TaskSpec {
		tasks, err := DecodeTasks(data)
		if err != nil {
			panic(fmt.Sprintf("%s: embedded tasks.json: %v", domain, err))
		}
		return tasks
	}
	if len(data) == 0 {
		return sync.OnceValue(decode)
	}
	key := embeddedKey{&data[0], len(data)}
	embeddedDecodings.Lock()
	defer embeddedDecodings.Unlock()
	if d, ok := embeddedDecodings.byData[key]; ok {
		return d
	}
	if embeddedDecodings.byData == nil {
		embeddedDecodings.byData = map[embeddedKey]func() []emobench.TaskSpec{}
	}
	d := sync.OnceValue(decode)
	embeddedDecodings.byData[key] = d
	return d
}

// Param is one property of a tool's parameters: a JSON-schema type
// ("string", "number", "integer", "boolean", or "array" of strings) and a
// description. Optional parameters are left out of "required"; Enum, when
// set, lists the values the property may take.
type Param struct {
	Name, Type, Description string
	Optional                bool
	Enum                    []string
}

// ParamSchema returns the object schema of params (see ObjectSchema); its
// properties are {"type", "description"}, with "items": {"type": "string"}
// for arrays and "enum" for a Param with Enum.
func ParamSchema(params []Param) (schema json.RawMessage, required []string) {
	props := map[string]any{}
	required = []string{}
	for _, p := range params {
		prop := map[string]any{"type": p.Type, "description": p.Description}
		if p.Type == "array" {
			prop["items"] = map[string]string{"type": "string"}
		}
		if len(p.Enum) > 0 {
			prop["enum"] = p.Enum
		}
		props[p.Name] = prop
		if !p.Optional {
			required = append(required, p.Name)
		}
	}
	b, err := json.Marshal(props)
	if err != nil {
		panic(err) // strings only: unreachable
	}
	return ObjectSchema(string(b), required...), required
}

// ObjectSchema returns the JSON schema of a tool's arguments: an object
// with properties (a JSON object of property schemas, as text), the
// required names and no other properties. It panics when properties is
// not a JSON object, which is a bug in a literal schema.
func ObjectSchema(properties string, required ...string) json.RawMessage {
	if required == nil {
		required = []string{}
	}
	var check map[string]json.RawMessage
	if err := json.Unmarshal([]byte(properties), &check); err != nil {
		panic(fmt.Sprintf("sim: tool properties are not a JSON object: %v", err))
	}
	req, _ := json.Marshal(required)
	return json.RawMessage(`{"type":"object","properties":` + properties + `,"required":` + string(req) + `,"additionalProperties":false}`)
}

// NewTool returns a tool over a domain state S with the given schema;
// writes marks tools that change the state (the policy asks for the user's
// confirmation first).
func NewTool[S any](name, description string, writes bool, parameters json.RawMessage, call func(*S, json.RawMessage) (string, error)) Tool[S] {
	return Tool[S]{
		ToolSchema: ToolSchema{Name: name, Description: description, Parameters: parameters, Writes: writes},
		Call:       call,
	}
}

// NewAction returns a call of tool name with arguments given as
// alternating names and values (name, value, name, value, …), as a
// catalog's grounders write gold actions. It panics on a value JSON cannot
// encode or a name that is not a string: a bug in the grounder.
func NewAction(name string, kv ...any) emobench.Action {
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	raw, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return emobench.Action{Name: name, Arguments: raw}
}

// StateOf returns the state behind env when env is a StateEnv over S (a
// catalog's Users and grounders read the database through it).
func StateOf[S any](env Environment) (*S, bool) {
	se, ok := env.(*StateEnv[S])
	if !ok || se.State == nil {
		return nil, false
	}
	return se.State, true
}

// JSONResult is v encoded as JSON, the text a tool's result gives the
// agent; the error (a value JSON cannot encode, a domain bug) says so.
func JSONResult(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode result: %v", err)
	}
	return string(b), nil
}

// TypedCall returns a tool implementation that decodes the arguments into
// A with DecodeArgs (unknown fields and missing required names are errors
// the agent sees) before fn runs.
func TypedCall[S, A any](required []string, fn func(*S, *A) (string, error)) func(*S, json.RawMessage) (string, error) {
	return func(state *S, args json.RawMessage) (string, error) {
		var a A
		if err := DecodeArgs(args, &a, required...); err != nil {
			return "", err
		}
		return fn(state, &a)
	}
}

// NewStateDomain returns the Domain of a domain package over state S:
// name, the policy text (the agent's system prompt), initial (a fresh
// deep copy of the initial state, called once per environment), the tools,
// tasks (all splits, e.g. from EmbeddedTasks) and the name of the tool
// that transfers to a human.
func NewStateDomain[S any](name, policy string, initial func() *S, tools []Tool[S], tasks func() []emobench.TaskSpec, transfer string) Domain {
	return &stateDomain[S]{name: name, policy: policy, initial: initial, tools: tools, tasks: tasks, transfer: transfer}
}

type stateDomain[S any] struct {
	name, policy, transfer string
	initial                func() *S
	tools                  []Tool[S]
	tasks                  func() []emobench.TaskSpec
}

func (d *stateDomain[S]) Name() string                { return d.name }
func (d *stateDomain[S]) Policy() string              { return d.policy }
func (d *stateDomain[S]) NewEnvironment() Environment { return NewStateEnv(d.initial(), d.tools) }
func (d *stateDomain[S]) Tasks() []emobench.TaskSpec  { return d.tasks() }
func (d *stateDomain[S]) TransferTool() string        { return d.transfer }

// WriteTasksFile writes tasks to path as EncodeTasks encodes them: a
// domain's `go generate` step for tasks.json. It refuses, writing nothing,
// fewer than want tasks (the database ran out of material). The file is
// written whole or not at all (atomicfile).
func WriteTasksFile(path string, tasks []emobench.TaskSpec, want int) error {
	if len(tasks) < want {
		return fmt.Errorf("built %d tasks, want %d", len(tasks), want)
	}
	b, err := EncodeTasks(tasks)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(context.Background(), path, b)
}

// Package sim is the benchmark engine: the environment a domain's tools act
// on, the orchestrator that runs one episode, user simulators, agents and
// the evaluator. Domains (package domains/<name>) implement Domain; sim
// knows nothing of storage.
package sim

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/emobench/emobench"
)

// ToolSchema describes a tool as the Chat Completions protocol's function
// definition: a name, a description and JSON-schema parameters.
type ToolSchema struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	// Writes is set for tools that change the database; the policy requires
	// the user's explicit confirmation before calling them.
	Writes bool `json:"-"`
}

// Tool is a tool over a domain state S: its schema and its implementation.
// Call returns the result the agent sees, or an error whose text the agent
// sees as "Error: <text>". Call must never panic on bad arguments.
type Tool[S any] struct {
	ToolSchema
	Call func(state *S, args json.RawMessage) (string, error)
}

// Environment holds one domain's state for one episode.
type Environment interface {
	// Tools returns the schemas of the domain's tools.
	Tools() []ToolSchema
	// Call runs a tool; the error's text is what the agent sees.
	Call(name string, args json.RawMessage) (string, error)
	// Hash is the hex sha256 of the state's canonical JSON: equal states
	// have equal hashes.
	Hash() string
}

// Domain is one benchmark domain: a policy, a database, tools and tasks.
type Domain interface {
	Name() string
	// Policy is the markdown text the agent receives as its system prompt.
	Policy() string
	// NewEnvironment returns a fresh environment over the initial database.
	NewEnvironment() Environment
	// Tasks returns the domain's tasks of every split.
	Tasks() []emobench.TaskSpec
	// TransferTool names the tool that hands the user to a human agent.
	TransferTool() string
}

// ErrUnknownTool is returned by Call for a tool the domain does not have.
var ErrUnknownTool = errors.New("unknown tool")

// StateEnv is an Environment over a state S whose JSON encoding is its
// canonical form (encoding/json sorts map keys, so equal states encode
// equally).
type StateEnv[S any] struct {
	State *S
	tools []Tool[S]
	index map[string]int
}

// NewStateEnv returns an environment over state with the given tools.
func NewStateEnv[S any](state *S, tools []Tool[S]) *StateEnv[S] {
	index := make(map[string]int, len(tools))
	for i, t := range tools {
		index[t.Name] = i
	}
	return &StateEnv[S]{State: state, tools: tools, index: index}
}

// Tools returns the tools' schemas in declaration order.
func (e *StateEnv[S]) Tools() []ToolSchema {
	out := make([]ToolSchema, len(e.tools))
	for i, t := range e.tools {
		out[i] = t.ToolSchema
	}
	return out
}

// Call runs the named tool. A panic inside a tool is a bug, but it is
// turned into an error so one bad tool cannot crash a whole run.
func (e *StateEnv[S]) Call(name string, args json.RawMessage) (result string, err error) {
	i, ok := e.index[name]
	if !ok {
		return "", fmt.Errorf("%w %q", ErrUnknownTool, name)
	}
	defer func() {
		if r := recover(); r != nil {
			result, err = "", fmt.Errorf("tool %s failed: %v", name, r)
		}
	}()
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	return e.tools[i].Call(e.State, args)
}

// Hash returns the hex sha256 of the state: HashState for a template
// state (sim.NewDomain's, which encodes only the rows an episode wrote),
// else of the state's JSON encoding. Equal states give equal hashes.
func (e *StateEnv[S]) Hash() string {
	if isTemplateState[S]() {
		return HashState(e.State)
	}
	b, err := json.Marshal(e.State)
	if err != nil {
		panic(fmt.Sprintf("sim: state is not JSON-encodable: %v", err)) // a domain bug
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// DecodeArgs decodes a tool's JSON arguments into v, refusing unknown
// fields, and then checks that every name in required was present.
func DecodeArgs(args json.RawMessage, v any, required ...string) error {
	var present map[string]json.RawMessage
	if err := json.Unmarshal(args, &present); err != nil {
		return fmt.Errorf("arguments must be a JSON object: %v", err)
	}
	for _, name := range required {
		if raw, ok := present[name]; !ok || string(raw) == "null" {
			return fmt.Errorf("missing required argument %q", name)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return fmt.Errorf("invalid arguments: argument %q is %s, not %s", argumentPath(typeErr.Field, present), jsonKind(typeErr.Type), withArticle(typeErr.Value))
		}
		return fmt.Errorf("invalid arguments: %v", err)
	}
	return nil
}

// argumentPath is the argument a type error's field path (encoding/json's
// "lineArgs.customer_id", which names the Go structs a domain embeds)
// points at, as the agent wrote it: the path from the first segment that
// is one of the call's argument names, so no Go type name reaches the
// agent.
func argumentPath(field string, present map[string]json.RawMessage) string {
	segments := strings.Split(strings.TrimPrefix(field, "."), ".")
	for i, s := range segments {
		if _, ok := present[s]; ok {
			return strings.Join(segments[i:], ".")
		}
	}
	return segments[len(segments)-1]
}

// jsonKind names what a Go type takes in JSON, for an agent: "a string",
// "a number", "true or false", "an array", "an object".
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return t.String()
}

// withArticle is encoding/json's name of a JSON value's kind ("number", "string",
// "array", "object", "bool", "number 1.5") with its article, for an agent.
func withArticle(value string) string {
	switch {
	case value == "array" || value == "object":
		return "an " + value
	case value == "bool":
		return "true or false"
	case strings.HasPrefix(value, "number "):
		return value // a number JSON holds that the type cannot, as "number 1.5"
	}
	return "a " + value
}

// Episode is what agents and user simulators see of the episode so far.
type Episode struct {
	Task     *emobench.TaskSpec
	Policy   string
	Tools    []ToolSchema
	Messages []emobench.Message // the transcript so far, system prompt excluded
	// WithEmotions is false under the without-emotions condition: the user
	// simulator then plays a neutral profile.
	WithEmotions bool
	// Seed makes the built-in simulators deterministic: the same seed gives
	// the same transcript.
	Seed uint64
	// UserOpening is the agent's greeting an LLM user answers when the
	// user opens the conversation (OpeningUserGreeted); it is not in
	// Messages. "" tells the user model only that the conversation begins.
	UserOpening string
}

// Agent produces the agent's next message: text for the user, or tool calls.
type Agent interface {
	Next(ctx context.Context, ep *Episode) (emobench.Message, error)
}

// UserSimulator produces the user's next message. A message containing
// StopMarker, UnsatisfiedMarker, TransferMarker or OutOfScopeMarker ends
// the episode.
type UserSimulator interface {
	Next(ctx context.Context, ep *Episode) (emobench.Message, error)
}

// Markers a user simulator writes to end a conversation.
const (
	StopMarker        = "###STOP###"
	UnsatisfiedMarker = "###UNSATISFIED###"
	// TransferMarker and OutOfScopeMarker are τ²-bench's user stops: the
	// user was transferred to a human, or its scenario does not say how to
	// go on.
	TransferMarker   = "###TRANSFER###"
	OutOfScopeMarker = "###OUT-OF-SCOPE###"
)

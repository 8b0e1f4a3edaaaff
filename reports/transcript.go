package reports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/reports/table"
)

// Transcript is one stored trajectory to print with WriteTranscript.
type Transcript struct {
	ID  int64        // the trajectory's id in the database
	Run emobench.Run // its run (ID, Name, models, domain, condition)
	*emobench.Trajectory
	// SystemLines is how many lines of a system message (the policy, often
	// long) to print; 0 or less prints it whole.
	SystemLines int
}

// WriteTranscript writes t as plain text for a reader: a header naming the
// run, task and trial; each message with its role, content, tool calls
// (name, JSON arguments, call id) and tool results; then the termination
// reason (marked when the source could not evaluate it), the reward
// (passed, failed or not evaluated) and the checks of its reward_info, one
// stored value a line ("path: JSON value", in the stored order; a {name,
// kwargs|arguments} object as a call). It returns
// the first write error, or an error naming the trajectory when its
// reward_info is not JSON.
// The data's control characters (terminal escape sequences) are replaced
// (table.Printable).
func WriteTranscript(w io.Writer, t Transcript) error {
	var buf bytes.Buffer
	if err := writeTranscript(&buf, t); err != nil {
		return err
	}
	_, err := io.WriteString(w, table.Printable(buf.String()))
	return err
}

func writeTranscript(w io.Writer, t Transcript) error {
	bw := bufio.NewWriter(w)
	tr := t.Trajectory
	fmt.Fprintf(bw, "trajectory %d · run %d (%s) · task %s · trial %d\n", t.ID, t.Run.ID, t.Run.Name, tr.Task.Key, tr.Trial)
	fmt.Fprintf(bw, "domain %s · condition %s · agent %s · user %s\n", tr.Task.Domain, t.Run.Condition, t.Run.AgentModel, t.Run.UserModel)
	if e := tr.Task.Emotion; e != (emobench.EmotionProfile{}) {
		fmt.Fprintf(bw, "emotion %s\n", joinSet(" · ", "family "+e.Family, "leaf "+e.Leaf, "politeness "+e.Politeness, "urgency "+e.Urgency, "trust "+e.Trust))
	}
	if tr.Task.Instruction != "" {
		fmt.Fprintf(bw, "instruction:\n%s", indent(tr.Task.Instruction, 4))
	}
	for i, m := range tr.Messages {
		writeMessage(bw, i, m, t.SystemLines)
	}
	fmt.Fprintf(bw, "\ntermination: %s", tr.TerminationReason)
	if !tr.IsEvaluable() {
		fmt.Fprint(bw, " (not evaluable: the source could not evaluate it)")
	}
	fmt.Fprintln(bw)
	if tr.Error != "" {
		fmt.Fprintf(bw, "error:\n%s", indent(tr.Error, 4))
	}
	fmt.Fprintf(bw, "reward: %s\n", rewardText(tr))
	if tr.AgentCost != nil || tr.UserCost != nil {
		fmt.Fprintf(bw, "cost: agent %s, user %s\n", usd(tr.AgentCost), usd(tr.UserCost))
	}
	if len(tr.RewardInfo) == 0 {
		fmt.Fprintln(bw, "checks: none stored (no reward_info)")
		return bw.Flush()
	}
	lines, err := flattenJSON(tr.RewardInfo)
	if err != nil {
		return fmt.Errorf("trajectory %d: reward_info: %w", t.ID, err)
	}
	fmt.Fprintln(bw, "checks (reward_info):")
	for _, l := range lines {
		fmt.Fprintf(bw, "    %s\n", l)
	}
	return bw.Flush()
}

func writeMessage(w io.Writer, i int, m emobench.Message, systemLines int) {
	head := fmt.Sprintf("\n#%d %s", i, m.Role)
	if m.Role == emobench.RoleTool {
		head += " " + joinSet(" ", m.ToolName, bracket(m.ToolCallID))
	}
	fmt.Fprintln(w, strings.TrimRight(head, " "))
	content := m.Content
	if m.Role == emobench.RoleSystem && systemLines > 0 {
		if lines := strings.Split(content, "\n"); len(lines) > systemLines {
			content = strings.Join(lines[:systemLines], "\n") + fmt.Sprintf("\n… %d more lines", len(lines)-systemLines)
		}
	}
	if content != "" {
		fmt.Fprint(w, indent(content, 4))
	}
	for _, c := range m.ToolCalls {
		fmt.Fprintf(w, "    → %s\n", joinSet(" ", c.Name, callArguments(c), bracket(c.ID)))
	}
}

// callArguments is a call's arguments as compact JSON, or the source's
// raw text when it was not JSON.
func callArguments(c emobench.ToolCall) string {
	if c.ArgumentsMalformed {
		var raw string
		if json.Unmarshal(c.Arguments, &raw) == nil {
			return raw + " (arguments not JSON)"
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, c.Arguments) != nil {
		return string(c.Arguments)
	}
	return buf.String()
}

func rewardText(t *emobench.Trajectory) string {
	if t.Reward == nil {
		return "none stored (not evaluated)"
	}
	r := strconv.FormatFloat(*t.Reward, 'g', -1, 64)
	switch {
	case !t.Evaluated:
		return r + " (not evaluated: kept as stored, never a pass)"
	case t.Passed():
		return r + " (passed)"
	}
	return r + " (failed)"
}

// FormatUSD writes a cost in dollars to 6 significant digits, in fixed
// notation without trailing zeros: 0.00009532699999999999 is 0.000095327.
func FormatUSD(v float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	if err != nil {
		return strconv.FormatFloat(v, 'g', 6, 64)
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

func usd(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return "$" + FormatUSD(*v)
}

// indent prefixes every line of s with n spaces and ends it with a newline.
func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return pad + strings.Join(lines, "\n"+pad) + "\n"
}

func bracket(s string) string {
	if s == "" {
		return ""
	}
	return "[" + s + "]"
}

// joinSet joins the parts that say something: empty ones and those ending
// in a space (a label without its value) are left out.
func joinSet(sep string, parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" && !strings.HasSuffix(p, " ") {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}

// jsonNode is a JSON value that keeps its object keys in stored order.
type jsonNode struct {
	keys   []string        // object keys; nil for arrays and scalars
	values []jsonNode      // object values or array items
	array  bool            // an array, even when empty
	object bool            // an object, even when empty
	scalar json.RawMessage // a string, number, bool or null
}

func decodeNode(dec *json.Decoder) (jsonNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return jsonNode{}, err
	}
	switch tok {
	case json.Delim('{'), json.Delim('['):
		n := jsonNode{object: tok == json.Delim('{'), array: tok == json.Delim('[')}
		for dec.More() {
			if n.object {
				key, err := dec.Token()
				if err != nil {
					return jsonNode{}, err
				}
				n.keys = append(n.keys, key.(string))
			}
			v, err := decodeNode(dec)
			if err != nil {
				return jsonNode{}, err
			}
			n.values = append(n.values, v)
		}
		_, err := dec.Token() // the closing delimiter
		return n, err
	}
	scalar, err := marshalText(tok)
	return jsonNode{scalar: scalar}, err
}

// marshalText is json.Marshal without escaping <, > and &, which a reader
// of a transcript wants to see as they are.
func marshalText(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// flattenJSON lists raw's values as "path: value" lines in stored order.
func flattenJSON(raw json.RawMessage) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	root, err := decodeNode(dec)
	if err != nil {
		return nil, err
	}
	var lines []string
	var walk func(path string, n jsonNode)
	walk = func(path string, n jsonNode) {
		label := path
		if label == "" {
			label = "(value)"
		}
		switch {
		case n.scalar != nil:
			lines = append(lines, label+": "+string(n.scalar))
		case len(n.values) == 0 && n.object:
			lines = append(lines, label+": {}")
		case n.array && allScalars(n.values):
			lines = append(lines, label+": "+compactNode(n))
		default:
			call, rest := callParts(n)
			if call != "" {
				lines = append(lines, label+": "+call)
			}
			for i, v := range n.values {
				switch {
				case rest != nil && !rest[i]:
				case n.object:
					walk(strings.TrimPrefix(path+"."+n.keys[i], "."), v)
				default:
					walk(fmt.Sprintf("%s[%d]", path, i), v)
				}
			}
		}
	}
	walk("", root)
	return lines, nil
}

// callParts renders an object that names a call, as τ-bench stores gold
// actions ({name, kwargs}) and τ²-bench actions and assertions ({name or
// func_name, arguments, …}), as `name {arguments}`, and returns which of
// its values are left to list; "" and nil for any other value.
func callParts(n jsonNode) (call string, rest []bool) {
	nameAt, argsAt := -1, -1
	for i, k := range n.keys {
		switch {
		case (k == "name" || k == "func_name") && n.values[i].scalar != nil:
			nameAt = i
		case k == "kwargs" || k == "arguments":
			argsAt = i
		}
	}
	if nameAt < 0 || argsAt < 0 {
		return "", nil
	}
	name := string(n.values[nameAt].scalar)
	if s, err := strconv.Unquote(name); err == nil {
		name = s
	}
	rest = make([]bool, len(n.values))
	for i := range rest {
		rest[i] = i != nameAt && i != argsAt
	}
	return name + " " + compactNode(n.values[argsAt]), rest
}

func allScalars(nodes []jsonNode) bool {
	for _, v := range nodes {
		if v.scalar == nil {
			return false
		}
	}
	return true
}

// compactNode writes n back as compact JSON, keys in stored order.
func compactNode(n jsonNode) string {
	if n.scalar != nil {
		return string(n.scalar)
	}
	var parts []string
	for i, v := range n.values {
		if n.object {
			k, _ := marshalText(n.keys[i])
			parts = append(parts, string(k)+":"+compactNode(v))
		} else {
			parts = append(parts, compactNode(v))
		}
	}
	if n.object {
		return "{" + strings.Join(parts, ",") + "}"
	}
	return "[" + strings.Join(parts, ",") + "]"
}

package workbench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// DomainSummary is one registered domain as `emobench domains` lists it.
type DomainSummary struct {
	Name string
	// Tools counts the domain's tools; WriteTools those that change the
	// database; TransferTool names the one that hands the user to a human.
	Tools, WriteTools int
	TransferTool      string
	// TestTasks and TrainTasks count the embedded tasks of each split.
	TestTasks, TrainTasks int
	// Refusals and Transfers count test tasks by kind (sim.KindOf of
	// their gold): refusals have forbidden writes, transfers call the
	// transfer tool.
	Refusals, Transfers int
	// Families are the emotion families of the test tasks, in the
	// taxonomy's order.
	Families []string
	// Database is the initial database's size; nil when the domain's
	// environment cannot describe it (unknown).
	Database *sim.DBDescription
	// TestShares measures the test split against issue 21's test-split
	// rules (tracer.SplitShares); nil for a domain without an intent
	// catalog.
	TestShares *tracer.TestShares
}

// ListDomains summarises every registered domain (all.Names), sorted by
// name. It fails when a domain's database cannot be described (a domain
// bug), naming the domain.
func ListDomains() ([]DomainSummary, error) {
	out := make([]DomainSummary, 0, len(all.Names()))
	for _, name := range all.Names() {
		dom, err := all.Find(name)
		if err != nil {
			return nil, err
		}
		s, err := SummarizeDomain(dom)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// EmbeddedTestTasks returns the embedded test-split tasks of every
// registered domain, in domain order: what tracer filter keeps out of
// training data (tracer.FilterRequest.TestTasks).
func EmbeddedTestTasks() []emobench.TaskSpec {
	var out []emobench.TaskSpec
	for _, name := range all.Names() {
		dom, err := all.Find(name)
		if err != nil {
			continue // Names lists only what Find finds
		}
		for _, t := range dom.Tasks() {
			if t.Split == emobench.SplitTest {
				out = append(out, t)
			}
		}
	}
	return out
}

// SummarizeDomain counts dom's tools and tasks and describes its initial
// database (a fresh environment's).
func SummarizeDomain(dom sim.Domain) (DomainSummary, error) {
	env := dom.NewEnvironment()
	s := DomainSummary{Name: dom.Name(), TransferTool: dom.TransferTool()}
	writes := map[string]bool{}
	for _, tool := range env.Tools() {
		s.Tools++
		if tool.Writes {
			s.WriteTools++
			writes[tool.Name] = true
		}
	}
	families := map[string]bool{}
	for _, task := range dom.Tasks() {
		if task.Split == emobench.SplitTrain {
			s.TrainTasks++
			continue
		}
		s.TestTasks++
		families[task.Emotion.Family] = true
		switch sim.KindOf(sim.GoldAsks(&task, writes, s.TransferTool), false) {
		case sim.KindRefusal:
			s.Refusals++
		case sim.KindTransfer:
			s.Transfers++
		}
	}
	if cd, ok := dom.(sim.CatalogDomain); ok && cd.Catalog() != nil {
		var test []emobench.TaskSpec
		for _, task := range dom.Tasks() {
			if task.Split != emobench.SplitTrain {
				test = append(test, task)
			}
		}
		shares := tracer.SplitShares(cd.Catalog(), test)
		s.TestShares = &shares
	}
	s.Families = []string{}
	for _, f := range emobench.Taxonomy.Families {
		if families[f.Name] {
			s.Families = append(s.Families, f.Name)
		}
	}
	desc, ok, err := sim.DescribeDatabase(env)
	if err != nil {
		return DomainSummary{}, fmt.Errorf("domain %s: %w", s.Name, err)
	}
	if ok {
		s.Database = &desc
	}
	return s, nil
}

// unknownSize is what the text formats show for a database that cannot
// be described.
const unknownSize = "unknown"

// DomainsTable is the table of `emobench domains` in format (one of
// table.Formats). Its columns are domain, tools, write_tools,
// transfer_tool, test_tasks, train_tasks, refusals, transfers, families
// (a count), family_names, the test split's shares, db_tables and
// db_bytes. In json family_names is an array and db_tables an object of
// row counts by table (in the state's field order), both null-free;
// db_tables and db_bytes are null for an unknown database; the shares are
// one object, test_shares (tracer.TestShares: mixed and
// conditional_or_findable fractions 0–1, forbidden_types and
// transfer_triggers intent → tasks, family_by_kind kind → family →
// fraction), null for a domain without a catalog. The text formats show
// family names and tables as comma-separated lists ("users 500, orders
// 1000") and "unknown", and the shares as five columns (sharesCells).
func DomainsTable(domains []DomainSummary, format string) *table.Table {
	asJSON := format == "json"
	shareColumns := []string{"test_mixed", "test_conditional_or_findable", "test_forbidden_types", "test_transfer_triggers", "test_family_by_kind"}
	if asJSON {
		shareColumns = []string{"test_shares"}
	}
	t := &table.Table{Columns: slices.Concat([]string{"domain", "tools", "write_tools", "transfer_tool", "test_tasks", "train_tasks",
		"refusals", "transfers", "families", "family_names"}, shareColumns, []string{"db_tables", "db_bytes"})}
	for _, d := range domains {
		var names, tables, size any = strings.Join(d.Families, ", "), unknownSize, unknownSize
		if asJSON {
			names, tables, size = jsonStrings(d.Families), nil, nil
		}
		if d.Database != nil {
			size = d.Database.Bytes
			tables = tableList(d.Database.Tables)
			if asJSON {
				tables = tableObject(d.Database.Tables)
			}
		}
		var shares []any
		if asJSON {
			shares = []any{json.RawMessage("null")}
			if d.TestShares != nil {
				b, _ := json.Marshal(d.TestShares) // maps and numbers: cannot fail
				shares = []any{json.RawMessage(b)}
			}
		} else {
			shares = sharesCells(d.TestShares)
		}
		t.Rows = append(t.Rows, slices.Concat([]any{d.Name, d.Tools, d.WriteTools, d.TransferTool, d.TestTasks, d.TrainTasks,
			d.Refusals, d.Transfers, len(d.Families), names}, shares, []any{tables, size}))
	}
	return t
}

// sharesCells are the text formats' five share columns: mixed and
// conditional_or_findable as percentages ("25%"); forbidden types and
// transfer triggers as how many there are and the fewest tasks any has
// ("6, min 2"); and the family shares over every kind as their range
// ("15-25%"). "-" for a domain without a catalog.
func sharesCells(s *tracer.TestShares) []any {
	if s == nil {
		return []any{"-", "-", "-", "-", "-"}
	}
	pct := func(f float64) string { return strconv.FormatFloat(100*f, 'f', 0, 64) + "%" }
	least := func(counts map[string]int) string {
		if len(counts) == 0 {
			return "0"
		}
		low := -1
		for _, n := range counts {
			if low < 0 || n < low {
				low = n
			}
		}
		return fmt.Sprintf("%d, min %d", len(counts), low)
	}
	lo, hi := 1.0, 0.0
	for _, fams := range s.FamilyByKind {
		for _, v := range fams {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	spread := "-"
	if len(s.FamilyByKind) > 0 {
		spread = strconv.FormatFloat(100*lo, 'f', 0, 64) + "-" + pct(hi)
	}
	return []any{pct(s.Mixed), pct(s.ConditionalOrFindable), least(s.ForbiddenTypes), least(s.TransferTriggers), spread}
}

func jsonStrings(s []string) json.RawMessage {
	b, _ := json.Marshal(s) // strings: cannot fail
	return b
}

// tableList is "users 500, orders 1000".
func tableList(tables []sim.DBTable) string {
	parts := make([]string, len(tables))
	for i, tb := range tables {
		parts[i] = tb.Name + " " + strconv.Itoa(tb.Rows)
	}
	return strings.Join(parts, ", ")
}

// tableObject is {"users": 500, "orders": 1000}, keys in the tables' order.
func tableObject(tables []sim.DBTable) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, tb := range tables {
		if i > 0 {
			b.WriteString(", ")
		}
		key, _ := json.Marshal(tb.Name)
		fmt.Fprintf(&b, "%s: %d", key, tb.Rows)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// DomainShowRequest is what `emobench domains show` asks for.
type DomainShowRequest struct {
	Domain string
	// Split is the split the samples come from: test or train.
	Split emobench.Split
	// Samples is how many tasks to show (0: none), dealt in turn to the
	// task kinds the split has (write, refusal, transfer, read) and spread
	// evenly over each kind's tasks, shown in the split's order; all of
	// them when the split has fewer.
	Samples int
}

// DomainDetail is one domain as `emobench domains show` prints it; its
// JSON keys are those of `domains show --format json`.
type DomainDetail struct {
	Domain       string       `json:"domain"`
	Policy       string       `json:"policy"`
	TransferTool string       `json:"transfer_tool"`
	Tools        []ToolDetail `json:"tools"`
	Split        string       `json:"split"`
	// SplitTasks counts the split's tasks, of which Samples are shown.
	SplitTasks int          `json:"split_tasks"`
	Samples    []TaskDetail `json:"samples"`
}

// ToolDetail is one tool of DomainDetail: its name, whether it writes,
// its description and its parameters in the schema's order.
type ToolDetail struct {
	Name        string        `json:"name"`
	Writes      bool          `json:"writes"`
	Description string        `json:"description"`
	Parameters  []ParamDetail `json:"parameters"`
}

// ParamDetail is one parameter of a tool.
type ParamDetail struct {
	Name     string `json:"name"`
	Required bool   `json:"required"`
}

// TaskDetail is one sample task of DomainDetail: its gold actions and
// forbidden writes as the task spec holds them.
type TaskDetail struct {
	ID          string                  `json:"id"`
	Split       string                  `json:"split"`
	Kind        string                  `json:"kind"`
	Emotion     emobench.EmotionProfile `json:"emotion"`
	Instruction string                  `json:"instruction"`
	Actions     []emobench.Action       `json:"actions"`
	Forbidden   []emobench.Action       `json:"forbidden"`
}

// ShowDomain gathers what `emobench domains show` prints. It fails with a
// EREQUEST error for an unknown domain (listing the domains), a split
// other than test or train, or negative Samples; and with the schema's
// error, naming the tool, when a tool's parameters are not a JSON object
// schema.
func ShowDomain(req DomainShowRequest) (*DomainDetail, error) {
	if req.Split != emobench.SplitTest && req.Split != emobench.SplitTrain {
		return nil, settingf("split", "%q is not test or train", req.Split)
	}
	if req.Samples < 0 {
		return nil, settingf("samples", "%d: want 0 or more sample tasks", req.Samples)
	}
	dom, err := all.Find(req.Domain)
	if err != nil {
		return nil, requestf("%v", err)
	}
	d := &DomainDetail{Domain: dom.Name(), Policy: dom.Policy(), TransferTool: dom.TransferTool(), Split: string(req.Split),
		Tools: []ToolDetail{}, Samples: []TaskDetail{}}
	writes := map[string]bool{}
	for _, tool := range dom.NewEnvironment().Tools() {
		params, err := schemaParams(tool.Parameters)
		if err != nil {
			return nil, fmt.Errorf("domain %s: tool %s: parameters: %w", d.Domain, tool.Name, err)
		}
		d.Tools = append(d.Tools, ToolDetail{Name: tool.Name, Writes: tool.Writes, Description: tool.Description, Parameters: params})
		writes[tool.Name] = tool.Writes
	}
	var split []emobench.TaskSpec
	for _, task := range dom.Tasks() {
		if task.Split == req.Split {
			split = append(split, task)
		}
	}
	d.SplitTasks = len(split)
	kinds := make([]string, len(split))
	for i := range split {
		kinds[i] = sim.KindOf(sim.GoldAsks(&split[i], writes, d.TransferTool), false)
	}
	for _, i := range sampleByKind(kinds, req.Samples) {
		task := split[i]
		d.Samples = append(d.Samples, TaskDetail{ID: task.ID, Split: string(task.Split), Kind: kinds[i],
			Emotion: task.Emotion, Instruction: task.Instruction, Actions: nonNil(task.Actions), Forbidden: nonNil(task.Forbidden)})
	}
	return d, nil
}

// sampleKindOrder is the order sampleByKind deals samples to task kinds.
var sampleKindOrder = []string{sim.KindWrite, sim.KindRefusal, sim.KindTransfer, sim.KindRead}

// sampleByKind returns the indices, ascending, of n of the tasks whose
// kinds are kinds: the n are dealt one at a time to the kinds present in
// sampleKindOrder's order, and each kind's share is spread evenly over its
// tasks, so three samples show a write, a refusal and a transfer rather
// than whatever an even stride over the whole split lands on.
func sampleByKind(kinds []string, n int) []int {
	byKind := map[string][]int{}
	for i, k := range kinds {
		byKind[k] = append(byKind[k], i)
	}
	order := sampleKindOrder
	share := map[string]int{}
	for dealt := 0; dealt < n; {
		before := dealt
		for _, k := range order {
			if dealt < n && share[k] < len(byKind[k]) {
				share[k]++
				dealt++
			}
		}
		if dealt == before {
			break // every task is taken
		}
	}
	var out []int
	for _, k := range order {
		out = append(out, spreadEvenly(byKind[k], share[k])...)
	}
	slices.Sort(out)
	return out
}

// nonNil is actions, or an empty list for none (json: [], never null).
func nonNil(actions []emobench.Action) []emobench.Action {
	if actions == nil {
		return []emobench.Action{}
	}
	return actions
}

// spreadEvenly returns n elements of s at even strides from the first
// (all of s when it has n or fewer).
func spreadEvenly[T any](s []T, n int) []T {
	if len(s) <= n {
		return s
	}
	out := make([]T, n)
	for i := range out {
		out[i] = s[i*len(s)/n]
	}
	return out
}

// schemaParams lists the properties of a JSON object schema in the order
// the schema gives them, marking those in "required".
func schemaParams(schema json.RawMessage) ([]ParamDetail, error) {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	out := []ParamDetail{}
	if len(s.Properties) == 0 || string(s.Properties) == "null" {
		return out, nil
	}
	dec := json.NewDecoder(bytes.NewReader(s.Properties))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("properties are not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string) // an object's keys are strings
		out = append(out, ParamDetail{Name: name, Required: slices.Contains(s.Required, name)})
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// WriteDomainJSON writes d as indented JSON (the keys of DomainDetail's
// tags).
func WriteDomainJSON(w io.Writer, d *DomainDetail) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}

// WriteDomainText writes d for reading: the policy as it is (markdown),
// then a "## Tools" section with the tool table (required parameters
// marked *), then a "## Sample tasks" section with each sample's id,
// split, kind, emotion, instruction, gold actions and forbidden writes.
func WriteDomainText(w io.Writer, d *DomainDetail) error {
	var b bytes.Buffer
	b.WriteString(strings.TrimRight(d.Policy, "\n"))
	writes := 0
	for _, tool := range d.Tools {
		if tool.Writes {
			writes++
		}
	}
	fmt.Fprintf(&b, "\n\n## Tools of %s: %d, %d of them writes (parameters marked * are required; transfer tool %s)\n\n", d.Domain, len(d.Tools), writes, d.TransferTool)
	tools := &table.Table{Columns: []string{"name", "kind", "parameters", "description"}}
	for _, tool := range d.Tools {
		kind := "read"
		switch {
		case tool.Writes:
			kind = "write"
		case tool.Name == d.TransferTool:
			kind = "transfer" // changes nothing, but ends the conversation
		}
		params := make([]string, len(tool.Parameters))
		for i, p := range tool.Parameters {
			params[i] = p.Name
			if p.Required {
				params[i] += "*"
			}
		}
		tools.Rows = append(tools.Rows, []any{tool.Name, kind, strings.Join(params, ", "), tool.Description})
	}
	if err := tools.Write(&b, "table"); err != nil {
		return err
	}
	fmt.Fprintf(&b, "\n## Sample tasks: %d of the %d %s tasks\n", len(d.Samples), d.SplitTasks, d.Split)
	for _, task := range d.Samples {
		fmt.Fprintf(&b, "\n### %s (%s, %s)\n\n", task.ID, task.Split, task.Kind)
		fmt.Fprintf(&b, "emotion: %s\n", emotionText(task.Emotion))
		fmt.Fprintf(&b, "instruction: %s\n", table.OneLine(task.Instruction))
		writeActions(&b, "gold actions", task.Actions)
		writeActions(&b, "forbidden writes", task.Forbidden)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// emotionText is "anger/frustration (politeness cold, urgency high, trust
// skeptical)"; "none" for a task without a family.
func emotionText(e emobench.EmotionProfile) string {
	family := e.Family
	if family == "" {
		family = "none"
	}
	if e.Leaf != "" {
		family += "/" + e.Leaf
	}
	var dims []string
	for _, d := range []struct{ name, value string }{{"politeness", e.Politeness}, {"urgency", e.Urgency}, {"trust", e.Trust}} {
		if d.value != "" {
			dims = append(dims, d.name+" "+d.value)
		}
	}
	if len(dims) == 0 {
		return family
	}
	return family + " (" + strings.Join(dims, ", ") + ")"
}

// writeActions writes "label:" and one numbered line per action, its
// arguments as compact JSON, or "label: none".
func writeActions(b *bytes.Buffer, label string, actions []emobench.Action) {
	if len(actions) == 0 {
		fmt.Fprintf(b, "%s: none\n", label)
		return
	}
	fmt.Fprintf(b, "%s:\n", label)
	for i, a := range actions {
		args := string(a.Arguments)
		var c bytes.Buffer
		if json.Compact(&c, a.Arguments) == nil {
			args = c.String()
		}
		fmt.Fprintf(b, "  %d. %s %s\n", i+1, a.Name, table.OneLine(args))
	}
}

// WriteDomain writes d in format: json (WriteDomainJSON), else text
// (WriteDomainText).
func WriteDomain(w io.Writer, d *DomainDetail, format string) error {
	if format == "json" {
		return WriteDomainJSON(w, d)
	}
	return WriteDomainText(w, d)
}

// WriteDomains writes the table of every registered domain (ListDomains,
// DomainsTable) to w in format, one of table.Formats. Its errors are
// ListDomains' and w's.
func WriteDomains(w io.Writer, format string) error {
	domains, err := ListDomains()
	if err != nil {
		return err
	}
	return DomainsTable(domains, format).Write(w, format)
}

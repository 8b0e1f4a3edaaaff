package workbench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/sim"
	"github.com/google/go-cmp/cmp"
)

// TestDomains_KnownToIngest: a result file named after any registered
// domain (gpt-4o-telecom-with-emotions.json) has its domain recognised.
func TestDomains_KnownToIngest(t *testing.T) {
	t.Parallel()
	for _, name := range all.Names() {
		if !slices.Contains(ingest.KnownDomains, name) {
			t.Errorf("domain %s is registered but not in ingest.KnownDomains: its result files' names would not be recognised", name)
		}
		meta := ingest.MetadataFromFileName("results/gpt-4o-" + name + "-with-emotions.json")
		if meta.Domain != name || meta.Model != "gpt-4o" {
			t.Errorf("file name of domain %s: model %q, domain %q", name, meta.Model, meta.Domain)
		}
	}
}

func TestSummarizeDomain_Retail(t *testing.T) {
	t.Parallel()
	dom, err := all.Find("retail")
	if err != nil {
		t.Fatal(err)
	}
	s, err := SummarizeDomain(dom)
	if err != nil {
		t.Fatal(err)
	}
	// domains/README.md, "Size and speed": 500 users, 1,000 orders, 52 products.
	want := &sim.DBDescription{Tables: []sim.DBTable{{Name: "users", Rows: 500}, {Name: "products", Rows: 52}, {Name: "orders", Rows: 1000}}, Bytes: s.Database.Bytes}
	if diff := cmp.Diff(want, s.Database); diff != "" {
		t.Errorf("retail database (-want +got):\n%s", diff)
	}
	if s.Database.Bytes < 100_000 {
		t.Errorf("retail database: %d bytes of JSON, want a database at τ-bench's scale", s.Database.Bytes)
	}
	if got, want := []int{s.Tools, s.WriteTools, s.TestTasks, s.TrainTasks, s.Refusals}, []int{15, 7, 120, 500, 27}; !slices.Equal(got, want) {
		t.Errorf("retail tools, writes, test, train, refusals = %v, want %v", got, want)
	}
}

// opaqueDomain's environment cannot describe its database.
type opaqueDomain struct{ sim.Domain }

func (d opaqueDomain) NewEnvironment() sim.Environment { return opaqueEnv{d.Domain.NewEnvironment()} }

type opaqueEnv struct{ sim.Environment }

func TestDomainsTable_UnknownDatabase(t *testing.T) {
	t.Parallel()
	dom, err := all.Find("airline")
	if err != nil {
		t.Fatal(err)
	}
	s, err := SummarizeDomain(opaqueDomain{dom})
	if err != nil {
		t.Fatal(err)
	}
	if s.Database != nil {
		t.Fatalf("database of an environment that cannot describe it: %+v, want nil", s.Database)
	}
	var text strings.Builder
	if err := DomainsTable([]DomainSummary{s}, "csv").Write(&text, "csv"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(strings.TrimSpace(text.String()), ",unknown,unknown") {
		t.Errorf("csv of an unknown database:\n%s\nwant db_tables and db_bytes unknown", text.String())
	}
	var js strings.Builder
	if err := DomainsTable([]DomainSummary{s}, "json").Write(&js, "json"); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(js.String()), &rows); err != nil {
		t.Fatalf("json: %v\n%s", err, js.String())
	}
	if rows[0]["db_tables"] != nil || rows[0]["db_bytes"] != nil {
		t.Errorf("json of an unknown database: db_tables %v, db_bytes %v; want null", rows[0]["db_tables"], rows[0]["db_bytes"])
	}
}

func TestShowDomain_Err(t *testing.T) {
	t.Parallel()
	for _, req := range []DomainShowRequest{
		{Domain: "nosuch", Split: emobench.SplitTest, Samples: 3},
		{Domain: "retail", Split: "dev", Samples: 3},
		{Domain: "retail", Split: emobench.SplitTest, Samples: -1},
	} {
		_, err := ShowDomain(req)
		if !errors.Is(err, emobench.ErrRequest) {
			t.Errorf("ShowDomain(%+v): error %v, want an EREQUEST error", req, err)
		}
	}
	_, err := ShowDomain(DomainShowRequest{Domain: "nosuch", Split: emobench.SplitTest})
	for _, name := range all.Names() {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("unknown domain: error %v does not list domain %s", err, name)
		}
	}
}

func TestShowDomain_Samples(t *testing.T) {
	t.Parallel()
	d, err := ShowDomain(DomainShowRequest{Domain: "retail", Split: emobench.SplitTrain, Samples: 4})
	if err != nil {
		t.Fatal(err)
	}
	// 500 train tasks, 4 samples: the first write, refusal, transfer and
	// read task of the split, in the split's order.
	if d.SplitTasks != 500 || len(d.Samples) != 4 {
		t.Fatalf("split tasks %d, samples %d; want 500 and 4", d.SplitTasks, len(d.Samples))
	}
	dom, _ := all.Find("retail")
	writes := map[string]bool{}
	for _, tl := range dom.NewEnvironment().Tools() {
		writes[tl.Name] = tl.Writes
	}
	first := map[string]string{}
	for _, task := range dom.Tasks() {
		if k := sim.KindOf(sim.GoldAsks(&task, writes, dom.TransferTool()), false); task.Split == emobench.SplitTrain && first[k] == "" {
			first[k] = task.ID
		}
	}
	got := map[string]string{}
	for i, s := range d.Samples {
		got[s.Kind] = s.ID
		if s.Split != "train" {
			t.Errorf("sample %s: split %s", s.ID, s.Split)
		}
		if i > 0 && d.Samples[i-1].ID >= s.ID {
			t.Errorf("samples %s, %s: not in the split's order", d.Samples[i-1].ID, s.ID)
		}
	}
	if !maps.Equal(got, first) || len(got) != 4 {
		t.Errorf("samples by kind %v, want the first of each of the four kinds %v", got, first)
	}
	all3, err := ShowDomain(DomainShowRequest{Domain: "retail", Split: emobench.SplitTest, Samples: 1000})
	if err != nil || len(all3.Samples) != 120 {
		t.Errorf("1000 samples of 120 test tasks: %d samples, err %v; want all 120", len(all3.Samples), err)
	}
}

func TestSchemaParams(t *testing.T) {
	t.Parallel()
	got, err := schemaParams(json.RawMessage(`{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"array","items":{"type":"string"}},"mid":{}},"required":["mid","zeta"]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []ParamDetail{{"zeta", true}, {"alpha", false}, {"mid", true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("params in schema order (-want +got):\n%s", diff)
	}
	if got, err := schemaParams(json.RawMessage(`{"type":"object"}`)); err != nil || len(got) != 0 {
		t.Errorf("no properties: %v, %v; want none", got, err)
	}
	for _, bad := range []string{`[]`, `{"properties":[1]}`, `{"properties":{"a":}}`} {
		if _, err := schemaParams(json.RawMessage(bad)); err == nil {
			t.Errorf("schema %s: no error", bad)
		}
	}
}

func TestSampleByKind(t *testing.T) {
	t.Parallel()
	kinds := []string{sim.KindWrite, sim.KindWrite, sim.KindRefusal, sim.KindWrite, sim.KindWrite, sim.KindRefusal, sim.KindRead, sim.KindWrite, sim.KindRefusal, sim.KindWrite}
	tests := []struct {
		n    int
		want []int
	}{
		{0, nil},
		{1, []int{0}},
		{3, []int{0, 2, 6}},       // a write, a refusal, a read: no transfer in the split
		{5, []int{0, 2, 4, 5, 6}}, // writes 0 and 4 (of 6), refusals 2 and 5 (of 3), the read
		{100, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}, // every task
	}
	for _, tt := range tests {
		if got := sampleByKind(kinds, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("sampleByKind(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}

// EmbeddedTestTasks are every domain's embedded test tasks: as many as
// ListDomains counts, and none of the train split.
func TestEmbeddedTestTasks(t *testing.T) {
	t.Parallel()
	sums, err := ListDomains()
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, s := range sums {
		want += s.TestTasks
	}
	got := EmbeddedTestTasks()
	if len(got) != want || want == 0 {
		t.Fatalf("%d embedded test tasks, ListDomains counts %d", len(got), want)
	}
	for _, task := range got {
		if task.Split != emobench.SplitTest {
			t.Fatalf("task %s of split %s", task.ID, task.Split)
		}
	}
}

// A catalog domain's summary measures its test split (tracer.SplitShares)
// and `domains --format json` carries it as one test_shares object; the
// text formats show it as five columns.
func TestDomainsTable_TestShares(t *testing.T) {
	t.Parallel()
	dom, err := all.Find("retail")
	if err != nil {
		t.Fatal(err)
	}
	s, err := SummarizeDomain(dom)
	if err != nil {
		t.Fatal(err)
	}
	if s.TestShares == nil || s.TestShares.Tasks != s.TestTasks || len(s.TestShares.ForbiddenTypes) != 11 || len(s.TestShares.TransferTriggers) != 3 {
		t.Fatalf("retail test shares %+v, want the %d test tasks, 11 forbidden types and 3 transfer triggers", s.TestShares, s.TestTasks)
	}
	for kind, fams := range s.TestShares.FamilyByKind {
		total := 0.0
		for _, v := range fams {
			total += v
		}
		if len(fams) != 5 || total < 0.999 || total > 1.001 {
			t.Errorf("%s: family shares %v, want the five families summing to 1", kind, fams)
		}
	}
	var js strings.Builder
	if err := DomainsTable([]DomainSummary{s}, "json").Write(&js, "json"); err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		TestShares *struct {
			Mixed                 *float64                      `json:"mixed"`
			ConditionalOrFindable *float64                      `json:"conditional_or_findable"`
			ForbiddenTypes        map[string]int                `json:"forbidden_types"`
			TransferTriggers      map[string]int                `json:"transfer_triggers"`
			FamilyByKind          map[string]map[string]float64 `json:"family_by_kind"`
		} `json:"test_shares"`
	}
	if err := json.Unmarshal([]byte(js.String()), &rows); err != nil || len(rows) != 1 || rows[0].TestShares == nil {
		t.Fatalf("json: %v\n%s", err, js.String())
	}
	got := rows[0].TestShares
	if got.Mixed == nil || got.ConditionalOrFindable == nil || !maps.Equal(got.ForbiddenTypes, s.TestShares.ForbiddenTypes) || len(got.FamilyByKind) != len(s.TestShares.FamilyByKind) {
		t.Errorf("json test_shares %+v, want %+v", got, s.TestShares)
	}
	var text strings.Builder
	if err := DomainsTable([]DomainSummary{s}, "csv").Write(&text, "csv"); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("11, min %d", slices.Min(slices.Collect(maps.Values(s.TestShares.ForbiddenTypes)))); !strings.Contains(text.String(), want) {
		t.Errorf("csv lacks the forbidden types cell %q:\n%s", want, text.String())
	}
}

// WriteDomains writes a row per registered domain under the table's header.
func TestWriteDomains(t *testing.T) {
	var out bytes.Buffer
	if err := WriteDomains(&out, "csv"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 1+len(all.Names()) || !strings.HasPrefix(lines[0], "domain,tools,write_tools,") || !strings.HasPrefix(lines[1], all.Names()[0]+",") {
		t.Errorf("WriteDomains(csv) =\n%s\nwant a header and a row per domain (%v)", out.String(), all.Names())
	}
}

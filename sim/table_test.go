package sim

import (
	"encoding/json"
	"strings"
	"testing"
)

type toyRow struct {
	Name  string   `json:"name"`
	Tags  []string `json:"tags"`
	Total Money    `json:"total"`
}

type toyRef struct {
	Fees map[string]int `json:"fees"`
}

type toyState struct {
	Rows   Table[toyRow]     `json:"rows"`
	Fees   Reference[toyRef] `json:"fees"`
	Issued int               `json:"issued"`
}

func toyInitial() *toyState {
	s := &toyState{Fees: NewReference(&toyRef{Fees: map[string]int{"bag": 40}})}
	s.Rows.Put("b", &toyRow{Name: "Bea", Tags: []string{"x"}, Total: 1050})
	s.Rows.Put("a", &toyRow{Name: "Al", Tags: []string{}, Total: 7})
	return s
}

var toyTools = []Tool[toyState]{
	NewTool("rename", "", true, ObjectSchema(`{}`), func(s *toyState, _ json.RawMessage) (string, error) {
		r, _ := s.Rows.Edit("a")
		r.Name, r.Tags = "Alan", append(r.Tags, "renamed")
		return "ok", nil
	}),
	NewTool("add", "", true, ObjectSchema(`{}`), func(s *toyState, _ json.RawMessage) (string, error) {
		s.Issued++
		s.Rows.Put("c", &toyRow{Name: "Cy"})
		s.Rows.Delete("b")
		return "ok", nil
	}),
	NewTool("scribble", "", false, ObjectSchema(`{}`), func(s *toyState, _ json.RawMessage) (string, error) {
		r, _ := s.Rows.Get("b") // the bug VerifyInitial exists for
		r.Name = "changed in place"
		return "ok", nil
	}),
}

func toyDomain() TaskSetDomain {
	return NewDomain(DomainSpec[toyState]{Name: "toy", Initial: toyInitial, Tools: toyTools}).(TaskSetDomain)
}

func TestTable_ForkEqualsDeepCopy(t *testing.T) {
	d := toyDomain()
	fork, deep := d.NewEnvironment(), d.NewDeepEnvironment()
	if got, want := fork.Hash(), deep.Hash(); got != want {
		t.Fatalf("fresh fork hash %s, deep copy %s", got, want)
	}
	for _, tool := range []string{"rename", "add", "rename"} {
		for _, env := range []Environment{fork, deep} {
			if _, err := env.Call(tool, nil); err != nil {
				t.Fatal(err)
			}
		}
		if got, want := fork.Hash(), deep.Hash(); got != want {
			t.Fatalf("after %s: fork hash %s, deep copy %s", tool, got, want)
		}
	}
	if got := d.NewEnvironment().Hash(); got == fork.Hash() {
		t.Fatalf("a new fork hashes as the changed one: the initial state was changed")
	}
	if err := d.VerifyInitial(); err != nil {
		t.Fatalf("VerifyInitial after Edit/Put/Delete: %v", err)
	}
	s, _ := StateOf[toyState](fork)
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"rows":{"a":{"name":"Alan","tags":["renamed","renamed"],"total":0.07},"c":{"name":"Cy","tags":null,"total":0.00}},"fees":{"fees":{"bag":40}},"issued":1}`; got != want {
		t.Fatalf("state JSON\n got %s\nwant %s", got, want)
	}
	if got, want := strings.Join(s.Rows.Keys(), ","), "a,c"; got != want || s.Rows.Len() != 2 {
		t.Fatalf("keys %s (len %d), want %s (len 2)", got, s.Rows.Len(), want)
	}
}

func TestCopyState_MidEpisode(t *testing.T) {
	env := toyDomain().NewEnvironment()
	if _, err := env.Call("rename", nil); err != nil {
		t.Fatal(err)
	}
	s, _ := StateOf[toyState](env)
	c := CopyState(s)
	if got, want := HashState(c), env.Hash(); got != want {
		t.Fatalf("copy hash %s, want %s", got, want)
	}
	if _, err := NewStateEnv(c, toyTools).Call("rename", nil); err != nil {
		t.Fatal(err)
	}
	if a, _ := s.Rows.Get("a"); len(a.Tags) != 1 {
		t.Fatalf("a write on the copy changed the original: tags %v", a.Tags)
	}
}

func TestTable_VerifyInitialCatchesWriteThroughGet(t *testing.T) {
	d := toyDomain()
	if _, err := d.NewEnvironment().Call("scribble", nil); err != nil {
		t.Fatal(err)
	}
	err := d.VerifyInitial()
	if err == nil || !strings.Contains(err.Error(), `row "b"`) {
		t.Fatalf("VerifyInitial = %v, want the changed row b named", err)
	}
}

func TestTable_ForksAreIndependent(t *testing.T) {
	d := toyDomain()
	a, b := d.NewEnvironment(), d.NewEnvironment()
	before := b.Hash()
	if _, err := a.Call("add", nil); err != nil {
		t.Fatal(err)
	}
	if b.Hash() != before {
		t.Fatal("a write on one fork changed another")
	}
	sb, _ := StateOf[toyState](b)
	if _, ok := sb.Rows.Get("c"); ok || sb.Issued != 0 {
		t.Fatal("a fork sees another fork's row or counter")
	}
}

func TestNewDomain_RefusesSharedFields(t *testing.T) {
	type badState struct {
		Rows Table[toyRow]  `json:"rows"`
		Map  map[string]int `json:"map"`
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "field Map") {
			t.Fatalf("panic %v, want one naming field Map", r)
		}
	}()
	NewDomain(DomainSpec[badState]{Name: "bad", Initial: func() *badState { return &badState{} }})
}

func TestMoney_JSON(t *testing.T) {
	for _, c := range []struct {
		m    Money
		json string
	}{{5404, "54.04"}, {4000, "40.00"}, {-350, "-3.50"}, {0, "0.00"}} {
		b, _ := json.Marshal(c.m)
		if string(b) != c.json {
			t.Errorf("Marshal(%d) = %s, want %s", c.m, b, c.json)
		}
		var back Money
		if err := json.Unmarshal(b, &back); err != nil || back != c.m {
			t.Errorf("Unmarshal(%s) = %d, %v", b, back, err)
		}
	}
	var m Money
	if err := json.Unmarshal([]byte(`"12"`), &m); err == nil {
		t.Error("a string decoded as money")
	}
}

func BenchmarkTemplateDomain_EpisodeForkAndHash(b *testing.B) {
	d := toyDomain()
	for b.Loop() {
		env := d.NewEnvironment()
		env.Call("rename", nil)
		_ = env.Hash()
	}
}

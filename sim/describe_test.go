package sim_test

import (
	"encoding/json"
	"testing"

	"github.com/emobench/emobench/sim"
	"github.com/google/go-cmp/cmp"
)

// describedState has every kind of top-level field DescribeDatabase meets.
type describedState struct {
	Users     map[string]string `json:"users"`
	Flights   []int             `json:"flights,omitempty"`
	Airports  [2]string         `json:"airports"`
	Untagged  map[string]int
	Issued    int               `json:"issued"` // a counter, not a table
	Hidden    map[string]string `json:"-"`      // not encoded
	cache     map[string]string // unexported
	Histogram map[string]int    `json:"histogram"`
}

func TestStateEnv_DescribeDatabase(t *testing.T) {
	t.Parallel()
	t.Run("OK", func(t *testing.T) {
		state := &describedState{
			Users:    map[string]string{"a": "1", "b": "2", "c": "3"},
			Flights:  []int{1, 2},
			Untagged: map[string]int{"x": 1},
			Issued:   7,
			Hidden:   map[string]string{"h": "h"},
			cache:    map[string]string{"c": "c"},
		}
		env := sim.NewStateEnv(state, nil)
		desc, ok, err := sim.DescribeDatabase(env)
		if err != nil || !ok {
			t.Fatalf("DescribeDatabase: ok %v, err %v", ok, err)
		}
		want := []sim.DBTable{{Name: "users", Rows: 3}, {Name: "flights", Rows: 2}, {Name: "airports", Rows: 2}, {Name: "Untagged", Rows: 1}, {Name: "histogram", Rows: 0}}
		if diff := cmp.Diff(want, desc.Tables); diff != "" {
			t.Errorf("tables (-want +got):\n%s", diff)
		}
		b, _ := json.Marshal(state)
		if got, want := desc.Bytes, len(b); got != want {
			t.Errorf("bytes = %d, want %d (len of the state's JSON)", got, want)
		}
	})
	t.Run("NotAStruct", func(t *testing.T) {
		state := map[string]int{"a": 1}
		desc, err := sim.NewStateEnv(&state, nil).DescribeDatabase()
		if err != nil {
			t.Fatal(err)
		}
		if len(desc.Tables) != 0 || desc.Bytes != len(`{"a":1}`) {
			t.Errorf("description = %+v, want no tables and 7 bytes", desc)
		}
	})
	t.Run("ErrNilState", func(t *testing.T) {
		if _, ok, err := sim.DescribeDatabase(sim.NewStateEnv[describedState](nil, nil)); err == nil || ok {
			t.Errorf("nil state: ok %v, err %v; want an error", ok, err)
		}
	})
	t.Run("ErrNotJSON", func(t *testing.T) {
		state := struct{ C chan int }{make(chan int)}
		if _, err := sim.NewStateEnv(&state, nil).DescribeDatabase(); err == nil {
			t.Error("a state with a channel: no error")
		}
	})
	t.Run("Unknown", func(t *testing.T) {
		desc, ok, err := sim.DescribeDatabase(opaqueEnv{})
		if ok || err != nil || desc.Bytes != 0 || desc.Tables != nil {
			t.Errorf("an environment without DescribeDatabase: %+v, ok %v, err %v; want unknown", desc, ok, err)
		}
	})
}

// opaqueEnv is an Environment that cannot describe its database.
type opaqueEnv struct{}

func (opaqueEnv) Tools() []sim.ToolSchema                      { return nil }
func (opaqueEnv) Call(string, json.RawMessage) (string, error) { return "", nil }
func (opaqueEnv) Hash() string                                 { return "" }

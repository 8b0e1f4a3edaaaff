package ingest_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
)

// memSpool is an in-memory Tau2Options.Spool of at most max bytes.
type memSpool struct {
	buf  bytes.Buffer
	rd   *bytes.Reader
	max  int
	full error
}

func (s *memSpool) Write(p []byte) (int, error) {
	if s.buf.Len()+len(p) > s.max {
		return 0, s.full
	}
	return s.buf.Write(p)
}

func (s *memSpool) Seek(offset int64, whence int) (int64, error) {
	s.rd = bytes.NewReader(s.buf.Bytes())
	return s.rd.Seek(offset, whence)
}

func (s *memSpool) Read(p []byte) (int, error) { return s.rd.Read(p) }

// readTau2Ways reads data as Tau2 does (simulations held in memory), with a
// second pass (Rewind) and with a spool.
func readTau2Ways(t *testing.T, data []byte) map[string][]*emobench.Trajectory {
	t.Helper()
	ways := map[string]ingest.Tau2Options{
		"buffered": {},
		"rewind":   {Rewind: func() (io.Reader, error) { return bytes.NewReader(data), nil }},
		"spool":    {Spool: &memSpool{max: len(data)}},
	}
	got := map[string][]*emobench.Trajectory{}
	for name, opts := range ways {
		rd, err := ingest.Tau2With(bytes.NewReader(data), opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		trajs, err := collect(t, rd.Trajectories())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got[name] = trajs
	}
	return got
}

// Simulations before tasks read the same in bounded memory (a second pass,
// a spool) as when held in memory.
func TestTau2With_SimulationsFirst(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "tau2", "golden", "simulations-first", "input.json"))
	if err != nil {
		t.Fatal(err)
	}
	got := readTau2Ways(t, data)
	if len(got["buffered"]) != 1 || got["buffered"][0].Task.Instruction == "" {
		t.Fatalf("buffered read: %+v", got["buffered"])
	}
	for _, name := range []string{"rewind", "spool"} {
		if diff := cmp.Diff(got["buffered"], got[name]); diff != "" {
			t.Errorf("%s differs from buffered (-buffered +%s):\n%s", name, name, diff)
		}
	}
}

// A bad simulation is reported at the same byte offset of the input
// whichever way it is read.
func TestTau2With_ErrSameOffset(t *testing.T) {
	t.Parallel()
	data := []byte(`{"info": {}, "simulations": [{"task_id": "t0", "trial": 0, "messages": []}, {"task_id": "t0", "trial": "x", "messages": []}], "tasks": [{"id": "t0"}]}`)
	ways := map[string]ingest.Tau2Options{
		"buffered": {},
		"rewind":   {Rewind: func() (io.Reader, error) { return bytes.NewReader(data), nil }},
		"spool":    {Spool: &memSpool{max: len(data)}},
	}
	errs := map[string]string{}
	for name, opts := range ways {
		rd, err := ingest.Tau2With(bytes.NewReader(data), opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, err = collect(t, rd.Trajectories())
		var simErr *ingest.SimulationError
		if !errors.As(err, &simErr) {
			t.Fatalf("%s: error %v, want a *SimulationError", name, err)
		}
		errs[name] = err.Error()
	}
	if errs["rewind"] != errs["spool"] {
		t.Errorf("rewind: %s\nspool:  %s", errs["rewind"], errs["spool"])
	}
}

// A spool that is full ends the read with its own error.
func TestTau2With_ErrSpoolFull(t *testing.T) {
	t.Parallel()
	full := errors.New("spool full")
	data := []byte(`{"info": {}, "simulations": [` + string(bytes.Repeat([]byte(`{"task_id": "t0", "trial": 0, "messages": []}, `), 100)) + `{}], "tasks": []}`)
	_, err := ingest.Tau2With(bytes.NewReader(data), ingest.Tau2Options{Spool: &memSpool{max: 100, full: full}})
	if err != full {
		t.Errorf("error %v, want %v", err, full)
	}
}

// FuzzTau2With reads arbitrary bytes held in memory, with a second pass and
// with a spool, seeded with testdata/tau2. None may panic, and when all
// three read the whole run they yield the same trajectories.
func FuzzTau2With(f *testing.F) {
	for _, pattern := range []string{"bad/*.json", "shapes/*.json", "golden/*/input.json"} {
		m, err := filepath.Glob(filepath.Join("testdata", "tau2", pattern))
		if err != nil {
			f.Fatal(err)
		}
		for _, path := range m {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte(`{"info": {}, "simulations": [{"task_id": "t0", "trial": 0, "messages": []}], "tasks": [{"id": "t0"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ways := map[string]ingest.Tau2Options{
			"buffered": {},
			"rewind":   {Rewind: func() (io.Reader, error) { return bytes.NewReader(data), nil }},
			"spool":    {Spool: &memSpool{max: len(data) + 1}},
		}
		got := map[string][]*emobench.Trajectory{}
		for name, opts := range ways {
			rd, err := ingest.Tau2With(bytes.NewReader(data), opts)
			if err != nil {
				return
			}
			trajs, err := collect(t, rd.Trajectories())
			if err != nil {
				return
			}
			checkTrajectories(t, trajs)
			got[name] = trajs
		}
		for _, name := range []string{"rewind", "spool"} {
			if diff := cmp.Diff(got["buffered"], got[name]); diff != "" {
				t.Fatalf("%s differs from buffered (-buffered +%s):\n%s", name, name, diff)
			}
		}
	})
}

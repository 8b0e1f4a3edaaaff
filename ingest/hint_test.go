package ingest_test

import (
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
)

func TestStoredRunHint(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		m    ingest.Metadata
		want string
	}{
		{ingest.Metadata{}, ""},
		{ingest.Metadata{Model: "gpt-4.1", Condition: emobench.ConditionNone},
			"change its metadata with `emobench --db 'my runs.db' runs set 3 --model gpt-4.1 --condition none`"},
		{ingest.Metadata{Domain: "retail"},
			"a domain is part of the tasks: `emobench --db 'my runs.db' runs rm 3`, then ingest the file again with --domain"},
	} {
		if got := tc.m.StoredRunHint("my runs.db", 3); got != tc.want {
			t.Errorf("StoredRunHint(%+v) = %q, want %q", tc.m, got, tc.want)
		}
	}
}

func TestShellQuote(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"runs.db": "runs.db", "": "''", "a b": "'a b'", "it's": `'it'\''s'`} {
		if got := ingest.ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOpened_PublishedDomains(t *testing.T) {
	t.Parallel()
	in := &ingest.Opened{Published: []emobench.PublishedResult{{Domain: "airline"}, {Domain: "airline"}, {Domain: "retail"}}}
	if got := in.PublishedDomains(); len(got) != 2 || got[0] != "airline" || got[1] != "retail" {
		t.Errorf("PublishedDomains = %q, want [airline retail]", got)
	}
}

package ingest

import (
	"fmt"
	"strings"
)

// StoredRunHint is the command that gives stored run id, in the database at
// dbPath, the metadata m names (as --name, --model, --user-model,
// --condition and --domain flags would); "" when m names none.
func (m Metadata) StoredRunHint(dbPath string, id int64) string {
	var set []string
	for _, kv := range [][2]string{{"name", m.Name}, {"model", m.Model}, {"user-model", m.UserModel}, {"condition", string(m.Condition)}} {
		if kv[1] != "" {
			set = append(set, "--"+kv[0]+" "+ShellQuote(kv[1]))
		}
	}
	var hint []string
	if len(set) > 0 {
		hint = append(hint, fmt.Sprintf("change its metadata with `emobench --db %s runs set %d %s`", ShellQuote(dbPath), id, strings.Join(set, " ")))
	}
	if m.Domain != "" {
		hint = append(hint, fmt.Sprintf("a domain is part of the tasks: `emobench --db %s runs rm %d`, then ingest the file again with --domain", ShellQuote(dbPath), id))
	}
	return strings.Join(hint, "; ")
}

// ShellQuote quotes s for a POSIX shell when it needs it.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == ':' || r == '+' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// PublishedDomains returns the domains of o.Published, in order, each once
// per run of consecutive results.
func (o *Opened) PublishedDomains() []string {
	var domains []string
	for i, r := range o.Published {
		if i == 0 || r.Domain != o.Published[i-1].Domain {
			domains = append(domains, r.Domain)
		}
	}
	return domains
}

// Package all is the registry of emobench's domains: the one place that
// imports every domain package. The CLI finds domains here by name.
package all

import (
	"fmt"
	"sort"
	"strings"

	"github.com/emobench/emobench/domains/airline"
	"github.com/emobench/emobench/domains/retail"
	"github.com/emobench/emobench/domains/telecom"
	"github.com/emobench/emobench/domains/telehealth"
	"github.com/emobench/emobench/sim"
)

// constructors lists every domain; adding a domain is one line here.
var constructors = map[string]func() sim.Domain{
	"airline":    airline.New,
	"retail":     retail.New,
	"telecom":    telecom.New,
	"telehealth": telehealth.New,
}

// Names returns the registered domain names, sorted.
func Names() []string {
	names := make([]string, 0, len(constructors))
	for name := range constructors {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Find returns the domain called name, or an error listing the domains.
func Find(name string) (sim.Domain, error) {
	newDomain, ok := constructors[name]
	if !ok {
		return nil, fmt.Errorf("no domain %q (domains: %s)", name, strings.Join(Names(), ", "))
	}
	return newDomain(), nil
}

package telehealth

import "github.com/emobench/emobench/sim"

// Catalog returns the telehealth intent catalog.
func Catalog() *sim.Catalog { return &sim.Catalog{} }

package workbench

import "strings"

// SplitList splits each value at commas, as repeatable list flags
// (--train-domains a,b --train-domains c) are given, trimming spaces and
// dropping empty parts.
func SplitList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// UniqueInOrder returns values without repeats, first occurrences kept.
func UniqueInOrder(values []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range values {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

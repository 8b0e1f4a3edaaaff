package ingest

import (
	"fmt"
	"strings"
)

// Note is a note about one source.
type Note struct {
	Path string // the source; "" for the command as a whole
	Text string // a sentence without the path
}

// Notes gathers the notes of one command over many sources, so that each
// is printed once: a note that several sources share is one line naming
// them. The zero value is ready to use.
type Notes struct {
	order []string            // note texts, first seen first
	paths map[string][]string // note text -> the sources it was given for
}

// maxNotePaths is how many sources a shared note names before it counts
// the rest.
const maxNotePaths = 5

// Add records note text for the source named path ("" for a note about
// the command as a whole). The same text for the same path counts once.
func (n *Notes) Add(path, text string) {
	if n.paths == nil {
		n.paths = map[string][]string{}
	}
	paths, seen := n.paths[text]
	if !seen {
		n.order = append(n.order, text)
	}
	for _, p := range paths {
		if p == path {
			return
		}
	}
	n.paths[text] = append(paths, path)
}

// Lines returns one line per distinct note, in the order first added:
// "PATH: TEXT" for one source, "TEXT (N sources: a, b, …)" for several.
func (n *Notes) Lines() []string {
	lines := make([]string, 0, len(n.order))
	for _, text := range n.order {
		paths := n.paths[text]
		switch {
		case len(paths) == 1 && paths[0] == "":
			lines = append(lines, text)
		case len(paths) == 1:
			lines = append(lines, paths[0]+": "+text)
		default:
			shown := paths
			more := ""
			if len(shown) > maxNotePaths {
				shown, more = shown[:maxNotePaths], fmt.Sprintf(" and %d more", len(paths)-maxNotePaths)
			}
			lines = append(lines, fmt.Sprintf("%s (%d sources: %s%s)", text, len(paths), strings.Join(shown, ", "), more))
		}
	}
	return lines
}

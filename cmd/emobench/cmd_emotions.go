package main

import (
	"encoding/json"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/reports/table"
	"github.com/urfave/cli/v2"
)

func emotionsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "emotions",
		Usage: "list the emotion taxonomy: Atlas of Emotions families, leaves and dimensions",
		Description: "τ-Emotion-Bench conditions users on a family (enjoyment, sadness, fear, anger, disgust),\n" +
			"a leaf state within it, and politeness, urgency and trust in the agent.\n\n" +
			"Example:\n   emobench emotions\n   emobench emotions --format json",
		Before: noArgs,
		Flags:  []cli.Flag{formatFlag("table", "table", "json")},
		Action: func(c *cli.Context) error {
			if c.String("format") == "table" {
				return table.Taxonomy().Write(e.stdout, "table")
			}
			enc := json.NewEncoder(e.stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(emobench.Taxonomy)
		},
	}
}

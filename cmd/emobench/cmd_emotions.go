package main

import (
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
			return table.WriteTaxonomy(e.stdout, c.String("format"))
		},
	}
}

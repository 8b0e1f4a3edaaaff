package main

import (
	"github.com/emobench/emobench"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func domainsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "domains",
		Usage: "list the benchmark's domains: tools, tasks, emotion families and database size",
		Description: "One row per registered domain: its tools (and how many write), the transfer tool, test and\n" +
			"train tasks, the test split's refusals (tasks with forbidden writes) and transfers, the emotion\n" +
			"families of its test tasks, the test split's shares (mixed tasks, tasks with a condition or something\n" +
			"to find, tasks per forbidden request type and transfer trigger, emotion family by task kind; json:\n" +
			"test_shares), and its initial database (tables with their rows, JSON bytes).\n" +
			"It reads no database file. `domains show D` prints a domain's policy, tools and sample tasks.\n\n" +
			"Example:\n   emobench domains\n   emobench domains --format json\n   emobench domains show retail --samples 5",
		Flags:       []cli.Flag{tableFormatFlag()},
		Subcommands: []*cli.Command{domainShowCommand(e)},
		Action: func(c *cli.Context) error {
			return workbench.WriteDomains(e.stdout, c.String("format"))
		},
	}
}

func domainShowCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print a domain's policy, its tool table and sample tasks",
		ArgsUsage: "DOMAIN",
		Description: "The policy is printed as it is (markdown, the agent's system prompt); then each tool (read or\n" +
			"write, its parameters, required ones marked *, and its description); then --samples tasks of\n" +
			"--split, spread evenly over the split, each with its emotion profile, the user's instruction,\n" +
			"the gold actions and the forbidden writes.\n\n" +
			"Example:\n   emobench domains show airline\n   emobench domains show retail --samples 10 --split train --format json",
		Flags: []cli.Flag{
			formatFlag("text", "text", "json"),
			&cli.IntFlag{Name: "samples", Value: 3, Usage: "sample tasks to print (0: none)"},
			&cli.StringFlag{Name: "split", Value: string(emobench.SplitTest), Usage: "test or train: the split the samples come from"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("domains show takes one DOMAIN, got %d arguments", c.NArg())
			}
			d, err := workbench.ShowDomain(workbench.DomainShowRequest{Domain: c.Args().First(),
				Split: emobench.Split(c.String("split")), Samples: c.Int("samples")})
			if err != nil {
				return err
			}
			return workbench.WriteDomain(e.stdout, d, c.String("format"))
		},
	}
}

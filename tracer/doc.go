// Package tracer is Tracer, the second half of τ-Emotion-Bench: a
// pipeline that builds grounded, policy-valid tasks from a domain's intent
// catalog (sim.Catalog), collects agent–user–environment trajectories on
// them, keeps those worth training on and exports them as supervision
// data. It builds on sim (environments, agents, the scripted user) and db
// (task sets, selections); domains never import it, and it never runs an
// episode itself: collection is a run (workbench's runner, through the
// command `emobench tracer collect`).
//
// The steps, each with its `emobench tracer` command:
//
//   - Generate (generate) walks the catalog's tool graph, grounds each walk
//     in the domain's database, replays the gold actions on a copy and
//     keeps a task only when every validity check holds (see Generate and
//     the Reject* reasons); for the train split it refuses a test task's
//     action set (ActionSetKey, Leak). Generation is offline and seeded:
//     the same catalog, options, seed and GeneratorVersion give
//     byte-identical tasks (sim.EncodeTasks); only a Paraphraser, when one
//     is given, talks to a model. StoreTaskSet keeps a generation in the
//     db as a named task set.
//   - Audit (audit) checks tasks on magnet-tau's four criteria
//     (goal-oriented, a tool task with a preference, solvable,
//     out-of-domain handed off) by deterministic rules, and by a Judge
//     (LLMJudge) only when one is given.
//   - CollectedTasks and TaskSetSHA256 tie a collection's runs to the task
//     file or set they ran, which the funnel's "generated" stage counts.
//   - Dependence measures how much a trajectory leaned on its user (user
//     turns per needed fact, questions already answered or findable with
//     a tool, the tool-call share); runs store it with every trajectory.
//   - Filter (filter, funnel) keeps the trajectories that passed, were
//     not abandoned (###UNSATISFIED###) and lie within a dependence bound,
//     stores them as a named selection with the funnel per domain and
//     emotion family (DecodeFunnel reads it back), all in one transaction.
//   - Export and ExportFile (export) write a selection or whole runs as
//     validated JSONL in one of tracer/sft's formats (openai, sharegpt,
//     hermes), with sft.Stats.
//
// README.md's "Tracer" section walks the whole loop, from generation to
// `emobench stats generalization` of a model tuned on the export, and
// runs it offline with the simulators.
package tracer

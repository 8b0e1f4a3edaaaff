// Package tracer is Tracer, the second half of τ-Emotion-Bench: a
// pipeline that builds grounded, policy-valid tasks from a domain's intent
// catalog (sim.Catalog), collects agent–user–environment trajectories on
// them, keeps those worth training on and exports them as supervision
// data. It builds on sim (environments, agents, the scripted user) and db
// (task sets, selections); domains never import it.
//
// Generate is the first step: it walks the catalog's tool graph, grounds
// each walk in the domain's database, replays the gold actions on a copy
// and keeps a task only when every validity check holds (see Generate and
// the Reject* reasons). Generation is offline and seeded: the same catalog,
// options, seed and GeneratorVersion give byte-identical tasks
// (sim.EncodeTasks); only a Paraphraser, when one is given, talks to a
// model. StoreTaskSet keeps a generation in the db as a named task set.
package tracer

// Package tracer is Tracer, the second half of τ-Emotion-Bench: it turns a
// domain's intent catalog (sim.Catalog) into grounded, policy-valid tasks
// (Generate), which runs then collect trajectories on, filters and
// exports.
//
// Generation is offline and seeded: the same catalog, options and seed
// give byte-identical tasks (sim.EncodeTasks). Only a Paraphraser, when
// one is given, talks to a model.
package tracer

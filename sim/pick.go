package sim

// This file holds how a grounder picks the entity a request is about
// (an order, a line, an appointment) among the user's rows that fit it.

// UsedInTask reports whether an earlier intent of g's task used id (its
// Grounding.Uses); false when g has no UsedInTask.
func UsedInTask(g GroundContext, id string) bool { return g.UsedInTask != nil && g.UsedInTask(id) }

// PickFresh picks one of ids at random with g.Rand: never one an earlier
// intent of the task used (UsedInTask), so that a task asks one thing of
// an entity, and preferably one no kept task used (g.Used), so that the
// tasks spread over the data. It takes exactly one draw, g.Rand.IntN,
// when it picks; false, and no draw, when every id was used in the task.
func PickFresh(g GroundContext, ids []string) (string, bool) {
	if g.Used == nil {
		return PickPreferred(g, ids)
	}
	return PickPreferred(g, ids, func(id string) bool { return !g.Used(id) })
}

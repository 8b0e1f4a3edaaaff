package sim

// PickPreferred picks one of ids at random with g.Rand, never one an
// earlier intent of the task used (UsedInTask), from the ids that meet the
// most of prefer, weighed in order: meeting prefer[0] outweighs meeting
// all the later ones together. A grounder that prefers rows no kept task
// used, then rows still as the initial database has them, passes those two
// tests. It takes exactly one draw, g.Rand.IntN, when it picks; false, and
// no draw, when every id was used in the task.
func PickPreferred(g GroundContext, ids []string, prefer ...func(id string) bool) (string, bool) {
	var best []string
	bestRank := -1
	for _, id := range ids {
		if UsedInTask(g, id) {
			continue
		}
		rank := 0
		for _, p := range prefer {
			rank <<= 1
			if !p(id) {
				rank++
			}
		}
		switch {
		case bestRank < 0 || rank < bestRank:
			best, bestRank = []string{id}, rank
		case rank == bestRank:
			best = append(best, id)
		}
	}
	if len(best) == 0 {
		return "", false
	}
	return best[g.Rand.IntN(len(best))], true
}

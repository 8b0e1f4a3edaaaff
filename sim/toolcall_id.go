package sim

// NewToolCallID returns an id for call i of transcript message m that used
// does not hold, as the LLM agent gives calls that come without one:
// "call_emobench_<m>_<i>", with a counter suffix on a collision. It is
// deterministic, so equal transcripts get equal ids; the caller adds the id
// to used.
func NewToolCallID(used map[string]bool, m, i int) string { return newToolCallID(used, m, i) }

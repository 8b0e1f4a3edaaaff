-- Schema version 6: an unevaluated trajectory never passes. Earlier versions
-- stored passed = 1 for a reward of 1.0 beside no reward information (a
-- τ-bench error record, say); the raw reward stays as stored.

UPDATE trajectories SET passed = 0 WHERE evaluated = 0 AND passed = 1;

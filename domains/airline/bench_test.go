package airline

import "testing"

// BenchmarkClone measures a fresh environment's copy of the initial
// database.
func BenchmarkClone(b *testing.B) {
	db := initialDB()
	for b.Loop() {
		_ = db.Clone()
	}
}

// BenchmarkStateHash measures the state hash of a clone of the initial
// database with one reservation changed, as after an episode.
func BenchmarkStateHash(b *testing.B) {
	c := initialDB().Clone()
	for _, r := range c.Reservations {
		r.Insurance = "yes"
		break
	}
	for b.Loop() {
		_ = c.StateHash()
	}
}

// BenchmarkStateHash_Full measures the hash of a database that is not a
// clone: every entity is encoded.
func BenchmarkStateHash_Full(b *testing.B) {
	db := GenerateDB(Seed)
	for b.Loop() {
		_ = db.StateHash()
	}
}

package telecom

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/emobench/emobench/sim"
)

// The state hash (sim.StateEnv.Hash calls StateHash) is a sha256 over each
// customer's sha256 and the JSON of the rest. An episode's copy-on-write
// clone shares the customers no tool took with the snapshot, whose digests
// are made once, so hashing it encodes only the customers a tool changed.

// snapshot is a frozen database with the digest of every customer.
type snapshot struct {
	db      *DB
	digests map[string][32]byte
	keys    []string
}

// snapshotOf makes, once per database, the snapshot episodes clone; the
// database must never change afterwards.
var snapshotOf = func() func(db *DB) *snapshot {
	var mu sync.Mutex
	made := map[*DB]*snapshot{}
	return func(db *DB) *snapshot {
		mu.Lock()
		defer mu.Unlock()
		if s, ok := made[db]; ok {
			return s
		}
		s := &snapshot{db: db, digests: sim.EntityDigests(db.Customers), keys: sortedKeys(db.Customers)}
		made[db] = s
		return s
	}
}()

// StateHash returns the hex sha256 of db's canonical state: equal states
// give equal hashes, whether or not db is a copy-on-write clone.
func (db *DB) StateHash() string {
	var baseCustomers map[string]*Customer
	var digests map[string][32]byte
	var keys []string
	if db.base != nil {
		baseCustomers, digests, keys = db.base.db.Customers, db.base.digests, db.base.keys
	}
	h := sha256.New()
	// An untouched customer is the snapshot's own pointer; any other is
	// encoded again.
	sim.HashSection(h, "customers", db.Customers, baseCustomers, digests, keys, func(a, b *Customer) bool { return a == b })
	rest, err := json.Marshal(struct {
		Plans    map[string]*Plan    `json:"plans"`
		Features map[string]*Feature `json:"features"`
		Outages  map[string]*Outage  `json:"outages"`
	}{db.Plans, db.Features, db.Outages})
	if err != nil {
		panic(fmt.Sprintf("telecom: state is not JSON-encodable: %v", err))
	}
	h.Write(rest)
	return hex.EncodeToString(h.Sum(nil))
}

// StateForm is the customer as the state hash sees it (sim.StateFormer):
// the notes of its tickets normalised (sim.NormalizeFreeText), so that
// free text differing in case, punctuation or articles hashes alike.
func (c *Customer) StateForm() any {
	form := *c
	if len(c.Tickets) > 0 {
		form.Tickets = make([]Ticket, len(c.Tickets))
		for i, t := range c.Tickets {
			t.Notes = sim.NormalizeFreeText(t.Notes)
			form.Tickets[i] = t
		}
	}
	return &form
}

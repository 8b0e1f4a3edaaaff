package telehealth

import "testing"

// TestEpisodeDB_EqualsDeepCopy replays every embedded task's gold actions
// (every second one; every tenth under -short) on an episode's
// copy-on-write database and on a deep copy, comparing results call by
// call and hashes after every write; the snapshot the episodes share must
// come out unchanged.
func TestEpisodeDB_EqualsDeepCopy(t *testing.T) {
	initial := episodeDB().StateHash()
	tasks := New().Tasks()
	writes := map[string]bool{}
	for _, tl := range Tools() {
		writes[tl.Name] = tl.Writes
	}
	step := 2
	if testing.Short() {
		step = 10
	}
	for i := 0; i < len(tasks); i += step {
		task := tasks[i]
		cow, deep := NewEnvironment(episodeDB()), NewEnvironment(InitialDB())
		for j, a := range task.Actions {
			r1, err1 := cow.Call(a.Name, a.Arguments)
			r2, err2 := deep.Call(a.Name, a.Arguments)
			if r1 != r2 || (err1 == nil) != (err2 == nil) {
				t.Fatalf("task %s action %d %s: copy-on-write gave %q, %v; deep copy %q, %v", task.ID, j, a.Name, r1, err1, r2, err2)
			}
			if writes[a.Name] && cow.Hash() != deep.Hash() {
				t.Fatalf("task %s action %d %s: the hashes differ", task.ID, j, a.Name)
			}
		}
	}
	if episodeDB().StateHash() != initial {
		t.Fatal("an episode's writes reached the shared snapshot")
	}
}

// TestStateHash_SeesEveryRecord changes one field of one record of each
// collection, on a deep copy and on a copy-on-write copy (through the
// tools' accessors): each change changes the hash.
func TestStateHash_SeesEveryRecord(t *testing.T) {
	for _, db := range []*DB{InitialDB(), episodeDB()} {
		base := db.StateHash()
		seen := map[string]bool{base: true}
		check := func(what string) {
			t.Helper()
			h := db.StateHash()
			if seen[h] {
				t.Errorf("changing %s left the hash as before", what)
			}
			seen[h] = true
		}
		db.ownPatient("P10001").Insurance.Plan = "changed"
		check("a patient's insurance")
		db.ownAppointment(db.Patients["P10002"].AppointmentIDs[0]).Reason = "changed"
		check("an appointment's reason")
		db.ownPrescription(db.Patients["P10003"].PrescriptionIDs[0]).Approved = nil
		check("a prescription's approved alternatives")
		var dev string
		for _, id := range sortedKeys(db.Devices) {
			dev = id
			break
		}
		db.ownDevice(dev).Model = "changed"
		check("a device's model")
		db.RefillOrders["RF1"] = &RefillOrder{ID: "RF1"}
		check("the refill orders")
	}
	if episodeDB().StateHash() != InitialDB().StateHash() {
		t.Fatal("changes through the accessors reached the snapshot")
	}
}

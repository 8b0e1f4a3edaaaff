package telehealth

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emobench/emobench/sim"
)

// Seed is the seed of the initial database, GenerateDB(Seed).
const Seed uint64 = 2025

// Sizes of the generated database.
const (
	NumPatients  = 500
	NumProviders = 40
)

// clinicJSON is the clinic's world (clinic): the words and tables
// GenerateDB draws the database from and the grounders draw a request's
// wording from.
//
//go:embed clinic.json
var clinicJSON []byte

// clinic is clinicJSON decoded. The file is part of the package, so an
// error in it is a bug: a panic at start-up.
var clinic = func() (v vocabulary) {
	dec := json.NewDecoder(bytes.NewReader(clinicJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		panic("telehealth: clinic.json: " + err.Error())
	}
	return v
}()

// vocabulary is the clinic's world as clinic.json declares it.
type vocabulary struct {
	FirstNames []string `json:"first_names"`
	// FemaleNames and MaleNames are the first names that read as a
	// woman's or a man's; the others (Quinn) read as either.
	FemaleNames []string `json:"female_names"`
	MaleNames   []string `json:"male_names"`
	LastNames   []string `json:"last_names"`
	// States are the states patients live in, each with its zip code's
	// first two digits and its cities (the first has the pharmacy).
	States      []usState   `json:"states"`
	Streets     []string    `json:"streets"`
	Plans       []string    `json:"insurance_plans"`
	Allergies   []string    `json:"allergies"`
	Specialties []specialty `json:"specialties"`
	// Medications are the clinic's formulary: class and whether
	// controlled.
	Medications []Medication `json:"medications"`
	// Interactions are the drug pairs with a known interaction.
	Interactions []Interaction `json:"interactions"`
	// Conditions are the chronic conditions; a patient gets one
	// medication of each they have.
	Conditions []condition `json:"conditions"`
	// Alternatives are the changes a prescriber may approve for a
	// medication, by its name: another drug of the class or another dose.
	Alternatives map[string][]Alternative `json:"alternatives"`
	// Comorbid are the conditions that often come with a condition:
	// chronic pain, low mood, anxiety and poor sleep with one another, and
	// heart disease with heart disease. A patient with the first has one
	// of the others as the next condition two times in three.
	Comorbid map[string][]string `json:"comorbid"`
	// Pharmacies are the local pharmacies' names (the city follows);
	// MailOrder the mail-order suppliers'.
	Pharmacies []string `json:"pharmacies"`
	MailOrder  []string `json:"mail_order_suppliers"`
	// DeviceModels are the two models of each device type; DeviceWords
	// how a patient names the type.
	DeviceModels map[string][]string `json:"device_models"`
	DeviceWords  map[string]string   `json:"device_words"`
	// The wording of requests: why a patient cancels, why they missed a
	// visit, what they want an answer for.
	CancelReasons []string `json:"cancel_reasons"`
	Excuses       []string `json:"excuses"`
	Purposes      []string `json:"purposes"`
	// WarningSigns and OtherSymptoms are what the patients of the
	// symptom transfers report: the emergency warning signs of
	// policy.md, for which the agent tells the patient to call 911 before
	// transferring, and symptoms that are not. "short of breath", a
	// feeling of the readings transfer, is a warning sign too.
	WarningSigns  []string `json:"warning_signs"`
	OtherSymptoms []string `json:"other_symptoms"`
}

// usState is a state patients live in.
type usState struct {
	State  string   `json:"state"`
	Zip    string   `json:"zip_prefix"`
	Cities []string `json:"cities"`
}

// specialty is a specialty, how many providers have it, and the reasons
// patients book it for: checks and follow-ups, none an emergency warning
// sign of policy.md (a booking is never a transfer).
type specialty struct {
	Name      string   `json:"name"`
	Providers int      `json:"providers"`
	Reasons   []string `json:"reasons"`
}

// condition is a chronic condition: the specialty that treats it, the
// device that monitors it ("" if none), how often patients have it
// (relative weight), the medications prescribed for it and its lab test.
type condition struct {
	Name      string        `json:"name"`
	Specialty string        `json:"specialty"`
	Device    string        `json:"device"`
	Weight    int           `json:"weight"`
	Meds      []Alternative `json:"medications"`
	Lab       *labTest      `json:"lab,omitempty"` // nil: none
}

// labTest is the lab test that follows a condition, and how its values
// are drawn: a whole part Whole[0]+r.IntN(Whole[1]), then, when Tenths
// is set, a tenths digit Tenths[0]+r.IntN(Tenths[1]).
type labTest struct {
	Test   string  `json:"test"`
	Unit   string  `json:"unit"`
	Range  string  `json:"reference_range"`
	Whole  [2]int  `json:"whole"`
	Tenths *[2]int `json:"tenths,omitempty"`
}

// The working week and the starts of providers' half-day blocks.
var (
	weekdays   = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"}
	apptStarts = []string{"09:00", "13:00"}
)

// conditionIndex returns the index of the condition named name in
// conditions, or -1.
func conditionIndex(name string) int {
	return slices.IndexFunc(clinic.Conditions, func(c condition) bool { return c.Name == name })
}

// GenerateDB returns the clinic's database for seed: deterministic (the
// same seed gives the same database), with NumPatients patients,
// NumProviders providers, their appointments, medical records, regimen
// plans, suppliers and telemetry devices.
func GenerateDB(seed uint64) *DB {
	r := rand.New(rand.NewPCG(seed, seed^0x7e1e4ea17))
	ref := &Reference{
		Providers: map[string]*Provider{}, Records: map[string]*MedicalRecord{}, Medications: map[string]*Medication{},
		Suppliers: map[string]*Supplier{}, Uploads: map[string][]Upload{},
	}
	for i := range clinic.Medications {
		m := clinic.Medications[i]
		ref.Medications[m.Name] = &m
	}
	ref.Interactions = slices.Clone(clinic.Interactions)
	slices.SortFunc(ref.Interactions, byPair)
	db := &DB{Reference: sim.NewReference(ref)}
	genSuppliers(r, ref)
	genProviders(r, ref)
	gen := &generator{r: r, db: db, ref: ref, taken: map[string]bool{}}
	for i := 0; i < NumPatients; i++ {
		gen.patient(i)
	}
	return db
}

func allStates() []string {
	out := make([]string, len(clinic.States))
	for i, s := range clinic.States {
		out[i] = s.State
	}
	return out
}

// pickStates returns n distinct states, sorted, the first being first
// if it is not "".
func pickStates(r *rand.Rand, n int, first string) []string {
	states := allStates()
	r.Shuffle(len(states), func(i, j int) { states[i], states[j] = states[j], states[i] })
	out := []string{}
	if first != "" {
		out = append(out, first)
	}
	for _, s := range states {
		if len(out) >= n {
			break
		}
		if s != first {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

func genSuppliers(r *rand.Rand, ref *Reference) {
	id := 1
	add := func(name, kind string, ships []string, controlled bool) {
		s := &Supplier{ID: fmt.Sprintf("SUP%02d", id), Name: name, Kind: kind, ShipsTo: ships, ControlledLicense: controlled}
		for _, m := range clinic.Medications {
			if m.Controlled && !controlled {
				continue // no license, no controlled stock
			}
			if r.IntN(100) < 78 {
				s.Stock = append(s.Stock, m.Name)
			}
		}
		slices.Sort(s.Stock)
		ref.Suppliers[s.ID] = s
		id++
	}
	for i, name := range clinic.Pharmacies {
		st := clinic.States[i%len(clinic.States)]
		add(name+" "+st.Cities[0], "pharmacy", []string{st.State}, r.IntN(3) != 0)
	}
	for _, name := range clinic.MailOrder {
		add(name, "mail_order", pickStates(r, 4+r.IntN(6), ""), r.IntN(2) == 0)
	}
}

func genProviders(r *rand.Rand, ref *Reference) {
	n := 1
	used := map[string]bool{}
	for _, sp := range clinic.Specialties {
		for k := 0; k < sp.Providers; k++ {
			var name string
			for {
				name = "Dr. " + clinic.FirstNames[r.IntN(len(clinic.FirstNames))] + " " + clinic.LastNames[r.IntN(len(clinic.LastNames))]
				if !used[name] {
					used[name] = true
					break
				}
			}
			st := clinic.States[r.IntN(len(clinic.States))]
			pr := &Provider{
				ID: fmt.Sprintf("DR%03d", n), Name: name, Specialty: sp.Name,
				LicensedStates: pickStates(r, 2+r.IntN(4), st.State),
				VisitTypes:     []string{VisitTelehealth},
				Clinic:         Address{Street: fmt.Sprintf("%d %s", 100+r.IntN(900), clinic.Streets[r.IntN(len(clinic.Streets))]), City: st.Cities[0], State: st.State, Zip: st.Zip + fmt.Sprintf("%03d", r.IntN(1000))},
				VisitFee:       40 + 5*r.IntN(23),
			}
			if r.IntN(2) == 0 {
				pr.VisitTypes = append(pr.VisitTypes, VisitInPerson)
			}
			days := slices.Clone(weekdays)
			r.Shuffle(len(days), func(i, j int) { days[i], days[j] = days[j], days[i] })
			days = days[:2+r.IntN(3)]
			slices.SortFunc(days, func(a, b string) int { return slices.Index(weekdays, a) - slices.Index(weekdays, b) })
			for _, d := range days {
				s := apptStarts[r.IntN(2)]
				end := map[string]string{"09:00": "12:00", "13:00": "16:00"}[s]
				pr.Schedule = append(pr.Schedule, ScheduleBlock{Weekday: d, Start: s, End: end})
			}
			ref.Providers[pr.ID] = pr
			n++
		}
	}
}

type generator struct {
	r     *rand.Rand
	db    *DB
	ref   *Reference
	taken map[string]bool // provider id + slot of scheduled appointments
	nAppt int
	nRx   int
	nDev  int
}

func (g *generator) patient(i int) {
	r, db, ref := g.r, g.db, g.ref
	var first, last, dob string
	for {
		first, last = clinic.FirstNames[r.IntN(len(clinic.FirstNames))], clinic.LastNames[r.IntN(len(clinic.LastNames))]
		dob = time.Date(1940+r.IntN(65), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC).Format(dateLayout)
		dup := false
		for _, p := range db.Patients.All() {
			if p.Name.First == first && p.Name.Last == last {
				dup = dup || p.DateOfBirth == dob || r.IntN(2) == 0
			}
		}
		if !dup {
			break
		}
	}
	st := clinic.States[r.IntN(len(clinic.States))]
	p := &Patient{
		ID:          fmt.Sprintf("P%05d", 10001+i),
		Name:        PersonName{First: first, Last: last},
		DateOfBirth: dob,
		Email:       fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(first), strings.ToLower(last), 10+i),
		Phone:       fmt.Sprintf("%d-555-%04d", 200+r.IntN(700), r.IntN(10000)),
		Address:     Address{Street: fmt.Sprintf("%d %s", 10+r.IntN(9900), clinic.Streets[r.IntN(len(clinic.Streets))]), City: st.Cities[r.IntN(3)], State: st.State, Zip: st.Zip + fmt.Sprintf("%03d", r.IntN(1000))},
		Insurance:   Insurance{Plan: clinic.Plans[r.IntN(len(clinic.Plans))], MemberID: fmt.Sprintf("M%08d", r.IntN(100000000))},
	}
	// Conditions, without two medications of a major interaction.
	weights := make([]int, len(clinic.Conditions)) // how often patients have each
	for i, c := range clinic.Conditions {
		weights[i] = c.Weight
	}
	var conds []int
	var meds []Alternative
	next := -1 // a comorbid condition to draw next
	for n := 1 + r.IntN(4); len(conds) < n; {
		c := sim.WeightedIndex(r, weights...)
		if next >= 0 {
			c, next = next, -1
		}
		if slices.Contains(conds, c) {
			if r.IntN(4) == 0 {
				break
			}
			continue
		}
		m := clinic.Conditions[c].Meds[r.IntN(len(clinic.Conditions[c].Meds))]
		ok := true
		for _, x := range meds {
			if sev, _ := ref.interaction(x.Medication, m.Medication); sev == SeverityMajor || x.Medication == m.Medication {
				ok = false
			}
		}
		if !ok {
			continue
		}
		conds = append(conds, c)
		meds = append(meds, m)
		if co := clinic.Comorbid[clinic.Conditions[c].Name]; len(co) > 0 && r.IntN(3) != 0 {
			next = conditionIndex(co[r.IntN(len(co))])
			n = max(n, len(conds)+1)
		}
	}
	rec := &MedicalRecord{PatientID: p.ID, Allergies: []string{}}
	for _, c := range conds {
		rec.Conditions = append(rec.Conditions, clinic.Conditions[c].Name)
	}
	for _, a := range clinic.Allergies {
		if r.IntN(9) == 0 {
			rec.Allergies = append(rec.Allergies, a)
		}
	}
	// Suppliers that ship to the patient's state.
	var local []*Supplier
	for _, id := range slices.Sorted(maps.Keys(ref.Suppliers)) {
		if s := ref.Suppliers[id]; slices.Contains(s.ShipsTo, p.Address.State) {
			local = append(local, s)
		}
	}
	p.PreferredSupplierID = local[r.IntN(len(local))].ID
	// Prescriptions.
	for k, c := range conds {
		m := meds[k]
		g.nRx++
		prescriber := g.providerFor(clinic.Conditions[c].Specialty, p.Address.State)
		start := nowTime.AddDate(0, -1-r.IntN(10), -r.IntN(28))
		expires := start.AddDate(1, 0, 0)
		if r.IntN(5) == 0 {
			expires = nowTime.AddDate(0, 0, -1-r.IntN(60)) // lapsed
		}
		sup := p.PreferredSupplierID
		if !slices.Contains(ref.Suppliers[sup].Stock, m.Medication) {
			for _, s := range local {
				if slices.Contains(s.Stock, m.Medication) {
					sup = s.ID
					break
				}
			}
		}
		rx := &Prescription{
			ID: fmt.Sprintf("RX%06d", 400000+g.nRx), PatientID: p.ID, Medication: m.Medication, Dose: m.Dose, Frequency: m.Frequency,
			PrescriberID: prescriber, StartDate: start.Format(dateLayout), ExpiresOn: expires.Format(dateLayout),
			RefillsRemaining: r.IntN(6), SupplierID: sup, Status: RxActive, Approved: []Alternative{},
		}
		if expires.Before(nowTime) {
			rx.RefillsRemaining = 1 + r.IntN(3) // lapsed with refills left: a refill trap
		}
		// A prescriber's approval can predate another drug of the regimen
		// that now interacts with it: the interaction trap. Such a
		// regimen is under review, so most of them carry an approval.
		alts := clinic.Alternatives[m.Medication]
		var risky []Alternative
		for _, alt := range alts {
			for _, other := range meds {
				if sev, _ := ref.interaction(alt.Medication, other.Medication); sev == SeverityMajor && other.Medication != m.Medication {
					risky = append(risky, alt)
				}
			}
		}
		if len(alts) > 0 && (r.IntN(10) < 7 || len(risky) > 0 && r.IntN(3) != 0) {
			a := alts[r.IntN(len(alts))]
			if len(risky) > 0 && r.IntN(5) < 4 {
				a = risky[r.IntN(len(risky))]
			}
			rx.Approved = append(rx.Approved, Alternative{Medication: a.Medication, Dose: a.Dose, Frequency: a.Frequency})
		}
		db.Prescriptions.Put(rx.ID, rx)
		p.PrescriptionIDs = append(p.PrescriptionIDs, rx.ID)
	}
	// Appointments: past visits, then upcoming ones.
	var waived bool
	// One patient in four often misses visits: they had two to four
	// visits this past year, and their first fee of the year was
	// usually waived.
	unreliable := r.IntN(4) == 0
	visits, months, waiverOdds := 1+r.IntN(4), 17, 2
	if unreliable {
		visits, months, waiverOdds = 2+r.IntN(3), 11, 4
	}
	for k := 0; k < visits; k++ {
		c := conds[r.IntN(len(conds))]
		prID := g.providerFor(clinic.Conditions[c].Specialty, p.Address.State)
		pr := ref.Providers[prID]
		when := nowTime.AddDate(0, -1-r.IntN(months), -r.IntN(28))
		when = time.Date(when.Year(), when.Month(), when.Day(), 9+r.IntN(7), 30*r.IntN(2), 0, 0, time.UTC)
		switch when.Weekday() { // the clinic sees patients on weekdays
		case time.Saturday:
			when = when.AddDate(0, 0, -1)
		case time.Sunday:
			when = when.AddDate(0, 0, 1)
		}
		a := g.appointment(p, pr, when.Format(timeLayout), clinic.Conditions[c].Specialty)
		x := r.IntN(20)
		if unreliable && r.IntN(2) == 0 {
			x = 19
		}
		switch {
		case x < 12:
			a.Status = StatusCompleted
			rec.Visits = append(rec.Visits, VisitNote{Date: a.Start[:10], ProviderID: pr.ID, Note: visitNote(r, clinic.Conditions[c].Name, a.Reason)})
		case x < 15:
			a.Status, a.CancelReason = StatusCancelled, "schedule conflict"
			a.CancelledAt = when.AddDate(0, 0, -2).Format(timeLayout)
		default:
			a.Status, a.NoShowFee = StatusNoShow, NoShowFee
			if !waived && r.IntN(waiverOdds) != 0 && (!unreliable || when.After(nowTime.AddDate(-1, 0, 0))) {
				waived, a.FeeWaived = true, true
				a.WaivedOn = when.AddDate(0, 0, 3).Format(dateLayout)
			}
		}
	}
	slices.SortFunc(rec.Visits, func(a, b VisitNote) int { return strings.Compare(a.Date, b.Date) })
	for k, n := 0, r.IntN(3); k < n; k++ {
		c := conds[r.IntN(len(conds))]
		sp := clinic.Conditions[c].Specialty
		pr := ref.Providers[g.providerFor(sp, p.Address.State)]
		// One in three upcoming visits is within a day, with a provider
		// of the specialty who has a slot that soon, else a same-day
		// primary care visit.
		to := nowTime.AddDate(0, 0, BookingDays)
		if r.IntN(3) == 0 {
			to = nowTime.Add(cancellationWindow)
			soon := g.providersFreeUntil(sp, p.Address.State, to)
			if len(soon) == 0 {
				sp = "primary care"
				soon = g.providersFreeUntil(sp, p.Address.State, to)
			}
			if len(soon) > 0 {
				pr = ref.Providers[soon[r.IntN(len(soon))]]
			}
		}
		free := g.freeUntil(pr, to)
		if len(free) == 0 {
			continue
		}
		s := free[r.IntN(len(free))]
		g.taken[pr.ID+s] = true
		a := g.appointment(p, pr, s, sp)
		a.Status = StatusScheduled
	}
	slices.SortFunc(p.AppointmentIDs, func(a, b string) int {
		return strings.Compare(db.Appointments.At(a).Start, db.Appointments.At(b).Start)
	})
	// Labs.
	for _, c := range conds {
		for _, lab := range labsFor(r, clinic.Conditions[c].Lab) {
			rec.Labs = append(rec.Labs, lab)
		}
	}
	slices.SortStableFunc(rec.Labs, func(a, b LabResult) int { return strings.Compare(a.Date, b.Date) })
	if rec.Visits == nil {
		rec.Visits = []VisitNote{}
	}
	if rec.Labs == nil {
		rec.Labs = []LabResult{}
	}
	ref.Records[p.ID] = rec
	// Devices and their uploads.
	seenType := map[string]bool{}
	types := make([]string, 0, len(conds)+1)
	for _, c := range conds {
		types = append(types, clinic.Conditions[c].Device)
	}
	if r.IntN(3) == 0 {
		types = append(types, DeviceBPCuff) // home blood-pressure monitoring
	}
	for _, typ := range types {
		if typ == "" || seenType[typ] {
			continue
		}
		seenType[typ] = true
		g.nDev++
		d := &Device{
			ID: fmt.Sprintf("DEV-%05d", 50000+g.nDev), PatientID: p.ID, Type: typ,
			Model: clinic.DeviceModels[typ][r.IntN(2)], Status: DeviceActive,
			AssignedOn: nowTime.AddDate(0, -2-r.IntN(20), 0).Format(dateLayout),
		}
		db.Devices.Put(d.ID, d)
		p.DeviceIDs = append(p.DeviceIDs, d.ID)
		ref.Uploads[d.ID] = uploadsFor(r, typ)
	}
	if p.DeviceIDs == nil {
		p.DeviceIDs = []string{}
	}
	db.Patients.Put(p.ID, p)
}

// providerFor picks a provider of the specialty licensed in state, else
// any of the specialty.
func (g *generator) providerFor(specialty, state string) string {
	var licensed, any []string
	for _, id := range slices.Sorted(maps.Keys(g.ref.Providers)) {
		pr := g.ref.Providers[id]
		if pr.Specialty != specialty {
			continue
		}
		any = append(any, id)
		if slices.Contains(pr.LicensedStates, state) {
			licensed = append(licensed, id)
		}
	}
	if len(licensed) > 0 {
		return licensed[g.r.IntN(len(licensed))]
	}
	return any[g.r.IntN(len(any))]
}

// freeUntil returns pr's slots after Now and up to to that no
// appointment has taken.
func (g *generator) freeUntil(pr *Provider, to time.Time) []string {
	return slices.DeleteFunc(scheduleSlots(pr, nowTime, to), func(s string) bool { return g.taken[pr.ID+s] })
}

// providersFreeUntil returns the ids of the providers of specialty
// licensed in state with a free slot up to to, in id order.
func (g *generator) providersFreeUntil(specialty, state string, to time.Time) []string {
	var out []string
	for _, id := range slices.Sorted(maps.Keys(g.ref.Providers)) {
		pr := g.ref.Providers[id]
		if pr.Specialty == specialty && slices.Contains(pr.LicensedStates, state) && len(g.freeUntil(pr, to)) > 0 {
			out = append(out, id)
		}
	}
	return out
}

func (g *generator) appointment(p *Patient, pr *Provider, start, specialty string) *Appointment {
	g.nAppt++
	reasons := []string{"follow-up visit"}
	for _, sp := range clinic.Specialties {
		if sp.Name == specialty {
			reasons = sp.Reasons
		}
	}
	a := &Appointment{
		ID: fmt.Sprintf("APT%05d", 20000+g.nAppt), PatientID: p.ID, ProviderID: pr.ID, Start: start,
		VisitType: pr.VisitTypes[g.r.IntN(len(pr.VisitTypes))], Reason: reasons[g.r.IntN(len(reasons))], Fee: pr.VisitFee,
	}
	g.db.Appointments.Put(a.ID, a)
	p.AppointmentIDs = append(p.AppointmentIDs, a.ID)
	return a
}

func visitNote(r *rand.Rand, condition, reason string) string {
	notes := []string{
		"Reviewed %s; symptoms stable. Continue current regimen.",
		"Seen for %s. Discussed lifestyle changes; recheck in three months.",
		"%s reviewed with patient. Labs ordered; no change to medications.",
	}
	return fmt.Sprintf(notes[r.IntN(len(notes))], condition) + " Visit reason: " + reason + "."
}

// labsFor returns two or three results of a condition's lab test, none
// when it has none.
func labsFor(r *rand.Rand, lab *labTest) []LabResult {
	if lab == nil {
		return nil
	}
	var out []LabResult
	for k, n := 0, 2+r.IntN(2); k < n; k++ {
		d := nowTime.AddDate(0, -3*k-1-r.IntN(2), -r.IntN(20)).Format(dateLayout)
		value := strconv.Itoa(lab.Whole[0] + r.IntN(lab.Whole[1]))
		if lab.Tenths != nil {
			value += "." + strconv.Itoa(lab.Tenths[0]+r.IntN(lab.Tenths[1]))
		}
		out = append(out, LabResult{Date: d, Test: lab.Test, Value: value, Unit: lab.Unit, Range: lab.Range})
	}
	return out
}

// uploadsFor returns a device's last readings, oldest first: most devices
// upload every day or two up to yesterday; one in four went quiet more than
// a week ago, and one in ten sent an error last.
func uploadsFor(r *rand.Rand, typ string) []Upload {
	last := nowTime.Add(-time.Duration(2+r.IntN(40)) * time.Hour)
	fault := r.IntN(20)
	if fault < 5 {
		last = nowTime.AddDate(0, 0, -8-r.IntN(20))
	}
	var out []Upload
	t := last
	for k := 0; k < 8; k++ {
		out = append(out, Upload{Time: t.Format(timeLayout), Value: reading(r, typ), Flag: FlagOK})
		t = t.Add(-time.Duration(20+r.IntN(30)) * time.Hour)
	}
	slices.Reverse(out)
	if fault >= 5 && fault < 7 {
		out[len(out)-1].Value, out[len(out)-1].Flag = "E-3 sensor error", FlagError
	}
	return out
}

func reading(r *rand.Rand, typ string) string {
	switch typ {
	case DeviceGlucoseMeter:
		return fmt.Sprintf("%d mg/dL", 85+r.IntN(120))
	case DeviceBPCuff:
		return fmt.Sprintf("%d/%d mmHg", 110+r.IntN(50), 68+r.IntN(30))
	default:
		return fmt.Sprintf("%d%% SpO2, %d bpm", 91+r.IntN(9), 58+r.IntN(40))
	}
}

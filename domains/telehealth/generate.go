package telehealth

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
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

var (
	firstNames = []string{"Amara", "Ben", "Carmen", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Isabel", "Jamal", "Keiko", "Liam",
		"Maya", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Samuel", "Tara", "Umar", "Vera", "Wes", "Ximena", "Yusuf", "Zoe",
		"Aiden", "Bianca", "Caleb", "Dalia", "Ethan", "Fatima", "Gabriel", "Hana", "Ivan", "Julia", "Kofi", "Lucia", "Mateo",
		"Nora", "Oscar", "Paula", "Rafael", "Sofia", "Tomas", "Uma", "Victor", "Wendy", "Yara", "Zane"}
	lastNames = []string{"Abbott", "Banerjee", "Castillo", "Dubois", "Eriksen", "Fischer", "Garcia", "Hughes", "Iqbal", "Jensen",
		"Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov", "Quintero", "Reyes", "Schmidt", "Tanaka", "Usman",
		"Vasquez", "Walsh", "Xu", "Yilmaz", "Zielinski", "Adeyemi", "Brennan", "Chen", "Delgado", "Evans", "Ferreira", "Gupta",
		"Haddad", "Ito", "Kim", "Lopez", "Mensah", "Novak", "Ortiz", "Patel", "Rossi", "Silva", "Thompson", "Valdez", "Wright"}
	stateCities = []struct {
		state string
		zip   string
		city  []string
	}{
		{"CO", "80", []string{"Denver", "Boulder", "Aurora"}},
		{"TX", "75", []string{"Dallas", "Austin", "Houston"}},
		{"CA", "94", []string{"Oakland", "San Jose", "Fresno"}},
		{"NY", "11", []string{"Brooklyn", "Albany", "Buffalo"}},
		{"FL", "33", []string{"Miami", "Tampa", "Orlando"}},
		{"WA", "98", []string{"Seattle", "Tacoma", "Spokane"}},
		{"IL", "60", []string{"Chicago", "Peoria", "Naperville"}},
		{"AZ", "85", []string{"Phoenix", "Tucson", "Mesa"}},
		{"GA", "30", []string{"Atlanta", "Savannah", "Macon"}},
		{"OH", "43", []string{"Columbus", "Dayton", "Toledo"}},
		{"MA", "02", []string{"Boston", "Worcester", "Lowell"}},
		{"NC", "27", []string{"Raleigh", "Durham", "Greensboro"}},
	}
	streets    = []string{"Maple Avenue", "Oak Street", "Cedar Lane", "Pine Road", "Elm Court", "Birch Way", "Willow Drive", "Aspen Place", "Juniper Street", "Spruce Boulevard"}
	plans      = []string{"BlueShield PPO", "Aetna Choice", "Cigna Open Access", "UnitedHealth HMO", "Medicare Part B", "Kaiser Silver"}
	weekdays   = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"}
	apptStarts = []string{"09:00", "13:00"}
)

// specialties lists each specialty, how many providers have it, and the
// reasons patients book it for: checks and follow-ups, none an emergency
// warning sign of policy.md (a booking is never a transfer).
var specialties = []struct {
	name    string
	n       int
	reasons []string
}{
	{"primary care", 12, []string{"annual physical", "medication review", "follow-up visit", "flu symptoms"}},
	{"cardiology", 5, []string{"blood pressure follow-up", "heart rhythm check", "stress test review"}},
	{"endocrinology", 4, []string{"diabetes management", "thyroid follow-up", "A1C review"}},
	{"dermatology", 4, []string{"rash evaluation", "mole check", "acne follow-up"}},
	{"psychiatry", 5, []string{"medication management", "anxiety follow-up", "sleep difficulties"}},
	{"pulmonology", 3, []string{"asthma follow-up", "lung function test review"}},
	{"neurology", 3, []string{"migraine follow-up", "nerve pain evaluation"}},
	{"gastroenterology", 4, []string{"reflux follow-up", "abdominal pain evaluation"}},
}

// medications are the clinic's formulary: class and whether controlled.
var medications = []Medication{
	{"lisinopril", "ace inhibitor", false}, {"losartan", "angiotensin receptor blocker", false}, {"amlodipine", "calcium channel blocker", false},
	{"metformin", "biguanide", false}, {"glipizide", "sulfonylurea", false}, {"simvastatin", "statin", false}, {"atorvastatin", "statin", false},
	{"rosuvastatin", "statin", false}, {"levothyroxine", "thyroid hormone", false}, {"warfarin", "anticoagulant", false},
	{"apixaban", "anticoagulant", false}, {"metoprolol", "beta blocker", false}, {"atenolol", "beta blocker", false},
	{"sertraline", "ssri", false}, {"fluoxetine", "ssri", false}, {"buspirone", "anxiolytic", false}, {"alprazolam", "benzodiazepine", true},
	{"acetaminophen", "analgesic", false}, {"ibuprofen", "nsaid", false}, {"tramadol", "opioid", true}, {"omeprazole", "proton pump inhibitor", false},
	{"pantoprazole", "proton pump inhibitor", false}, {"albuterol", "bronchodilator", false}, {"montelukast", "leukotriene blocker", false},
	{"zolpidem", "sedative", true}, {"trazodone", "antidepressant", false}, {"methylphenidate", "stimulant", true},
	{"sumatriptan", "triptan", false}, {"rizatriptan", "triptan", false}, {"clopidogrel", "antiplatelet", false}, {"aspirin", "antiplatelet", false},
}

// interactions are the drug pairs with a known interaction.
var interactions = []Interaction{
	{"ibuprofen", "warfarin", SeverityMajor, "raises the risk of serious bleeding"},
	{"aspirin", "warfarin", SeverityMajor, "raises the risk of serious bleeding"},
	{"apixaban", "ibuprofen", SeverityMajor, "raises the risk of serious bleeding"},
	{"apixaban", "aspirin", SeverityMajor, "raises the risk of serious bleeding"},
	{"sertraline", "tramadol", SeverityMajor, "risk of serotonin syndrome and seizures"},
	{"fluoxetine", "tramadol", SeverityMajor, "risk of serotonin syndrome and seizures"},
	{"alprazolam", "tramadol", SeverityMajor, "combined sedation and breathing depression"},
	{"alprazolam", "zolpidem", SeverityMajor, "combined sedation and breathing depression"},
	{"tramadol", "zolpidem", SeverityModerate, "added drowsiness"},
	{"clopidogrel", "omeprazole", SeverityModerate, "may weaken clopidogrel"},
	{"clopidogrel", "ibuprofen", SeverityModerate, "raises the risk of bleeding"},
	{"fluoxetine", "sumatriptan", SeverityModerate, "risk of serotonin syndrome"},
	{"rizatriptan", "sertraline", SeverityModerate, "risk of serotonin syndrome"},
	{"fluoxetine", "trazodone", SeverityModerate, "risk of serotonin syndrome"},
	{"ibuprofen", "lisinopril", SeverityMinor, "may blunt the blood pressure effect"},
	{"ibuprofen", "losartan", SeverityMinor, "may blunt the blood pressure effect"},
	{"levothyroxine", "omeprazole", SeverityMinor, "may lower levothyroxine absorption"},
	{"metoprolol", "albuterol", SeverityMinor, "may reduce the bronchodilator effect"},
	{"glipizide", "metoprolol", SeverityMinor, "may mask low blood sugar"},
}

// rxPlan is a medication as prescribed.
type rxPlan struct{ med, dose, freq string }

// condition is a chronic condition: the specialty that treats it, the
// device that monitors it ("" if none), how often patients have it
// (relative weight) and the medications prescribed for it.
type condition struct {
	name, specialty, device string
	weight                  int
	meds                    []rxPlan
}

// conditions are the chronic conditions; a patient gets one medication
// of each they have.
var conditions = []condition{
	{"hypertension", "cardiology", DeviceBPCuff, 30, []rxPlan{{"lisinopril", "10 mg", "once daily"}, {"losartan", "50 mg", "once daily"}, {"amlodipine", "5 mg", "once daily"}}},
	{"type 2 diabetes", "endocrinology", DeviceGlucoseMeter, 22, []rxPlan{{"metformin", "500 mg", "twice daily"}, {"glipizide", "5 mg", "once daily"}}},
	{"hyperlipidemia", "primary care", "", 20, []rxPlan{{"simvastatin", "20 mg", "nightly"}, {"atorvastatin", "20 mg", "once daily"}}},
	{"hypothyroidism", "endocrinology", "", 10, []rxPlan{{"levothyroxine", "50 mcg", "once daily"}}},
	{"atrial fibrillation", "cardiology", DeviceBPCuff, 16, []rxPlan{{"warfarin", "5 mg", "once daily"}, {"apixaban", "5 mg", "twice daily"}}},
	{"depression", "psychiatry", "", 22, []rxPlan{{"sertraline", "50 mg", "once daily"}, {"fluoxetine", "20 mg", "once daily"}}},
	{"generalized anxiety", "psychiatry", "", 12, []rxPlan{{"buspirone", "10 mg", "twice daily"}, {"alprazolam", "0.25 mg", "as needed"}}},
	{"chronic back pain", "primary care", "", 24, []rxPlan{{"acetaminophen", "500 mg", "as needed"}, {"tramadol", "50 mg", "as needed"}}},
	{"gerd", "gastroenterology", "", 14, []rxPlan{{"omeprazole", "20 mg", "once daily"}, {"pantoprazole", "40 mg", "once daily"}}},
	{"asthma", "pulmonology", DevicePulseOx, 14, []rxPlan{{"albuterol", "2 puffs", "as needed"}, {"montelukast", "10 mg", "nightly"}}},
	{"insomnia", "psychiatry", "", 10, []rxPlan{{"trazodone", "50 mg", "nightly"}, {"zolpidem", "5 mg", "nightly"}}},
	{"adhd", "psychiatry", "", 6, []rxPlan{{"methylphenidate", "10 mg", "twice daily"}}},
	{"migraine", "neurology", "", 10, []rxPlan{{"sumatriptan", "50 mg", "as needed"}}},
	{"coronary artery disease", "cardiology", DeviceBPCuff, 8, []rxPlan{{"clopidogrel", "75 mg", "once daily"}, {"aspirin", "81 mg", "once daily"}}},
}

// alternatives are the changes a prescriber may approve for a
// medication: another drug of the class or another dose.
var alternatives = map[string][]rxPlan{
	"lisinopril":    {{"losartan", "50 mg", "once daily"}, {"lisinopril", "20 mg", "once daily"}},
	"losartan":      {{"lisinopril", "10 mg", "once daily"}, {"losartan", "100 mg", "once daily"}},
	"amlodipine":    {{"amlodipine", "10 mg", "once daily"}},
	"metformin":     {{"metformin", "1000 mg", "twice daily"}, {"glipizide", "5 mg", "once daily"}},
	"glipizide":     {{"metformin", "500 mg", "twice daily"}},
	"simvastatin":   {{"atorvastatin", "20 mg", "once daily"}, {"rosuvastatin", "10 mg", "once daily"}},
	"atorvastatin":  {{"rosuvastatin", "10 mg", "once daily"}, {"atorvastatin", "40 mg", "once daily"}},
	"levothyroxine": {{"levothyroxine", "75 mcg", "once daily"}},
	"warfarin":      {{"apixaban", "5 mg", "twice daily"}},
	"apixaban":      {{"warfarin", "5 mg", "once daily"}},
	"sertraline":    {{"fluoxetine", "20 mg", "once daily"}, {"sertraline", "100 mg", "once daily"}},
	"fluoxetine":    {{"sertraline", "50 mg", "once daily"}},
	"buspirone":     {{"buspirone", "15 mg", "twice daily"}, {"alprazolam", "0.25 mg", "as needed"}},
	"alprazolam":    {{"buspirone", "10 mg", "twice daily"}},
	"acetaminophen": {{"ibuprofen", "400 mg", "three times daily"}, {"tramadol", "50 mg", "as needed"}},
	"tramadol":      {{"acetaminophen", "500 mg", "as needed"}, {"ibuprofen", "400 mg", "three times daily"}},
	"omeprazole":    {{"pantoprazole", "40 mg", "once daily"}},
	"pantoprazole":  {{"omeprazole", "20 mg", "once daily"}},
	"montelukast":   {{"montelukast", "5 mg", "nightly"}},
	"trazodone":     {{"zolpidem", "5 mg", "nightly"}, {"trazodone", "100 mg", "nightly"}},
	"zolpidem":      {{"trazodone", "50 mg", "nightly"}},
	"metoprolol":    {{"atenolol", "50 mg", "once daily"}},
	"sumatriptan":   {{"rizatriptan", "10 mg", "as needed"}},
	"aspirin":       {{"ibuprofen", "400 mg", "three times daily"}},
	"clopidogrel":   {{"aspirin", "81 mg", "once daily"}},
}

// comorbid are the conditions that often come with a condition: chronic
// pain, low mood, anxiety and poor sleep with one another, and heart
// disease with heart disease. A patient with the first has one of the
// others as the next condition two times in three.
var comorbid = map[string][]string{
	"chronic back pain":       {"depression", "generalized anxiety", "insomnia"},
	"depression":              {"chronic back pain", "generalized anxiety", "insomnia"},
	"generalized anxiety":     {"insomnia", "depression", "chronic back pain"},
	"atrial fibrillation":     {"coronary artery disease", "hypertension", "chronic back pain"},
	"coronary artery disease": {"atrial fibrillation", "hypertension", "hyperlipidemia"},
}

// conditionIndex returns the index of the condition named name in
// conditions, or -1.
func conditionIndex(name string) int {
	return slices.IndexFunc(conditions, func(c condition) bool { return c.name == name })
}

var supplierNames = []string{"Corner Drug", "Wellway Pharmacy", "CityCare Pharmacy", "Greenleaf Apothecary", "Main Street Chemist",
	"Harbor Pharmacy", "Summit Drug", "Riverbend Pharmacy", "Lakeside Pharmacy", "Prairie Rx", "Mesa Pharmacy", "Bayview Pharmacy"}
var mailOrderNames = []string{"MedPost Mail Pharmacy", "RxDirect Home Delivery", "ParcelMeds", "CarePack Mail Order",
	"NorthStar Mail Pharmacy", "QuickScript Delivery", "HomeDose Pharmacy", "PillBox Express"}

var deviceModels = map[string][]string{
	DeviceGlucoseMeter: {"GlucoTrack 3", "SugarSense Pro"},
	DeviceBPCuff:       {"CardioCuff 200", "PressurePal BT"},
	DevicePulseOx:      {"OxiClip Mini", "BreathWise O2"},
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
	for i := range medications {
		m := medications[i]
		ref.Medications[m.Name] = &m
	}
	ref.Interactions = slices.Clone(interactions)
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
	out := make([]string, len(stateCities))
	for i, s := range stateCities {
		out[i] = s.state
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
		for _, m := range medications {
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
	for i, name := range supplierNames {
		st := stateCities[i%len(stateCities)]
		add(name+" "+st.city[0], "pharmacy", []string{st.state}, r.IntN(3) != 0)
	}
	for _, name := range mailOrderNames {
		add(name, "mail_order", pickStates(r, 4+r.IntN(6), ""), r.IntN(2) == 0)
	}
}

func genProviders(r *rand.Rand, ref *Reference) {
	n := 1
	used := map[string]bool{}
	for _, sp := range specialties {
		for k := 0; k < sp.n; k++ {
			var name string
			for {
				name = "Dr. " + firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))]
				if !used[name] {
					used[name] = true
					break
				}
			}
			st := stateCities[r.IntN(len(stateCities))]
			pr := &Provider{
				ID: fmt.Sprintf("DR%03d", n), Name: name, Specialty: sp.name,
				LicensedStates: pickStates(r, 2+r.IntN(4), st.state),
				VisitTypes:     []string{VisitTelehealth},
				Clinic:         Address{Street: fmt.Sprintf("%d %s", 100+r.IntN(900), streets[r.IntN(len(streets))]), City: st.city[0], State: st.state, Zip: st.zip + fmt.Sprintf("%03d", r.IntN(1000))},
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
		first, last = firstNames[r.IntN(len(firstNames))], lastNames[r.IntN(len(lastNames))]
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
	st := stateCities[r.IntN(len(stateCities))]
	p := &Patient{
		ID:          fmt.Sprintf("P%05d", 10001+i),
		Name:        PersonName{First: first, Last: last},
		DateOfBirth: dob,
		Email:       fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(first), strings.ToLower(last), 10+i),
		Phone:       fmt.Sprintf("%d-555-%04d", 200+r.IntN(700), r.IntN(10000)),
		Address:     Address{Street: fmt.Sprintf("%d %s", 10+r.IntN(9900), streets[r.IntN(len(streets))]), City: st.city[r.IntN(3)], State: st.state, Zip: st.zip + fmt.Sprintf("%03d", r.IntN(1000))},
		Insurance:   Insurance{Plan: plans[r.IntN(len(plans))], MemberID: fmt.Sprintf("M%08d", r.IntN(100000000))},
	}
	// Conditions, without two medications of a major interaction.
	var conds []int
	var meds []rxPlan
	next := -1 // a comorbid condition to draw next
	for n := 1 + r.IntN(4); len(conds) < n; {
		c := weightedCondition(r)
		if next >= 0 {
			c, next = next, -1
		}
		if slices.Contains(conds, c) {
			if r.IntN(4) == 0 {
				break
			}
			continue
		}
		m := conditions[c].meds[r.IntN(len(conditions[c].meds))]
		ok := true
		for _, x := range meds {
			if sev, _ := ref.interaction(x.med, m.med); sev == SeverityMajor || x.med == m.med {
				ok = false
			}
		}
		if !ok {
			continue
		}
		conds = append(conds, c)
		meds = append(meds, m)
		if co := comorbid[conditions[c].name]; len(co) > 0 && r.IntN(3) != 0 {
			next = conditionIndex(co[r.IntN(len(co))])
			n = max(n, len(conds)+1)
		}
	}
	rec := &MedicalRecord{PatientID: p.ID, Allergies: []string{}}
	for _, c := range conds {
		rec.Conditions = append(rec.Conditions, conditions[c].name)
	}
	for _, a := range []string{"penicillin", "sulfa drugs", "latex", "codeine", "shellfish"} {
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
		prescriber := g.providerFor(conditions[c].specialty, p.Address.State)
		start := nowTime.AddDate(0, -1-r.IntN(10), -r.IntN(28))
		expires := start.AddDate(1, 0, 0)
		if r.IntN(5) == 0 {
			expires = nowTime.AddDate(0, 0, -1-r.IntN(60)) // lapsed
		}
		sup := p.PreferredSupplierID
		if !slices.Contains(ref.Suppliers[sup].Stock, m.med) {
			for _, s := range local {
				if slices.Contains(s.Stock, m.med) {
					sup = s.ID
					break
				}
			}
		}
		rx := &Prescription{
			ID: fmt.Sprintf("RX%06d", 400000+g.nRx), PatientID: p.ID, Medication: m.med, Dose: m.dose, Frequency: m.freq,
			PrescriberID: prescriber, StartDate: start.Format(dateLayout), ExpiresOn: expires.Format(dateLayout),
			RefillsRemaining: r.IntN(6), SupplierID: sup, Status: RxActive, Approved: []Alternative{},
		}
		if expires.Before(nowTime) {
			rx.RefillsRemaining = 1 + r.IntN(3) // lapsed with refills left: a refill trap
		}
		// A prescriber's approval can predate another drug of the regimen
		// that now interacts with it: the interaction trap. Such a
		// regimen is under review, so most of them carry an approval.
		alts := alternatives[m.med]
		var risky []rxPlan
		for _, alt := range alts {
			for _, other := range meds {
				if sev, _ := ref.interaction(alt.med, other.med); sev == SeverityMajor && other.med != m.med {
					risky = append(risky, alt)
				}
			}
		}
		if len(alts) > 0 && (r.IntN(10) < 7 || len(risky) > 0 && r.IntN(3) != 0) {
			a := alts[r.IntN(len(alts))]
			if len(risky) > 0 && r.IntN(5) < 4 {
				a = risky[r.IntN(len(risky))]
			}
			rx.Approved = append(rx.Approved, Alternative{Medication: a.med, Dose: a.dose, Frequency: a.freq})
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
		prID := g.providerFor(conditions[c].specialty, p.Address.State)
		pr := ref.Providers[prID]
		when := nowTime.AddDate(0, -1-r.IntN(months), -r.IntN(28))
		when = time.Date(when.Year(), when.Month(), when.Day(), 9+r.IntN(7), 30*r.IntN(2), 0, 0, time.UTC)
		switch when.Weekday() { // the clinic sees patients on weekdays
		case time.Saturday:
			when = when.AddDate(0, 0, -1)
		case time.Sunday:
			when = when.AddDate(0, 0, 1)
		}
		a := g.appointment(p, pr, when.Format(timeLayout), conditions[c].specialty)
		x := r.IntN(20)
		if unreliable && r.IntN(2) == 0 {
			x = 19
		}
		switch {
		case x < 12:
			a.Status = StatusCompleted
			rec.Visits = append(rec.Visits, VisitNote{Date: a.Start[:10], ProviderID: pr.ID, Note: visitNote(r, conditions[c].name, a.Reason)})
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
		sp := conditions[c].specialty
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
		for _, lab := range labsFor(r, conditions[c].name) {
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
		types = append(types, conditions[c].device)
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
			Model: deviceModels[typ][r.IntN(2)], Status: DeviceActive,
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

func weightedCondition(r *rand.Rand) int {
	total := 0
	for _, c := range conditions {
		total += c.weight
	}
	x := r.IntN(total)
	for i, c := range conditions {
		if x < c.weight {
			return i
		}
		x -= c.weight
	}
	return len(conditions) - 1
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
	for _, sp := range specialties {
		if sp.name == specialty {
			reasons = sp.reasons
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

// labsFor returns two or three results of the condition's lab test, if it
// has one.
func labsFor(r *rand.Rand, condition string) []LabResult {
	var test, unit, rng string
	var value func() string
	switch condition {
	case "type 2 diabetes":
		test, unit, rng = "HbA1c", "%", "4.0-5.6"
		value = func() string { return fmt.Sprintf("%d.%d", 6+r.IntN(3), r.IntN(10)) }
	case "hyperlipidemia":
		test, unit, rng = "LDL cholesterol", "mg/dL", "<100"
		value = func() string { return fmt.Sprint(90 + r.IntN(90)) }
	case "hypothyroidism":
		test, unit, rng = "TSH", "mIU/L", "0.4-4.0"
		value = func() string { return fmt.Sprintf("%d.%d", 1+r.IntN(6), r.IntN(10)) }
	case "atrial fibrillation":
		test, unit, rng = "INR", "", "2.0-3.0"
		value = func() string { return fmt.Sprintf("%d.%d", 1+r.IntN(3), r.IntN(10)) }
	case "hypertension":
		test, unit, rng = "creatinine", "mg/dL", "0.6-1.3"
		value = func() string { return fmt.Sprintf("%d.%d", r.IntN(2), 6+r.IntN(4)) }
	default:
		return nil
	}
	var out []LabResult
	for k, n := 0, 2+r.IntN(2); k < n; k++ {
		d := nowTime.AddDate(0, -3*k-1-r.IntN(2), -r.IntN(20)).Format(dateLayout)
		out = append(out, LabResult{Date: d, Test: test, Value: value(), Unit: unit, Range: rng})
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

package telehealth

import (
	_ "embed"

	"github.com/emobench/emobench/sim"
)

// This file is the telehealth intent catalog Tracer generates tasks from
// (see sim.Catalog and domains/README.md, "Writing an intent catalog").
// Each intent's gold actions, after the verification, call its Path's
// tools in order, with at most some more reads among them. The patient
// knows the ids printed on what the clinic sent them (the appointment
// confirmation, the prescription label, the device's sticker); every other
// scalar argument of a gold write is a fact's value or in an earlier gold
// result (the patient id, provider and supplier ids).

// Catalog returns the telehealth intent catalog: the two verification
// lookups as openers, the tool graph, the patients, verification by name
// and date of birth or by email and date of birth, the policy predicates
// (CheckPolicy) and the intents.
func Catalog() *sim.Catalog {
	return &sim.Catalog{
		Openers: []string{ToolFindByNameDOB, ToolFindByEmailDOB},
		Follows: toolGraph,
		Intents: catalogIntents(),
		Users:   sim.UsersOf(patients),
		// Either way the patient gives their date of birth; which, a fair
		// coin decides.
		Authenticate: sim.Authenticator(patients, func(p *Patient) []sim.Login {
			return []sim.Login{
				{Tool: ToolFindByEmailDOB, Weight: 1, Facts: map[string]string{"email": p.Email, "date_of_birth": p.DateOfBirth}},
				{Tool: ToolFindByNameDOB, Weight: 1, Facts: map[string]string{"first_name": p.Name.First, "last_name": p.Name.Last, "date_of_birth": p.DateOfBirth}},
			}
		}),
		CheckPolicy: CheckPolicy,
		// A visit's and a cancellation's reason are the patient's own
		// words, which the tools store as given.
		ExemptArgs:   []string{"reason"},
		Alternatives: Alternatives,
	}
}

// patients is the table of the catalog's users.
func patients(db *DB) *sim.Table[Patient] { return &db.Patients }

// toolGraph is which tool's result (or what the patient knows by then)
// lets which tool come next; writes are followed by what starts the next
// request.
var toolGraph = func() map[string][]string {
	start := []string{ToolGetPatient, ToolGetAppointment, ToolGetPrescription, ToolCheckInteractions, ToolSearchProviders,
		ToolListUploads, ToolGetRecord, ToolUpdatePhone, ToolTransfer}
	next := []string{ToolGetPatient, ToolGetAppointment, ToolGetPrescription, ToolListUploads, ToolSearchProviders, ToolCheckInteractions}
	return map[string][]string{
		ToolFindByNameDOB:     start,
		ToolFindByEmailDOB:    start,
		ToolGetPatient:        {ToolGetAppointment, ToolGetPrescription, ToolListUploads, ToolGetRecord, ToolSearchProviders, ToolUpdatePhone, ToolTransfer},
		ToolGetRecord:         {ToolGetPrescription, ToolTransfer, ToolGetPatient},
		ToolGetAppointment:    {ToolCancel, ToolWaiveNoShow, ToolGetProvider, ToolGetAppointment, ToolGetPatient, ToolTransfer},
		ToolSearchProviders:   {ToolGetProvider},
		ToolGetProvider:       {ToolBook},
		ToolCancel:            append([]string{ToolBook, ToolGetProvider}, next...),
		ToolBook:              next,
		ToolWaiveNoShow:       next,
		ToolGetPrescription:   {ToolCheckInteractions, ToolRequestRefill, ToolChangeMedication, ToolListSuppliers, ToolUpdateSupplier, ToolGetPrescription},
		ToolCheckInteractions: {ToolChangeMedication},
		ToolChangeMedication:  append([]string{ToolUpdateSupplier, ToolListSuppliers}, next...),
		ToolListSuppliers:     {ToolUpdateSupplier},
		ToolRequestRefill:     append([]string{ToolUpdateSupplier, ToolListSuppliers}, next...),
		ToolUpdateSupplier:    next,
		ToolListUploads:       {ToolReplaceDevice, ToolTransfer, ToolListUploads},
		ToolReplaceDevice:     next,
		ToolUpdatePhone:       next,
	}
}()

// intentsJSON declares the telehealth intents (sim.ReadIntents): name,
// kind, tool path and templates, in catalog order. No intent names its
// emotion families (nil: all five): each family must take its share of
// every task kind (refusals and transfers too), so that a family's score
// does not mix emotion with difficulty. Tracer draws an intent of a kind
// by its walk length (opener plus path), so the paths of one kind have
// one length wherever the reads allow (refusals and transfers two tools,
// reads one; the other reads of a gold are off the path): every intent of
// a kind is then drawn about as often.
//
//go:embed intents.json
var intentsJSON []byte

// grounders are the grounders of the intents of intentsJSON, by name.
var grounders = map[string]func(sim.GroundContext, *DB) (sim.Grounding, bool){
	// writes
	"cancel_appointment":             groundCancel(false),
	"book_appointment":               groundBook,
	"reschedule_appointment":         groundReschedule,
	"waive_no_show_fee":              groundWaive(false),
	"switch_medication":              groundSwitch(true, false),
	"switch_medication_and_supplier": groundSwitch(true, true),
	"update_supplier":                groundUpdateSupplier,
	"request_refill":                 groundRefill(false, false),
	"refill_then_move_supplier":      groundRefill(true, false),
	"replace_faulty_device":          groundReplace,
	"update_phone":                   groundPhone,
	// reads
	"latest_lab_result":  groundLab,
	"allergies_on_file":  groundAllergies,
	"next_appointment":   groundNextAppointment,
	"refills_left":       groundRefillsLeft,
	"latest_reading":     groundLatestReading,
	"interaction_lookup": groundInteractionLookup,
	// transfers
	"billing_dispute_transfer": groundBillingDispute,
	"high_readings_transfer":   groundHighReadings,
	"symptoms_transfer":        groundSymptoms(false),
	"warning_signs_transfer":   groundSymptoms(true),
	"name_correction_transfer": groundNameCorrection,
	// refusals
	"switch_to_interacting_option": groundSwitch(false, false),
	"waive_second_no_show_fee":     groundWaive(true),
	"cancel_late_appointment":      groundCancel(true),
	"refill_expired_prescription":  groundRefill(false, true),
	"replace_working_device":       groundReplaceWorking,
	"supplier_not_stocking":        groundBadSupplier(true),
	"change_dose_at_will":          groundDoseAtWill,
	"cancel_relatives_appointment": groundCancelRelative,
	"book_unlicensed_provider":     groundBookUnlicensed,
	"supplier_not_shipping":        groundBadSupplier(false),
}

// catalogIntents are the telehealth intents: intentsJSON with grounders.
// The file is part of the package, so an error in it is a bug: a panic,
// which every test of the catalog meets first.
func catalogIntents() []sim.Intent {
	ground := map[string]sim.Grounder{}
	for name, g := range grounders {
		ground[name] = sim.GroundOn(g)
	}
	intents, err := sim.ReadIntents(intentsJSON, ground)
	if err != nil {
		panic("telehealth: " + err.Error())
	}
	return intents
}

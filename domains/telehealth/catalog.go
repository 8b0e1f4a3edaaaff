package telehealth

import (
	"math/rand/v2"

	"github.com/emobench/emobench"
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
		Users: func(env sim.Environment) []string {
			db, ok := sim.StateOf[DB](env)
			if !ok {
				return nil
			}
			return db.Patients.Keys()
		},
		Authenticate: func(env sim.Environment, patientID string, r *rand.Rand) (emobench.Action, map[string]string) {
			facts := map[string]string{}
			db, ok := sim.StateOf[DB](env)
			if !ok || db.Patients.At(patientID) == nil {
				return emobench.Action{}, facts
			}
			p := db.Patients.At(patientID)
			facts["date_of_birth"] = p.DateOfBirth
			if r.IntN(2) == 0 {
				facts["email"] = p.Email
				return sim.NewAction(ToolFindByEmailDOB, "email", p.Email, "date_of_birth", p.DateOfBirth), facts
			}
			facts["first_name"], facts["last_name"] = p.Name.First, p.Name.Last
			return sim.NewAction(ToolFindByNameDOB, "first_name", p.Name.First, "last_name", p.Name.Last, "date_of_birth", p.DateOfBirth), facts
		},
		CheckPolicy: CheckPolicy,
		// A visit's and a cancellation's reason are the patient's own
		// words, which the tools store as given.
		ExemptArgs:   []string{"reason"},
		Alternatives: Alternatives,
	}
}

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

// allFamilies (nil: all five) fits every intent: each emotion family
// must take its share of every task kind (refusals and transfers too), so
// that a family's score does not mix emotion with difficulty.
var allFamilies []string

// catalogIntents are the telehealth intents. Tracer draws an intent of a
// kind by its walk length (opener plus Path), so the paths of one kind
// have one length wherever the reads allow (refusals and transfers two
// tools, reads one; the other reads of a gold are off the path): every
// intent of a kind is then drawn about as often.
func catalogIntents() []sim.Intent {
	return []sim.Intent{
		// --- writes ---
		{
			Name: "cancel_appointment", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetAppointment, ToolCancel},
			Templates: []string{
				"I need to cancel my appointment {appointment}; the reason is {reason}.",
				"Please cancel my appointment {appointment}. {Reason} means I can't make it.",
				"I won't be able to keep my visit {appointment} because of {reason}. Cancel it, please.",
			},
			Ground: withDB(groundCancel),
		},
		{
			Name: "book_appointment", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolSearchProviders, ToolGetProvider, ToolBook},
			Templates: []string{
				"I'd like to book {visit} visit with {provider} ({specialty}) on {start}. The reason for the visit: {reason}.",
				"Can you get me an appointment with {provider} ({specialty}) on {start}? {Visit} visit, please; the reason is {reason}.",
				"I want to see {provider} in {specialty} on {start}, as {visit} visit. Visit reason: {reason}.",
			},
			Ground: withDB(groundBook),
		},
		{
			Name: "reschedule_appointment", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetAppointment, ToolCancel, ToolBook},
			Templates: []string{
				"My appointment {appointment} doesn't work any more ({reason}). I'd like to move it to {start}, same doctor and same kind of visit.",
				"Please move my visit {appointment} to {start}, same provider and visit type, because of {reason}.",
				"I have to reschedule my appointment {appointment}: {reason}. The new time I want is {start}, with the same doctor and visit type.",
			},
			Ground: withDB(groundReschedule),
		},
		{
			Name: "waive_no_show_fee", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetAppointment, ToolWaiveNoShow},
			Templates: []string{
				"I was charged a no-show fee for my appointment {appointment}. I'd like it waived; {excuse}.",
				"Could the missed-visit fee on my appointment {appointment} be removed? {Excuse}.",
				"I missed my visit {appointment} because {excuse}, and I want the no-show fee waived.",
			},
			Ground: withDB(groundWaive),
		},
		{
			Name: "switch_medication", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetPrescription, ToolCheckInteractions, ToolChangeMedication},
			Templates: []string{
				"My doctor approved changing my prescription {prescription_id} to {medication} {dose} {frequency}. Please make that change.",
				"I'd like to switch prescription {prescription_id} over to the {medication} {dose} {frequency} my prescriber approved.",
				"My prescriber, Dr. {prescriber}, said I could go to {medication} {dose}, {frequency}, on prescription {prescription_id}. Can you update it?",
			},
			Ground: withDB(groundSwitch(false)),
		},
		{
			Name: "switch_medication_and_supplier", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolCheckInteractions, ToolChangeMedication, ToolUpdateSupplier},
			Templates: []string{
				"My prescriber approved {medication} {dose} {frequency} for prescription {prescription_id}. Please switch it, and have it filled by {supplier} from now on.",
				"Two things on my prescription {prescription_id}: I want it changed to the approved {medication} {dose} {frequency}, and moved to {supplier}.",
				"I'd like prescription {prescription_id} changed to {medication} {dose}, {frequency}, as my doctor approved, and sent to {supplier} instead of my current supplier.",
			},
			Ground: withDB(groundSwitch(true)),
		},
		{
			Name: "update_supplier", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetPrescription, ToolListSuppliers, ToolUpdateSupplier},
			Templates: []string{
				"I want {prescription} filled by {supplier} from now on.",
				"Please move {prescription} to {supplier}; it's more convenient for me.",
				"Could you send {prescription} to {supplier} instead of where it goes now?",
			},
			Ground: withDB(groundUpdateSupplier),
		},
		{
			Name: "request_refill", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetPrescription, ToolRequestRefill},
			Templates: []string{
				"I'm running low on {medication}. Please request a refill of {prescription}.",
				"Can you send a refill of {prescription} to my pharmacy?",
				"I need a refill on {prescription} before I run out.",
			},
			Ground: withDB(groundRefill(false)),
		},
		{
			Name: "refill_then_move_supplier", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetPrescription, ToolRequestRefill, ToolUpdateSupplier},
			Templates: []string{
				"Please refill {prescription}, and after that move the prescription to {supplier} for future fills.",
				"I need one more refill of {prescription} where it is now, and then I want it transferred to {supplier}.",
				"Refill {prescription} now, please, and from then on have {supplier} handle it.",
			},
			Ground: withDB(groundRefill(true)),
		},
		{
			Name: "replace_faulty_device", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolListUploads, ToolReplaceDevice},
			Templates: []string{
				"My {device_ref} doesn't seem to be sending readings any more. I'd like a replacement.",
				"I think my {device_ref} is broken: {symptom}. Can you replace it?",
				"Please send me a replacement for my {device_ref}; {symptom}.",
			},
			Ground: withDB(groundReplace),
		},
		{
			Name: "update_phone", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolUpdatePhone},
			Templates: []string{
				"I have a new phone number, {phone}. Please put it on my profile.",
				"My phone number changed to {phone}; could you update it?",
				"Please replace the phone number on file with {phone}.",
			},
			Ground: withDB(groundPhone),
		},
		// --- reads ---
		{
			Name: "latest_lab_result", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetRecord},
			Templates: []string{
				"What was my most recent {test} result, and when was it taken?",
				"I'd like to know the value and the date of my last {test} test, {purpose}.",
				"Can you tell me my latest {test} from my record, and its date? I need it {purpose}.",
			},
			Ground: withDB(groundLab),
		},
		{
			Name: "allergies_on_file", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetRecord},
			Templates: []string{
				"Which allergies do you have on file for me? I want to check them {purpose}.",
				"Can you read me the allergies listed in my record, {purpose}?",
				"I need to know what allergies my chart lists, {purpose}.",
			},
			Ground: withDB(groundAllergies),
		},
		{
			Name: "next_appointment", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetAppointment},
			Templates: []string{
				"When is my next scheduled appointment, and with which provider?",
				"I forgot when my upcoming visit is. Can you tell me the time and the doctor?",
				"Could you find my next appointment for me? I need the date, time and provider {purpose}.",
			},
			Ground: withDB(groundNextAppointment),
		},
		{
			Name: "refills_left", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetPrescription},
			Templates: []string{
				"How many refills are left on {prescription}, and when does it expire?",
				"I want to know the refills remaining and the expiry date of {prescription}, {purpose}.",
				"Can you check {prescription} for me: refills left and expiry date?",
			},
			Ground: withDB(groundRefillsLeft),
		},
		{
			Name: "latest_reading", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolListUploads},
			Templates: []string{
				"What was the last reading my {device_ref} uploaded, and when was it taken?",
				"Can you tell me the latest value my {device_ref} sent and when, {purpose}?",
				"I'd like to know my most recent reading from my {device_ref}, and when it was taken.",
			},
			Ground: withDB(groundLatestReading),
		},
		{
			Name: "interaction_lookup", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolCheckInteractions},
			Templates: []string{
				"Is there a known interaction between {drug_a} and {drug_b}? I just want to know how severe it's listed.",
				"Could you check whether {drug_a} and {drug_b} interact, {purpose}?",
				"I'm curious what the interaction table says about {drug_a} together with {drug_b}.",
			},
			Ground: withDB(groundInteractionLookup),
		},
		// --- transfers ---
		// Rarest first, as the refusals below.
		{
			Name: "billing_dispute_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolGetAppointment, ToolTransfer},
			Templates: []string{
				"My insurance was billed wrongly for my appointment {appointment}: {complaint}. I want this sorted out by someone who handles billing.",
				"I dispute the bill for my visit {appointment}. {Complaint}. Please pass me to the billing team.",
				"The charge for my appointment {appointment} is wrong, {complaint}, and I want a person to fix the claim.",
			},
			Ground: withDB(groundBillingDispute),
		},
		{
			Name: "high_readings_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolListUploads, ToolTransfer},
			Templates: []string{
				"My {device_ref} has shown worrying numbers and I feel {feeling}. I want a nurse to look at my readings.",
				"Please have a clinician review the readings of my {device_ref}; I feel {feeling} and I'm scared.",
				"I feel {feeling}, and my {device_ref} readings look off. Who can tell me what to do?",
			},
			Ground: withDB(groundHighReadings),
		},
		{
			Name: "symptoms_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolGetPatient, ToolTransfer},
			Templates: []string{
				"I've had {symptom} since last night and I don't know what to do. I need to talk to a nurse.",
				"I'm worried: {symptom}. I want a clinician to tell me whether I should come in.",
				"Something is wrong: {symptom}. Please get me to someone medical.",
			},
			Ground: withDB(groundSymptoms(false)),
		},
		{
			// Emergency warning signs: the agent must tell the patient to
			// call 911 before the transfer (Grounding.Advice).
			Name: "warning_signs_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolGetPatient, ToolTransfer},
			Templates: []string{
				"I have {symptom} right now and I don't know what to do. I need to talk to a nurse.",
				"Right now I have {symptom}. I want a clinician to tell me what to do.",
				"Something is wrong: I have {symptom} at this moment. Please get me to someone medical.",
			},
			Ground: withDB(groundSymptoms(true)),
		},
		{
			Name: "name_correction_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolGetPatient, ToolTransfer},
			Templates: []string{
				"My last name changed to {new_last_name} and I want my record updated.",
				"Please correct my name on file: it's {first_name} {new_last_name} now.",
				"I got married and my surname is now {new_last_name}; whoever can change it on my chart, I'd like to talk to them.",
			},
			Ground: withDB(groundNameCorrection),
		},
		// --- forbidden ---
		// Rarest trap first: Tracer's SpreadIntents tries the least-kept
		// refusals in catalog order, so a patient who holds a rare trap
		// spends it before one that nearly every patient holds. When the
		// policy offers or allows an alternative (a licensed provider, an
		// eligible supplier, another approved option), every template
		// declines it: a user who accepted would leave a state the gold
		// does not have, failing an agent that did right.
		{
			Name: "switch_to_interacting_option", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetPrescription, ToolCheckInteractions},
			Templates: []string{
				"My doctor approved {medication} {dose} {frequency} for prescription {prescription_id}. Please switch it now. If you can't switch me to {medication}, leave my prescription as it is.",
				"I'd like prescription {prescription_id} changed to the approved {medication} {dose}, {frequency}. If you can't switch me to {medication}, leave my prescription as it is.",
				"Switch my prescription {prescription_id} to {medication} {dose} {frequency}, the option Dr. {prescriber} approved. If you can't switch me to {medication}, leave my prescription as it is.",
			},
			Ground: withDB(groundSwitchInteracting),
		},
		{
			Name: "waive_second_no_show_fee", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetPatient, ToolGetAppointment},
			Templates: []string{
				"I got a no-show fee for my appointment {appointment} and I want it waived; {excuse}.",
				"Please remove the missed-visit fee on my appointment {appointment}. {Excuse}.",
				"I missed my appointment {appointment} because {excuse}. Waive the fee, please.",
			},
			Ground: withDB(groundWaiveSecond),
		},
		{
			Name: "cancel_late_appointment", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetPatient, ToolGetAppointment},
			Templates: []string{
				"I need to cancel my appointment {appointment}; the reason is {reason}.",
				"Please cancel my visit {appointment}. {Reason}.",
				"I can't make my appointment {appointment} after all because of {reason}; cancel it.",
			},
			Ground: withDB(groundCancelLate),
		},
		{
			Name: "refill_expired_prescription", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetPatient, ToolGetPrescription},
			Templates: []string{
				"I'm almost out of {medication}. Please request a refill of {prescription}.",
				"Can you send a refill of {prescription}? I still have refills on it.",
				"I need {prescription} refilled today.",
			},
			Ground: withDB(groundRefillExpired),
		},
		{
			Name: "replace_working_device", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetPatient, ToolListUploads},
			Templates: []string{
				"I'd like my {device_ref} replaced with a new one; {wish}.",
				"Please replace my {device_ref}. {Wish}.",
				"Can you swap my {device_ref} for a new one? {Wish}.",
			},
			Ground: withDB(groundReplaceWorking),
		},
		{
			Name: "supplier_not_stocking", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetPrescription, ToolListSuppliers},
			Templates: []string{
				"I want prescription {prescription_id} ({medication}) moved to {supplier}. If {supplier} can't take it, leave my prescription where it is.",
				"Please have {supplier} fill my {medication}, prescription {prescription_id}, from now on. If {supplier} can't take it, leave my prescription where it is.",
				"Could prescription {prescription_id} go to {supplier}? It's closer to me. If {supplier} can't take it, leave my prescription where it is.",
			},
			Ground: withDB(groundBadSupplier(true)),
		},
		{
			Name: "change_dose_at_will", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetPatient, ToolGetPrescription},
			Templates: []string{
				"My {medication} {old_dose} isn't doing enough. Change prescription {prescription_id} to {dose} {frequency}. If you can't change it to {dose}, leave my prescription as it is.",
				"I've decided I need {dose} of {medication} instead of {old_dose}; please update prescription {prescription_id}. If you can't change it to {dose}, leave my prescription as it is.",
				"Please raise the dose on my prescription {prescription_id} to {dose} {frequency}; I know my body. If you can't change it to {dose}, leave my prescription as it is.",
			},
			Ground: withDB(groundDoseAtWill),
		},
		{
			Name: "cancel_relatives_appointment", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetPatient, ToolGetAppointment},
			Templates: []string{
				"I'm calling for my {relative}, {owner}: please cancel {their} appointment {appointment_id} because of {reason}.",
				"My {relative} {owner} can't come to appointment {appointment_id} because of {reason}; please cancel it for {them}.",
				"I manage my {relative} {owner}'s visits. Appointment {appointment_id} has to be cancelled because of {reason}.",
			},
			Ground: withDB(groundCancelRelative),
		},
		{
			Name: "book_unlicensed_provider", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolSearchProviders, ToolGetProvider},
			Templates: []string{
				"I want {visit} visit with {provider} ({specialty}) on {start}. The reason for the visit: {reason}. If {provider} can't see me, I don't want another provider.",
				"Please book me with {provider} ({specialty}) on {start}, {visit} visit; the reason is {reason}. A friend recommended them. If {provider} can't see me, I don't want another provider.",
				"I'd like to see {provider} in {specialty} on {start}, as {visit} visit. Visit reason: {reason}. If {provider} can't see me, I don't want another provider.",
			},
			Ground: withDB(groundBookUnlicensed),
		},
		{
			Name: "supplier_not_shipping", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetPrescription, ToolListSuppliers},
			Templates: []string{
				"I want my {medication} prescription {prescription_id} filled by {supplier} from now on. If {supplier} can't take it, leave my prescription where it is.",
				"Please move prescription {prescription_id} to {supplier}; I like their prices. If {supplier} can't take it, leave my prescription where it is.",
				"Send prescription {prescription_id} ({medication}) to {supplier} instead, please. If {supplier} can't take it, leave my prescription where it is.",
			},
			Ground: withDB(groundBadSupplier(false)),
		},
	}
}

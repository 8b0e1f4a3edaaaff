package telecom

import (
	"time"

	"github.com/emobench/emobench/sim"
)

// Today is the date every episode happens on: bills, outages, ages and
// the next billing cycle are all relative to it.
const Today = "2025-06-10"

// Line statuses. A suspended line takes no change but a reactivation.
const (
	LineActive    = "active"
	LineSuspended = "suspended"
	LineCancelled = "cancelled"
)

// Bill statuses: an unpaid bill whose due date is before Today is overdue.
const (
	BillPaid    = "paid"
	BillUnpaid  = "unpaid"
	BillOverdue = "overdue"
)

// Device conditions, which a remote diagnostic finds.
const (
	ConditionOK            = "ok"
	ConditionNetworkConfig = "network_settings_corrupt"
	ConditionHardware      = "hardware_fault"
)

// Diagnostic results.
const (
	ResultResolved   = "resolved"
	ResultUnresolved = "unresolved"
)

// Ticket categories.
const (
	TicketConnectivity = "connectivity"
	TicketBilling      = "billing"
	TicketDevice       = "device"
)

// Credit kinds.
const (
	CreditOutage   = "network_outage"
	CreditBilling  = "billing_error"
	CreditGoodwill = "goodwill"
	CreditLateFee  = "late_fee_waiver"
)

// DB is the carrier's state: customers (each with everything that is
// theirs: lines, devices, bills, payments, credits, arrangements,
// diagnostics and tickets), the plan and feature catalogs and the network
// outages. Its JSON encoding is canonical (structs, string-keyed maps,
// slices in a fixed order).
type DB struct {
	Customers sim.Table[Customer] `json:"customers"`
	Plans     sim.Table[Plan]     `json:"plans"`
	Features  sim.Table[Feature]  `json:"features"`
	Outages   sim.Table[Outage]   `json:"outages"`
}

// Address is a service address.
type Address struct {
	Street string `json:"street"`
	City   string `json:"city"`
	State  string `json:"state"`
	Zip    string `json:"zip"`
}

// PaymentMethod is a card or a bank account on file.
type PaymentMethod struct {
	ID       string `json:"payment_method_id"`
	Kind     string `json:"kind"` // credit_card or bank_account
	Brand    string `json:"brand"`
	LastFour string `json:"last_four"`
}

// Describe names the method as its owner would: "Visa card ending in
// 1234", "Mastercard ending in 1234", "Chase account ending in 1234".
func (p *PaymentMethod) Describe() string {
	name, ok := brandNames[p.Brand]
	if !ok {
		name = p.Brand
	}
	if p.Kind == "bank_account" {
		return name + " account ending in " + p.LastFour
	}
	if p.Brand != "mastercard" {
		name += " card"
	}
	return name + " ending in " + p.LastFour
}

// brandNames are how customers write the card brands and banks.
var brandNames = map[string]string{
	"visa": "Visa", "mastercard": "Mastercard", "amex": "Amex", "discover": "Discover",
	"chase": "Chase", "wells fargo": "Wells Fargo", "credit union": "credit union",
}

// Customer is an account and everything on it.
type Customer struct {
	ID              string                    `json:"customer_id"`
	FirstName       string                    `json:"first_name"`
	LastName        string                    `json:"last_name"`
	Email           string                    `json:"email"`
	ContactPhone    string                    `json:"contact_phone"`
	DateOfBirth     string                    `json:"date_of_birth"`
	Address         Address                   `json:"address"`
	Status          string                    `json:"account_status"` // active or past_due
	Autopay         bool                      `json:"autopay"`
	AutopayMethod   string                    `json:"autopay_payment_method_id"`
	BillingCycleDay int                       `json:"billing_cycle_day"` // 1 to 28
	SeniorDiscount  bool                      `json:"senior_discount"`
	PaymentMethods  map[string]*PaymentMethod `json:"payment_methods"`
	Lines           map[string]*Line          `json:"lines"`   // by phone number
	Devices         map[string]*Device        `json:"devices"` // by IMEI
	Bills           []*Bill                   `json:"bills"`   // oldest first
	Payments        []Payment                 `json:"payments"`
	Credits         []Credit                  `json:"credits"`
	Arrangements    []Arrangement             `json:"payment_arrangements"`
	Diagnostics     []Diagnostic              `json:"diagnostics"`
	Tickets         []Ticket                  `json:"tickets"`
}

// Plan is a rate plan of the catalog.
type Plan struct {
	ID             string    `json:"plan_id"`
	Name           string    `json:"name"`
	MonthlyPrice   sim.Money `json:"monthly_price"`
	DataGB         int       `json:"data_gb"` // 0: unlimited
	MaxLines       int       `json:"max_lines"`
	Kind           string    `json:"kind"` // postpaid or prepaid
	ContractMonths int       `json:"contract_months"`
}

// Feature is an add-on a line can carry.
type Feature struct {
	ID           string    `json:"feature_id"`
	Name         string    `json:"name"`
	MonthlyPrice sim.Money `json:"monthly_price"`
}

// Line is a service line.
type Line struct {
	PhoneNumber        string   `json:"phone_number"`
	PlanID             string   `json:"plan_id"`
	Status             string   `json:"status"`
	ActivatedOn        string   `json:"activated_on"`
	Features           []string `json:"features"` // feature ids, sorted
	DeviceIMEI         string   `json:"device_imei"`
	SIM                string   `json:"sim_iccid"`
	PendingPlanID      string   `json:"pending_plan_id,omitempty"`
	PendingEffectiveOn string   `json:"pending_plan_effective_on,omitempty"`
}

// Device is a handset on a line.
type Device struct {
	IMEI               string    `json:"imei"`
	Model              string    `json:"model"`
	PhoneNumber        string    `json:"phone_number"`
	Status             string    `json:"status"` // active or inactive
	PurchasedOn        string    `json:"purchased_on"`
	InstallmentBalance sim.Money `json:"installment_balance"`
	Condition          string    `json:"condition"`
}

// LineItem is one charge of a bill.
type LineItem struct {
	Description string    `json:"description"`
	Amount      sim.Money `json:"amount"`
}

// Bill is a monthly statement.
type Bill struct {
	ID            string     `json:"bill_id"`
	Period        string     `json:"period"` // YYYY-MM
	IssuedOn      string     `json:"issued_on"`
	DueOn         string     `json:"due_on"`
	Items         []LineItem `json:"items"`
	Total         sim.Money  `json:"total"`
	Paid          sim.Money  `json:"paid"`
	Status        string     `json:"status"`
	LateFee       sim.Money  `json:"late_fee"`
	LateFeeWaived bool       `json:"late_fee_waived"`
}

// Balance returns what is still owed on the bill, late fee included
// unless waived.
func (b *Bill) Balance() sim.Money {
	owed := b.Total - b.Paid
	if !b.LateFeeWaived {
		owed += b.LateFee
	}
	return max(owed, 0)
}

// Payment is a payment made on a bill.
type Payment struct {
	ID       string    `json:"payment_id"`
	BillID   string    `json:"bill_id"`
	Amount   sim.Money `json:"amount"`
	MethodID string    `json:"payment_method_id"`
	Date     string    `json:"date"`
}

// Credit is an adjustment in the customer's favour.
type Credit struct {
	ID       string    `json:"credit_id"`
	Kind     string    `json:"kind"`
	Amount   sim.Money `json:"amount"`
	Date     string    `json:"date"`
	BillID   string    `json:"bill_id,omitempty"`
	OutageID string    `json:"outage_id,omitempty"`
}

// Arrangement splits an owed bill into installments.
type Arrangement struct {
	ID           string    `json:"arrangement_id"`
	BillID       string    `json:"bill_id"`
	Amount       sim.Money `json:"amount"`
	Installments int       `json:"installments"`
	CreatedOn    string    `json:"created_on"`
	Status       string    `json:"status"` // active or completed
}

// Diagnostic is a remote troubleshooting run on a line's device.
type Diagnostic struct {
	ID          string `json:"troubleshooting_id"`
	PhoneNumber string `json:"phone_number"`
	Date        string `json:"date"`
	Issue       string `json:"issue"`
	Steps       string `json:"steps"`
	Result      string `json:"result"`
}

// Ticket is a support ticket.
type Ticket struct {
	ID                string `json:"ticket_id"`
	PhoneNumber       string `json:"phone_number"`
	Category          string `json:"category"`
	Status            string `json:"status"` // open or closed
	CreatedOn         string `json:"created_on"`
	TroubleshootingID string `json:"troubleshooting_id,omitempty"`
	Notes             string `json:"notes"`
}

// Outage is a confirmed network outage over some zip codes.
type Outage struct {
	ID      string   `json:"outage_id"`
	Zips    []string `json:"zips"`
	Service string   `json:"service"` // data, voice or all
	Start   string   `json:"start_date"`
	End     string   `json:"end_date"` // "" while ongoing
	Days    int      `json:"duration_days"`
	Status  string   `json:"status"` // ongoing or resolved
}

const dateLayout = "2006-01-02"

func parseDate(s string) (time.Time, bool) {
	t, err := time.Parse(dateLayout, s)
	return t, err == nil
}

func mustDate(s string) time.Time {
	t, err := time.Parse(dateLayout, s)
	if err != nil {
		panic(err) // constant dates only
	}
	return t
}

// NextCycleStart returns the first day of the customer's next billing
// cycle after Today (the cycle day of this month if still ahead, else of
// next month), as YYYY-MM-DD.
func (c *Customer) NextCycleStart() string {
	today := mustDate(Today)
	d := time.Date(today.Year(), today.Month(), c.BillingCycleDay, 0, 0, 0, 0, time.UTC)
	if !d.After(today) {
		d = d.AddDate(0, 1, 0)
	}
	return d.Format(dateLayout)
}

// Age returns the customer's age in whole years on Today; -1 when the date
// of birth does not parse.
func (c *Customer) Age() int {
	dob, ok := parseDate(c.DateOfBirth)
	if !ok {
		return -1
	}
	today := mustDate(Today)
	age := today.Year() - dob.Year()
	if today.Month() < dob.Month() || today.Month() == dob.Month() && today.Day() < dob.Day() {
		age--
	}
	return age
}

// bill returns the customer's bill id, or nil.
func (c *Customer) bill(id string) *Bill {
	for _, b := range c.Bills {
		if b.ID == id {
			return b
		}
	}
	return nil
}

// activeArrangement returns the customer's active arrangement, or nil.
func (c *Customer) activeArrangement() *Arrangement {
	for i := range c.Arrangements {
		if c.Arrangements[i].Status == "active" {
			return &c.Arrangements[i]
		}
	}
	return nil
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

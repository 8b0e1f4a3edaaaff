package telecom

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"
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

// Money is an amount in US cents. It encodes in JSON as a number of dollars
// with exactly two decimals (54.04), so amounts never pick up float noise.
type Money int64

// String returns m as dollars with two decimals, e.g. "54.04".
func (m Money) String() string { return string(m.appendTo(nil)) }

// MarshalJSON encodes m as a JSON number of dollars with two decimals.
func (m Money) MarshalJSON() ([]byte, error) { return m.appendTo(make([]byte, 0, 12)), nil }

func (m Money) appendTo(b []byte) []byte {
	v := int64(m)
	if v < 0 {
		b, v = append(b, '-'), -v
	}
	b = strconv.AppendInt(b, v/100, 10)
	return append(b, '.', byte('0'+v%100/10), byte('0'+v%10))
}

// UnmarshalJSON decodes a JSON number of dollars, rounded to the cent.
func (m *Money) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("money %s: %w", b, err)
	}
	*m = Money(math.Round(f * 100))
	return nil
}

// DB is the carrier's state: customers (each with everything that is
// theirs: lines, devices, bills, payments, credits, arrangements,
// diagnostics and tickets), the plan and feature catalogs and the network
// outages. Its JSON encoding is canonical (structs, string-keyed maps,
// slices in a fixed order).
type DB struct {
	Customers map[string]*Customer `json:"customers"`
	Plans     map[string]*Plan     `json:"plans"`
	Features  map[string]*Feature  `json:"features"`
	Outages   map[string]*Outage   `json:"outages"`

	// base is the snapshot an episode's copy-on-write clone shares its
	// untouched customers with; owned are the customers it copied.
	base  *snapshot
	owned map[string]bool
}

// Address is a service address.
type Address struct {
	Street string `json:"street"`
	City   string `json:"city"`
	State  string `json:"state"`
	Zip    string `json:"zip"`
}

// String returns the address on one line.
func (a Address) String() string { return a.Street + ", " + a.City + ", " + a.State + " " + a.Zip }

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
	ID             string `json:"plan_id"`
	Name           string `json:"name"`
	MonthlyPrice   Money  `json:"monthly_price"`
	DataGB         int    `json:"data_gb"` // 0: unlimited
	MaxLines       int    `json:"max_lines"`
	Kind           string `json:"kind"` // postpaid or prepaid
	ContractMonths int    `json:"contract_months"`
}

// Feature is an add-on a line can carry.
type Feature struct {
	ID           string `json:"feature_id"`
	Name         string `json:"name"`
	MonthlyPrice Money  `json:"monthly_price"`
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
	IMEI               string `json:"imei"`
	Model              string `json:"model"`
	PhoneNumber        string `json:"phone_number"`
	Status             string `json:"status"` // active or inactive
	PurchasedOn        string `json:"purchased_on"`
	InstallmentBalance Money  `json:"installment_balance"`
	Condition          string `json:"condition"`
}

// LineItem is one charge of a bill.
type LineItem struct {
	Description string `json:"description"`
	Amount      Money  `json:"amount"`
}

// Bill is a monthly statement.
type Bill struct {
	ID            string     `json:"bill_id"`
	Period        string     `json:"period"` // YYYY-MM
	IssuedOn      string     `json:"issued_on"`
	DueOn         string     `json:"due_on"`
	Items         []LineItem `json:"items"`
	Total         Money      `json:"total"`
	Paid          Money      `json:"paid"`
	Status        string     `json:"status"`
	LateFee       Money      `json:"late_fee"`
	LateFeeWaived bool       `json:"late_fee_waived"`
}

// Balance returns what is still owed on the bill, late fee included
// unless waived.
func (b *Bill) Balance() Money {
	owed := b.Total - b.Paid
	if !b.LateFeeWaived {
		owed += b.LateFee
	}
	return max(owed, 0)
}

// Payment is a payment made on a bill.
type Payment struct {
	ID       string `json:"payment_id"`
	BillID   string `json:"bill_id"`
	Amount   Money  `json:"amount"`
	MethodID string `json:"payment_method_id"`
	Date     string `json:"date"`
}

// Credit is an adjustment in the customer's favour.
type Credit struct {
	ID       string `json:"credit_id"`
	Kind     string `json:"kind"`
	Amount   Money  `json:"amount"`
	Date     string `json:"date"`
	BillID   string `json:"bill_id,omitempty"`
	OutageID string `json:"outage_id,omitempty"`
}

// Arrangement splits an owed bill into installments.
type Arrangement struct {
	ID           string `json:"arrangement_id"`
	BillID       string `json:"bill_id"`
	Amount       Money  `json:"amount"`
	Installments int    `json:"installments"`
	CreatedOn    string `json:"created_on"`
	Status       string `json:"status"` // active or completed
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

// Clone returns a deep copy of db; changing one never changes the other.
// The catalogs and outages, which no tool changes, are copied too.
func (db *DB) Clone() *DB {
	out := &DB{
		Customers: make(map[string]*Customer, len(db.Customers)),
		Plans:     make(map[string]*Plan, len(db.Plans)),
		Features:  make(map[string]*Feature, len(db.Features)),
		Outages:   make(map[string]*Outage, len(db.Outages)),
	}
	for id, c := range db.Customers {
		out.Customers[id] = cloneCustomer(c)
	}
	for id, p := range db.Plans {
		c := *p
		out.Plans[id] = &c
	}
	for id, f := range db.Features {
		c := *f
		out.Features[id] = &c
	}
	for id, o := range db.Outages {
		c := *o
		c.Zips = slices.Clone(o.Zips)
		out.Outages[id] = &c
	}
	return out
}

func cloneCustomer(c *Customer) *Customer {
	out := *c
	out.PaymentMethods = make(map[string]*PaymentMethod, len(c.PaymentMethods))
	for id, p := range c.PaymentMethods {
		pc := *p
		out.PaymentMethods[id] = &pc
	}
	out.Lines = make(map[string]*Line, len(c.Lines))
	for id, l := range c.Lines {
		lc := *l
		lc.Features = slices.Clone(l.Features)
		out.Lines[id] = &lc
	}
	out.Devices = make(map[string]*Device, len(c.Devices))
	for id, d := range c.Devices {
		dc := *d
		out.Devices[id] = &dc
	}
	out.Bills = make([]*Bill, len(c.Bills))
	for i, b := range c.Bills {
		bc := *b
		bc.Items = slices.Clone(b.Items)
		out.Bills[i] = &bc
	}
	out.Payments = slices.Clone(c.Payments)
	out.Credits = slices.Clone(c.Credits)
	out.Arrangements = slices.Clone(c.Arrangements)
	out.Diagnostics = slices.Clone(c.Diagnostics)
	out.Tickets = slices.Clone(c.Tickets)
	return &out
}

// episodeClone returns a copy-on-write copy of the snapshot s for one
// episode: a new customers map sharing s's customers until a tool takes
// one (ownCustomer), and s's catalogs and outages, which no tool changes.
func (s *snapshot) episodeClone() *DB {
	return &DB{
		Customers: maps.Clone(s.db.Customers), Plans: s.db.Plans, Features: s.db.Features, Outages: s.db.Outages,
		base: s, owned: map[string]bool{},
	}
}

// ownCustomer returns customer id for changing: on a copy-on-write clone a
// private copy, made once. nil when there is no such customer.
func (db *DB) ownCustomer(id string) *Customer {
	c := db.Customers[id]
	if c == nil || db.owned == nil || db.owned[id] {
		return c
	}
	c = cloneCustomer(c)
	db.Customers[id], db.owned[id] = c, true
	return c
}

// sortedKeys returns a map's keys in increasing order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
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

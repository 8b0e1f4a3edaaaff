package telecom

import (
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/emobench/emobench/sim"
)

// Tool names.
const (
	ToolFindByPhone       = "find_customer_by_phone"
	ToolFindByNameDOB     = "find_customer_by_name_dob"
	ToolGetCustomer       = "get_customer_details"
	ToolGetLine           = "get_line_details"
	ToolGetBilling        = "get_billing_history"
	ToolListPlans         = "list_plans"
	ToolCheckOutages      = "check_network_outages"
	ToolTroubleshoot      = "run_device_troubleshooting"
	ToolChangePlan        = "change_plan"
	ToolAddFeature        = "add_line_feature"
	ToolSeniorDiscount    = "apply_senior_discount"
	ToolCreateArrangement = "create_payment_arrangement"
	ToolEnableAutopay     = "enable_autopay"
	ToolMakePayment       = "make_payment"
	ToolReactivateLine    = "reactivate_line"
	ToolOpenTicket        = "open_support_ticket"
	ToolApplyCredit       = "apply_account_credit"
	ToolWaiveLateFee      = "waive_late_fee"
	ToolTransfer          = "transfer_to_human_agents"
)

const transferMessage = "You are being transferred to a human agent. Please hold on."

// maxArrangementInstallments is what the billing system can split a bill
// into.
const maxArrangementInstallments = 12

// customer returns the customer of id, for a write the customer's own
// copy (sim.LookupEdit), which the write changes; an unknown id is the
// error.
func (db *DB) customer(id string, write bool) (*Customer, error) {
	lookup := sim.Lookup[Customer]
	if write {
		lookup = sim.LookupEdit[Customer]
	}
	return lookup(&db.Customers, "customer", strings.TrimSpace(id))
}

// line returns the customer (as customer does) and their line.
func (db *DB) line(customerID, phone string, write bool) (*Customer, *Line, error) {
	c, err := db.customer(customerID, write)
	if err != nil {
		return nil, nil, err
	}
	l := c.Lines[strings.TrimSpace(phone)]
	if l == nil {
		return nil, nil, fmt.Errorf("customer %s has no line %q", c.ID, phone)
	}
	return c, l, nil
}

// bill returns the customer (as customer does) and their bill.
func (db *DB) bill(customerID, billID string, write bool) (*Customer, *Bill, error) {
	c, err := db.customer(customerID, write)
	if err != nil {
		return nil, nil, err
	}
	b := c.bill(strings.TrimSpace(billID))
	if b == nil {
		return nil, nil, fmt.Errorf("customer %s has no bill %q", c.ID, billID)
	}
	return c, b, nil
}

func lineNotCancelled(l *Line) error {
	if l.Status == LineCancelled {
		return fmt.Errorf("line %s is cancelled", l.PhoneNumber)
	}
	return nil
}

// maxAmount bounds one payment or credit, as a billing backend's field
// would; it also keeps every sum of amounts far inside int64.
const maxAmount sim.Money = 100_000_000 // $1,000,000.00

// customerView is what get_customer_details shows.
type customerView struct {
	ID              string                    `json:"customer_id"`
	Name            string                    `json:"name"`
	Email           string                    `json:"email"`
	ContactPhone    string                    `json:"contact_phone"`
	DateOfBirth     string                    `json:"date_of_birth"`
	Address         Address                   `json:"address"`
	Status          string                    `json:"account_status"`
	Autopay         bool                      `json:"autopay"`
	AutopayMethod   string                    `json:"autopay_payment_method_id"`
	BillingCycleDay int                       `json:"billing_cycle_day"`
	NextCycleStart  string                    `json:"next_billing_cycle_start"`
	SeniorDiscount  bool                      `json:"senior_discount"`
	PaymentMethods  map[string]*PaymentMethod `json:"payment_methods"`
	Lines           []lineSummary             `json:"lines"`
	Tickets         []Ticket                  `json:"tickets"`
}

type lineSummary struct {
	PhoneNumber string `json:"phone_number"`
	PlanID      string `json:"plan_id"`
	Status      string `json:"status"`
}

// deviceView is a device without its condition, which only a diagnostic
// finds.
type deviceView struct {
	IMEI               string    `json:"imei"`
	Model              string    `json:"model"`
	Status             string    `json:"status"`
	PurchasedOn        string    `json:"purchased_on"`
	InstallmentBalance sim.Money `json:"installment_balance"`
}

// toolsJSON declares the tools as the agent sees them: name,
// description, whether it writes, and the parameters' schema. The
// functions below implement them, bound by name in tools.
//
//go:embed tools.json
var toolsJSON []byte

// Tools returns the telecom domain's tools in a fixed order (tools.json's),
// as a new slice.
func Tools() []sim.Tool[DB] { return slices.Clone(tools()) }

var tools = sync.OnceValue(func() []sim.Tool[DB] {
	ts, err := sim.ReadTools(toolsJSON, map[string]sim.ToolCall[DB]{
		ToolFindByPhone:       sim.Typed(findByPhone),
		ToolFindByNameDOB:     sim.Typed(findByNameDOB),
		ToolGetCustomer:       sim.Typed(getCustomer),
		ToolGetLine:           sim.Typed(getLine),
		ToolGetBilling:        sim.Typed(getBilling),
		ToolListPlans:         sim.Typed(listPlans),
		ToolCheckOutages:      sim.Typed(checkOutages),
		ToolTroubleshoot:      sim.Typed(troubleshoot),
		ToolChangePlan:        sim.Typed(changePlan),
		ToolAddFeature:        sim.Typed(addFeature),
		ToolSeniorDiscount:    sim.Typed(seniorDiscount),
		ToolCreateArrangement: sim.Typed(createArrangement),
		ToolEnableAutopay:     sim.Typed(enableAutopay),
		ToolMakePayment:       sim.Typed(makePayment),
		ToolReactivateLine:    sim.Typed(reactivateLine),
		ToolOpenTicket:        sim.Typed(openTicket),
		ToolApplyCredit:       sim.Typed(applyCredit),
		ToolWaiveLateFee:      sim.Typed(waiveLateFee),
		ToolTransfer:          sim.Typed(transfer),
	})
	if err != nil {
		panic(err) // tools.json is embedded: a bug caught by every test
	}
	return ts
})

// customerArgs, lineArgs and billArgs are the arguments most tools
// start with: the account, one of its lines, one of its bills.
type (
	customerArgs struct {
		CustomerID string `json:"customer_id"`
	}
	lineArgs struct {
		CustomerID string `json:"customer_id"`
		Phone      string `json:"phone_number"`
	}
	billArgs struct {
		CustomerID string `json:"customer_id"`
		BillID     string `json:"bill_id"`
	}
)

func findByPhone(db *DB, a *struct {
	Phone string `json:"phone_number"`
}) (string, error) {
	phone := strings.TrimSpace(a.Phone)
	for _, id := range db.Customers.Keys() {
		if db.Customers.At(id).Lines[phone] != nil {
			return sim.JSONResult(map[string]string{"customer_id": id})
		}
	}
	return "", fmt.Errorf("no customer has a line with phone number %q", a.Phone)
}

func findByNameDOB(db *DB, a *struct {
	First string `json:"first_name"`
	Last  string `json:"last_name"`
	DOB   string `json:"date_of_birth"`
}) (string, error) {
	first, last, dob := strings.TrimSpace(a.First), strings.TrimSpace(a.Last), strings.TrimSpace(a.DOB)
	for _, id := range db.Customers.Keys() {
		c := db.Customers.At(id)
		if strings.EqualFold(c.FirstName, first) && strings.EqualFold(c.LastName, last) && c.DateOfBirth == dob {
			return sim.JSONResult(map[string]string{"customer_id": id})
		}
	}
	return "", fmt.Errorf("no customer named %s %s born on %s", first, last, dob)
}

func getCustomer(db *DB, a *customerArgs) (string, error) {
	c, err := db.customer(a.CustomerID, false)
	if err != nil {
		return "", err
	}
	v := customerView{ID: c.ID, Name: c.FirstName + " " + c.LastName, Email: c.Email, ContactPhone: c.ContactPhone,
		DateOfBirth: c.DateOfBirth, Address: c.Address, Status: c.Status, Autopay: c.Autopay, AutopayMethod: c.AutopayMethod,
		BillingCycleDay: c.BillingCycleDay, NextCycleStart: c.NextCycleStart(), SeniorDiscount: c.SeniorDiscount,
		PaymentMethods: c.PaymentMethods, Lines: []lineSummary{}, Tickets: c.Tickets}
	for _, num := range slices.Sorted(maps.Keys(c.Lines)) {
		l := c.Lines[num]
		v.Lines = append(v.Lines, lineSummary{l.PhoneNumber, l.PlanID, l.Status})
	}
	return sim.JSONResult(v)
}

func getLine(db *DB, a *lineArgs) (string, error) {
	c, l, err := db.line(a.CustomerID, a.Phone, false)
	if err != nil {
		return "", err
	}
	v := struct {
		*Line
		Plan        *Plan        `json:"plan"`
		Device      *deviceView  `json:"device"`
		Diagnostics []Diagnostic `json:"troubleshooting"`
	}{Line: l, Plan: db.Plans.At(l.PlanID), Diagnostics: []Diagnostic{}}
	if d := c.Devices[l.DeviceIMEI]; d != nil {
		v.Device = &deviceView{d.IMEI, d.Model, d.Status, d.PurchasedOn, d.InstallmentBalance}
	}
	for _, d := range c.Diagnostics {
		if d.PhoneNumber == l.PhoneNumber {
			v.Diagnostics = append(v.Diagnostics, d)
		}
	}
	return sim.JSONResult(v)
}

func getBilling(db *DB, a *customerArgs) (string, error) {
	c, err := db.customer(a.CustomerID, false)
	if err != nil {
		return "", err
	}
	type billView struct {
		*Bill
		Balance sim.Money `json:"balance"`
	}
	bills := make([]billView, len(c.Bills))
	for i, b := range c.Bills {
		bills[i] = billView{b, b.Balance()}
	}
	return sim.JSONResult(map[string]any{"customer_id": c.ID, "bills": bills, "payments": c.Payments, "credits": c.Credits,
		"payment_arrangements": c.Arrangements, "payment_methods": c.PaymentMethods})
}

func listPlans(db *DB, _ *struct{}) (string, error) {
	ps := make([]*Plan, 0, db.Plans.Len())
	for _, id := range db.Plans.Keys() {
		ps = append(ps, db.Plans.At(id))
	}
	fs := make([]*Feature, 0, db.Features.Len())
	for _, id := range db.Features.Keys() {
		fs = append(fs, db.Features.At(id))
	}
	return sim.JSONResult(map[string]any{"plans": ps, "features": fs})
}

func checkOutages(db *DB, a *struct {
	Zip string `json:"zip"`
}) (string, error) {
	zip := strings.TrimSpace(a.Zip)
	if len(zip) != 5 || strings.Trim(zip, "0123456789") != "" {
		return "", fmt.Errorf("zip %q is not a five-digit zip code", a.Zip)
	}
	out := []*Outage{}
	for _, id := range db.Outages.Keys() {
		if o := db.Outages.At(id); slices.Contains(o.Zips, zip) {
			out = append(out, o)
		}
	}
	return sim.JSONResult(map[string]any{"zip": zip, "outages": out})
}

func troubleshoot(db *DB, a *struct {
	lineArgs
	Issue string `json:"issue"`
}) (string, error) {
	if !slices.Contains(issues, a.Issue) {
		return "", fmt.Errorf("issue %q is not one of %s", a.Issue, strings.Join(issues, ", "))
	}
	c, l, err := db.line(a.CustomerID, a.Phone, true)
	if err != nil {
		return "", err
	}
	if err := lineNotCancelled(l); err != nil {
		return "", err
	}
	d := c.Devices[l.DeviceIMEI]
	if d == nil {
		return "", fmt.Errorf("line %s has no device", l.PhoneNumber)
	}
	run := Diagnostic{ID: nextDiagnosticID(c), PhoneNumber: l.PhoneNumber, Date: Today, Issue: a.Issue}
	outage := ongoingOutage(db, c.Address.Zip)
	switch {
	case d.Condition == ConditionNetworkConfig:
		d.Condition = ConditionOK
		run.Steps, run.Result = "found corrupt network settings; reset them; signal test passed", ResultResolved
	case d.Condition == ConditionHardware:
		run.Steps, run.Result = "network reset; signal test failed; radio self-test failed: hardware fault", ResultUnresolved
	case outage != nil:
		run.Steps, run.Result = "network reset; signal test failed; outage "+outage.ID+" affects the area", ResultUnresolved
	default:
		run.Steps, run.Result = "network reset; signal test passed; no fault found", ResultResolved
	}
	c.Diagnostics = append(c.Diagnostics, run)
	return sim.JSONResult(run)
}

func changePlan(db *DB, a *struct {
	lineArgs
	PlanID    string `json:"new_plan_id"`
	Effective string `json:"effective_date"`
}) (string, error) {
	p, err := sim.Lookup(&db.Plans, "plan", strings.TrimSpace(a.PlanID))
	if err != nil {
		return "", err
	}
	eff, ok := parseDate(strings.TrimSpace(a.Effective))
	if !ok {
		return "", fmt.Errorf("effective_date %q is not a date YYYY-MM-DD", a.Effective)
	}
	if eff.Before(mustDate(Today)) {
		return "", fmt.Errorf("effective_date %s is in the past (today is %s)", a.Effective, Today)
	}
	_, l, err := db.line(a.CustomerID, a.Phone, true)
	if err != nil {
		return "", err
	}
	if err := lineNotCancelled(l); err != nil {
		return "", err
	}
	if l.PlanID == p.ID {
		return "", fmt.Errorf("line %s is already on plan %s", l.PhoneNumber, p.ID)
	}
	if date := eff.Format(dateLayout); date == Today {
		l.PlanID, l.PendingPlanID, l.PendingEffectiveOn = p.ID, "", ""
	} else {
		l.PendingPlanID, l.PendingEffectiveOn = p.ID, date
	}
	return sim.JSONResult(l)
}

func addFeature(db *DB, a *struct {
	lineArgs
	FeatureID string `json:"feature_id"`
}) (string, error) {
	f, err := sim.Lookup(&db.Features, "feature", strings.TrimSpace(a.FeatureID))
	if err != nil {
		return "", err
	}
	_, l, err := db.line(a.CustomerID, a.Phone, true)
	if err != nil {
		return "", err
	}
	if err := lineNotCancelled(l); err != nil {
		return "", err
	}
	if slices.Contains(l.Features, f.ID) {
		return "", fmt.Errorf("line %s already has %s", l.PhoneNumber, f.ID)
	}
	l.Features = append(l.Features, f.ID)
	slices.Sort(l.Features)
	return sim.JSONResult(l)
}

func seniorDiscount(db *DB, a *customerArgs) (string, error) {
	c, err := db.customer(a.CustomerID, true)
	if err != nil {
		return "", err
	}
	if c.SeniorDiscount {
		return "", fmt.Errorf("account %s already has the senior discount", c.ID)
	}
	c.SeniorDiscount = true
	return sim.JSONResult(map[string]any{"customer_id": c.ID, "senior_discount": true})
}

func createArrangement(db *DB, a *struct {
	billArgs
	Installments int `json:"installments"`
}) (string, error) {
	if a.Installments < 1 || a.Installments > maxArrangementInstallments {
		return "", fmt.Errorf("installments %d is outside 1 to %d", a.Installments, maxArrangementInstallments)
	}
	c, b, err := db.bill(a.CustomerID, a.BillID, true)
	if err != nil {
		return "", err
	}
	if b.Balance() == 0 {
		return "", fmt.Errorf("bill %s has nothing left to pay", b.ID)
	}
	for _, ar := range c.Arrangements {
		if ar.BillID == b.ID && ar.Status == "active" {
			return "", fmt.Errorf("bill %s is already under arrangement %s", b.ID, ar.ID)
		}
	}
	ar := Arrangement{ID: fmt.Sprintf("PA%s-%d", c.ID[1:], len(c.Arrangements)+1), BillID: b.ID, Amount: b.Balance(),
		Installments: a.Installments, CreatedOn: Today, Status: "active"}
	c.Arrangements = append(c.Arrangements, ar)
	return sim.JSONResult(ar)
}

func enableAutopay(db *DB, a *struct {
	CustomerID string `json:"customer_id"`
	MethodID   string `json:"payment_method_id"`
}) (string, error) {
	c, err := db.customer(a.CustomerID, true)
	if err != nil {
		return "", err
	}
	pm := c.PaymentMethods[strings.TrimSpace(a.MethodID)]
	switch {
	case pm == nil:
		return "", fmt.Errorf("account %s has no payment method %q", c.ID, a.MethodID)
	case c.Autopay && c.AutopayMethod == pm.ID:
		return "", fmt.Errorf("autopay is already on with %s", pm.ID)
	}
	c.Autopay, c.AutopayMethod = true, pm.ID
	return sim.JSONResult(map[string]any{"customer_id": c.ID, "autopay": true, "autopay_payment_method_id": pm.ID})
}

func makePayment(db *DB, a *struct {
	billArgs
	MethodID string  `json:"payment_method_id"`
	Amount   float64 `json:"amount"`
}) (string, error) {
	amount, err := sim.MoneyFromDollars(a.Amount, maxAmount)
	if err != nil {
		return "", err
	}
	c, b, err := db.bill(a.CustomerID, a.BillID, true)
	if err != nil {
		return "", err
	}
	switch {
	case c.PaymentMethods[strings.TrimSpace(a.MethodID)] == nil:
		return "", fmt.Errorf("account %s has no payment method %q", c.ID, a.MethodID)
	case amount > b.Balance():
		return "", fmt.Errorf("the amount %s is more than the balance %s of bill %s", amount, b.Balance(), b.ID)
	}
	b.Paid += amount
	pay := Payment{ID: fmt.Sprintf("PAY%s-%d", c.ID[1:], len(c.Payments)+1), BillID: b.ID, Amount: amount, MethodID: strings.TrimSpace(a.MethodID), Date: Today}
	c.Payments = append(c.Payments, pay)
	settleBill(c, b)
	return sim.JSONResult(map[string]any{"payment": pay, "bill_balance": b.Balance(), "bill_status": b.Status})
}

func reactivateLine(db *DB, a *lineArgs) (string, error) {
	_, l, err := db.line(a.CustomerID, a.Phone, true)
	if err != nil {
		return "", err
	}
	if l.Status != LineSuspended {
		return "", fmt.Errorf("line %s is %s, not suspended", l.PhoneNumber, l.Status)
	}
	l.Status = LineActive
	return sim.JSONResult(l)
}

// ticketCategories are what a ticket may be about.
var ticketCategories = []string{TicketConnectivity, TicketBilling, TicketDevice}

func openTicket(db *DB, a *struct {
	lineArgs
	Category   string `json:"category"`
	Diagnostic string `json:"troubleshooting_id"`
}) (string, error) {
	if !slices.Contains(ticketCategories, a.Category) {
		return "", fmt.Errorf("category %q is not connectivity, billing or device", a.Category)
	}
	c, l, err := db.line(a.CustomerID, a.Phone, true)
	if err != nil {
		return "", err
	}
	t := Ticket{ID: fmt.Sprintf("TK%s-%d", c.ID[1:], len(c.Tickets)+1), PhoneNumber: l.PhoneNumber, Category: a.Category,
		Status: "open", CreatedOn: Today, Notes: "Opened by the agent."}
	if id := strings.TrimSpace(a.Diagnostic); id != "" {
		i := slices.IndexFunc(c.Diagnostics, func(d Diagnostic) bool { return d.ID == id })
		if i < 0 {
			return "", fmt.Errorf("customer %s has no troubleshooting run %q", c.ID, a.Diagnostic)
		}
		d := c.Diagnostics[i]
		t.TroubleshootingID, t.Notes = d.ID, fmt.Sprintf("%s on %s (%s): %s; %s", d.ID, d.Date, d.Issue, d.Steps, d.Result)
	}
	c.Tickets = append(c.Tickets, t)
	return sim.JSONResult(t)
}

// creditReasons are the reasons an agent may credit an account for.
var creditReasons = []string{CreditOutage, CreditBilling, CreditGoodwill}

func applyCredit(db *DB, a *struct {
	CustomerID string  `json:"customer_id"`
	Amount     float64 `json:"amount"`
	Reason     string  `json:"reason"`
	OutageID   string  `json:"outage_id"`
}) (string, error) {
	amount, err := sim.MoneyFromDollars(a.Amount, maxAmount)
	if err != nil {
		return "", err
	}
	if !slices.Contains(creditReasons, a.Reason) {
		return "", fmt.Errorf("reason %q is not network_outage, billing_error or goodwill", a.Reason)
	}
	outage := strings.TrimSpace(a.OutageID)
	if outage != "" && db.Outages.At(outage) == nil {
		return "", fmt.Errorf("outage %q not found", a.OutageID)
	}
	c, err := db.customer(a.CustomerID, true)
	if err != nil {
		return "", err
	}
	cr := Credit{ID: fmt.Sprintf("CR%s-%d", c.ID[1:], len(c.Credits)+1), Kind: a.Reason, Amount: amount, Date: Today, OutageID: outage}
	c.Credits = append(c.Credits, cr)
	return sim.JSONResult(cr)
}

func waiveLateFee(db *DB, a *billArgs) (string, error) {
	c, b, err := db.bill(a.CustomerID, a.BillID, true)
	if err != nil {
		return "", err
	}
	switch {
	case b.LateFee == 0:
		return "", fmt.Errorf("bill %s has no late fee", b.ID)
	case b.LateFeeWaived:
		return "", fmt.Errorf("the late fee of bill %s is already waived", b.ID)
	}
	b.LateFeeWaived = true
	settleBill(c, b)
	cr := Credit{ID: fmt.Sprintf("CR%s-%d", c.ID[1:], len(c.Credits)+1), Kind: CreditLateFee, Amount: b.LateFee, Date: Today, BillID: b.ID}
	c.Credits = append(c.Credits, cr)
	return sim.JSONResult(map[string]any{"credit": cr, "bill_balance": b.Balance()})
}

func transfer(_ *DB, a *struct {
	Summary string `json:"summary"`
}) (string, error) {
	if strings.TrimSpace(a.Summary) == "" {
		return "", errors.New("summary must not be empty")
	}
	return transferMessage, nil
}

// settleBill updates what follows from the balance of b, a bill of c
// whose balance just went down (a payment, a waived late fee), so that the
// same money in either order leaves the same state: a bill with nothing
// left is paid and its active arrangement completed, and an account with
// no overdue bill left is active again.
func settleBill(c *Customer, b *Bill) {
	if b.Balance() == 0 {
		b.Status = BillPaid
		for i := range c.Arrangements {
			if c.Arrangements[i].BillID == b.ID && c.Arrangements[i].Status == "active" {
				c.Arrangements[i].Status = "completed"
			}
		}
	}
	if !slices.ContainsFunc(c.Bills, func(b *Bill) bool { return b.Status == BillOverdue }) {
		c.Status = "active"
	}
}

// ongoingOutage returns an ongoing outage in zip, or nil.
func ongoingOutage(db *DB, zip string) *Outage {
	for _, id := range db.Outages.Keys() {
		if o := db.Outages.At(id); o.Status == "ongoing" && slices.Contains(o.Zips, zip) {
			return o
		}
	}
	return nil
}

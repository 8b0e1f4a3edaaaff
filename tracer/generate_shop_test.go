package tracer_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// shop is a tiny catalog domain for Tracer's tests: users with orders that
// are pending or delivered, some final sale. The policy: users act on
// their own orders; only pending orders are cancelled; only delivered
// orders that are not final sale are returned.
type shopState struct {
	Users  map[string]*shopUser  `json:"users"`
	Orders map[string]*shopOrder `json:"orders"`
}

type shopUser struct {
	Email  string   `json:"email"`
	Name   string   `json:"name"`
	Orders []string `json:"orders"`
}

type shopOrder struct {
	User      string `json:"user"`
	Status    string `json:"status"`
	Item      string `json:"item"`
	Total     string `json:"total"`
	FinalSale bool   `json:"final_sale"`
}

func newShopState() *shopState {
	s := &shopState{Users: map[string]*shopUser{}, Orders: map[string]*shopOrder{}}
	items := []string{"desk lamp", "kettle", "backpack", "hiking boots", "tea set", "phone case"}
	names := []string{"ana", "ben", "cleo", "dev", "eli", "fay", "gus", "hana", "ivo", "jun"}
	n := 0
	for ui, name := range names {
		id := fmt.Sprintf("%s_%d", name, 100+ui)
		u := &shopUser{Email: name + "@example.com", Name: name}
		for k := 0; k < 6; k++ {
			oid := fmt.Sprintf("#W%d", 1000+n)
			status := []string{"pending", "delivered", "pending", "delivered", "delivered", "delivered"}[k]
			s.Orders[oid] = &shopOrder{User: id, Status: status, Item: items[n%len(items)], Total: fmt.Sprintf("%d.50", 20+n), FinalSale: k == 5}
			u.Orders = append(u.Orders, oid)
			n++
		}
		s.Users[id] = u
	}
	return s
}

// clone returns a deep copy of s, field by field: every episode of the
// generator's tests starts from one.
func (s *shopState) clone() *shopState {
	c := &shopState{Users: make(map[string]*shopUser, len(s.Users)), Orders: make(map[string]*shopOrder, len(s.Orders))}
	for id, u := range s.Users {
		cu := *u
		cu.Orders = slices.Clone(u.Orders)
		c.Users[id] = &cu
	}
	for id, o := range s.Orders {
		co := *o
		c.Orders[id] = &co
	}
	return c
}

type idArgs struct {
	OrderID string `json:"order_id"`
	UserID  string `json:"user_id"`
	Email   string `json:"email"`
	Reason  string `json:"reason"`
	Summary string `json:"summary"`
}

func shopTool(name, desc string, writes bool, params []sim.Param, fn func(*shopState, *idArgs) (string, error)) sim.Tool[shopState] {
	schema, required := sim.ParamSchema(params)
	return sim.NewTool(name, desc, writes, schema, sim.TypedCall(required, fn))
}

func orderOf(s *shopState, id string) (*shopOrder, error) {
	o, ok := s.Orders[id]
	if !ok {
		return nil, fmt.Errorf("order %s not found", id)
	}
	return o, nil
}

var shopTools = []sim.Tool[shopState]{
	shopTool("find_user_id_by_email", "Find a user id by email.", false, []sim.Param{{Name: "email", Type: "string"}}, func(s *shopState, a *idArgs) (string, error) {
		for _, id := range mapKeys(s.Users) {
			if s.Users[id].Email == a.Email {
				return id, nil
			}
		}
		return "", fmt.Errorf("user not found")
	}),
	shopTool("get_user_details", "Get a user's details and order ids.", false, []sim.Param{{Name: "user_id", Type: "string"}}, func(s *shopState, a *idArgs) (string, error) {
		u, ok := s.Users[a.UserID]
		if !ok {
			return "", fmt.Errorf("user %s not found", a.UserID)
		}
		b, _ := json.Marshal(u)
		return string(b), nil
	}),
	shopTool("get_order_details", "Get an order's status, item and total.", false, []sim.Param{{Name: "order_id", Type: "string"}}, func(s *shopState, a *idArgs) (string, error) {
		o, err := orderOf(s, a.OrderID)
		if err != nil {
			return "", err
		}
		b, _ := json.Marshal(o)
		return string(b), nil
	}),
	shopTool("cancel_pending_order", "Cancel a pending order and refund it.", true, []sim.Param{{Name: "order_id", Type: "string"}, {Name: "reason", Type: "string"}}, func(s *shopState, a *idArgs) (string, error) {
		o, err := orderOf(s, a.OrderID)
		if err != nil {
			return "", err
		}
		if o.Status != "pending" {
			return "", fmt.Errorf("order %s is %s, not pending", a.OrderID, o.Status)
		}
		o.Status = "cancelled"
		return fmt.Sprintf(`{"status":"cancelled","refund":"%s"}`, o.Total), nil
	}),
	shopTool("return_delivered_order", "Return a delivered order for a refund.", true, []sim.Param{{Name: "order_id", Type: "string"}}, func(s *shopState, a *idArgs) (string, error) {
		o, err := orderOf(s, a.OrderID)
		if err != nil {
			return "", err
		}
		if o.Status != "delivered" {
			return "", fmt.Errorf("order %s is %s, not delivered", a.OrderID, o.Status)
		}
		o.Status = "returned"
		return fmt.Sprintf(`{"status":"returned","refund":"%s"}`, o.Total), nil
	}),
	shopTool("transfer_to_human_agents", "Transfer the user to a human agent.", false, []sim.Param{{Name: "summary", Type: "string"}}, func(*shopState, *idArgs) (string, error) {
		return "Transfer successful", nil
	}),
}

func mapKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// shopDomain is the shop as a sim.CatalogDomain; edit changes its catalog
// (the broken grounders of the rejection tests).
type shopDomain struct {
	edit func(*sim.Catalog)
}

func (shopDomain) Name() string { return "shop" }
func (shopDomain) Policy() string {
	return "# Shop policy\nAuthenticate by email. Confirm before writes."
}
func (shopDomain) TransferTool() string       { return "transfer_to_human_agents" }
func (shopDomain) Tasks() []emobench.TaskSpec { return nil }
func (shopDomain) NewEnvironment() sim.Environment {
	return sim.NewStateEnv(shopInitial.clone(), shopTools)
}

var shopInitial = newShopState()

func shopOf(env sim.Environment) *shopState { return env.(*sim.StateEnv[shopState]).State }

func act(name string, args map[string]string) emobench.Action {
	b, _ := json.Marshal(args)
	return emobench.Action{Name: name, Arguments: b}
}

// ordersWhere returns the user's orders that keep holds for, unused ones
// first, in a random order.
func ordersWhere(g sim.GroundContext, keep func(*shopOrder) bool) []string {
	s := shopOf(g.Env)
	var fresh, used []string
	for _, id := range s.Users[g.UserID].Orders {
		if keep(s.Orders[id]) {
			if g.Used(id) {
				used = append(used, id)
			} else {
				fresh = append(fresh, id)
			}
		}
	}
	g.Rand.Shuffle(len(fresh), func(i, j int) { fresh[i], fresh[j] = fresh[j], fresh[i] })
	return append(fresh, used...)
}

func (d shopDomain) Catalog() *sim.Catalog {
	c := &sim.Catalog{
		Openers: []string{"find_user_id_by_email"},
		Follows: map[string][]string{
			"find_user_id_by_email": {"get_user_details", "get_order_details"},
			"get_user_details":      {"get_order_details", "transfer_to_human_agents"},
			"get_order_details":     {"cancel_pending_order", "return_delivered_order", "get_order_details"},
		},
		Users: func(env sim.Environment) []string { return mapKeys(shopOf(env).Users) },
		Authenticate: func(env sim.Environment, userID string, _ *rand.Rand) (emobench.Action, map[string]string) {
			email := shopOf(env).Users[userID].Email
			return act("find_user_id_by_email", map[string]string{"email": email}), map[string]string{"email": email}
		},
		CheckPolicy: func(env sim.Environment, userID string, a emobench.Action) error {
			args, err := sim.CallArgs(a)
			if err != nil {
				return err
			}
			id, _ := args["order_id"].(string)
			o, ok := shopOf(env).Orders[id]
			switch {
			case !ok || o.User != userID:
				return fmt.Errorf("order %s is not the user's", id)
			case a.Name == "cancel_pending_order" && o.Status != "pending":
				return fmt.Errorf("only pending orders are cancelled")
			case a.Name == "return_delivered_order" && (o.Status != "delivered" || o.FinalSale):
				return fmt.Errorf("only delivered orders that are not final sale are returned")
			}
			return nil
		},
		ExemptArgs: []string{"summary"},
		Intents: []sim.Intent{
			{
				Name: "cancel_order", Kind: sim.IntentWrite, Path: []string{"get_order_details", "cancel_pending_order"},
				Templates: []string{"You want to cancel your order {order_id} ({item}) because you no longer need it.", "Your order {order_id} for a {item} is no longer needed and you want it cancelled."},
				Ground: func(g sim.GroundContext) (sim.Grounding, bool) {
					ids := ordersWhere(g, func(o *shopOrder) bool { return o.Status == "pending" })
					if len(ids) == 0 {
						return sim.Grounding{}, false
					}
					id, o := ids[0], shopOf(g.Env).Orders[ids[0]]
					return sim.Grounding{
						Slots:   map[string]string{"order_id": id, "item": o.Item},
						Facts:   map[string]string{"order_id": id, "reason": "no longer needed"},
						Request: emobench.Request{Text: "Cancel order " + id + "; I no longer need it.", Tools: []string{"cancel_pending_order"}},
						Actions: []emobench.Action{act("get_order_details", map[string]string{"order_id": id}), act("cancel_pending_order", map[string]string{"order_id": id, "reason": "no longer needed"})},
						Outputs: []string{o.Total},
						Uses:    []string{id},
					}, true
				},
			},
			{
				Name: "return_order", Kind: sim.IntentWrite, Path: []string{"get_user_details", "get_order_details", "return_delivered_order"},
				Templates: []string{"You received your {item} (order {order_id}) and want to return it for a refund."},
				Ground: func(g sim.GroundContext) (sim.Grounding, bool) {
					ids := ordersWhere(g, func(o *shopOrder) bool { return o.Status == "delivered" && !o.FinalSale })
					if len(ids) == 0 {
						return sim.Grounding{}, false
					}
					id, o := ids[0], shopOf(g.Env).Orders[ids[0]]
					return sim.Grounding{
						Slots:   map[string]string{"order_id": id, "item": o.Item},
						Facts:   map[string]string{"order_id": id},
						Request: emobench.Request{Text: "Return order " + id + " for a refund.", Tools: []string{"return_delivered_order"}},
						Actions: []emobench.Action{
							act("get_user_details", map[string]string{"user_id": g.UserID}),
							act("get_order_details", map[string]string{"order_id": id}),
							act("return_delivered_order", map[string]string{"order_id": id}),
						},
						Outputs: []string{},
						Uses:    []string{id},
					}, true
				},
			},
			{
				Name: "order_status", Kind: sim.IntentRead, Path: []string{"get_order_details"},
				Templates: []string{"You want to know the status of your order {order_id}."},
				Ground: func(g sim.GroundContext) (sim.Grounding, bool) {
					ids := ordersWhere(g, func(*shopOrder) bool { return true })
					id := ids[0]
					return sim.Grounding{
						Slots:   map[string]string{"order_id": id},
						Facts:   map[string]string{"order_id": id},
						Request: emobench.Request{Text: "What is the status of order " + id + "?", Tools: []string{"get_order_details"}},
						Actions: []emobench.Action{act("get_order_details", map[string]string{"order_id": id})},
						Outputs: []string{shopOf(g.Env).Orders[id].Status},
					}, true
				},
			},
			{
				Name: "return_final_sale", Kind: sim.IntentForbidden, Path: []string{"get_order_details"},
				Families:  []string{"anger", "sadness", "disgust", "fear"},
				Templates: []string{"You want to return your {item} from order {order_id} and get your money back."},
				Ground: func(g sim.GroundContext) (sim.Grounding, bool) {
					ids := ordersWhere(g, func(o *shopOrder) bool { return o.Status == "delivered" && o.FinalSale })
					if len(ids) == 0 {
						return sim.Grounding{}, false
					}
					id := ids[0]
					return sim.Grounding{
						Slots:     map[string]string{"order_id": id, "item": shopOf(g.Env).Orders[id].Item},
						Facts:     map[string]string{"order_id": id},
						Request:   emobench.Request{Text: "Return order " + id + " and refund me.", Tools: []string{"get_order_details"}},
						Actions:   []emobench.Action{act("get_order_details", map[string]string{"order_id": id})},
						Outputs:   []string{},
						Forbidden: []emobench.Action{act("return_delivered_order", map[string]string{"order_id": id})},
						Uses:      []string{id},
					}, true
				},
			},
			{
				Name: "dispute_charge", Kind: sim.IntentTransfer, Path: []string{"get_user_details", "transfer_to_human_agents"},
				Families:  []string{"anger", "fear", "sadness"},
				Templates: []string{"You see a charge you do not recognise and want to dispute it with someone who can."},
				Ground: func(g sim.GroundContext) (sim.Grounding, bool) {
					return sim.Grounding{
						Slots:   map[string]string{},
						Facts:   map[string]string{},
						Request: emobench.Request{Text: "Dispute a charge I do not recognise.", Tools: []string{"transfer_to_human_agents"}},
						Actions: []emobench.Action{
							act("get_user_details", map[string]string{"user_id": g.UserID}),
							act("transfer_to_human_agents", map[string]string{"summary": "User " + g.UserID + " disputes a charge."}),
						},
						Outputs: []string{},
					}, true
				},
			},
		},
	}
	if d.edit != nil {
		d.edit(c)
	}
	return c
}

// The shop's clone is a deep copy: equal to the initial state, sharing
// nothing with it.
func TestShopClone(t *testing.T) {
	t.Parallel()
	c := shopInitial.clone()
	if !reflect.DeepEqual(c, shopInitial) {
		t.Fatal("clone differs from the initial state")
	}
	c.Users["ana_100"].Orders[0] = "changed"
	c.Orders["#W1000"].Status = "changed"
	if shopInitial.Users["ana_100"].Orders[0] == "changed" || shopInitial.Orders["#W1000"].Status == "changed" {
		t.Fatal("a change to the clone reached the initial state")
	}
}

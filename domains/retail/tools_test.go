package retail

import (
	"encoding/json"
	"strings"
	"testing"
)

type toolCase struct {
	name    string
	tool    string
	args    string
	want    string               // a substring of the result; "" when wantErr is set
	wantErr string               // a substring of the error text
	db      func(testing.TB) *DB // the store; nil: testDB
	prior   []call               // calls made first, each succeeding
	then    []call               // reads made after, each result containing its want
	// breaks, if set, names the policy.md rule the call breaks: the tool
	// must still make it, since following the policy is the agent's job.
	breaks string
}

// call is a tool call and a substring of its result.
type call struct{ tool, args, want string }

// Reads of ana's account and of an order, for toolCase.then.
func anaHas(want string) call {
	return call{ToolGetUser, `{"user_id":"ana_silva_1000"}`, want}
}
func orderHas(id, want string) call { return call{ToolGetOrder, `{"order_id":"` + id + `"}`, want} }

func TestTools(t *testing.T) {
	cases := []toolCase{
		// find_user_id_by_email
		{name: "OK", tool: ToolFindUserByEmail, args: `{"email":" ANA@example.com "}`, want: `{"user_id":"ana_silva_1000"}`},
		{name: "ErrNotFound", tool: ToolFindUserByEmail, args: `{"email":"nobody@example.com"}`, wantErr: `no user found with email "nobody@example.com"`},
		{name: "ErrMissing", tool: ToolFindUserByEmail, args: `{}`, wantErr: `missing required argument "email"`},
		{name: "ErrUnknownField", tool: ToolFindUserByEmail, args: `{"email":"ana@example.com","name":"Ana"}`, wantErr: `unknown field "name"`},
		{name: "ErrNotObject", tool: ToolFindUserByEmail, args: `["ana@example.com"]`, wantErr: "arguments must be a JSON object"},
		// find_user_id_by_name_zip
		{name: "OK", tool: ToolFindUserByNameZip, args: `{"first_name":"ben","last_name":"ITO","zip":"97201"}`, want: `{"user_id":"ben_ito_2000"}`},
		{name: "ErrWrongZip", tool: ToolFindUserByNameZip, args: `{"first_name":"Ben","last_name":"Ito","zip":"80203"}`, wantErr: "no user found named Ben Ito with zip 80203"},
		{name: "ErrMissingZip", tool: ToolFindUserByNameZip, args: `{"first_name":"Ben","last_name":"Ito"}`, wantErr: `missing required argument "zip"`},
		// get_user_details
		{name: "OK", tool: ToolGetUser, args: `{"user_id":"ana_silva_1000"}`, want: `"gift_card_1":{"id":"gift_card_1","source":"gift_card","balance":50.00}`},
		{name: "ErrNotFound", tool: ToolGetUser, args: `{"user_id":"ana"}`, wantErr: `user "ana" not found`},
		{name: "ErrType", tool: ToolGetUser, args: `{"user_id":42}`, wantErr: "invalid arguments"},
		// get_order_details
		{name: "OK", tool: ToolGetOrder, args: `{"order_id":"#R0000002"}`, want: `"status":"delivered"`},
		{name: "OKWithoutHash", tool: ToolGetOrder, args: `{"order_id":"R0000002"}`, want: `"order_id":"#R0000002"`},
		{name: "ErrNotFound", tool: ToolGetOrder, args: `{"order_id":"#R9999999"}`, wantErr: `order "#R9999999" not found`},
		{name: "ErrNull", tool: ToolGetOrder, args: `{"order_id":null}`, wantErr: `missing required argument "order_id"`},
		// get_product_details
		{name: "OK", tool: ToolGetProduct, args: `{"product_id":"200"}`, want: `"2002":{"item_id":"2002","options":{"capacity":"500ml","color":"green"},"price":22.50,"available":true}`},
		{name: "ErrItemID", tool: ToolGetProduct, args: `{"product_id":"1001"}`, wantErr: `"1001" is an item id, not a product id`},
		{name: "ErrNotFound", tool: ToolGetProduct, args: `{"product_id":"999"}`, wantErr: `product "999" not found`},
		// list_all_product_types
		{name: "OK", tool: ToolListProducts, args: `{}`, want: `{"desk lamp":"100","water bottle":"200"}`},
		{name: "OKEmptyArgs", tool: ToolListProducts, args: ``, want: `"desk lamp":"100"`},
		{name: "ErrUnknownField", tool: ToolListProducts, args: `{"category":"lamps"}`, wantErr: `unknown field "category"`},
		// calculate
		{name: "OK", tool: ToolCalculate, args: `{"expression":"(40 + 22.5) * 2 - 1/4"}`, want: "124.75"},
		{name: "OKRounded", tool: ToolCalculate, args: `{"expression":"10 / 3"}`, want: "3.33"},
		{name: "OKUnaryMinus", tool: ToolCalculate, args: `{"expression":"-(2 - 5)"}`, want: "3"},
		{name: "ErrDivZero", tool: ToolCalculate, args: `{"expression":"1 / (2 - 2)"}`, wantErr: "division by zero"},
		{name: "ErrLetters", tool: ToolCalculate, args: `{"expression":"2 + x"}`, wantErr: `unexpected 'x' at position 4`},
		{name: "ErrUnclosed", tool: ToolCalculate, args: `{"expression":"(1 + 2"}`, wantErr: "missing ) at position 6"},
		{name: "ErrEmpty", tool: ToolCalculate, args: `{"expression":""}`, wantErr: "unexpected end of expression"},
		{name: "ErrTooLong", tool: ToolCalculate, args: `{"expression":"` + strings.Repeat("(", 300) + `"}`, wantErr: "longer than 256 characters"},
		// cancel_pending_order
		{name: "OK", tool: ToolCancelOrder, args: `{"order_id":"#R0000004","reason":"ordered by mistake"}`, want: `"status":"cancelled"`,
			then: []call{anaHas(`"balance":70.00`), orderHas("#R0000004", `"cancel_reason":"ordered by mistake"`)}}, // refunded at once
		{name: "OKRefundHistory", tool: ToolCancelOrder, args: `{"order_id":"#R0000001","reason":"no longer needed"}`,
			want: `{"transaction_type":"refund","amount":40.00,"payment_method_id":"paypal_1"}`},
		{name: "OKOthersOrder", breaks: "help only the verified user", tool: ToolCancelOrder, args: `{"order_id":"#R0000005","reason":"no longer needed"}`, want: `"status":"cancelled"`},
		{name: "ErrDelivered", tool: ToolCancelOrder, args: `{"order_id":"#R0000002","reason":"no longer needed"}`,
			wantErr: "order #R0000002 is delivered; only pending orders can be cancelled"},
		{name: "ErrNotFound", tool: ToolCancelOrder, args: `{"order_id":"#R9999999","reason":"no longer needed"}`, wantErr: `order "#R9999999" not found`},
		{name: "ErrProcessed", tool: ToolCancelOrder, args: `{"order_id":"#R0000003","reason":"no longer needed"}`,
			wantErr: "order #R0000003 is processed; only pending orders can be cancelled"},
		{name: "ErrReason", tool: ToolCancelOrder, args: `{"order_id":"#R0000001","reason":"found it cheaper"}`,
			wantErr: `reason "found it cheaper" is not 'no longer needed' or 'ordered by mistake'`},
		{name: "ErrMissingReason", tool: ToolCancelOrder, args: `{"order_id":"#R0000001"}`, wantErr: `missing required argument "reason"`},
		// modify_pending_order_address
		{name: "OK", tool: ToolModifyAddress, args: `{"order_id":"#R0000001","address1":"5 Elm Street","address2":"","city":"Boise","state":"ID","country":"USA","zip":"83702"}`,
			want: `"address":{"address1":"5 Elm Street","address2":"","city":"Boise","state":"ID","country":"USA","zip":"83702"}`,
			then: []call{anaHas(`"city":"Denver"`)}}, // the account's address unchanged
		{name: "OKNoAddress2", tool: ToolModifyAddress, args: `{"order_id":"#R0000001","address1":"5 Elm Street","city":"Boise","state":"ID","country":"USA","zip":"83702"}`,
			want: `"city":"Boise"`},
		{name: "ErrDelivered", tool: ToolModifyAddress, args: `{"order_id":"#R0000002","address1":"5 Elm Street","city":"Boise","state":"ID","country":"USA","zip":"83702"}`,
			wantErr: "order #R0000002 is delivered; only pending orders can be modified"},
		{name: "ErrZip", tool: ToolModifyAddress, args: `{"order_id":"#R0000001","address1":"5 Elm Street","city":"Boise","state":"ID","country":"USA","zip":"837"}`,
			wantErr: `zip "837" is not a five-digit zip code`},
		{name: "ErrSame", tool: ToolModifyAddress, args: `{"order_id":"#R0000001","address1":"1 Main Street","city":"Denver","state":"CO","country":"USA","zip":"80203"}`,
			wantErr: "the new address is the same as the order's current address"},
		{name: "ErrEmptyCity", tool: ToolModifyAddress, args: `{"order_id":"#R0000001","address1":"5 Elm Street","city":" ","state":"ID","country":"USA","zip":"83702"}`,
			wantErr: "city must not be empty"},
		// modify_pending_order_items
		{name: "OKCharge", tool: ToolModifyItems, args: `{"order_id":"#R0000001","item_ids":["1001"],"new_item_ids":["1004"],"payment_method_id":"gift_card_1"}`,
			want: `"items_modified":true,"payment_history":[{"transaction_type":"payment","amount":40.00,"payment_method_id":"paypal_1"},{"transaction_type":"payment","amount":5.00,"payment_method_id":"gift_card_1"}]`,
			then: []call{anaHas(`"balance":45.00`), orderHas("#R0000001", `"item_id":"1004","options":{"color":"black","power":"plug"}`)}},
		{name: "ErrUnavailable", tool: ToolModifyItems, args: `{"order_id":"#R0000001","item_ids":["1001"],"new_item_ids":["1003"],"payment_method_id":"paypal_1"}`,
			wantErr: "new item 1003 is not available"},
		{name: "OKOtherProduct", breaks: "items change only to the same product", tool: ToolModifyItems, args: `{"order_id":"#R0000001","item_ids":["1001"],"new_item_ids":["2002"],"payment_method_id":"paypal_1"}`,
			want: `"items":[{"name":"water bottle","product_id":"200","item_id":"2002","options":{"capacity":"500ml","color":"green"},"price":22.50}]`,
			then: []call{orderHas("#R0000001", `{"transaction_type":"refund","amount":17.50,"payment_method_id":"paypal_1"}`)}},
		{name: "ErrUnknownItem", tool: ToolModifyItems, args: `{"order_id":"#R0000001","item_ids":["1001"],"new_item_ids":["9999"],"payment_method_id":"paypal_1"}`,
			wantErr: `new item "9999" not found`},
		{name: "ErrSameItem", tool: ToolModifyItems, args: `{"order_id":"#R0000001","item_ids":["1001"],"new_item_ids":["1001"],"payment_method_id":"paypal_1"}`,
			wantErr: "new item 1001 is the same as the item it replaces"},
		{name: "ErrNotInOrder", tool: ToolModifyItems, args: `{"order_id":"#R0000001","item_ids":["1002"],"new_item_ids":["1004"],"payment_method_id":"paypal_1"}`,
			wantErr: `item "1002" is not in order #R0000001`},
		{name: "ErrLengths", tool: ToolModifyItems, args: `{"order_id":"#R0000001","item_ids":["1001"],"new_item_ids":[],"payment_method_id":"paypal_1"}`,
			wantErr: "new_item_ids has 0 items but item_ids has 1"},
		{name: "ErrNoItems", tool: ToolModifyItems, args: `{"order_id":"#R0000001","item_ids":[],"new_item_ids":[],"payment_method_id":"paypal_1"}`,
			wantErr: "item_ids must name at least one item"},
		{name: "ErrOthersPayment", tool: ToolModifyItems, args: `{"order_id":"#R0000001","item_ids":["1001"],"new_item_ids":["1004"],"payment_method_id":"paypal_2"}`,
			wantErr: `payment method "paypal_2" is not one of user ana_silva_1000's payment methods`},
		{name: "ErrProcessed", tool: ToolModifyItems, args: `{"order_id":"#R0000003","item_ids":["2001"],"new_item_ids":["2002"],"payment_method_id":"paypal_1"}`,
			wantErr: "order #R0000003 is processed; only pending orders can be modified"},
		// modify_pending_order_payment
		{name: "OK", tool: ToolModifyPayment, args: `{"order_id":"#R0000004","payment_method_id":"credit_card_1"}`,
			want: `{"transaction_type":"payment","amount":20.00,"payment_method_id":"credit_card_1"},{"transaction_type":"refund","amount":20.00,"payment_method_id":"gift_card_1"}`,
			then: []call{anaHas(`"balance":70.00`)}}, // refunded
		{name: "ErrSameMethod", tool: ToolModifyPayment, args: `{"order_id":"#R0000001","payment_method_id":"paypal_1"}`,
			wantErr: "order #R0000001 is already paid with paypal_1"},
		{name: "ErrOthersMethod", tool: ToolModifyPayment, args: `{"order_id":"#R0000005","payment_method_id":"gift_card_1"}`,
			wantErr: `payment method "gift_card_1" is not one of user ben_ito_2000's payment methods`},
		{name: "ErrDelivered", tool: ToolModifyPayment, args: `{"order_id":"#R0000002","payment_method_id":"paypal_1"}`,
			wantErr: "order #R0000002 is delivered; only pending orders can be modified"},
		// modify_user_address
		{name: "OK", tool: ToolModifyUserAddress, args: `{"user_id":"ben_ito_2000","address1":"77 Pine Street","address2":"Unit 3","city":"Omaha","state":"NE","country":"USA","zip":"68102"}`,
			want: `"address":{"address1":"77 Pine Street","address2":"Unit 3","city":"Omaha","state":"NE","country":"USA","zip":"68102"}`,
			then: []call{orderHas("#R0000005", `"city":"Portland"`)}}, // the order's address unchanged
		{name: "ErrUser", tool: ToolModifyUserAddress, args: `{"user_id":"nobody","address1":"77 Pine Street","city":"Omaha","state":"NE","country":"USA","zip":"68102"}`,
			wantErr: `user "nobody" not found`},
		{name: "ErrMissingCity", tool: ToolModifyUserAddress, args: `{"user_id":"ben_ito_2000","address1":"77 Pine Street","state":"NE","country":"USA","zip":"68102"}`,
			wantErr: `missing required argument "city"`},
		// return_delivered_order_items
		{name: "OKOriginal", tool: ToolReturnItems, args: `{"order_id":"#R0000002","item_ids":["1002","2001"],"payment_method_id":"credit_card_1"}`,
			want: `"status":"return requested","items_modified":false,"payment_history":[{"transaction_type":"payment","amount":62.00,"payment_method_id":"credit_card_1"}],"return":{"item_ids":["1002","2001"],"payment_method_id":"credit_card_1","refund_amount":62.00}`},
		{name: "OKGiftCard", tool: ToolReturnItems, args: `{"order_id":"#R0000002","item_ids":["2001"],"payment_method_id":"gift_card_1"}`,
			want: `"return":{"item_ids":["2001"],"payment_method_id":"gift_card_1","refund_amount":20.00}`},
		{name: "OKPayPal", breaks: "refunds go to the original method or a gift card", tool: ToolReturnItems, args: `{"order_id":"#R0000002","item_ids":["2001"],"payment_method_id":"paypal_1"}`,
			want: `"return":{"item_ids":["2001"],"payment_method_id":"paypal_1","refund_amount":20.00}`},
		{name: "ErrOthersMethod", tool: ToolReturnItems, args: `{"order_id":"#R0000002","item_ids":["2001"],"payment_method_id":"paypal_2"}`,
			wantErr: `payment method "paypal_2" is not one of user ana_silva_1000's payment methods`},
		{name: "ErrPending", tool: ToolReturnItems, args: `{"order_id":"#R0000001","item_ids":["1001"],"payment_method_id":"paypal_1"}`,
			wantErr: "order #R0000001 is pending; only delivered orders can be returned"},
		{name: "ErrTwice", tool: ToolReturnItems, args: `{"order_id":"#R0000002","item_ids":["2001","2001"],"payment_method_id":"credit_card_1"}`,
			wantErr: `item "2001" is listed twice`},
		{name: "ErrItemsType", tool: ToolReturnItems, args: `{"order_id":"#R0000002","item_ids":"2001","payment_method_id":"credit_card_1"}`,
			wantErr: "invalid arguments"},
		// exchange_delivered_order_items
		{name: "OK", tool: ToolExchangeItems, args: `{"order_id":"#R0000002","item_ids":["2001"],"new_item_ids":["2002"],"payment_method_id":"gift_card_1"}`,
			want: `"status":"exchange requested"`,
			then: []call{orderHas("#R0000002", `"exchange":{"item_ids":["2001"],"new_item_ids":["2002"],"payment_method_id":"gift_card_1","price_difference":2.50}`)}},
		{name: "OKGiftCardCharge", tool: ToolExchangeItems, args: `{"order_id":"#R0000002","item_ids":["1002"],"new_item_ids":["1004"],"payment_method_id":"gift_card_1"}`,
			want: `"price_difference":3.00`},
		{name: "ErrProcessed", tool: ToolExchangeItems, args: `{"order_id":"#R0000003","item_ids":["2001"],"new_item_ids":["2002"],"payment_method_id":"paypal_1"}`,
			wantErr: "order #R0000003 is processed; only delivered orders can be exchanged"},
		{name: "OKOtherProduct", breaks: "items change only to the same product", tool: ToolExchangeItems, args: `{"order_id":"#R0000002","item_ids":["1002"],"new_item_ids":["2002"],"payment_method_id":"paypal_1"}`,
			want: `"exchange":{"item_ids":["1002"],"new_item_ids":["2002"],"payment_method_id":"paypal_1","price_difference":-19.50}`},
		{name: "ErrUnavailable", tool: ToolExchangeItems, args: `{"order_id":"#R0000002","item_ids":["1002"],"new_item_ids":["1003"],"payment_method_id":"paypal_1"}`,
			wantErr: "new item 1003 is not available"},
		// a gift card covers what it is charged (policyDB: 1.00 on it)
		{name: "ErrGiftCardShort", tool: ToolModifyPayment, args: `{"order_id":"#R0000001","payment_method_id":"gift_card_1"}`, db: policyDB,
			wantErr: "gift card gift_card_1 has a balance of 1.00, less than the 40.00 to pay"},
		{name: "ErrGiftCardShort", tool: ToolModifyItems, args: `{"order_id":"#R0000001","item_ids":["1001"],"new_item_ids":["1004"],"payment_method_id":"gift_card_1"}`, db: policyDB,
			wantErr: "gift card gift_card_1 has a balance of 1.00, less than the 5.00 to pay"},
		{name: "ErrGiftCardShort", tool: ToolExchangeItems, args: `{"order_id":"#R0000002","item_ids":["1002"],"new_item_ids":["1004"],"payment_method_id":"gift_card_1"}`, db: policyDB,
			wantErr: "gift card gift_card_1 has a balance of 1.00, less than the 3.00 to pay"},
		// an order's items change once; a returned order is no longer delivered
		{name: "ErrModifiedTwice", tool: ToolModifyItems, args: `{"order_id":"#R0000001","item_ids":["1002"],"new_item_ids":["1004"],"payment_method_id":"paypal_1"}`,
			prior:   []call{{ToolModifyItems, `{"order_id":"#R0000001","item_ids":["1001"],"new_item_ids":["1002"],"payment_method_id":"paypal_1"}`, ""}},
			wantErr: "the items of order #R0000001 were already modified once and cannot be modified again"},
		{name: "ErrAfterReturn", tool: ToolExchangeItems, args: `{"order_id":"#R0000002","item_ids":["2001"],"new_item_ids":["2002"],"payment_method_id":"credit_card_1"}`,
			prior:   []call{{ToolReturnItems, `{"order_id":"#R0000002","item_ids":["1002"],"payment_method_id":"credit_card_1"}`, ""}},
			wantErr: "order #R0000002 is return requested; only delivered orders can be exchanged"},
		// transfer_to_human_agents
		{name: "OK", tool: ToolTransfer, args: `{"summary":"wants to change their email"}`, want: `{"message":"` + transferMessage + `","status":"transferred"}`},
		{name: "ErrEmpty", tool: ToolTransfer, args: `{"summary":"  "}`, wantErr: "summary must not be empty"},
	}
	seen := map[string][2]bool{}
	broken := map[string]bool{}
	for _, c := range cases {
		t.Run(c.tool+"/"+c.name, func(t *testing.T) {
			db := testDB
			if c.db != nil {
				db = c.db
			}
			env := newEnv(db(t))
			for _, p := range c.prior {
				if _, err := env.Call(p.tool, json.RawMessage(p.args)); err != nil {
					t.Fatalf("prior %s: %v", p.tool, err)
				}
			}
			before := env.Hash()
			got, err := env.Call(c.tool, json.RawMessage(c.args))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error = %v, want one containing %q (result %q)", err, c.wantErr, got)
				}
				if after := env.Hash(); after != before {
					t.Errorf("a failed call changed the state")
				}
				return
			}
			if err != nil {
				t.Fatalf("error = %v, want none", err)
			}
			if !strings.Contains(got, c.want) {
				t.Fatalf("result = %s, want one containing %s", got, c.want)
			}
			if c.breaks != "" && env.Hash() == before {
				t.Errorf("the call breaks the policy rule %q and succeeded, but did not change the state", c.breaks)
			}
			for _, r := range c.then {
				if got, err := env.Call(r.tool, json.RawMessage(r.args)); err != nil || !strings.Contains(got, r.want) {
					t.Errorf("then %s%s = %s, %v; want a result containing %s", r.tool, r.args, got, err, r.want)
				}
			}
		})
		if c.breaks != "" {
			broken[c.breaks] = true
		}
		s := seen[c.tool]
		s[0] = s[0] || c.wantErr == ""
		s[1] = s[1] || c.wantErr != ""
		seen[c.tool] = s
	}
	for _, tool := range Tools() {
		if s := seen[tool.Name]; !s[0] || !s[1] {
			t.Errorf("tool %s: has OK case %v, error case %v; want both", tool.Name, s[0], s[1])
		}
	}
	// Each rule of policy.md a tool used to enforce, or that a refusal
	// task relies on the tools not enforcing, has a case that breaks it.
	for _, rule := range []string{"items change only to the same product", "refunds go to the original method or a gift card", "help only the verified user"} {
		if !broken[rule] {
			t.Errorf("no tool case breaks the policy rule %q", rule)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

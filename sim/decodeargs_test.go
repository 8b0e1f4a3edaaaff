package sim

import (
	"encoding/json"
	"testing"
)

// TestDecodeArgs_TypeErrorNamesArgument: a wrong-typed argument's error
// names the argument as the agent wrote it and the kinds in JSON's words,
// never the Go struct a domain embeds (issue 22's tester saw
// ".lineArgs.customer_id of type string").
func TestDecodeArgs_TypeErrorNamesArgument(t *testing.T) {
	type customer struct {
		CustomerID string `json:"customer_id"`
	}
	type lineArgs struct {
		customer
		Phone   string  `json:"phone_number"`
		Amount  float64 `json:"amount"`
		Count   int     `json:"count"`
		Autopay bool    `json:"autopay"`
		Items   []struct {
			ID string `json:"item_id"`
		} `json:"items"`
	}
	for _, tc := range []struct{ args, want string }{
		{`{"customer_id": 123}`, `invalid arguments: argument "customer_id" is a string, not a number`},
		{`{"phone_number": ["1"]}`, `invalid arguments: argument "phone_number" is a string, not an array`},
		{`{"amount": "5"}`, `invalid arguments: argument "amount" is a number, not a string`},
		{`{"count": 1.5}`, `invalid arguments: argument "count" is a whole number, not number 1.5`},
		{`{"autopay": "yes"}`, `invalid arguments: argument "autopay" is true or false, not a string`},
		{`{"items": {"item_id": "1"}}`, `invalid arguments: argument "items" is an array, not an object`},
		{`{"items": [{"item_id": 7}]}`, `invalid arguments: argument "items.item_id" is a string, not a number`},
	} {
		var got lineArgs
		err := DecodeArgs(json.RawMessage(tc.args), &got)
		if err == nil || err.Error() != tc.want {
			t.Errorf("DecodeArgs(%s) = %v, want %q", tc.args, err, tc.want)
		}
	}
}

package sim

import (
	"testing"

	"github.com/emobench/emobench"
)

// TestOutputSaid holds the matching rules of outputs.go, one case per
// rule and the false positives the issue found (#21): "40" inside "140",
// "available" inside "unavailable", "2" in "As of 2024".
func TestOutputSaid(t *testing.T) {
	t.Parallel()
	cases := []struct {
		output, said string
		want         bool
	}{
		// quantities: the unit's words, in order, within two extra words
		// phrases: auxiliaries between words; found by the telecom
		// conformance suite
		{"not resolved", "The dropped calls have not been resolved.", true},
		{"not resolved", "It hasn't been resolved yet.", true},
		{"resolved", "It has not been resolved.", false},
		{"Dr. Oscar Tanaka", "Your provider is Dr Oscar Tanaka.", true},
		// a supposition states nothing (airline conformance finding)
		{"cancelled", "If your flight were cancelled you would be compensated, but it is flying on time.", false},
		{"cancelled", "Your flight is cancelled. If you want, I can rebook you.", true},
		{"2 bags", "You have 2 checked bags.", true},
		{"2 bags", "You have two checked bags.", true},
		{"2 checked bags", "You have 2 checked bags included.", true},
		{"2 checked bags", "You get two free checked bags.", true},
		{"2 checked bags", "You have 2 bags.", false},
		{"2 checked bags", "You have 3 checked bags.", false},
		{"2 bags", "As of 2024, bags cost $40.", false},
		{"0 refills", "There are no refills left on it.", true},
		{"0 refills", "There are 0 refills left.", true},
		{"1 refill", "You have one refill remaining.", true},
		{"5 refills", "You have 15 refills.", false},
		// money: a currency mark, value to the cent
		{"$40", "The fee is $40.", true},
		{"$40", "The fee is $40.00.", true},
		{"$40", "The fee is 40 dollars.", true},
		{"$40", "The fee is 40 USD.", true},
		{"$40", "The fee is $140.", false},
		{"$40", "The fee is $4040.", false},
		{"$40", "You have 40 points.", false},
		{"40 dollars", "That comes to $40.00 in total.", true},
		{"$1,234.50", "A refund of $1234.50 is on its way.", true},
		// bare numbers: token boundaries, outside dates
		{"40", "It is 40.", true},
		{"40", "It is 140.", false},
		{"40", "It is 4040.", false},
		{"40", "It is 40.5.", false},
		{"385.79", "Your refund is $385.79.", true},
		{"100", "Items 100,2 and 3.", true},
		{"18", "It departs on 2025-06-18.", false},
		{"100", "Your order LK100 is ready.", false},
		// dates in any common format
		{"2024-05-26", "Your flight is on May 26, 2024.", true},
		{"2024-05-26", "Your flight is on 26 May 2024.", true},
		{"2024-05-26", "Your flight is on 05/26/2024.", true},
		{"2024-05-26", "Your flight is on May 26th.", true},
		{"2024-05-26", "Your flight is on Sunday, the 26th of May.", true},
		{"2024-05-26", "Your flight is on 2024-05-26.", true},
		{"2024-05-26", "Your flight is on May 27, 2024.", false},
		{"2024-05-26", "Your flight is on May 26, 2023.", false},
		{"May 26, 2024", "It is on 2024-05-26.", true},
		// times
		{"09:00", "The visit is at 9:00 AM.", true},
		{"09:00", "The visit is at 9 am.", true},
		{"20:00", "The visit is at 8 p.m.", true},
		{"20:00", "The visit is at 8:00 AM.", false},
		// synonym sets and phrases, on word boundaries
		{"on time|on schedule|scheduled", "It is on schedule.", true},
		{"on time|on schedule|scheduled", "It is running on time today.", true},
		{"on time|on schedule|scheduled", "It is delayed.", false},
		{"available", "Status information is unavailable.", false},
		{"available", "Seats are available on that flight.", true},
		{"available", "That flight isn't available.", false},
		{"resolved", "The outage is unresolved.", false},
		{"resolved", "The outage was not resolved yet.", false},
		{"resolved", "Good news: the outage is RESOLVED!", true},
		{"Unlimited Premium", "You are on the unlimited premium plan.", true},
		{"Unlimited Premium", "You are on Unlimited Plus.", false},
		{"Dr. Oscar Tanaka", "Your provider is Dr Oscar Tanaka.", true},
		// ids: the same word
		{"#W1234567", "Order W1234567 was cancelled.", true},
		{"#W1234567", "Order W12345678 was cancelled.", false},
		{"pm_482913_1", "I used pm_482913_1.", true},
		{"LK2009", "You are on flight lk2009.", true},
	}
	for _, c := range cases {
		msgs := []emobench.Message{{Role: emobench.RoleUser, Content: c.output}, {Role: emobench.RoleAssistant, Content: c.said}}
		if got := outputSaid(c.output, msgs); got != c.want {
			t.Errorf("output %q in %q (kind %s): said = %v, want %v", c.output, c.said, outputKindOf(c.output), got, c.want)
		}
	}
}

func TestOutputKind(t *testing.T) {
	t.Parallel()
	for out, want := range map[string]outputKind{
		"2 checked bags": outputQuantity, "$40": outputMoney, "40 USD": outputMoney, "40": outputNumber,
		"2024-05-26": outputDate, "May 26th": outputDate, "09:00": outputTime, "LK2009": outputID,
		"on time|scheduled": outputAnyOf, "sulfa drugs": outputPhrase, "96% SpO2, 97 bpm": outputPhrase,
	} {
		if got := outputKindOf(out); got != want {
			t.Errorf("outputKindOf(%q) = %s, want %s", out, got, want)
		}
	}
}

func TestValidateOutput(t *testing.T) {
	t.Parallel()
	for out, ok := range map[string]bool{
		"2": false, "40": false, "ok": false, "on time|ok": false, "on time|": false, "5%": false,
		"$5": true, "2 bags": true, "100": true, "available|open": true, "Essential 10GB": true,
	} {
		if err := ValidateOutput(out); (err == nil) != ok {
			t.Errorf("ValidateOutput(%q) = %v, want ok %v", out, err, ok)
		}
	}
	task := &emobench.TaskSpec{ID: "t1", Outputs: []string{"2 bags", "40"}}
	if err := CheckOutputs(task); err == nil || err.Error() != `task t1: outputs[1]: output "40": "40" is shorter than 3 characters and has no unit (write "2 bags", "$40")` {
		t.Errorf("CheckOutputs = %v", err)
	}
}

// FuzzOutputSaid: no output or message makes the matcher or the
// validation panic.
func FuzzOutputSaid(f *testing.F) {
	for _, s := range []string{"2 checked bags", "$1,234.50", "May 26th, 2024", "9:30 p.m.", "on time|on schedule", "#W1234567", "n't", "12/31/99"} {
		f.Add(s, "You have "+s+".")
	}
	f.Fuzz(func(t *testing.T, out, said string) {
		msgs := []emobench.Message{{Role: emobench.RoleAssistant, Content: said}}
		_ = outputSaid(out, msgs)
		_ = ValidateOutput(out)
		_ = freeFormOutput(out)
	})
}

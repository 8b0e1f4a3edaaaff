package sim

import (
	"fmt"
	"math"

	"github.com/dustin/go-humanize"
)

// MoneyFromDollars converts amount, a tool argument in dollars (a JSON
// number, 65.5 for $65.50), to Money, as a payment or a credit takes it:
// a positive amount with at most two decimals, at most most (the largest
// amount the backend takes in one transaction). The error says which of
// these amount is not.
func MoneyFromDollars(amount float64, most Money) (Money, error) {
	c := math.Round(amount * 100)
	if math.IsNaN(amount) || math.IsInf(amount, 0) || math.Abs(c-amount*100) > 1e-6 || c <= 0 {
		return 0, fmt.Errorf("amount %v is not a positive number of dollars and cents", amount)
	}
	if c > float64(most) {
		return 0, fmt.Errorf("amount %v is more than the system takes in one transaction (%s)", amount, most.Format())
	}
	return Money(c), nil
}

// Format writes m as people read an amount: "$1,000,000.00", "-$5.25".
func (m Money) Format() string {
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	return sign + "$" + humanize.FormatFloat("#,###.##", m.Dollars())
}

package sim

import (
	"fmt"
	"math"
	"strconv"
)

// Money is an amount in US cents, the one money type of every domain. It
// encodes in JSON as a number of dollars with exactly two decimals (54.04,
// 40.00), so amounts never pick up float noise, and decodes any JSON
// number of dollars, rounded to the cent.
type Money int64

// Dollars returns m as a float number of dollars.
func (m Money) Dollars() float64 { return float64(m) / 100 }

// String returns m as dollars with two decimals, e.g. "54.04" or "-3.50".
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

// UnmarshalJSON decodes a JSON number of dollars, rounded to the cent; an
// error names the bad text.
func (m *Money) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsInf(f, 0) || math.Abs(f) > 9e13 {
		return fmt.Errorf("money %s is not a number of dollars", b)
	}
	*m = Money(math.Round(f * 100))
	return nil
}

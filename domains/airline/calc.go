package airline

import (
	"math"
	"strconv"
)

// formatNumber writes v rounded to two decimals without trailing zeros.
func formatNumber(v float64) string {
	r := math.Round(v*100) / 100
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

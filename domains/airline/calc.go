package airline

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// maxExpression bounds the calculator's input so that deep nesting cannot
// exhaust the stack.
const maxExpression = 200

// evaluate computes an arithmetic expression of decimal numbers, the binary
// operators + - * /, unary minus and parentheses, with the usual
// precedence.
func evaluate(expr string) (float64, error) {
	if len(expr) > maxExpression {
		return 0, fmt.Errorf("expression is longer than %d characters", maxExpression)
	}
	p := &calc{s: expr}
	v, err := p.sum()
	if err != nil {
		return 0, err
	}
	if p.skip(); p.i < len(p.s) {
		return 0, fmt.Errorf("unexpected %q at position %d", p.s[p.i], p.i)
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, errors.New("the result is not a finite number")
	}
	return v, nil
}

// formatNumber writes v rounded to two decimals without trailing zeros.
func formatNumber(v float64) string {
	r := math.Round(v*100) / 100
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

type calc struct {
	s string
	i int
}

func (p *calc) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// peek skips blanks and returns the next byte, or 0 at the end.
func (p *calc) peek() byte {
	if p.skip(); p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *calc) sum() (float64, error) {
	v, err := p.product()
	for err == nil {
		op := p.peek()
		if op != '+' && op != '-' {
			return v, nil
		}
		p.i++
		var w float64
		if w, err = p.product(); op == '+' {
			v += w
		} else {
			v -= w
		}
	}
	return 0, err
}

func (p *calc) product() (float64, error) {
	v, err := p.unary()
	for err == nil {
		op := p.peek()
		if op != '*' && op != '/' {
			return v, nil
		}
		p.i++
		var w float64
		if w, err = p.unary(); err != nil {
			break
		}
		if op == '*' {
			v *= w
		} else if w == 0 {
			return 0, errors.New("division by zero")
		} else {
			v /= w
		}
	}
	return 0, err
}

func (p *calc) unary() (float64, error) {
	switch p.peek() {
	case '-':
		p.i++
		v, err := p.unary()
		return -v, err
	case '+':
		p.i++
		return p.unary()
	case '(':
		p.i++
		v, err := p.sum()
		if err != nil {
			return 0, err
		}
		if p.peek() != ')' {
			return 0, fmt.Errorf("missing ')' at position %d", p.i)
		}
		p.i++
		return v, nil
	}
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '.') {
		p.i++
	}
	if start == p.i {
		if p.i >= len(p.s) {
			return 0, errors.New("unexpected end of expression")
		}
		return 0, fmt.Errorf("unexpected %q at position %d", p.s[p.i], p.i)
	}
	v, err := strconv.ParseFloat(p.s[start:p.i], 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %q", p.s[start:p.i])
	}
	return v, nil
}

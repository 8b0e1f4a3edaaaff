package sim

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// maxExprLen bounds the calculator's input, so deep nesting cannot blow
// the stack.
const maxExprLen = 256

// Calculate computes an arithmetic expression of numbers, + - * /, unary
// minus and parentheses, with the usual precedence: the engine of the
// domains' calculate tools. It fails on a malformed expression, one longer
// than 256 bytes, or a non-finite result.
func Calculate(expr string) (float64, error) {
	if len(expr) > maxExprLen {
		return 0, fmt.Errorf("expression longer than %d characters", maxExprLen)
	}
	p := &exprParser{s: expr}
	v, err := p.sum()
	if err != nil {
		return 0, err
	}
	p.space()
	if p.i < len(p.s) {
		return 0, fmt.Errorf("unexpected %q at position %d", p.s[p.i], p.i)
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, errors.New("the result is not a finite number")
	}
	return v, nil
}

type exprParser struct {
	s string
	i int
}

func (p *exprParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *exprParser) sum() (float64, error) {
	v, err := p.product()
	if err != nil {
		return 0, err
	}
	for {
		p.space()
		if p.i >= len(p.s) || (p.s[p.i] != '+' && p.s[p.i] != '-') {
			return v, nil
		}
		op := p.s[p.i]
		p.i++
		w, err := p.product()
		if err != nil {
			return 0, err
		}
		if op == '+' {
			v += w
		} else {
			v -= w
		}
	}
}

func (p *exprParser) product() (float64, error) {
	v, err := p.unary()
	if err != nil {
		return 0, err
	}
	for {
		p.space()
		if p.i >= len(p.s) || (p.s[p.i] != '*' && p.s[p.i] != '/') {
			return v, nil
		}
		op := p.s[p.i]
		p.i++
		w, err := p.unary()
		if err != nil {
			return 0, err
		}
		if op == '*' {
			v *= w
		} else {
			if w == 0 {
				return 0, errors.New("division by zero")
			}
			v /= w
		}
	}
}

func (p *exprParser) unary() (float64, error) {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '-' {
		p.i++
		v, err := p.unary()
		return -v, err
	}
	if p.i < len(p.s) && p.s[p.i] == '+' {
		p.i++
		return p.unary()
	}
	return p.atom()
}

func (p *exprParser) atom() (float64, error) {
	p.space()
	if p.i >= len(p.s) {
		return 0, errors.New("unexpected end of expression")
	}
	if p.s[p.i] == '(' {
		p.i++
		v, err := p.sum()
		if err != nil {
			return 0, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			return 0, fmt.Errorf("missing ) at position %d", p.i)
		}
		p.i++
		return v, nil
	}
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '.') {
		p.i++
	}
	if start == p.i {
		return 0, fmt.Errorf("unexpected %q at position %d", p.s[p.i], p.i)
	}
	v, err := strconv.ParseFloat(p.s[start:p.i], 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %q", p.s[start:p.i])
	}
	return v, nil
}

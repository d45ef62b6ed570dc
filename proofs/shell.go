package proofs

import (
	"strconv"
	"strings"
)

// shellEcho evaluates the one kind of $(shell …) the starter kit's
// proof Makefiles use to compute loop bounds, without running a shell:
// echo with words and POSIX arithmetic expansions $((…)) (nested, over
// decimal, octal and hexadecimal integers with + - * / % and
// parentheses, in 64-bit signed arithmetic), as in
// `UNWINDSET += memcmp.0:$(shell echo $$(($(MAX_STRING_LEN) + 1)))`.
// Its output is echo's: the words joined by one blank. ok is false for
// any other command, an unbalanced expansion, an expression outside
// that grammar, a division by zero or an overflow.
func shellEcho(cmd string) (out string, ok bool) {
	cmd = strings.TrimSpace(cmd)
	rest, found := strings.CutPrefix(cmd, "echo")
	if !found || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(rest); i++ {
		if strings.HasPrefix(rest[i:], "$((") {
			end := arithEnd(rest, i)
			if end < 0 {
				return "", false
			}
			v, ok := shellArith(rest[i+3 : end])
			if !ok {
				return "", false
			}
			b.WriteString(strconv.FormatInt(v, 10))
			i = end + 1
			continue
		}
		c := rest[i]
		if strings.IndexByte("$`\"'\\;|&<>(){}*?[]~#", c) >= 0 {
			return "", false // quoting, substitution, globbing: a real shell
		}
		b.WriteByte(c)
	}
	return strings.Join(strings.Fields(b.String()), " "), true
}

// arithEnd returns the index of the first ')' of the "))" that closes
// the arithmetic expansion starting at s[i] ("$(("), or -1.
func arithEnd(s string, i int) int {
	depth := 0
	for j := i + 3; j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
				continue
			}
			if j+1 < len(s) && s[j+1] == ')' {
				return j
			}
			return -1
		}
	}
	return -1
}

// shellArith evaluates an arithmetic expression of shellEcho, inner
// expansions $((…)) included.
func shellArith(s string) (int64, bool) {
	// an inner $((e)) is (e) inside an expression
	s = strings.ReplaceAll(s, "$((", "((")
	p := &arith{s: s}
	v, ok := p.sum()
	p.blank()
	return v, ok && p.i == len(p.s)
}

type arith struct {
	s string
	i int
}

func (p *arith) blank() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *arith) sum() (int64, bool) {
	v, ok := p.product()
	for ok {
		p.blank()
		if p.i >= len(p.s) || (p.s[p.i] != '+' && p.s[p.i] != '-') {
			return v, true
		}
		op := p.s[p.i]
		p.i++
		w, ok2 := p.product()
		if !ok2 {
			return 0, false
		}
		r := v + w
		if op == '-' {
			r = v - w
		}
		if (op == '+' && (w > 0 && r < v || w < 0 && r > v)) || (op == '-' && (w > 0 && r > v || w < 0 && r < v)) {
			return 0, false
		}
		v = r
	}
	return 0, false
}

func (p *arith) product() (int64, bool) {
	v, ok := p.unary()
	for ok {
		p.blank()
		if p.i >= len(p.s) || strings.IndexByte("*/%", p.s[p.i]) < 0 {
			return v, true
		}
		op := p.s[p.i]
		p.i++
		w, ok2 := p.unary()
		if !ok2 {
			return 0, false
		}
		switch op {
		case '*':
			r := v * w
			if v != 0 && (r/v != w || (v == -1 && w == -1<<63)) {
				return 0, false
			}
			v = r
		case '/', '%':
			if w == 0 || (v == -1<<63 && w == -1) {
				return 0, false
			}
			if op == '/' {
				v /= w
			} else {
				v %= w
			}
		}
	}
	return 0, false
}

func (p *arith) unary() (int64, bool) {
	p.blank()
	if p.i >= len(p.s) {
		return 0, false
	}
	switch c := p.s[p.i]; {
	case c == '-' || c == '+':
		p.i++
		v, ok := p.unary()
		if c == '-' {
			if v == -1<<63 {
				return 0, false
			}
			v = -v
		}
		return v, ok
	case c == '(':
		p.i++
		v, ok := p.sum()
		p.blank()
		if !ok || p.i >= len(p.s) || p.s[p.i] != ')' {
			return 0, false
		}
		p.i++
		return v, true
	case c >= '0' && c <= '9':
		j := p.i
		for j < len(p.s) && (p.s[j] >= '0' && p.s[j] <= '9' || p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z') {
			j++
		}
		v, err := strconv.ParseInt(p.s[p.i:j], 0, 64) // 0x…, 0… octal, as the shell reads them
		if err != nil {
			return 0, false
		}
		p.i = j
		return v, true
	}
	return 0, false
}

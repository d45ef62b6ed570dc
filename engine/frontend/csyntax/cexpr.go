package csyntax

import (
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/ctext"
)

// ParseExpr parses a side-effect-free C expression, as witnesses carry
// them (invariants, assumptions, "\result == 5"), into a typed cfa.Expr
// with the integer promotions and usual arithmetic conversions explicit
// (the front end's conventions, cfa.Expr). Identifiers resolve through
// names (source name → variable); the identifier \result, when result is
// not nil, stands for it. Supported: integer literals (decimal, octal,
// hexadecimal, suffixes u, l, ll), variables of integer, _Bool and
// pointer type, elements of arrays of integers at integer literal
// indices within their length (a[3]), parentheses, casts to integer types, unary - + ! ~,
// binary * / % + - << >> < <= > >= == != & ^ | && ||, and comparison of
// pointers with the null constant 0. Everything else is an error naming
// the construct.
func ParseExpr(s string, names map[string]*cfa.Var, result cfa.Expr, dm cfa.DataModel) (cfa.Expr, error) {
	toks, err := lexExpr(s)
	if err != nil {
		return nil, err
	}
	p := &cparser{toks: toks, names: names, result: result, dm: dm, src: s}
	e, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) {
		return nil, fmt.Errorf("unexpected %q in %q", p.toks[p.i].s, s)
	}
	return e, nil
}

type ctoken struct {
	s    string
	kind byte // 'i' identifier, 'n' number, 'p' punctuator
}

// lexExpr splits a witness expression into tokens with ctext.Scan, the one C
// scanner outside cc/v4: identifiers (\result included), numbers with
// their suffixes, and the punctuators ParseExpr knows, two-character
// operators joined when their characters are adjacent. Anything else is
// an error naming the character.
func lexExpr(s string) ([]ctoken, error) {
	var out []ctoken
	backslash, adjacent := false, false
	ctext.Scan(s, func(id string) {
		if backslash {
			id = "\\" + id
			backslash = false
		}
		out = append(out, ctoken{id, 'i'})
		adjacent = false
	}, func(t string) {
		switch {
		case t == " " || t == "\t" || t == "\n" || t == "\r" || t == "\f" || t == "\v":
			adjacent = false
			return
		case t[0] >= '0' && t[0] <= '9':
			out = append(out, ctoken{t, 'n'})
			adjacent = false
			return
		case t == "\\":
			backslash = true
			return
		}
		if n := len(out); adjacent && n > 0 && out[n-1].kind == 'p' && len(out[n-1].s) == 1 {
			switch two := out[n-1].s + t; two {
			case "<=", ">=", "==", "!=", "&&", "||", "<<", ">>":
				out[n-1].s = two
				adjacent = false
				return
			}
		}
		out = append(out, ctoken{t, 'p'})
		adjacent = true
	})
	for _, t := range out {
		if t.kind == 'p' && (!strings.Contains("()[]+-*/%<>=!~&|^", t.s[:1]) || t.s == "=") {
			return nil, fmt.Errorf("unsupported character %q in %q", t.s, s)
		}
	}
	if backslash {
		return nil, fmt.Errorf("unsupported character %q in %q", "\\", s)
	}
	return out, nil
}

type cparser struct {
	toks   []ctoken
	i      int
	names  map[string]*cfa.Var
	result cfa.Expr
	dm     cfa.DataModel
	src    string
}

func (p *cparser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].s
	}
	return ""
}

var binPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5,
	"==": 6, "!=": 6, "<": 7, "<=": 7, ">": 7, ">=": 7,
	"<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

var binOps = map[string]cfa.BinaryOp{
	"||": cfa.LOr, "&&": cfa.LAnd, "|": cfa.Or, "^": cfa.Xor, "&": cfa.And,
	"==": cfa.Eq, "!=": cfa.Ne, "<": cfa.Lt, "<=": cfa.Le, ">": cfa.Gt, ">=": cfa.Ge,
	"<<": cfa.Shl, ">>": cfa.Shr, "+": cfa.Add, "-": cfa.Sub, "*": cfa.Mul, "/": cfa.Div, "%": cfa.Rem,
}

// expr parses a binary expression of precedence above min (precedence
// climbing).
func (p *cparser) expr(min int) (cfa.Expr, error) {
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		op := p.peek()
		prec, ok := binPrec[op]
		if !ok || prec <= min || p.toks[p.i].kind != 'p' {
			return x, nil
		}
		p.i++
		y, err := p.expr(prec)
		if err != nil {
			return nil, err
		}
		if x, err = p.binary(binOps[op], x, y); err != nil {
			return nil, err
		}
	}
}

func (p *cparser) unary() (cfa.Expr, error) {
	switch p.peek() {
	case "":
		return nil, fmt.Errorf("unexpected end of %q", p.src)
	case "-", "~", "+", "!":
		op := p.peek()
		p.i++
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if !scalarInt(x.Type()) && op != "!" {
			return nil, fmt.Errorf("operator %s on a non-integer in %q", op, p.src)
		}
		switch op {
		case "!":
			return &cfa.Unary{Op: cfa.LNot, X: x, T: cfa.IntT}, nil
		case "+":
			return promoteExpr(x), nil
		case "-":
			x = promoteExpr(x)
			return &cfa.Unary{Op: cfa.Neg, X: x, T: x.Type()}, nil
		}
		x = promoteExpr(x)
		return &cfa.Unary{Op: cfa.BNot, X: x, T: x.Type()}, nil
	case "(":
		if t, n, ok := p.typeName(p.i + 1); ok && n < len(p.toks) && p.toks[n].s == ")" {
			p.i = n + 1
			x, err := p.unary()
			if err != nil {
				return nil, err
			}
			if !scalarInt(x.Type()) {
				return nil, fmt.Errorf("cast of a non-integer in %q", p.src)
			}
			if cfa.Same(x.Type(), t) {
				return x, nil
			}
			return &cfa.Cast{X: x, T: t}, nil
		}
		p.i++
		x, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, fmt.Errorf("missing ) in %q", p.src)
		}
		p.i++
		return x, nil
	}
	t := p.toks[p.i]
	p.i++
	switch t.kind {
	case 'n':
		return p.literal(t.s)
	case 'i':
		if t.s == `\result` {
			if p.result == nil {
				return nil, fmt.Errorf(`\result outside a function_return waypoint in %q`, p.src)
			}
			return p.result, nil
		}
		if strings.HasPrefix(t.s, `\`) {
			return nil, fmt.Errorf("unsupported ACSL term %s in %q", t.s, p.src)
		}
		v := p.names[t.s]
		if v == nil {
			return nil, fmt.Errorf("unknown variable %s in %q", t.s, p.src)
		}
		if v.T.Kind == cfa.Array && p.peek() == "[" {
			return p.element(v)
		}
		if !(v.T.IsInteger() || v.T.Kind == cfa.Pointer) {
			return nil, fmt.Errorf("variable %s of type %s in %q", t.s, v.T, p.src)
		}
		return &cfa.VarRef{Var: v}, nil
	}
	return nil, fmt.Errorf("unexpected %q in %q", t.s, p.src)
}

// element parses "[k]" after the array variable a: its element at the
// integer literal k, which must be within a's length, of integer type.
func (p *cparser) element(a *cfa.Var) (cfa.Expr, error) {
	p.i++ // [
	if p.i >= len(p.toks) || p.toks[p.i].kind != 'n' {
		return nil, fmt.Errorf("an index of %s other than an integer literal in %q", a.Orig, p.src)
	}
	k, ok := ParseIntLiteral(p.toks[p.i].s)
	p.i++
	if !ok || a.T.Len < 0 || k >= uint64(a.T.Len) {
		return nil, fmt.Errorf("index %s of %s outside its %d elements in %q", p.toks[p.i-1].s, a.Orig, a.T.Len, p.src)
	}
	if p.peek() != "]" {
		return nil, fmt.Errorf("missing ] in %q", p.src)
	}
	p.i++
	et := a.T.Elem
	if et == nil || !et.IsInteger() {
		return nil, fmt.Errorf("element of %s of type %s in %q", a.Orig, et, p.src)
	}
	return &cfa.Index{X: &cfa.VarRef{Var: a}, I: cfa.NewConst(cfa.IntT, int64(k)), T: et}, nil
}

// typeName parses an integer type name starting at token i; it returns
// the type and the index after it.
func (p *cparser) typeName(i int) (*cfa.Type, int, bool) {
	unsigned, long, short, char, boolean := false, 0, false, false, false
	n := i
	for ; n < len(p.toks) && p.toks[n].kind == 'i'; n++ {
		switch p.toks[n].s {
		case "signed", "int", "const", "volatile":
		case "unsigned":
			unsigned = true
		case "long":
			long++
		case "short":
			short = true
		case "char":
			char = true
		case "_Bool":
			boolean = true
		default:
			return nil, 0, false
		}
	}
	if n == i {
		return nil, 0, false
	}
	if boolean {
		return cfa.BoolType, n, true
	}
	bits := 32
	switch {
	case char:
		bits = 8
	case short:
		bits = 16
	case long >= 2:
		bits = 64
	case long == 1:
		bits = 64
		if p.dm == cfa.ILP32 {
			bits = 32
		}
	}
	return cfa.IntType(bits, !unsigned), n, true
}

// literal types an integer constant as C99 6.4.4.1 does.
func (p *cparser) literal(s string) (cfa.Expr, error) {
	v, ok := ParseIntLiteral(s)
	if !ok {
		return nil, fmt.Errorf("bad integer literal %s in %q", s, p.src)
	}
	low := strings.ToLower(s)
	suffix := low[len(strings.TrimRight(low, "ul")):]
	unsigned := strings.Contains(suffix, "u")
	longs := strings.Count(suffix, "l")
	digits := strings.TrimRight(low, "ul")
	decimal := !(strings.HasPrefix(digits, "0") && len(digits) > 1)
	longBits := 64
	if p.dm == cfa.ILP32 {
		longBits = 32
	}
	type cand struct {
		bits   int
		signed bool
	}
	var cands []cand
	for _, c := range []cand{{32, true}, {32, false}, {longBits, true}, {longBits, false}, {64, true}, {64, false}} {
		switch {
		case longs == 1 && c.bits < longBits, longs >= 2 && c.bits < 64:
		case unsigned && c.signed:
		case decimal && !unsigned && !c.signed:
		default:
			cands = append(cands, c)
		}
	}
	for _, c := range cands {
		max := uint64(1)<<uint(c.bits) - 1
		if c.bits == 64 {
			max = ^uint64(0)
		}
		if c.signed {
			max >>= 1
		}
		if v <= max {
			return &cfa.Const{T: cfa.IntType(c.bits, c.signed), V: v}, nil
		}
	}
	return nil, fmt.Errorf("integer literal %s too large in %q", s, p.src)
}

func scalarInt(t *cfa.Type) bool { return t.IsInteger() }

// promoteExpr applies the integer promotions.
func promoteExpr(x cfa.Expr) cfa.Expr {
	t := x.Type()
	if t.Kind == cfa.Bool || t.Kind == cfa.Int && t.Bits < 32 {
		return &cfa.Cast{X: x, T: cfa.IntT}
	}
	return x
}

func convert(x cfa.Expr, t *cfa.Type) cfa.Expr {
	if cfa.Same(x.Type(), t) {
		return x
	}
	if c, ok := x.(*cfa.Const); ok && t.Kind == cfa.Int {
		return &cfa.Const{T: t, V: cfa.Truncate(c.V, t.Bits)}
	}
	return &cfa.Cast{X: x, T: t}
}

func (p *cparser) binary(op cfa.BinaryOp, x, y cfa.Expr) (cfa.Expr, error) {
	xt, yt := x.Type(), y.Type()
	if op == cfa.LAnd || op == cfa.LOr {
		return &cfa.Binary{Op: op, X: x, Y: y, T: cfa.IntT}, nil
	}
	if xt.Kind == cfa.Pointer || yt.Kind == cfa.Pointer {
		if op != cfa.Eq && op != cfa.Ne {
			return nil, fmt.Errorf("pointer arithmetic in %q", p.src)
		}
		if xt.Kind != cfa.Pointer {
			x, y = y, x
			xt, yt = yt, xt
		}
		c, ok := y.(*cfa.Const)
		if yt.Kind == cfa.Pointer || !ok || c.V != 0 {
			return nil, fmt.Errorf("pointer comparison other than with 0 in %q", p.src)
		}
		return &cfa.Binary{Op: op, X: x, Y: &cfa.Const{T: xt, V: 0}, T: cfa.IntT}, nil
	}
	x, y = promoteExpr(x), promoteExpr(y)
	if op == cfa.Shl || op == cfa.Shr {
		return &cfa.Binary{Op: op, X: x, Y: y, T: x.Type()}, nil
	}
	t := cfa.UsualArithmetic(x.Type(), y.Type())
	x, y = convert(x, t), convert(y, t)
	rt := t
	if op.IsComparison() {
		rt = cfa.IntT
	}
	return &cfa.Binary{Op: op, X: x, Y: y, T: rt}, nil
}

// ParseIntLiteral parses a C integer literal (decimal, octal, hex, with
// suffixes).
func ParseIntLiteral(s string) (uint64, bool) {
	s = strings.TrimRight(strings.ToLower(s), "ul")
	base := uint64(10)
	switch {
	case strings.HasPrefix(s, "0x"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	if s == "" {
		return 0, false
	}
	var v uint64
	for _, c := range s {
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		v = v*base + d
	}
	return v, true
}

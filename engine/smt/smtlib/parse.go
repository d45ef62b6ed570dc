package smtlib

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/smt"
)

// SExpr is a parsed SMT-LIB s-expression: an atom (Atom set) or a list.
type SExpr struct {
	Atom string
	List []*SExpr
}

// IsList reports whether e is a list.
func (e *SExpr) IsList() bool { return e.Atom == "" }

// ParseSExprs parses SMT-LIB text into its top-level s-expressions
// (comments after ';' skipped; |quoted| symbols keep their bars; string
// literals are atoms). It returns an error naming the offset of an
// unbalanced parenthesis or an unterminated symbol or string.
func ParseSExprs(text string) ([]*SExpr, error) {
	var stack [][]*SExpr
	var top []*SExpr
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ';':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(':
			stack = append(stack, top)
			top = nil
			i++
		case c == ')':
			if len(stack) == 0 {
				return nil, fmt.Errorf("offset %d: unbalanced ')'", i)
			}
			list := &SExpr{List: top}
			if list.List == nil {
				list.List = []*SExpr{}
			}
			top = append(stack[len(stack)-1], list)
			stack = stack[:len(stack)-1]
			i++
		case c == '|' || c == '"':
			j := strings.IndexByte(text[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("offset %d: unterminated %c", i, c)
			}
			top = append(top, &SExpr{Atom: text[i : i+j+2]})
			i += j + 2
		default:
			j := i
			for j < len(text) && !strings.ContainsRune("() \t\n\r;|\"", rune(text[j])) {
				j++
			}
			top = append(top, &SExpr{Atom: text[i:j]})
			i = j
		}
	}
	if len(stack) > 0 {
		return nil, fmt.Errorf("offset %d: %d unclosed '('", len(text), len(stack))
	}
	return top, nil
}

// ParseTerm converts an s-expression of QF_ABV (with let) into a term of
// b; env maps symbols to terms (variables, let-bound names). It returns
// an error for an operator or sort it does not know, or sorts that do
// not fit.
func ParseTerm(b *smt.Builder, e *SExpr, env map[string]*smt.Term) (t *smt.Term, err error) {
	defer func() {
		// the builder panics on sort mismatches
		if x := recover(); x != nil {
			t, err = nil, fmt.Errorf("ill-sorted term: %v", x)
		}
	}()
	return parseTerm(b, e, env)
}

func parseTerm(b *smt.Builder, e *SExpr, env map[string]*smt.Term) (*smt.Term, error) {
	if !e.IsList() {
		return parseAtom(b, e.Atom, env)
	}
	if len(e.List) == 0 {
		return nil, fmt.Errorf("empty list")
	}
	head := e.List[0]
	if head.IsList() && len(head.List) == 3 && head.List[0].Atom == "as" && head.List[1].Atom == "const" && len(e.List) == 2 {
		// ((as const (Array I E)) x): the constant array of x
		srt, err := ParseSort(head.List[2])
		if err != nil || !srt.IsArray() {
			return nil, fmt.Errorf("constant array of sort %s", sexprString(head.List[2]))
		}
		x, err := parseTerm(b, e.List[1], env)
		if err != nil {
			return nil, err
		}
		return b.ConstArray(srt, x), nil
	}
	if head.IsList() {
		// indexed operators: ((_ extract i j) x), ((_ zero_extend k) x)
		if len(head.List) >= 2 && head.List[0].Atom == "_" && len(e.List) == 2 {
			x, err := parseTerm(b, e.List[1], env)
			if err != nil {
				return nil, err
			}
			nums := make([]int, len(head.List)-2)
			for i, a := range head.List[2:] {
				n, err := strconv.Atoi(a.Atom)
				if err != nil {
					return nil, fmt.Errorf("index %q", a.Atom)
				}
				nums[i] = n
			}
			switch op := head.List[1].Atom; {
			case op == "extract" && len(nums) == 2:
				return b.Extract(x, nums[0], nums[1]), nil
			case op == "zero_extend" && len(nums) == 1:
				return b.ZeroExt(x, x.Sort.Width+nums[0]), nil
			case op == "sign_extend" && len(nums) == 1:
				return b.SignExt(x, x.Sort.Width+nums[0]), nil
			}
		}
		return nil, fmt.Errorf("operator %s", sexprString(head))
	}
	op := head.Atom
	args := e.List[1:]
	switch op {
	case "let":
		if len(args) != 2 || !args[0].IsList() {
			return nil, fmt.Errorf("malformed let")
		}
		inner := make(map[string]*smt.Term, len(env)+len(args[0].List))
		for k, v := range env {
			inner[k] = v
		}
		for _, bind := range args[0].List {
			if !bind.IsList() || len(bind.List) != 2 || bind.List[0].IsList() {
				return nil, fmt.Errorf("malformed let binding")
			}
			v, err := parseTerm(b, bind.List[1], env)
			if err != nil {
				return nil, err
			}
			inner[bind.List[0].Atom] = v
		}
		return parseTerm(b, args[1], inner)
	case "!":
		if len(args) < 1 {
			return nil, fmt.Errorf("malformed annotation")
		}
		return parseTerm(b, args[0], env)
	}
	xs := make([]*smt.Term, len(args))
	for i, a := range args {
		x, err := parseTerm(b, a, env)
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	fold := func(f func(x, y *smt.Term) *smt.Term) (*smt.Term, error) {
		if len(xs) < 2 {
			return nil, fmt.Errorf("%s with %d arguments", op, len(xs))
		}
		r := xs[0]
		for _, x := range xs[1:] {
			r = f(r, x)
		}
		return r, nil
	}
	n := len(xs)
	switch op {
	case "and":
		if n == 0 {
			return b.True(), nil
		}
		return b.And(xs...), nil
	case "or":
		if n == 0 {
			return b.False(), nil
		}
		return b.Or(xs...), nil
	case "not":
		if n == 1 {
			return b.Not(xs[0]), nil
		}
	case "=>":
		if n == 2 {
			return b.Implies(xs[0], xs[1]), nil
		}
	case "ite":
		if n == 3 {
			return b.Ite(xs[0], xs[1], xs[2]), nil
		}
	case "=":
		if n >= 2 {
			var cs []*smt.Term
			for i := 1; i < n; i++ {
				cs = append(cs, b.Eq(xs[i-1], xs[i]))
			}
			return b.And(cs...), nil
		}
	case "distinct":
		if n == 2 {
			return b.Not(b.Eq(xs[0], xs[1])), nil
		}
	case "bvadd":
		return fold(b.Add)
	case "bvmul":
		return fold(b.Mul)
	case "bvand":
		return fold(b.BAnd)
	case "bvor":
		return fold(b.BOr)
	case "bvxor":
		return fold(b.BXor)
	case "concat":
		return fold(b.Concat)
	case "bvneg", "bvnot":
		if n == 1 {
			if op == "bvneg" {
				return b.Neg(xs[0]), nil
			}
			return b.BNot(xs[0]), nil
		}
	}
	if n == 2 {
		x, y := xs[0], xs[1]
		switch op {
		case "bvsub":
			return b.Sub(x, y), nil
		case "bvudiv":
			return b.UDiv(x, y), nil
		case "bvsdiv":
			return b.SDiv(x, y), nil
		case "bvurem":
			return b.URem(x, y), nil
		case "bvsrem":
			return b.SRem(x, y), nil
		case "bvshl":
			return b.Shl(x, y), nil
		case "bvlshr":
			return b.LShr(x, y), nil
		case "bvashr":
			return b.AShr(x, y), nil
		case "bvult":
			return b.Ult(x, y), nil
		case "bvule":
			return b.Ule(x, y), nil
		case "bvugt":
			return b.Ult(y, x), nil
		case "bvuge":
			return b.Ule(y, x), nil
		case "bvslt":
			return b.Slt(x, y), nil
		case "bvsle":
			return b.Sle(x, y), nil
		case "bvsgt":
			return b.Slt(y, x), nil
		case "bvsge":
			return b.Sle(y, x), nil
		case "select":
			return b.Select(x, y), nil
		}
	}
	if op == "store" && n == 3 {
		return b.Store(xs[0], xs[1], xs[2]), nil
	}
	return nil, fmt.Errorf("operator %s with %d arguments", op, n)
}

// ParseSort reads Bool, (_ BitVec w) and (Array (_ BitVec i) (_ BitVec
// e)), the sorts of smt.Sort's String.
func ParseSort(e *SExpr) (smt.Sort, error) {
	bv := func(e *SExpr) (int, bool) {
		if !e.IsList() || len(e.List) != 3 || e.List[0].Atom != "_" || e.List[1].Atom != "BitVec" {
			return 0, false
		}
		w, err := strconv.Atoi(e.List[2].Atom)
		return w, err == nil && w >= 1 && w <= 128
	}
	switch {
	case e.Atom == "Bool":
		return smt.BoolSort, nil
	case e.IsList() && len(e.List) == 3 && e.List[0].Atom == "Array":
		i, ok1 := bv(e.List[1])
		w, ok2 := bv(e.List[2])
		if ok1 && ok2 {
			return smt.ArraySort(i, w), nil
		}
	default:
		if w, ok := bv(e); ok {
			return smt.BVSort(w), nil
		}
	}
	return smt.Sort{}, fmt.Errorf("sort %s", sexprString(e))
}

func parseAtom(b *smt.Builder, a string, env map[string]*smt.Term) (*smt.Term, error) {
	if t, ok := env[a]; ok {
		return t, nil
	}
	switch {
	case a == "true":
		return b.True(), nil
	case a == "false":
		return b.False(), nil
	case strings.HasPrefix(a, "#x") && len(a) > 2:
		v, ok := new(big.Int).SetString(a[2:], 16)
		if !ok {
			return nil, fmt.Errorf("constant %s", a)
		}
		return bigConst(b, v, 4*(len(a)-2))
	case strings.HasPrefix(a, "#b") && len(a) > 2:
		v, ok := new(big.Int).SetString(a[2:], 2)
		if !ok {
			return nil, fmt.Errorf("constant %s", a)
		}
		return bigConst(b, v, len(a)-2)
	}
	return nil, fmt.Errorf("unknown symbol %s", a)
}

func bigConst(b *smt.Builder, v *big.Int, w int) (*smt.Term, error) {
	if w < 1 || w > 128 {
		return nil, fmt.Errorf("constant of %d bits", w)
	}
	lo := new(big.Int).And(v, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi := new(big.Int).Rsh(v, 64).Uint64()
	return b.BV128(lo, hi, w), nil
}

// sexprString prints e back as text (for error messages).
func sexprString(e *SExpr) string {
	if !e.IsList() {
		return e.Atom
	}
	parts := make([]string, len(e.List))
	for i, x := range e.List {
		parts[i] = sexprString(x)
	}
	return "(" + strings.Join(parts, " ") + ")"
}

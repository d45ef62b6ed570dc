package smt

import (
	"fmt"
	"strconv"
	"strings"
)

// Sort is the sort of a term: Bool (Width 0), a bit-vector of Width bits
// (1..128), or, when Index > 0, an array from bit-vectors of Index bits to
// bit-vectors of Width bits (used for memory objects).
type Sort struct {
	Width int
	Index int
}

// BoolSort is the sort of formulas.
var BoolSort = Sort{}

// BVSort returns the bit-vector sort of width w (1..128).
func BVSort(w int) Sort {
	if w < 1 || w > 128 {
		panic(fmt.Sprintf("smt.BVSort: width %d out of range 1..128", w))
	}
	return Sort{Width: w}
}

// ArraySort returns the sort of arrays from BV(index) to BV(elem).
func ArraySort(index, elem int) Sort { return Sort{Width: elem, Index: index} }

// IsBool reports whether s is Bool.
func (s Sort) IsBool() bool { return s.Width == 0 && s.Index == 0 }

// IsBV reports whether s is a bit-vector sort.
func (s Sort) IsBV() bool { return s.Width > 0 && s.Index == 0 }

// IsArray reports whether s is an array sort.
func (s Sort) IsArray() bool { return s.Index > 0 }

func (s Sort) String() string {
	switch {
	case s.IsArray():
		return fmt.Sprintf("(Array (_ BitVec %d) (_ BitVec %d))", s.Index, s.Width)
	case s.Width == 0:
		return "Bool"
	}
	return fmt.Sprintf("(_ BitVec %d)", s.Width)
}

// Op is the operator of a term.
type Op uint8

// Operators. Bit-vector operators follow SMT-LIB QF_ABV semantics exactly
// (in particular bvudiv x 0 = all ones, bvurem x 0 = x, and bvsdiv/bvsrem
// derived from them); C semantics are layered on top in csem.go.
const (
	True    Op = iota // Bool constant
	False             // Bool constant
	BVConst           // bit-vector constant: Val (bits 0..63), Hi (bits 64..127)
	Var               // free constant: Name, Sort
	Not               // Bool
	And               // Bool, binary
	Or                // Bool, binary
	Implies           // Bool
	Ite               // (ite c a b), a and b of any equal sort
	Eq                // equality of two terms of equal sort
	Add
	Sub
	Mul
	UDiv
	SDiv
	URem
	SRem
	Shl
	LShr
	AShr
	BAnd
	BOr
	BXor
	BNot
	Neg
	Ult // Bool
	Ule // Bool
	Slt // Bool
	Sle // Bool
	ZeroExt
	SignExt
	Extract // bits HiBit..Lo of Args[0]
	Concat  // Args[0] is the high part
	Select  // (select array index)
	Store   // (store array index value)
	ConstArray
	numOps
)

var opNames = [...]string{
	True: "true", False: "false", BVConst: "const", Var: "var",
	Not: "not", And: "and", Or: "or", Implies: "=>", Ite: "ite", Eq: "=",
	Add: "bvadd", Sub: "bvsub", Mul: "bvmul", UDiv: "bvudiv", SDiv: "bvsdiv",
	URem: "bvurem", SRem: "bvsrem", Shl: "bvshl", LShr: "bvlshr", AShr: "bvashr",
	BAnd: "bvand", BOr: "bvor", BXor: "bvxor", BNot: "bvnot", Neg: "bvneg",
	Ult: "bvult", Ule: "bvule", Slt: "bvslt", Sle: "bvsle",
	ZeroExt: "zero_extend", SignExt: "sign_extend", Extract: "extract", Concat: "concat",
	Select: "select", Store: "store", ConstArray: "const-array",
}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("op%d", o)
}

// Term is a hash-consed term: a Builder returns the same pointer for
// structurally equal terms, so terms are compared with ==. Terms are
// immutable; never modify their fields.
type Term struct {
	Op   Op
	Sort Sort
	Args []*Term
	// Val and Hi hold a BVConst's bits 0..63 and 64..127, truncated to
	// the width.
	Val, Hi uint64
	// Name is a Var's name.
	Name string
	// Lo and HiBit are the bit range of an Extract (inclusive).
	Lo, HiBit int
	// ID is dense per Builder, in creation order (arguments before the
	// terms using them).
	ID int
}

// IsConst reports whether t is True, False or a BVConst.
func (t *Term) IsConst() bool { return t.Op == True || t.Op == False || t.Op == BVConst }

// Uint64 returns the low 64 bits of a constant (1 for True, 0 for False).
func (t *Term) Uint64() uint64 {
	if t.Op == True {
		return 1
	}
	return t.Val
}

// Int64 returns a BVConst's value sign-extended from its width (at most
// 64 bits meaningful).
func (t *Term) Int64() int64 {
	w := t.Sort.Width
	if w >= 64 {
		return int64(t.Val)
	}
	s := uint(64 - w)
	return int64(t.Val<<s) >> s
}

func (t *Term) val() bv { return bv{t.Val, t.Hi} }

// String returns the term as an SMT-LIB s-expression. Shared subterms are
// printed as often as they occur, so use it for debugging and tests of
// small terms; it is deterministic.
func (t *Term) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *Term) write(b *strings.Builder) {
	t.WriteWith(b, func(a *Term) { a.write(b) })
}

// WriteWith writes t's SMT-LIB s-expression with its arguments written
// by arg (the whole term for constants and variables): a writer names
// shared subterms through arg (package smtlib).
func (t *Term) WriteWith(b *strings.Builder, arg func(*Term)) {
	switch t.Op {
	case True, False:
		b.WriteString(t.Op.String())
		return
	case BVConst:
		writeConst(b, t.val(), t.Sort.Width)
		return
	case Var:
		b.WriteString(quoteSym(t.Name))
		return
	case ConstArray:
		fmt.Fprintf(b, "((as const %s) ", t.Sort)
		arg(t.Args[0])
		b.WriteByte(')')
		return
	}
	b.WriteByte('(')
	switch t.Op {
	case ZeroExt, SignExt:
		fmt.Fprintf(b, "(_ %s %d)", t.Op, t.Sort.Width-t.Args[0].Sort.Width)
	case Extract:
		fmt.Fprintf(b, "(_ extract %d %d)", t.HiBit, t.Lo)
	default:
		b.WriteString(t.Op.String())
	}
	for _, a := range t.Args {
		b.WriteByte(' ')
		arg(a)
	}
	b.WriteByte(')')
}

func writeConst(b *strings.Builder, v bv, w int) {
	if w%4 == 0 {
		b.WriteString("#x")
		for i := w/4 - 1; i >= 0; i-- {
			nib := v.lshr(4*i, 128).lo & 15
			b.WriteByte("0123456789abcdef"[nib])
		}
		return
	}
	b.WriteString("#b")
	for i := w - 1; i >= 0; i-- {
		if v.bit(i) {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
}

func quoteSym(s string) string {
	simple := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("~!@$%^&*_-+=<>.?/", r)) {
			simple = false
			break
		}
	}
	if simple && !(s[0] >= '0' && s[0] <= '9') {
		return s
	}
	return "|" + strings.ReplaceAll(s, "|", "\\|") + "|"
}

// Vars returns the free variables (Var terms) of ts in order of first
// occurrence in a depth-first, left-to-right traversal.
func Vars(ts ...*Term) []*Term {
	var out []*Term
	seen := map[*Term]bool{}
	var stack []*Term
	for i := len(ts) - 1; i >= 0; i-- {
		stack = append(stack, ts[i])
	}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t == nil || seen[t] {
			continue
		}
		seen[t] = true
		if t.Op == Var {
			out = append(out, t)
			continue
		}
		for i := len(t.Args) - 1; i >= 0; i-- {
			stack = append(stack, t.Args[i])
		}
	}
	return out
}

// Substitute replaces, everywhere in t, each key of m by its value (of the
// same sort) and rebuilds the term with b (so constant folding applies).
func Substitute(b *Builder, t *Term, m map[*Term]*Term) *Term {
	memo := make(map[*Term]*Term, len(m))
	for k, v := range m {
		if k.Sort != v.Sort {
			panic(fmt.Sprintf("smt.Substitute: %s has sort %s, replacement sort %s", k, k.Sort, v.Sort))
		}
		memo[k] = v
	}
	return b.rebuild(t, memo)
}

// rebuild rebuilds t bottom-up, mapping through memo (iteratively, so
// deep terms do not exhaust the stack).
func (b *Builder) rebuild(root *Term, memo map[*Term]*Term) *Term {
	type item struct {
		t    *Term
		done bool
	}
	stack := []item{{root, false}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if _, ok := memo[it.t]; ok {
			continue
		}
		if len(it.t.Args) == 0 {
			memo[it.t] = it.t
			continue
		}
		if !it.done {
			stack = append(stack, item{it.t, true})
			for _, a := range it.t.Args {
				if _, ok := memo[a]; !ok {
					stack = append(stack, item{a, false})
				}
			}
			continue
		}
		args := make([]*Term, len(it.t.Args))
		changed := false
		for i, a := range it.t.Args {
			args[i] = memo[a]
			if args[i] != a {
				changed = true
			}
		}
		if !changed {
			memo[it.t] = it.t
			continue
		}
		memo[it.t] = b.Apply(it.t, args)
	}
	return memo[root]
}

// Apply builds a term with t's operator and parameters (sort, extract
// bounds) over new arguments, simplifying.
func (b *Builder) Apply(t *Term, args []*Term) *Term {
	switch t.Op {
	case Not:
		return b.Not(args[0])
	case And:
		return b.And(args[0], args[1])
	case Or:
		return b.Or(args[0], args[1])
	case Implies:
		return b.Implies(args[0], args[1])
	case Ite:
		return b.Ite(args[0], args[1], args[2])
	case Eq:
		return b.Eq(args[0], args[1])
	case Add, Sub, Mul, UDiv, SDiv, URem, SRem, Shl, LShr, AShr, BAnd, BOr, BXor:
		return b.bin(t.Op, args[0], args[1])
	case Ult, Ule, Slt, Sle:
		return b.cmp(t.Op, args[0], args[1])
	case BNot:
		return b.BNot(args[0])
	case Neg:
		return b.Neg(args[0])
	case ZeroExt:
		return b.ZeroExt(args[0], t.Sort.Width)
	case SignExt:
		return b.SignExt(args[0], t.Sort.Width)
	case Extract:
		return b.Extract(args[0], t.HiBit, t.Lo)
	case Concat:
		return b.Concat(args[0], args[1])
	case Select:
		return b.Select(args[0], args[1])
	case Store:
		return b.Store(args[0], args[1], args[2])
	case ConstArray:
		return b.ConstArray(t.Sort, args[0])
	}
	if len(args) == 0 {
		return t
	}
	panic("smt.Apply: unknown op " + t.Op.String())
}

// Describe returns a one-line summary of t for error messages: its op,
// sort and ID.
func (t *Term) Describe() string {
	return t.Op.String() + ":" + t.Sort.String() + "#" + strconv.Itoa(t.ID)
}

// DistinctTerms counts the distinct terms of ts and their subterms (the
// size of the DAG they share).
func DistinctTerms(ts []*Term) int {
	seen := map[*Term]bool{}
	stack := append([]*Term(nil), ts...)
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !seen[t] {
			seen[t] = true
			stack = append(stack, t.Args...)
		}
	}
	return len(seen)
}

package smt

import (
	"fmt"
	"sort"
	"strconv"
	"sync"
)

type key struct {
	op         Op
	sort       Sort
	a0, a1, a2 int32 // argument IDs + 1 (0: absent)
	val, hi    uint64
	name       string
	lo, hiBit  int
}

// Builder creates hash-consed terms: structurally equal terms are the same
// pointer, and term IDs are dense in creation order. Every constructor
// folds constants (SMT-LIB semantics) and applies cheap simplifications
// (x+0, x&0, x∧false, ¬¬x, ite with a constant condition, x=x, select over
// store with equal or distinct constant indices, extract over concat, …).
// A Builder is safe for concurrent use. Mixing terms of different Builders
// is a bug (constructors panic on sort errors, not on that).
type Builder struct {
	mu    sync.Mutex
	terms map[key]*Term
	all   []*Term
	fresh map[string]int
	t, f  *Term
	// chains indexes the stores at constant indices made by Store
	// (storeChain), by their result
	chains map[*Term]chainRef
}

// storeChain indexes a chain of stores at constant indices, each on the
// previous one's result, so that Select at a constant index finds the
// store that wrote it by binary search instead of walking the chain: a
// path through a loop that fills an array of 1,024 elements and then
// reads them (SV-COMP's array_3-2) inlines into 1,024 nested stores and
// hundreds of selects, which a bounded walk left to Z3's rewriter at
// assertion time (3.3 s of a 3.6 s check).
type storeChain struct {
	base *Term                   // the array below the chain's first store
	top  int                     // depth of the chain's last store (the first is 1)
	at   map[uint64][]chainEntry // per index, its stores in depth order
}

type chainEntry struct {
	depth int
	val   *Term
}

// chainRef is a store's place in its chain.
type chainRef struct {
	c     *storeChain
	depth int
}

// addStore records t = store(a, i, v) with a constant index i (b.mu
// held): on top of a's chain when a is its last store, else as the
// first store of a chain over a.
func (b *Builder) addStore(t, a *Term, i uint64, v *Term) {
	if b.chains == nil {
		b.chains = map[*Term]chainRef{}
	}
	if _, seen := b.chains[t]; seen {
		return
	}
	if ref, ok := b.chains[a]; ok && ref.depth == ref.c.top {
		c := ref.c
		c.top++
		c.at[i] = append(c.at[i], chainEntry{c.top, v})
		b.chains[t] = chainRef{c, c.top}
		return
	}
	c := &storeChain{base: a, top: 1, at: map[uint64][]chainEntry{i: {{1, v}}}}
	b.chains[t] = chainRef{c, 1}
}

// chainSelect follows a's store chains for the constant index i: the
// value of the last store at i below a, or the array below every chain
// that has none (b.mu held).
func (b *Builder) chainSelect(a *Term, i uint64) (val, below *Term) {
	for {
		ref, ok := b.chains[a]
		if !ok {
			return nil, a
		}
		es := ref.c.at[i]
		k := sort.Search(len(es), func(j int) bool { return es[j].depth > ref.depth }) - 1
		if k >= 0 {
			return es[k].val, nil
		}
		a = ref.c.base
	}
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	b := &Builder{terms: map[key]*Term{}, fresh: map[string]int{}}
	b.t = b.mk(key{op: True}, nil)
	b.f = b.mk(key{op: False}, nil)
	return b
}

// Len is the number of distinct terms built so far.
func (b *Builder) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.all)
}

// Term returns the term with the given ID.
func (b *Builder) Term(id int) *Term {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.all[id]
}

func (b *Builder) mk(k key, args []*Term) *Term {
	for i, a := range args {
		id := int32(a.ID + 1)
		switch i {
		case 0:
			k.a0 = id
		case 1:
			k.a1 = id
		case 2:
			k.a2 = id
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if t, ok := b.terms[k]; ok {
		return t
	}
	t := &Term{Op: k.op, Sort: k.sort, Args: args, Val: k.val, Hi: k.hi, Name: k.name, Lo: k.lo, HiBit: k.hiBit, ID: len(b.all)}
	b.terms[k] = t
	b.all = append(b.all, t)
	return t
}

// NextID returns the ID the next new term will get: every term made
// after the call has an ID at least as large.
func (b *Builder) NextID() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.all)
}

// True returns the constant true.
func (b *Builder) True() *Term { return b.t }

// False returns the constant false.
func (b *Builder) False() *Term { return b.f }

// Bool returns true or false.
func (b *Builder) Bool(v bool) *Term {
	if v {
		return b.t
	}
	return b.f
}

// BV returns the constant v, truncated to width w (1..128; bits above 64
// are zero, see BV128 and BVInt for wider values).
func (b *Builder) BV(v uint64, w int) *Term { return b.BV128(v, 0, w) }

// BVInt returns the constant v of width w, two's complement (sign-extended
// to widths above 64).
func (b *Builder) BVInt(v int64, w int) *Term {
	hi := uint64(0)
	if v < 0 {
		hi = ^uint64(0)
	}
	return b.BV128(uint64(v), hi, w)
}

// BV128 returns the constant with bits 0..63 lo and 64..127 hi, truncated
// to width w.
func (b *Builder) BV128(lo, hi uint64, w int) *Term {
	v := bv{lo, hi}.trunc(w)
	return b.mk(key{op: BVConst, sort: BVSort(w), val: v.lo, hi: v.hi}, nil)
}

func (b *Builder) cnst(v bv, w int) *Term { return b.BV128(v.lo, v.hi, w) }

// Var returns the free constant name of sort s; the same name and sort give
// the same term. Using one name with two sorts gives two distinct terms,
// which solvers reject: keep names unique.
func (b *Builder) Var(name string, s Sort) *Term {
	return b.mk(key{op: Var, sort: s, name: name}, nil)
}

// FreshVar returns a variable whose name, prefix followed by "!" and a
// number, was not returned by FreshVar before.
func (b *Builder) FreshVar(prefix string, s Sort) *Term {
	b.mu.Lock()
	n := b.fresh[prefix]
	b.fresh[prefix] = n + 1
	b.mu.Unlock()
	return b.Var(prefix+"!"+strconv.Itoa(n), s)
}

func mustBool(op string, ts ...*Term) {
	for _, t := range ts {
		if !t.Sort.IsBool() {
			panic(fmt.Sprintf("smt.%s: argument of sort %s, want Bool", op, t.Sort))
		}
	}
}

func mustBV(op string, ts ...*Term) int {
	w := ts[0].Sort.Width
	for _, t := range ts {
		if !t.Sort.IsBV() || t.Sort.Width != w {
			panic(fmt.Sprintf("smt.%s: arguments of sorts %s and %s", op, ts[0].Sort, t.Sort))
		}
	}
	return w
}

// Not returns ¬x.
func (b *Builder) Not(x *Term) *Term {
	mustBool("Not", x)
	switch x.Op {
	case True:
		return b.f
	case False:
		return b.t
	case Not:
		return x.Args[0]
	}
	return b.mk(key{op: Not}, []*Term{x})
}

func ordered(x, y *Term) (*Term, *Term) {
	if x.IsConst() && !y.IsConst() || !x.IsConst() == !y.IsConst() && x.ID > y.ID {
		return y, x
	}
	return x, y
}

func isNegOf(x, y *Term) bool {
	return x.Op == Not && x.Args[0] == y || y.Op == Not && y.Args[0] == x
}

// And returns the conjunction of xs (true for none), built as a
// left-nested binary term.
func (b *Builder) And(xs ...*Term) *Term {
	r := b.t
	for _, x := range xs {
		r = b.and2(r, x)
	}
	return r
}

func (b *Builder) and2(x, y *Term) *Term {
	mustBool("And", x, y)
	switch {
	case x.Op == False || y.Op == False:
		return b.f
	case x.Op == True:
		return y
	case y.Op == True:
		return x
	case x == y:
		return x
	case isNegOf(x, y):
		return b.f
	}
	x, y = ordered(x, y)
	return b.mk(key{op: And}, []*Term{x, y})
}

// Or returns the disjunction of xs (false for none).
func (b *Builder) Or(xs ...*Term) *Term {
	r := b.f
	for _, x := range xs {
		r = b.or2(r, x)
	}
	return r
}

func (b *Builder) or2(x, y *Term) *Term {
	mustBool("Or", x, y)
	switch {
	case x.Op == True || y.Op == True:
		return b.t
	case x.Op == False:
		return y
	case y.Op == False:
		return x
	case x == y:
		return x
	case isNegOf(x, y):
		return b.t
	}
	x, y = ordered(x, y)
	return b.mk(key{op: Or}, []*Term{x, y})
}

// Implies returns x ⇒ y.
func (b *Builder) Implies(x, y *Term) *Term {
	mustBool("Implies", x, y)
	switch {
	case x.Op == False || y.Op == True || x == y:
		return b.t
	case x.Op == True:
		return y
	case y.Op == False:
		return b.Not(x)
	}
	return b.mk(key{op: Implies}, []*Term{x, y})
}

// Ite returns if c then x else y; x and y have equal sorts (any).
func (b *Builder) Ite(c, x, y *Term) *Term {
	mustBool("Ite", c)
	if x.Sort != y.Sort {
		panic(fmt.Sprintf("smt.Ite: branches of sorts %s and %s", x.Sort, y.Sort))
	}
	switch {
	case c.Op == True || x == y:
		return x
	case c.Op == False:
		return y
	case c.Op == Not:
		return b.Ite(c.Args[0], y, x)
	}
	if x.Sort.IsBool() {
		switch {
		case x.Op == True && y.Op == False:
			return c
		case x.Op == False && y.Op == True:
			return b.Not(c)
		case x.Op == True:
			return b.Or(c, y)
		case y.Op == False:
			return b.And(c, x)
		case x.Op == False:
			return b.And(b.Not(c), y)
		case y.Op == True:
			return b.Or(b.Not(c), x)
		}
	}
	// ite(c, ite(c, a, _), y) = ite(c, a, y) and symmetric
	if x.Op == Ite && x.Args[0] == c {
		return b.Ite(c, x.Args[1], y)
	}
	if y.Op == Ite && y.Args[0] == c {
		return b.Ite(c, x, y.Args[2])
	}
	return b.mk(key{op: Ite, sort: x.Sort}, []*Term{c, x, y})
}

// Eq returns x = y (any equal sorts; on Bool it is ⇔).
func (b *Builder) Eq(x, y *Term) *Term {
	if x.Sort != y.Sort {
		panic(fmt.Sprintf("smt.Eq: arguments of sorts %s and %s", x.Sort, y.Sort))
	}
	if x == y {
		return b.t
	}
	if x.IsConst() && y.IsConst() {
		return b.f // hash-consing: equal constants are the same term
	}
	x, y = ordered(x, y)
	if x.Sort.IsBool() {
		switch y.Op {
		case True:
			return x
		case False:
			return b.Not(x)
		}
	}
	if y.Op == BVConst {
		// ite(c, k1, k2) = k  →  c, ¬c, true or false
		if x.Op == Ite && x.Args[1].Op == BVConst && x.Args[2].Op == BVConst {
			e1, e2 := x.Args[1] == y, x.Args[2] == y
			switch {
			case e1 && e2:
				return b.t
			case e1:
				return x.Args[0]
			case e2:
				return b.Not(x.Args[0])
			}
			return b.f
		}
		// zero_extend(x) = k
		if x.Op == ZeroExt {
			iw := x.Args[0].Sort.Width
			if !y.val().lshr(iw, 128).isZero() {
				return b.f
			}
			return b.Eq(x.Args[0], b.cnst(y.val(), iw))
		}
	}
	return b.mk(key{op: Eq}, []*Term{x, y})
}

// Distinct returns x ≠ y.
func (b *Builder) Distinct(x, y *Term) *Term { return b.Not(b.Eq(x, y)) }

// Add returns x + y (mod 2^w).
func (b *Builder) Add(x, y *Term) *Term { return b.bin(Add, x, y) }

// Sub returns x − y (mod 2^w).
func (b *Builder) Sub(x, y *Term) *Term { return b.bin(Sub, x, y) }

// Mul returns x · y (mod 2^w).
func (b *Builder) Mul(x, y *Term) *Term { return b.bin(Mul, x, y) }

// UDiv returns bvudiv x y (all ones when y = 0).
func (b *Builder) UDiv(x, y *Term) *Term { return b.bin(UDiv, x, y) }

// SDiv returns bvsdiv x y (SMT-LIB: truncating; y = 0 gives −1 or 1).
func (b *Builder) SDiv(x, y *Term) *Term { return b.bin(SDiv, x, y) }

// URem returns bvurem x y (x when y = 0).
func (b *Builder) URem(x, y *Term) *Term { return b.bin(URem, x, y) }

// SRem returns bvsrem x y (sign of x; x when y = 0).
func (b *Builder) SRem(x, y *Term) *Term { return b.bin(SRem, x, y) }

// Shl returns bvshl x y (0 when y ≥ w).
func (b *Builder) Shl(x, y *Term) *Term { return b.bin(Shl, x, y) }

// LShr returns bvlshr x y (0 when y ≥ w).
func (b *Builder) LShr(x, y *Term) *Term { return b.bin(LShr, x, y) }

// AShr returns bvashr x y (sign fill when y ≥ w).
func (b *Builder) AShr(x, y *Term) *Term { return b.bin(AShr, x, y) }

// BAnd returns bitwise x & y.
func (b *Builder) BAnd(x, y *Term) *Term { return b.bin(BAnd, x, y) }

// BOr returns bitwise x | y.
func (b *Builder) BOr(x, y *Term) *Term { return b.bin(BOr, x, y) }

// BXor returns bitwise x ^ y.
func (b *Builder) BXor(x, y *Term) *Term { return b.bin(BXor, x, y) }

func commutative(op Op) bool {
	switch op {
	case Add, Mul, BAnd, BOr, BXor:
		return true
	}
	return false
}

func foldBin(op Op, x, y bv, w int) bv {
	switch op {
	case Add:
		return x.add(y, w)
	case Sub:
		return x.sub(y, w)
	case Mul:
		return x.mul(y, w)
	case UDiv:
		return x.udiv(y, w)
	case SDiv:
		return x.sdiv(y, w)
	case URem:
		return x.urem(y, w)
	case SRem:
		return x.srem(y, w)
	case Shl:
		return x.shl(y.amount(), w)
	case LShr:
		return x.lshr(y.amount(), w)
	case AShr:
		return x.ashr(y.amount(), w)
	case BAnd:
		return bv{x.lo & y.lo, x.hi & y.hi}
	case BOr:
		return bv{x.lo | y.lo, x.hi | y.hi}
	case BXor:
		return bv{x.lo ^ y.lo, x.hi ^ y.hi}
	}
	panic("smt: foldBin " + op.String())
}

func (b *Builder) bin(op Op, x, y *Term) *Term {
	w := mustBV(op.String(), x, y)
	if x.Op == BVConst && y.Op == BVConst {
		return b.cnst(foldBin(op, x.val(), y.val(), w), w)
	}
	if commutative(op) {
		x, y = ordered(x, y)
	}
	zero := func(t *Term) bool { return t.Op == BVConst && t.val().isZero() }
	ones := func(t *Term) bool { return t.Op == BVConst && t.val() == maskOf(w) }
	one := func(t *Term) bool { return t.Op == BVConst && t.val() == bv{1, 0} }
	switch op {
	case Add:
		if zero(y) {
			return x
		}
		// (x + c1) + c2 = x + (c1+c2)
		if y.Op == BVConst && x.Op == Add && x.Args[1].Op == BVConst {
			return b.Add(x.Args[0], b.cnst(x.Args[1].val().add(y.val(), w), w))
		}
	case Sub:
		if zero(y) {
			return x
		}
		if x == y {
			return b.BV(0, w)
		}
		if y.Op == BVConst {
			return b.Add(x, b.cnst(y.val().neg(w), w))
		}
	case Mul:
		if zero(y) {
			return y
		}
		if one(y) {
			return x
		}
	case UDiv, SDiv:
		if one(y) {
			return x
		}
	case URem, SRem:
		if one(y) {
			return b.BV(0, w)
		}
	case Shl, LShr, AShr:
		if zero(y) {
			return x
		}
		if zero(x) {
			return x
		}
	case BAnd:
		if zero(y) {
			return y
		}
		if ones(y) || x == y {
			return x
		}
	case BOr:
		if zero(y) || x == y {
			return x
		}
		if ones(y) {
			return y
		}
	case BXor:
		if zero(y) {
			return x
		}
		if x == y {
			return b.BV(0, w)
		}
	}
	return b.mk(key{op: op, sort: x.Sort}, []*Term{x, y})
}

// BNot returns bitwise ~x.
func (b *Builder) BNot(x *Term) *Term {
	w := mustBV("BNot", x)
	switch x.Op {
	case BVConst:
		v := x.val()
		return b.cnst(bv{^v.lo, ^v.hi}, w)
	case BNot:
		return x.Args[0]
	}
	return b.mk(key{op: BNot, sort: x.Sort}, []*Term{x})
}

// Neg returns −x (mod 2^w).
func (b *Builder) Neg(x *Term) *Term {
	w := mustBV("Neg", x)
	switch x.Op {
	case BVConst:
		return b.cnst(x.val().neg(w), w)
	case Neg:
		return x.Args[0]
	}
	return b.mk(key{op: Neg, sort: x.Sort}, []*Term{x})
}

// Ult returns x <u y.
func (b *Builder) Ult(x, y *Term) *Term { return b.cmp(Ult, x, y) }

// Ule returns x ≤u y.
func (b *Builder) Ule(x, y *Term) *Term { return b.cmp(Ule, x, y) }

// Slt returns x <s y.
func (b *Builder) Slt(x, y *Term) *Term { return b.cmp(Slt, x, y) }

// Sle returns x ≤s y.
func (b *Builder) Sle(x, y *Term) *Term { return b.cmp(Sle, x, y) }

// Ugt returns x >u y.
func (b *Builder) Ugt(x, y *Term) *Term { return b.cmp(Ult, y, x) }

// Uge returns x ≥u y.
func (b *Builder) Uge(x, y *Term) *Term { return b.cmp(Ule, y, x) }

// Sgt returns x >s y.
func (b *Builder) Sgt(x, y *Term) *Term { return b.cmp(Slt, y, x) }

// Sge returns x ≥s y.
func (b *Builder) Sge(x, y *Term) *Term { return b.cmp(Sle, y, x) }

func (b *Builder) cmp(op Op, x, y *Term) *Term {
	w := mustBV(op.String(), x, y)
	if x.Op == BVConst && y.Op == BVConst {
		xv, yv := x.val(), y.val()
		switch op {
		case Ult:
			return b.Bool(xv.ult(yv))
		case Ule:
			return b.Bool(!yv.ult(xv))
		case Slt:
			return b.Bool(xv.slt(yv, w))
		case Sle:
			return b.Bool(!yv.slt(xv, w))
		}
	}
	if x == y {
		return b.Bool(op == Ule || op == Sle)
	}
	return b.mk(key{op: op}, []*Term{x, y})
}

// ZeroExt zero-extends x to width w ≥ x's width.
func (b *Builder) ZeroExt(x *Term, w int) *Term {
	xw := mustBV("ZeroExt", x)
	switch {
	case w == xw:
		return x
	case w < xw:
		panic(fmt.Sprintf("smt.ZeroExt: from %d to %d bits", xw, w))
	case x.Op == BVConst:
		return b.cnst(x.val(), w)
	case x.Op == ZeroExt:
		return b.ZeroExt(x.Args[0], w)
	}
	return b.mk(key{op: ZeroExt, sort: BVSort(w)}, []*Term{x})
}

// SignExt sign-extends x to width w ≥ x's width.
func (b *Builder) SignExt(x *Term, w int) *Term {
	xw := mustBV("SignExt", x)
	switch {
	case w == xw:
		return x
	case w < xw:
		panic(fmt.Sprintf("smt.SignExt: from %d to %d bits", xw, w))
	case x.Op == BVConst:
		return b.cnst(x.val().sext(xw, w), w)
	case x.Op == SignExt:
		return b.SignExt(x.Args[0], w)
	}
	return b.mk(key{op: SignExt, sort: BVSort(w)}, []*Term{x})
}

// Extract returns bits hi..lo (inclusive) of x.
func (b *Builder) Extract(x *Term, hi, lo int) *Term {
	xw := mustBV("Extract", x)
	if lo < 0 || hi < lo || hi >= xw {
		panic(fmt.Sprintf("smt.Extract: bits %d..%d of a %d-bit term", hi, lo, xw))
	}
	w := hi - lo + 1
	switch {
	case w == xw:
		return x
	case x.Op == BVConst:
		return b.cnst(x.val().extract(hi, lo), w)
	case x.Op == Extract:
		return b.Extract(x.Args[0], hi+x.Lo, lo+x.Lo)
	case x.Op == Concat:
		h, l := x.Args[0], x.Args[1]
		lw := l.Sort.Width
		if hi < lw {
			return b.Extract(l, hi, lo)
		}
		if lo >= lw {
			return b.Extract(h, hi-lw, lo-lw)
		}
	case x.Op == ZeroExt || x.Op == SignExt:
		iw := x.Args[0].Sort.Width
		if hi < iw {
			return b.Extract(x.Args[0], hi, lo)
		}
		if x.Op == ZeroExt && lo >= iw {
			return b.BV(0, w)
		}
	case x.Op == BAnd || x.Op == BOr || x.Op == BXor:
		if x.Args[1].Op == BVConst {
			return b.bin(x.Op, b.Extract(x.Args[0], hi, lo), b.Extract(x.Args[1], hi, lo))
		}
	case x.Op == Ite && x.Args[1].Op == BVConst && x.Args[2].Op == BVConst:
		return b.Ite(x.Args[0], b.Extract(x.Args[1], hi, lo), b.Extract(x.Args[2], hi, lo))
	}
	return b.mk(key{op: Extract, sort: BVSort(w), lo: lo, hiBit: hi}, []*Term{x})
}

// Concat returns the bit-vector with hi as the high part and lo as the low
// part.
func (b *Builder) Concat(hi, lo *Term) *Term {
	hw, lw := mustBV("Concat", hi), mustBV("Concat", lo)
	w := hw + lw
	if hi.Op == BVConst && lo.Op == BVConst {
		return b.cnst(hi.val().concat(lo.val(), lw, w), w)
	}
	// adjacent extracts of the same term merge
	if hi.Op == Extract && lo.Op == Extract && hi.Args[0] == lo.Args[0] && hi.Lo == lo.HiBit+1 {
		return b.Extract(hi.Args[0], hi.HiBit, lo.Lo)
	}
	// concat(extract(x, a, b), concat(extract(x, b-1, c), rest))
	if hi.Op == Extract && lo.Op == Concat && lo.Args[0].Op == Extract {
		m := lo.Args[0]
		if m.Args[0] == hi.Args[0] && hi.Lo == m.HiBit+1 {
			return b.Concat(b.Extract(hi.Args[0], hi.HiBit, m.Lo), lo.Args[1])
		}
	}
	// concat(0, x) = zero_extend(x)
	if hi.Op == BVConst && hi.val().isZero() {
		return b.ZeroExt(lo, w)
	}
	return b.mk(key{op: Concat, sort: BVSort(w)}, []*Term{hi, lo})
}

// ConstArray returns the array of sort s (an array sort) mapping every
// index to v.
func (b *Builder) ConstArray(s Sort, v *Term) *Term {
	if !s.IsArray() || v.Sort != BVSort(s.Width) {
		panic(fmt.Sprintf("smt.ConstArray: sort %s with value of sort %s", s, v.Sort))
	}
	return b.mk(key{op: ConstArray, sort: s}, []*Term{v})
}

// Select returns a[i].
func (b *Builder) Select(a, i *Term) *Term {
	if !a.Sort.IsArray() || i.Sort != BVSort(a.Sort.Index) {
		panic(fmt.Sprintf("smt.Select: array of sort %s, index of sort %s", a.Sort, i.Sort))
	}
	if a.Op == Store && i.Op == BVConst && i.Sort.Width <= 64 { // only stores are in chains
		b.mu.Lock()
		v, below := b.chainSelect(a, i.Val)
		b.mu.Unlock()
		if v != nil {
			return v
		}
		a = below
	}
	// Walk down stores whose index is a constant different from a
	// constant i, at most maxSelectWalk of them: long store chains (a loop
	// filling an array along a path) would make inlining quadratic, and
	// leaving the select to the solver is always correct.
walk:
	for n := 0; n < maxSelectWalk; n++ {
		switch a.Op {
		case ConstArray:
			return a.Args[0]
		case Store:
			if a.Args[1] == i {
				return a.Args[2]
			}
			if a.Args[1].Op == BVConst && i.Op == BVConst {
				a = a.Args[0]
				continue
			}
			if off, ok := ConstDiff(a.Args[1], i); ok && off != 0 {
				a = a.Args[0]
				continue
			}
		}
		break walk
	}
	return b.mk(key{op: Select, sort: BVSort(a.Sort.Width)}, []*Term{a, i})
}

// maxSelectWalk bounds Select's walk down a store chain.
const maxSelectWalk = 64

// ConstDiff reports whether x and y differ by a known constant (x = t + c1,
// y = t + c2, or two constants; widths up to 64 bits) and returns
// c1 − c2 (low 64 bits).
func ConstDiff(x, y *Term) (uint64, bool) {
	split := func(t *Term) (*Term, uint64) {
		if t.Op == Add && t.Args[1].Op == BVConst {
			return t.Args[0], t.Args[1].Val
		}
		if t.Op == BVConst {
			return nil, t.Val
		}
		return t, 0
	}
	bx, cx := split(x)
	by, cy := split(y)
	if bx != by || x.Sort.Width > 64 {
		return 0, false
	}
	return cx - cy, true
}

// Store returns a with a[i] replaced by v.
func (b *Builder) Store(a, i, v *Term) *Term {
	if !a.Sort.IsArray() || i.Sort != BVSort(a.Sort.Index) || v.Sort != BVSort(a.Sort.Width) {
		panic(fmt.Sprintf("smt.Store: array of sort %s, index %s, value %s", a.Sort, i.Sort, v.Sort))
	}
	if a.Op == Store && a.Args[1] == i {
		a = a.Args[0]
	}
	if b.Select(a, i) == v {
		return a
	}
	t := b.mk(key{op: Store, sort: a.Sort}, []*Term{a, i, v})
	if i.Op == BVConst && i.Sort.Width <= 64 {
		b.mu.Lock()
		b.addStore(t, a, i.Val, v)
		b.mu.Unlock()
	}
	return t
}

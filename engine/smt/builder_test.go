package smt_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
	"github.com/reverify/reverify/engine/smt"
)

func TestHashConsing(t *testing.T) {
	b := smt.NewBuilder()
	x := b.Var("x", smt.BVSort(32))
	y := b.Var("y", smt.BVSort(32))
	if b.Var("x", smt.BVSort(32)) != x {
		t.Error("Var not shared")
	}
	if b.Var("x", smt.BVSort(16)) == x {
		t.Error("Var of another sort shared")
	}
	s1 := b.Add(x, y)
	if b.Add(x, y) != s1 || b.Add(y, x) != s1 {
		t.Error("Add not hash-consed (commutative)")
	}
	if b.Sub(x, y) == b.Sub(y, x) {
		t.Error("Sub treated as commutative")
	}
	for i := 0; i < b.Len(); i++ {
		if b.Term(i).ID != i {
			t.Fatalf("ID %d at %d", b.Term(i).ID, i)
		}
	}
	f1, f2 := b.FreshVar("v", smt.BoolSort), b.FreshVar("v", smt.BoolSort)
	if f1 == f2 || f1.Name == f2.Name {
		t.Error("FreshVar not fresh")
	}
	if s1.ID <= x.ID || s1.ID <= y.ID {
		t.Error("IDs not in creation order")
	}
}

func TestFoldingAndSimplification(t *testing.T) {
	b := smt.NewBuilder()
	x := b.Var("x", smt.BVSort(8))
	p := b.Var("p", smt.BoolSort)
	k := func(v uint64) *smt.Term { return b.BV(v, 8) }
	tests := []struct {
		name      string
		got, want *smt.Term
	}{
		{"x+0", b.Add(x, k(0)), x},
		{"0+x", b.Add(k(0), x), x},
		{"x-0", b.Sub(x, k(0)), x},
		{"x-x", b.Sub(x, x), k(0)},
		{"x*1", b.Mul(x, k(1)), x},
		{"x*0", b.Mul(x, k(0)), k(0)},
		{"x&0", b.BAnd(x, k(0)), k(0)},
		{"x&ff", b.BAnd(x, k(0xff)), x},
		{"x|0", b.BOr(x, k(0)), x},
		{"x^x", b.BXor(x, x), k(0)},
		{"~~x", b.BNot(b.BNot(x)), x},
		{"--x", b.Neg(b.Neg(x)), x},
		{"(x+1)+2", b.Add(b.Add(x, k(1)), k(2)), b.Add(x, k(3))},
		{"x-1", b.Sub(x, k(1)), b.Add(x, k(0xff))},
		{"p∧false", b.And(p, b.False()), b.False()},
		{"p∧true", b.And(p, b.True()), p},
		{"p∧¬p", b.And(p, b.Not(p)), b.False()},
		{"p∨¬p", b.Or(p, b.Not(p)), b.True()},
		{"¬¬p", b.Not(b.Not(p)), p},
		{"ite(true)", b.Ite(b.True(), x, k(3)), x},
		{"ite(false)", b.Ite(b.False(), x, k(3)), k(3)},
		{"ite(p,x,x)", b.Ite(p, x, x), x},
		{"ite(p,1,0)=1", b.Eq(b.Ite(p, k(1), k(0)), k(1)), p},
		{"ite(p,1,0)=0", b.Eq(b.Ite(p, k(1), k(0)), k(0)), b.Not(p)},
		{"x=x", b.Eq(x, x), b.True()},
		{"3=4", b.Eq(k(3), k(4)), b.False()},
		{"x<x", b.Ult(x, x), b.False()},
		{"x≤x", b.Sle(x, x), b.True()},
		{"extract(concat)", b.Extract(b.Concat(x, k(5)), 15, 8), x},
		{"concat(extracts)", b.Concat(b.Extract(x, 7, 4), b.Extract(x, 3, 0)), x},
		{"extract(zext)", b.Extract(b.ZeroExt(x, 32), 7, 0), x},
		{"extract(zext) high", b.Extract(b.ZeroExt(x, 32), 31, 8), b.BV(0, 24)},
		{"zext(zext)", b.ZeroExt(b.ZeroExt(x, 16), 32), b.ZeroExt(x, 32)},
		{"zext(x)=300", b.Eq(b.ZeroExt(x, 16), b.BV(300, 16)), b.False()},
		{"zext(x)=3", b.Eq(b.ZeroExt(x, 16), b.BV(3, 16)), b.Eq(x, k(3))},
		{"-128 sdiv -1", b.SDiv(k(0x80), k(0xff)), k(0x80)},
		{"udiv by 0", b.UDiv(k(7), k(0)), k(0xff)},
		{"urem by 0", b.URem(k(7), k(0)), k(7)},
		{"sdiv -7 by 0", b.SDiv(k(0xf9), k(0)), k(1)},
		{"sdiv 7 by 0", b.SDiv(k(7), k(0)), k(0xff)},
		{"srem -7 by 0", b.SRem(k(0xf9), k(0)), k(0xf9)},
		{"srem -7 2", b.SRem(k(0xf9), k(2)), k(0xff)},
		{"sdiv -7 2", b.SDiv(k(0xf9), k(2)), k(0xfd)},
		{"shl 9", b.Shl(k(1), k(9)), k(0)},
		{"ashr", b.AShr(k(0x80), k(3)), k(0xf0)},
		{"ashr 200", b.AShr(k(0x80), k(200)), k(0xff)},
		{"lshr", b.LShr(k(0x80), k(3)), k(0x10)},
		{"sext", b.SignExt(k(0x80), 16), b.BV(0xff80, 16)},
		{"slt", b.Slt(k(0xff), k(0)), b.True()},
		{"ult", b.Ult(k(0xff), k(0)), b.False()},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s = %s, want %s", tc.name, tc.got, tc.want)
		}
	}
}

func TestWideConstants(t *testing.T) {
	b := smt.NewBuilder()
	w := 128
	max := b.BV128(^uint64(0), ^uint64(0), w)
	one := b.BV(1, w)
	if got := b.Add(max, one); got != b.BV(0, w) {
		t.Errorf("max+1 = %s", got)
	}
	if got := b.Mul(b.BV128(0, 1, w), b.BV128(0, 1, w)); got != b.BV(0, w) {
		t.Errorf("2^64·2^64 = %s", got)
	}
	if got := b.Mul(b.BV(1<<63, w), b.BV(4, w)); got != b.BV128(0, 2, w) {
		t.Errorf("2^63·4 = %s", got)
	}
	if got := b.UDiv(b.BV128(0, 10, w), b.BV(5, w)); got != b.BV128(0, 2, w) {
		t.Errorf("10·2^64/5 = %s", got)
	}
	if got := b.SDiv(b.BVInt(-10, w), b.BV(3, w)); got != b.BVInt(-3, w) {
		t.Errorf("-10/3 = %s", got)
	}
	if got := b.AShr(b.BVInt(-256, w), b.BV(100, w)); got != b.BVInt(-1, w) {
		t.Errorf("-256>>100 = %s", got)
	}
	if got := b.Extract(b.BV128(0xab, 0xcd, w), 71, 64); got != b.BV(0xcd, 8) {
		t.Errorf("extract = %s", got)
	}
}

func TestString(t *testing.T) {
	b := smt.NewBuilder()
	x := b.Var("main::x@1", smt.BVSort(32))
	y := b.Var("y", smt.BVSort(8))
	f := b.And(b.Slt(x, b.BV(10, 32)), b.Eq(b.Extract(x, 7, 0), b.BNot(y)))
	want := "(and (bvslt |main::x@1| #x0000000a) (= ((_ extract 7 0) |main::x@1|) (bvnot y)))"
	if got := f.String(); got != want {
		t.Errorf("String:\n got %s\nwant %s", got, want)
	}
	if got := b.BV(5, 3).String(); got != "#b101" {
		t.Errorf("3-bit constant %s", got)
	}
	a := b.Store(b.ConstArray(smt.ArraySort(4, 8), b.BV(0, 8)), b.Var("i", smt.BVSort(4)), y)
	if got := b.Select(a, b.Var("j", smt.BVSort(4))).String(); got != "(select (store ((as const (Array (_ BitVec 4) (_ BitVec 8))) #x00) i y) j)" {
		t.Errorf("array string %s", got)
	}
}

func TestVarsSubstitute(t *testing.T) {
	b := smt.NewBuilder()
	x := b.Var("x", smt.BVSort(8))
	y := b.Var("y", smt.BVSort(8))
	z := b.Var("z", smt.BVSort(8))
	f := b.And(b.Ult(y, x), b.Eq(b.Add(x, z), y))
	vs := smt.Vars(f)
	if len(vs) != 3 {
		t.Fatalf("Vars = %v", vs)
	}
	g := smt.Substitute(b, f, map[*smt.Term]*smt.Term{x: b.BV(3, 8), z: b.BV(0, 8)})
	want := b.And(b.Ult(y, b.BV(3, 8)), b.Eq(b.BV(3, 8), y))
	if g != want {
		t.Errorf("Substitute = %s, want %s", g, want)
	}
	if h := smt.Substitute(b, g, map[*smt.Term]*smt.Term{y: b.BV(2, 8)}); h != b.False() {
		t.Errorf("Substitute to constant = %s", h)
	}
}

// TestSelectStoreChain: a select at a constant index finds its store in
// a chain of any length (a loop filling an array along a path), the
// latest store at that index below the array it reads, and not a store
// made later on the chain from which a branch was taken.
func TestSelectStoreChain(t *testing.T) {
	b := smt.NewBuilder()
	a0 := b.Var("A", smt.ArraySort(32, 32))
	k := func(v uint64) *smt.Term { return b.BV(v, 32) }
	v := func(n int) *smt.Term { return b.Var(fmt.Sprintf("v%d", n), smt.BVSort(32)) }
	const n = 1024
	chain := []*smt.Term{a0}
	for j := 0; j < n; j++ {
		chain = append(chain, b.Store(chain[j], k(uint64(j)), v(j)))
	}
	top := chain[n]
	for j := 0; j < n; j++ {
		if got := b.Select(top, k(uint64(j))); got != v(j) {
			t.Fatalf("select %d over %d stores = %s, want v%d", j, n, got, j)
		}
	}
	if got, want := b.Select(top, k(n)), b.Select(a0, k(n)); got != want || got.Args[0] != a0 {
		t.Errorf("select past the stores = %s, want %s", got, want)
	}
	// the store at 5 overwritten further up
	over := b.Store(top, k(5), b.BV(9, 32))
	if got := b.Select(over, k(5)); got != b.BV(9, 32) {
		t.Errorf("overwritten index = %s", got)
	}
	if got := b.Select(over, k(700)); got != v(700) {
		t.Errorf("index below an overwrite = %s", got)
	}
	// a branch from the middle sees only the stores below it
	mid := chain[500] // stores at 0..499
	branch := b.Store(mid, k(3), b.BV(7, 32))
	for _, c := range []struct {
		idx  uint64
		want *smt.Term
	}{{3, b.BV(7, 32)}, {7, v(7)}, {499, v(499)}, {500, b.Select(a0, k(500))}, {600, b.Select(a0, k(600))}} {
		if got := b.Select(branch, k(c.idx)); got != c.want {
			t.Errorf("branch: select %d = %s, want %s", c.idx, got, c.want)
		}
	}
	if got := b.Select(chain[500], k(600)); got != b.Select(a0, k(600)) {
		t.Errorf("select 600 below its store = %s", got)
	}
	// the chain is unchanged by the branch
	if got := b.Select(top, k(3)); got != v(3) {
		t.Errorf("chain after the branch: select 3 = %s", got)
	}
	// a store at a symbolic index stops the search
	i := b.Var("i", smt.BVSort(32))
	sym := b.Store(b.Store(top, i, b.BV(1, 32)), k(n+1), b.BV(2, 32))
	if got := b.Select(sym, k(n+1)); got != b.BV(2, 32) {
		t.Errorf("above a symbolic store: select %d = %s", n+1, got)
	}
	if got := b.Select(sym, k(4)); got.Op != smt.Select || got.Args[0].Op != smt.Store || got.Args[0].Args[1] != i {
		t.Errorf("select across a symbolic store = %s, want a select on it", got)
	}
}

func TestSelectStore(t *testing.T) {
	b := smt.NewBuilder()
	s := smt.ArraySort(32, 8)
	a0 := b.Var("mem", s)
	i := b.Var("i", smt.BVSort(32))
	k := func(v uint64) *smt.Term { return b.BV(v, 32) }
	a := b.Store(b.Store(a0, k(4), b.BV(1, 8)), k(5), b.BV(2, 8))
	if got := b.Select(a, k(4)); got != b.BV(1, 8) {
		t.Errorf("select over distinct store = %s", got)
	}
	if got := b.Select(a, k(9)); got != b.Select(a0, k(9)) {
		t.Errorf("select skips stores = %s", got)
	}
	a = b.Store(a, b.Add(i, k(1)), b.BV(7, 8))
	if got := b.Select(a, b.Add(i, k(1))); got != b.BV(7, 8) {
		t.Errorf("select same index = %s", got)
	}
	if got := b.Select(b.Store(a0, b.Add(i, k(1)), b.BV(7, 8)), b.Add(i, k(2))); got != b.Select(a0, b.Add(i, k(2))) {
		t.Errorf("select i+2 over store i+1 = %s", got)
	}
	if got := b.Select(a, k(5)); got.Op != smt.Select {
		t.Errorf("select over symbolic store folded: %s", got)
	}
	// Eval agrees
	lo, _, err := smt.Eval(b.Select(a, k(5)), func(v *smt.Term) (uint64, uint64, bool) {
		if v == i {
			return 4, 0, true
		}
		return 0, 0, true
	})
	if err != nil || lo != 7 {
		t.Errorf("eval = %d, %v", lo, err)
	}
}

// TestCSemTable checks the symbolic C semantics (csem.go) on the
// reference table of engine/cfa/csem, by constant folding.
func TestCSemTable(t *testing.T) {
	b := smt.NewBuilder()
	for _, tc := range csem.BinaryTable() {
		x := b.BV(uint64(tc.X), tc.XT.Width())
		y := b.BV(uint64(tc.Y), tc.YT.Width())
		v, ubs := smt.CBinary(b, tc.Op, x, y, tc.XT, tc.YT, tc.RT)
		var ub csem.UB
		for _, u := range ubs {
			if u.Cond == b.True() {
				ub = u.Kind
			} else if u.Cond != b.False() {
				t.Errorf("%s: UB condition %s not folded", tc.Name, u.Cond)
			}
		}
		if ub != tc.UB {
			t.Errorf("%s: UB %v, want %v", tc.Name, ub, tc.UB)
			continue
		}
		if ub != csem.NoUB {
			if v.Op != smt.Var || !strings.HasPrefix(v.Name, "undef!") {
				t.Errorf("%s: value %s under UB, want a fresh undef", tc.Name, v)
			}
			continue
		}
		if want := b.BV(uint64(tc.Want), tc.RT.Width()); v != want {
			t.Errorf("%s = %s, want %s", tc.Name, v, want)
		}
	}
}

func TestCSemCasts(t *testing.T) {
	b := smt.NewBuilder()
	for _, tc := range []struct {
		name     string
		v        uint64
		from, to *cfa.Type
		want     uint64
	}{
		{"(signed char)200", 200, cfa.IntT, cfa.CharType, 0xc8},
		{"(unsigned char)(250+10)", 260, cfa.IntT, cfa.UCharType, 4},
		{"(short)70000", 70000, cfa.IntT, cfa.ShortType, 4464},
		{"(int)(signed char)-56", 0xc8, cfa.CharType, cfa.IntT, 0xffffffc8},
		{"(unsigned)(signed char)-1", 0xff, cfa.CharType, cfa.UIntType, 0xffffffff},
		{"(long long)(unsigned)-1", 0xffffffff, cfa.UIntType, cfa.LLType, 0xffffffff},
		{"(_Bool)256", 256, cfa.IntT, cfa.BoolType, 1},
		{"(_Bool)0", 0, cfa.IntT, cfa.BoolType, 0},
	} {
		got := smt.CCast(b, b.BV(tc.v, tc.from.Width()), tc.from, tc.to)
		if got != b.BV(tc.want, tc.to.Width()) {
			t.Errorf("%s = %s, want %#x", tc.name, got, tc.want)
		}
		if c := csem.Convert(tc.v, tc.from, tc.to); c != tc.want {
			t.Errorf("csem %s = %#x, want %#x", tc.name, c, tc.want)
		}
	}
}

// TestFoldMatchesEval: constant folding and Eval agree with each other on
// random terms (folding happens when arguments are constants, Eval walks
// the unfolded term).
func TestFoldMatchesEval(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	ops := []smt.Op{smt.Add, smt.Sub, smt.Mul, smt.UDiv, smt.SDiv, smt.URem, smt.SRem, smt.Shl, smt.LShr, smt.AShr, smt.BAnd, smt.BOr, smt.BXor}
	for _, w := range []int{1, 7, 8, 16, 32, 63, 64, 65, 100, 128} {
		b := smt.NewBuilder()
		x := b.Var("x", smt.BVSort(w))
		y := b.Var("y", smt.BVSort(w))
		for i := 0; i < 300; i++ {
			xv := [2]uint64{r.Uint64() >> uint(r.Intn(64)), r.Uint64()}
			yv := [2]uint64{r.Uint64() >> uint(r.Intn(64)), r.Uint64() >> uint(r.Intn(64))}
			if r.Intn(4) == 0 {
				yv = [2]uint64{uint64(r.Intn(3)), 0}
			}
			xc, yc := b.BV128(xv[0], xv[1], w), b.BV128(yv[0], yv[1], w)
			op := ops[r.Intn(len(ops))]
			sym := b.Apply(&smt.Term{Op: op, Sort: smt.BVSort(w)}, []*smt.Term{x, y})
			folded := b.Apply(&smt.Term{Op: op, Sort: smt.BVSort(w)}, []*smt.Term{xc, yc})
			lo, hi, err := smt.Eval(sym, func(v *smt.Term) (uint64, uint64, bool) {
				if v == x {
					return xc.Val, xc.Hi, true
				}
				return yc.Val, yc.Hi, true
			})
			if err != nil {
				t.Fatal(err)
			}
			if folded.Op != smt.BVConst || folded.Val != lo || folded.Hi != hi {
				t.Fatalf("w=%d %s %s %s: folded %s, eval %#x %#x", w, op, xc, yc, folded, hi, lo)
			}
		}
	}
}

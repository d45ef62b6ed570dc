package z3_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

func TestSatUnsatModel(t *testing.T) {
	b := smt.NewBuilder()
	s := z3.New(b)
	defer s.Close()
	x := b.Var("x", smt.BVSort(32))
	y := b.Var("y", smt.BVSort(32))
	s.Assert(b.Eq(b.Add(x, y), b.BV(10, 32)))
	s.Assert(b.Ult(x, b.BV(3, 32)))
	s.Assert(b.Ugt(x, b.BV(1, 32)))
	r, err := s.Check(context.Background())
	if r != smt.Sat || err != nil {
		t.Fatalf("Check = %v, %v; want sat", r, err)
	}
	m := s.Model()
	if lo, _ := m.Eval(x); lo != 2 {
		t.Errorf("x = %d, want 2", lo)
	}
	if lo, _ := m.Eval(y); lo != 8 {
		t.Errorf("y = %d, want 8", lo)
	}
	if lo, _ := m.Eval(b.Eq(x, b.BV(2, 32))); lo != 1 {
		t.Errorf("x = 2 evaluates to %d, want 1", lo)
	}
	s.Push()
	s.Assert(b.Eq(y, b.BV(9, 32)))
	if r, err := s.Check(context.Background()); r != smt.Unsat || err != nil {
		t.Fatalf("Check after push = %v, %v; want unsat", r, err)
	}
	s.Pop()
	if r, _ := s.Check(context.Background()); r != smt.Sat {
		t.Fatalf("Check after pop = %v; want sat", r)
	}
}

func TestWide(t *testing.T) {
	b := smt.NewBuilder()
	s := z3.New(b)
	defer s.Close()
	x := b.Var("x", smt.BVSort(128))
	k := b.BV128(5, 1<<63, 128)
	s.Assert(b.Eq(b.Add(x, b.BV(1, 128)), k))
	if r, err := s.Check(context.Background()); r != smt.Sat {
		t.Fatal(r, err)
	}
	lo, hi := s.Model().Eval(x)
	if lo != 4 || hi != 1<<63 {
		t.Errorf("x = %#x %#x", hi, lo)
	}
}

func TestArrays(t *testing.T) {
	b := smt.NewBuilder()
	s := z3.New(b)
	defer s.Close()
	srt := smt.ArraySort(32, 8)
	a := b.ConstArray(srt, b.BV(0, 8))
	i := b.Var("i", smt.BVSort(32))
	a = b.Store(a, i, b.BV(7, 8))
	s.Assert(b.Eq(b.Select(a, b.BV(3, 32)), b.BV(7, 8)))
	if r, _ := s.Check(context.Background()); r != smt.Sat {
		t.Fatal(r)
	}
	if lo, _ := s.Model().Eval(i); lo != 3 {
		t.Errorf("i = %d", lo)
	}
}

func TestCheckAssumingCore(t *testing.T) {
	b := smt.NewBuilder()
	s := z3.New(b)
	defer s.Close()
	x := b.Var("x", smt.BVSort(8))
	as := []*smt.Term{
		b.Ult(x, b.BV(100, 8)),                  // 0
		b.Eq(b.BAnd(x, b.BV(1, 8)), b.BV(1, 8)), // 1 (odd)
		b.Ugt(x, b.BV(10, 8)),                   // 2
		b.Eq(b.URem(x, b.BV(4, 8)), b.BV(0, 8)), // 3 (multiple of 4)
		b.Ult(x, b.BV(200, 8)),                  // 4
	}
	r, core, err := s.CheckAssuming(context.Background(), as)
	if r != smt.Unsat || err != nil {
		t.Fatalf("CheckAssuming = %v, %v", r, err)
	}
	if len(core) != 2 || core[0] != as[1] || core[1] != as[3] {
		t.Errorf("core = %v, want [%v %v]", core, as[1], as[3])
	}
	// assumptions are not kept
	r, core, err = s.CheckAssuming(context.Background(), as[:3])
	if r != smt.Sat || core != nil || err != nil {
		t.Fatalf("CheckAssuming(sat) = %v, %v, %v", r, core, err)
	}
	if lo, _ := s.Model().Eval(x); lo%2 != 1 || lo <= 10 || lo >= 100 {
		t.Errorf("model x = %d", lo)
	}
	if r, _ := s.Check(context.Background()); r != smt.Sat {
		t.Errorf("assertions alone: %v", r)
	}
}

// hard is the factoring of a 122-bit semiprime (2^61−1)·(2^62−57) into
// two 64-bit factors: nonlinear bit-vector arithmetic Z3 cannot decide in
// seconds.
func hard(b *smt.Builder) *smt.Term {
	x := b.Var("p", smt.BVSort(128))
	y := b.Var("q", smt.BVSort(128))
	n := b.BV128(11529215046068469817, 576460752303423480, 128)
	lim := b.BV128(0, 1, 128)
	return b.And(
		b.Eq(b.Mul(x, y), n),
		b.Ugt(x, b.BV(1, 128)), b.Ugt(y, b.BV(1, 128)),
		b.Ult(x, lim), b.Ult(y, lim),
	)
}

// The Unknown trap: when Z3 gives up (timeout) or the context ends, the
// answer must be Unknown with an error, never Unsat.
func TestUnknownNeverUnsat(t *testing.T) {
	t.Run("timeout option", func(t *testing.T) {
		b := smt.NewBuilder()
		s := z3.NewWithOptions(b, z3.Options{Timeout: 20 * time.Millisecond})
		defer s.Close()
		s.Assert(hard(b))
		start := time.Now()
		r, err := s.Check(context.Background())
		if r != smt.Unknown || err == nil {
			t.Fatalf("Check = %v, %v; want unknown with a reason", r, err)
		}
		if !errors.Is(err, z3.ErrUnknown) {
			t.Errorf("err = %v, want ErrUnknown", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("timeout took %v", d)
		}
		t.Logf("reason: %v", err)
	})
	t.Run("deadline", func(t *testing.T) {
		b := smt.NewBuilder()
		s := z3.New(b)
		defer s.Close()
		s.Assert(hard(b))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		r, err := s.Check(ctx)
		if r != smt.Unknown || err == nil {
			t.Fatalf("Check = %v, %v; want unknown", r, err)
		}
		t.Logf("reason: %v", err)
	})
	t.Run("cancel", func(t *testing.T) {
		b := smt.NewBuilder()
		s := z3.New(b)
		defer s.Close()
		s.Assert(hard(b))
		ctx, cancel := context.WithCancel(context.Background())
		go func() { time.Sleep(30 * time.Millisecond); cancel() }()
		start := time.Now()
		r, err := s.Check(ctx)
		if r != smt.Unknown || !errors.Is(err, context.Canceled) {
			t.Fatalf("Check = %v, %v; want unknown, context.Canceled", r, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("cancel took %v", d)
		}
		// the interrupted solver is not trusted again
		// (TestInterruptedSolverNotTrusted): unknown, never unsat
		s.Push()
		s.Assert(b.False())
		if r, err := s.Check(context.Background()); r != smt.Unknown || err == nil {
			t.Errorf("after cancel: %v, %v; want unknown with an error", r, err)
		}
		s.Pop()
	})
	t.Run("already cancelled", func(t *testing.T) {
		b := smt.NewBuilder()
		s := z3.New(b)
		defer s.Close()
		s.Assert(b.False())
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if r, err := s.Check(ctx); r != smt.Unknown || err == nil {
			t.Fatalf("Check = %v, %v; want unknown", r, err)
		}
		if r, _, err := s.CheckAssuming(ctx, nil); r != smt.Unknown || err == nil {
			t.Fatalf("CheckAssuming = %v, %v; want unknown", r, err)
		}
	})
}

func TestManySolvers(t *testing.T) {
	for i := 0; i < 200; i++ {
		b := smt.NewBuilder()
		s := z3.New(b)
		x := b.Var("x", smt.BVSort(32))
		s.Assert(b.Eq(x, b.BV(uint64(i), 32)))
		if r, _ := s.Check(context.Background()); r != smt.Sat {
			t.Fatal(r)
		}
		s.Close()
	}
}

// TestFoldingAgreesWithZ3: the Builder's constant folding computes what
// Z3 computes, for every bit-vector operator and widths up to 128.
func TestFoldingAgreesWithZ3(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	ops := []smt.Op{smt.Add, smt.Sub, smt.Mul, smt.UDiv, smt.SDiv, smt.URem, smt.SRem, smt.Shl, smt.LShr, smt.AShr, smt.BAnd, smt.BOr, smt.BXor, smt.Ult, smt.Ule, smt.Slt, smt.Sle}
	b := smt.NewBuilder()
	s := z3.New(b)
	defer s.Close()
	for _, w := range []int{1, 3, 8, 13, 32, 64, 65, 127, 128} {
		x := b.Var(fmt.Sprintf("x%d", w), smt.BVSort(w))
		y := b.Var(fmt.Sprintf("y%d", w), smt.BVSort(w))
		for i := 0; i < 60; i++ {
			xc := b.BV128(r.Uint64()>>uint(r.Intn(64)), r.Uint64()>>uint(r.Intn(64)), w)
			yc := b.BV128(r.Uint64()>>uint(r.Intn(64)), r.Uint64()>>uint(r.Intn(64)), w)
			switch r.Intn(5) {
			case 0:
				yc = b.BV(uint64(r.Intn(3)), w)
			case 1:
				yc = b.BVInt(-1, w)
			}
			op := ops[r.Intn(len(ops))]
			sort := smt.BVSort(w)
			if op >= smt.Ult && op <= smt.Sle {
				sort = smt.BoolSort
			}
			proto := &smt.Term{Op: op, Sort: sort}
			folded := b.Apply(proto, []*smt.Term{xc, yc})
			if !folded.IsConst() {
				t.Fatalf("%s %s %s not folded: %s", op, xc, yc, folded)
			}
			s.Push()
			s.Assert(b.Eq(x, xc))
			s.Assert(b.Eq(y, yc))
			s.Assert(b.Not(b.Eq(b.Apply(proto, []*smt.Term{x, y}), folded)))
			if res, err := s.Check(context.Background()); res != smt.Unsat {
				t.Fatalf("%s %s %s: folded to %s, z3 disagrees (%v %v)", op, xc, yc, folded, res, err)
			}
			s.Pop()
		}
	}
	for _, w := range []int{8, 64, 128} {
		x := b.Var(fmt.Sprintf("ext%d", w), smt.BVSort(w))
		xc := b.BV128(r.Uint64(), r.Uint64(), w)
		for _, tc := range []struct{ sym, folded *smt.Term }{
			{b.SignExt(x, 128+0*w), b.SignExt(xc, 128)},
			{b.Extract(x, w-1, w/2), b.Extract(xc, w-1, w/2)},
			{b.Neg(x), b.Neg(xc)},
			{b.BNot(x), b.BNot(xc)},
		} {
			s.Push()
			s.Assert(b.Eq(x, xc))
			s.Assert(b.Not(b.Eq(tc.sym, tc.folded)))
			if res, _ := s.Check(context.Background()); res != smt.Unsat {
				t.Fatalf("%s vs %s", tc.sym, tc.folded)
			}
			s.Pop()
		}
	}
}

// BenchmarkSmallCheck: one push, assert and check of a trivial formula
// on an incremental solver, the shape of the many small checks of the
// analyses (the fixed cost per Check).
func BenchmarkSmallCheck(b *testing.B) {
	bl := smt.NewBuilder()
	x := bl.Var("x", smt.BVSort(32))
	s := z3.New(bl)
	defer s.Close()
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		s.Push()
		s.Assert(bl.Eq(x, bl.BV(uint64(i), 32)))
		if r, _ := s.Check(ctx); r != smt.Sat {
			b.Fatal(r)
		}
		s.Pop()
	}
}

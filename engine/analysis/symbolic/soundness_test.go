package symbolic_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/analysis/symbolic"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/cfatest"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

// TestLessOrEqual checks the stop order on hand-built states with equal
// memory: coverage needs the covering state's constraints to be a subset
// (or, with ImplicationStop, a consequence) of the covered one's.
func TestLessOrEqual(t *testing.T) {
	prog := translate(t, `int main() { return 0; }`)
	for _, impl := range []bool{false, true} {
		c, err := symbolic.New(prog, symbolic.Options{Solver: z3.Factory, ImplicationStop: impl})
		if err != nil {
			t.Fatal(err)
		}
		b := c.Builder()
		init, _ := c.Initial()
		mem := init.(*symbolic.State).Memory()
		s := b.Var("x#0", smt.BVSort(32))
		gt := func(n int64) *smt.Term { return b.Sgt(s, b.BVInt(n, 32)) }
		// A symbol with the same name but another sort is another
		// symbol: the constraint looks alike but is a different term.
		s8 := b.Var("x#0", smt.BVSort(8))
		gt8 := b.Sgt(s8, b.BVInt(10, 8))

		none := symbolic.NewState(mem)
		over10 := symbolic.NewState(mem, gt(10))
		over20 := symbolic.NewState(mem, gt(20))
		over10and20 := symbolic.NewState(mem, gt(10), gt(20))
		notOver10 := symbolic.NewState(mem, b.Not(gt(10)))
		over10in8 := symbolic.NewState(mem, gt8)
		for _, tc := range []struct {
			name string
			a, b *symbolic.State
			want bool
		}{
			{"no constraints cover any", over10, none, true},
			{"constraints do not cover none", none, over10, false},
			{"equal sets", over10, symbolic.NewState(mem, gt(10)), true},
			{"subset covers superset", over10and20, over10, true},
			{"superset does not cover subset", over10, over10and20, false},
			{"negation", notOver10, over10, false},
			{"negation, reversed", over10, notOver10, false},
			{"same text, different symbol", over10, over10in8, false},
			{"same text, different symbol, reversed", over10in8, over10, false},
			// x > 20 implies x > 10: only ImplicationStop sees it.
			{"implied", over20, over10, impl},
			{"not implied", over10, over20, false},
		} {
			if got := c.LessOrEqual(tc.a, tc.b); got != tc.want {
				t.Errorf("implication %v: %s: LessOrEqual(%s, %s) = %v, want %v", impl, tc.name, tc.a, tc.b, got, tc.want)
			}
		}
		c.Close()
	}
}

// TestCoverageTrap: after `if (x > 10) y = 1; else y = 1;` both branches
// reach the join with equal memory but contradicting constraints. A stop
// that compared memory only (or constraint lists loosely) would let the
// first state cover the second and lose the error reachable only through
// the second one. Both orders of exploration and both stop variants must
// find the (feasible) error.
func TestCoverageTrap(t *testing.T) {
	for _, cond := range []string{"x < 5", "x > 15"} {
		src := `int main() { int x = __VERIFIER_nondet_int(); int y;
if (x > 10) y = 1; else y = 1;
if (` + cond + `) reach_error();
return 0; }`
		prog := translate(t, src)
		for _, order := range []cpa.Order{cpa.BFS, cpa.DFS} {
			for _, impl := range []bool{false, true} {
				alg, st, n, _ := run(t, prog, symbolic.Options{ImplicationStop: impl}, cpa.Options{Order: order})
				if st != cpa.Target {
					t.Errorf("%s, %v, implication %v: %v, want target", cond, order, impl, st)
					continue
				}
				if alg.Stats().Covered != 0 {
					t.Errorf("%s, %v, implication %v: %d states covered, want 0", cond, order, impl, alg.Stats().Covered)
				}
				checkFeasible(t, prog, n)
			}
		}
	}
}

// TestCoverage: states that are truly covered are covered, so a loop
// with a concrete bound over symbolic data terminates, and the state
// count is exact.
func TestCoverage(t *testing.T) {
	b := cfatest.New()
	b.Func("main")
	x := b.Local("x", cfa.IntT)
	y := b.Local("y", cfa.IntT)
	b.Havoc(b.V(x))
	b.Assign(b.V(y), b.I(0))
	// while (y < 2) { if (x > 0) y = y + 1; else y = y + 1; }
	b.While(b.Lt(b.V(y), b.I(2)), func() {
		b.If(b.Bin(cfa.Gt, b.V(x), b.I(0)), func() { b.Assign(b.V(y), b.Add(b.V(y), b.I(1))) },
			func() { b.Assign(b.V(y), b.Add(b.V(y), b.I(1))) })
	})
	b.If(b.Eq(b.V(y), b.I(3)), func() { b.Error() }, nil)
	prog := b.Finish(t)
	alg, st, _, sym := run(t, prog, symbolic.Options{}, cpa.Options{Order: cpa.BFS})
	if st != cpa.Safe {
		t.Fatalf("status %v (%s), want safe", st, alg.Reason())
	}
	// After the first iteration the two branches have constraints
	// {x > 0} and {x ≤ 0}; in the second iteration the branch that
	// repeats its constraint adds nothing and the other is infeasible,
	// so paths never multiply: the ARG is a fixed size.
	const want = 35
	if got := alg.Stats().Reached; got != want {
		t.Errorf("reached %d states, want %d\n%s", got, want, argText(alg))
	}
	s := sym.Stats()
	if s.Unsat == 0 {
		t.Errorf("no infeasible branch pruned: %+v", s)
	}
}

func argText(alg *cpa.Algorithm) string {
	var b strings.Builder
	alg.ARG().WriteText(&b)
	return b.String()
}

// unknownSolver is a solver that always gives up.
type unknownSolver struct{ checks *int }

func (s unknownSolver) Assert(*smt.Term) {}
func (s unknownSolver) Push()            {}
func (s unknownSolver) Pop()             {}
func (s unknownSolver) Check(ctx context.Context) (smt.Result, error) {
	*s.checks++
	return smt.Unknown, errors.New("fake: gave up")
}
func (s unknownSolver) CheckAssuming(ctx context.Context, _ []*smt.Term) (smt.Result, []*smt.Term, error) {
	r, err := s.Check(ctx)
	return r, nil, err
}
func (s unknownSolver) Model() smt.Model { return nil }
func (s unknownSolver) Close()           {}

// TestSolverUnknown: Unknown is not Unsat. A solver that gives up keeps
// every branch (the infeasible error branch included) and the run says
// why; Z3 itself prunes the branch.
func TestSolverUnknown(t *testing.T) {
	prog := translate(t, `int main() { int x = __VERIFIER_nondet_int(); if (x > 5) { if (x < 3) reach_error(); } return 0; }`)
	checks := 0
	fake := func(*smt.Builder) smt.Solver { return unknownSolver{&checks} }
	_, st, _, sym := run(t, prog, symbolic.Options{Solver: fake}, cpa.Options{})
	if st != cpa.Target {
		t.Errorf("with a giving-up solver: %v, want target (the branch is kept)", st)
	}
	s := sym.Stats()
	if checks == 0 || s.Unknown == 0 || s.Unsat != 0 || !strings.Contains(s.UnknownReason, "fake: gave up") {
		t.Errorf("stats %+v after %d checks", s, checks)
	}
	_, st, _, _ = run(t, prog, symbolic.Options{}, cpa.Options{})
	if st != cpa.Safe {
		t.Errorf("with Z3: %v, want safe", st)
	}
}

// blockingSolver blocks in Check until its context is done.
type blockingSolver struct {
	unknownSolver
	sawCancel chan struct{}
}

func (s blockingSolver) Check(ctx context.Context) (smt.Result, error) {
	select {
	case <-ctx.Done():
		close(s.sawCancel)
		return smt.Unknown, ctx.Err()
	case <-time.After(10 * time.Second):
		return smt.Unknown, errors.New("never cancelled")
	}
}

// TestCancellation: the run's context reaches the solver, a cancelled
// check ends the run Incomplete (not with a verdict), and the state goes
// back on the waitlist.
func TestCancellation(t *testing.T) {
	prog := translate(t, `int main() { int x = __VERIFIER_nondet_int(); if (x > 5) reach_error(); return 0; }`)
	saw := make(chan struct{})
	checks := 0
	fake := func(*smt.Builder) smt.Solver { return blockingSolver{unknownSolver{&checks}, saw} }
	c, _ := compose(t, prog, symbolic.Options{Solver: fake})
	alg := cpa.NewAlgorithm(c, cpa.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	st, _, err := alg.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-saw:
	default:
		t.Fatal("the solver never saw the cancellation")
	}
	if st != cpa.Incomplete || !strings.HasPrefix(alg.Reason(), "cancelled") {
		t.Errorf("status %v (%s), want incomplete, cancelled", st, alg.Reason())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("run took %v after cancellation", d)
	}
	if alg.Waiting() == 0 {
		t.Error("the interrupted state is not back on the waitlist")
	}
}

// TestCancelZ3 cancels a hard check (factoring a 64-bit semiprime) in Z3
// itself.
func TestCancelZ3(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	prog := translate(t, `int main() {
unsigned long x = __VERIFIER_nondet_long(), y = __VERIFIER_nondet_long();
if (x > 1 && y > 1 && x < 4294967296UL && y < 4294967296UL && x * y == 18446743979220271189UL) reach_error();
return 0; }`)
	c, _ := compose(t, prog, symbolic.Options{})
	alg := cpa.NewAlgorithm(c, cpa.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	st, _, err := alg.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st == cpa.Target {
		t.Skip("Z3 factored the number before the deadline")
	}
	if st != cpa.Incomplete || !strings.HasPrefix(alg.Reason(), "cancelled") {
		t.Errorf("status %v (%s), want incomplete, cancelled", st, alg.Reason())
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Z3 was not interrupted: the run took %v", d)
	}
}

// TestPrecision: constraints that the precision does not track are not
// added, so their branches are not pruned; tracking the variable of the
// condition prunes them again.
func TestPrecision(t *testing.T) {
	prog := translate(t, `int main() { int x = __VERIFIER_nondet_int(); if (x > 100) check(x > 50); return 0; }`)
	for _, tc := range []struct {
		name string
		cons symbolic.ConstraintPrecision
		want cpa.Status
	}{
		{"all", symbolic.AllConstraints{}, cpa.Safe},
		{"none", symbolic.VarConstraints{Vars: value.NewVarPrecision()}, cpa.Target},
		{"other variable", symbolic.VarConstraints{Vars: value.NewVarPrecision("main::y")}, cpa.Target},
		// x's constraint is kept; check's c != 0 is decided on the
		// relation through x's term.
		{"x and check's c", symbolic.VarConstraints{Vars: value.NewVarPrecision("main::x", "check::c")}, cpa.Safe},
	} {
		prec := &symbolic.Precision{Vars: value.FullPrecision{}, Constraints: tc.cons}
		_, st, _, _ := run(t, prog, symbolic.Options{Precision: prec}, cpa.Options{})
		if st != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, st, tc.want)
		}
	}
}

// TestRenaming: at loop heads symbols are renamed canonically and
// constraints on symbols the memory no longer holds are dropped, so a
// loop that reads an input in every iteration reaches a fixed point;
// constraints linked to the memory through other symbols are kept.
func TestRenaming(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       cpa.Status
	}{
		{"fresh input per iteration", `int last = 0;
while (__VERIFIER_nondet_int()) { int v = __VERIFIER_nondet_int(); if (v > 10) last = v; }
check(last == 0 || last > 10);`, cpa.Safe},
		{"fresh input per iteration, violated", `int last = 0;
while (__VERIFIER_nondet_int()) { int v = __VERIFIER_nondet_int(); if (v > 10) last = v; }
check(last != 11);`, cpa.Target},
		{"constraint linked through a dead symbol", `int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
if (a <= b) return 0;
b = 0;
int i = 0;
while (i < 3) i++;
check(a != -2147483647 - 1);`, cpa.Safe},
		{"dead constraint is dropped, live one kept", `int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
if (b > 5) b = 1; else b = 2;
int i = 0;
while (i < 3) { int c = __VERIFIER_nondet_int(); if (c == 7) a = c; i++; }
if (a == 7) return 0;
check(a != 8);`, cpa.Target},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog := translate(t, "int main() {\n"+tc.body+"\nreturn 0; }")
			alg, st, n, _ := run(t, prog, symbolic.Options{}, cpa.Options{MaxStates: 20000})
			if st != tc.want {
				t.Fatalf("status %v (%s), want %v", st, alg.Reason(), tc.want)
			}
			if st == cpa.Target {
				checkFeasible(t, prog, n)
			}
		})
	}
	// Without renaming, the first loop never reaches a fixed point.
	prog := translate(t, `int main() { int last = 0;
while (__VERIFIER_nondet_int()) { int v = __VERIFIER_nondet_int(); if (v > 10) last = v; }
check(last == 0 || last > 10); return 0; }`)
	alg, st, _, _ := run(t, prog, symbolic.Options{NoRenaming: true}, cpa.Options{MaxStates: 2000})
	if st != cpa.Incomplete {
		t.Errorf("without renaming: %v (%s), want incomplete at the state limit", st, alg.Reason())
	}
}

// TestRefine: constraint interpolation on the running example of seed
// 000 (figure 1): with nothing tracked, the error is reachable; Refine
// replays the path, refutes it by y = 1 (not by x, which its loop
// assigns) and returns y tracked between its assignment and the test,
// under which the error is unreachable and the loops cover themselves.
// A feasible path cannot be refined.
func TestRefine(t *testing.T) {
	prog := translate(t, `int main() {
int x = __VERIFIER_nondet_int();
int y = 1;
int w = __VERIFIER_nondet_int();
while (x > 0) x = x - 1;
w = w + 1;
if (x < 0 && y < 0) reach_error();
else while (y < w) y = y + 1;
return 0; }`)
	empty := value.NewScopedPrecision()
	prec := &symbolic.Precision{Vars: empty, Constraints: symbolic.VarConstraints{Vars: empty}}
	for i := 0; ; i++ {
		alg, st, n, sym := run(t, prog, symbolic.Options{Precision: prec}, cpa.Options{MaxStates: 5000})
		if st == cpa.Safe {
			if i == 0 {
				t.Fatal("safe without refinement")
			}
			break
		}
		if st != cpa.Target || i == 3 {
			t.Fatalf("refinement %d: %v (%s)", i, st, alg.Reason())
		}
		var steps []cfa.Step
		for _, m := range n.PathNodes()[1:] {
			steps = append(steps, m.Parents[0].Step)
		}
		next, err := sym.Refine(context.Background(), steps, prec)
		if err != nil {
			t.Fatalf("refinement %d: %v", i, err)
		}
		got := strings.Join(next.Vars.(*value.ScopedPrecision).Strings(), " ")
		if strings.Contains(got, "main::x") || !strings.Contains(got, "main::y") {
			t.Errorf("refinement %d: precision %s, want y and not x", i, got)
		}
		prec = next
	}
	// A feasible error path: nothing to refine.
	prog = translate(t, `int main() { int x = __VERIFIER_nondet_int(); if (x == 3) reach_error(); return 0; }`)
	_, st, n, sym := run(t, prog, symbolic.Options{}, cpa.Options{})
	if st != cpa.Target {
		t.Fatal(st)
	}
	var steps []cfa.Step
	for _, m := range n.PathNodes()[1:] {
		steps = append(steps, m.Parents[0].Step)
	}
	if _, err := sym.Refine(context.Background(), steps, nil); !errors.Is(err, symbolic.ErrFeasible) {
		t.Errorf("feasible path: %v, want ErrFeasible", err)
	}
}

// closeCounter counts the solvers closed (from another goroutine).
type closeCounter struct {
	unknownSolver
	closed *atomic.Int32
}

func (s closeCounter) Check(ctx context.Context) (smt.Result, error) { return smt.Sat, nil }
func (s closeCounter) Close()                                        { s.closed.Add(1) }

// TestSolverReleased: the run's solver is closed when the run's context
// ends.
func TestSolverReleased(t *testing.T) {
	prog := translate(t, `int main() { int x = __VERIFIER_nondet_int(); if (x > 5) reach_error(); return 0; }`)
	var created, closed atomic.Int32
	checks := 0
	fake := func(*smt.Builder) smt.Solver {
		created.Add(1)
		return closeCounter{unknownSolver{&checks}, &closed}
	}
	c, _ := compose(t, prog, symbolic.Options{Solver: fake})
	alg := cpa.NewAlgorithm(c, cpa.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	if st, _, err := alg.Run(ctx); err != nil || st != cpa.Target {
		t.Fatal(st, err)
	}
	cancel()
	for i := 0; i < 100 && closed.Load() == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if created.Load() != 1 || closed.Load() != 1 {
		t.Errorf("%d solvers created, %d closed; want 1 and 1", created.Load(), closed.Load())
	}
}

package cegar_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/analysis/callstack"
	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
)

const prelude = `extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
`

// composite translates src and builds location × callstack × property
// (SV-COMP unreach-call) × value with the given value precision.
func composite(t *testing.T, src string, prec value.Precision) (*cfa.Program, *cpa.Composite) {
	t.Helper()
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: prelude + src}})
	if err != nil {
		t.Fatal(err)
	}
	if err := prog.Check(); err != nil {
		t.Fatalf("CFA sanity: %v", err)
	}
	prop := spec.UnreachCall(prog, "main")
	loc, err := location.New(prog, "main")
	if err != nil {
		t.Fatal(err)
	}
	comp, err := cpa.NewComposite(loc, callstack.New(64),
		property.New(property.Spec{Name: prop.ID, ErrorEdges: prop.ErrorEdges, Via: prop.Via}),
		value.New(prog, value.Options{Precision: prec}))
	if err != nil {
		t.Fatal(err)
	}
	return prog, comp
}

type run struct {
	res *cegar.Result
	ref *cegar.ValueRefiner
}

// valueCEGAR runs value CEGAR on src from the empty precision within
// the time limit (wall clock). The machines that run the tests may be
// loaded: a run cancelled by the limit gets two more tries.
func valueCEGAR(t *testing.T, src string, limit time.Duration, opts cegar.Options, vo cegar.ValueOptions) run {
	t.Helper()
	var r run
	for try := 0; try < 3; try++ {
		r = valueCEGAROnce(t, src, limit, opts, vo)
		if !strings.HasPrefix(r.res.Reason, "cancelled") {
			break
		}
	}
	return r
}

func valueCEGAROnce(t *testing.T, src string, limit time.Duration, opts cegar.Options, vo cegar.ValueOptions) run {
	t.Helper()
	prog, comp := composite(t, src, value.NewScopedPrecision())
	ref, err := cegar.NewValueRefiner(prog, comp, vo)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	opts.Solver, opts.Refiner = z3.Factory, ref
	if opts.Algorithm.MaxStates == 0 {
		opts.Algorithm.MaxStates = 100_000
	}
	return run{cegar.Run(ctx, prog, comp, opts), ref}
}

// plainValue runs the value analysis with full precision and
// counterexample checks (no refiner).
func plainValue(t *testing.T, src string, maxStates int) *cegar.Result {
	t.Helper()
	prog, comp := composite(t, src, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return cegar.Run(ctx, prog, comp, cegar.Options{Solver: z3.Factory, Algorithm: cpa.Options{MaxStates: maxStates}})
}

type want struct {
	status      cegar.Status
	reason      string
	states      int
	refinements int
	excluded    int
	precision   string
}

func check(t *testing.T, what string, r run, w want) {
	t.Helper()
	res := r.res
	got := want{res.Status, res.Reason, res.States, res.Stats.Refinements, res.Stats.Excluded,
		strings.Join(res.PrecisionText(r.ref), " | ")}
	if !strings.Contains(got.reason, w.reason) {
		t.Errorf("%s: reason %q, want %q", what, got.reason, w.reason)
	}
	got.reason = w.reason
	if got != w {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, w)
	}
	if n := r.ref.Stats.Fallbacks; n != 0 {
		t.Errorf("%s: %d prefixes needed the unrestricted interpolation", what, n)
	}
}

// runningExample is the running example of seed 000 (figure 1; sections
// 1, 2.4 and 2.5), rebuilt from the prose as in engine/pdg's tests: the
// first loop counts x down, y := 1, the error needs x < 0 ∧ y < 0, and
// otherwise a second loop runs while y < w.
const runningExample = `int main(void) {
	int x = __VERIFIER_nondet_int();
	int y = 1;
	int w = __VERIFIER_nondet_int();
	while (x > 0)
		x = x - 1;
	w = w + 1;
	w = w * 2;
	if (x < 0 && y < 0)
		reach_error();
	else
		while (y < w)
			y = y + 1;
	return 0;
}`

// runningPrecision is what value CEGAR learns on runningExample: y at L5
// to L12, in the stable text form.
const runningPrecision = "main::y@main:+3:decl int w | main::y@main:+3:w = nondet(__VERIFIER_nondet_int) | main::y@main:+4:[x > 0] | " +
	"main::y@main:+5:x = x - 1 | main::y@main:+6:w = w + 1 | main::y@main:+7:w = w * 2 | main::y@main:+8:[x < 0] | main::y@main:+8:[y < 0]"

// TestRunningExample: full precision unrolls the second loop (y counts
// up while y < w, w unknown) until the state limit. Value CEGAR in
// location scope learns y = 1 exactly where the contradiction with
// y < 0 needs it, from the assignment (L4 → L5) to the test (L12 → L13):
// the first error path skips the first loop (head L7), the second goes
// through it once (its body L8 had no precision yet); the second loop
// (L15, L16) never tracks y and covers itself: TRUE. The precision names
// each location by the statement that leaves it and that statement's
// line within main (L5 by "+3:decl int w", L12 by "+8:[y < 0]";
// value.LocationKeys).
//
//	L4 -> L5  y = 1          L9 -> L10  w = w + 1
//	L7 -> L8  [x > 0]        L11 -> L12 [x < 0]
//	L8 -> L7  x = x - 1      L12 -> L13 [y < 0]     L13 reach_error()
//	L7 -> L9  [!(x > 0)]     L15 -> L16 [y < w]     L16 -> L15 y = y + 1
//
// In function scope y is tracked in all of main and the second loop
// unrolls again, as seed 000 (section 2.5, figure 14) describes for
// symbolic execution with CEGAR.
func TestRunningExample(t *testing.T) {
	full := plainValue(t, runningExample, 100_000)
	if full.Status != cegar.Incomplete || full.Reason != "state limit 100000" {
		t.Errorf("full precision: %v %q, want incomplete (state limit 100000)", full.Status, full.Reason)
	}
	for _, restart := range []cegar.Restart{cegar.RestartPivot, cegar.RestartRoot} {
		r := valueCEGAR(t, runningExample, time.Second, cegar.Options{Restart: restart}, cegar.ValueOptions{})
		w := want{status: cegar.Safe, refinements: 2, precision: runningPrecision}
		w.states = map[cegar.Restart]int{cegar.RestartPivot: 47, cegar.RestartRoot: 62}[restart]
		check(t, "location scope, restart at "+restart.String(), r, w)
	}
	// The refiner refutes both spurious paths itself: no SMT check. With
	// CheckFirst each path is also checked bit-precisely first; the
	// outcome is the same.
	r := valueCEGAR(t, runningExample, time.Second, cegar.Options{}, cegar.ValueOptions{})
	if n := r.res.Stats.Checks; n != 0 {
		t.Errorf("refiner first: %d SMT checks, want 0", n)
	}
	r = valueCEGAR(t, runningExample, time.Second, cegar.Options{CheckFirst: true}, cegar.ValueOptions{})
	if r.res.Status != cegar.Safe || r.res.States != 47 || r.res.Stats.Refinements != 2 || r.res.Stats.Checks != 2 {
		t.Errorf("check first: %v, %d states, %d refinements, %d checks; want safe, 47, 2, 2", r.res.Status, r.res.States, r.res.Stats.Refinements, r.res.Stats.Checks)
	}
	r = valueCEGAR(t, runningExample, 10*time.Second, cegar.Options{}, cegar.ValueOptions{Scope: cegar.FunctionScope})
	check(t, "function scope", r, want{status: cegar.Incomplete, reason: "state limit 100000", states: 100_000, refinements: 1, precision: "main::y@main"})
}

// counterLoop is program (a): a loop counter irrelevant to the assertion.
const counterLoop = `int main(void) {
	int i = 0;
	int flag = 1;
	while (i < 1000000)
		i++;
	if (flag != 1)
		reach_error();
	return 0;
}`

// flagLoop is program (b): a flag set before a long loop (its bound an
// input) and checked after it.
const flagLoop = `int main(void) {
	int flag;
	if (__VERIFIER_nondet_int())
		flag = 1;
	else
		flag = 2;
	int n = __VERIFIER_nondet_int();
	int sum = 0;
	for (int i = 0; i < n; i++)
		sum += i;
	if (flag <= 0)
		reach_error();
	return 0;
}`

// TestNeedsCEGAR: programs whose proofs need CEGAR. Full precision hits
// the state limit; value CEGAR proves them within a second. In (a) the
// error path is infeasible twice over: the loop exit !(i < 1000000)
// contradicts i = 0, and flag != 1 contradicts flag = 1. Of the two
// infeasible sliced prefixes, selection by score takes flag's (i is
// assigned in the loop), so i is never tracked and the loop head covers
// itself (two refinements: the first error path leaves the loop at once,
// the second after one iteration, whose body had no precision yet); the
// shortest prefix would track i and unroll the loop. In (b), flag is
// learnt from the assignment to the test, on both branches and through
// the loop, in four refinements; the loop counter never.
func TestNeedsCEGAR(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      want
	}{
		{"counter", counterLoop, want{status: cegar.Safe, states: 25, refinements: 2,
			precision: "main::flag@main:+3:[i < 1000000] | main::flag@main:+4:i = i + 1 | main::flag@main:+5:[flag != 1]"}},
		{"flag", flagLoop, want{status: cegar.Safe, states: 73, refinements: 4,
			precision: "main::flag@main:+6:decl int n | main::flag@main:+6:n = nondet(__VERIFIER_nondet_int) | main::flag@main:+7:decl int sum | main::flag@main:+7:sum = 0 | " +
				"main::flag@main:+8:decl int i | main::flag@main:+8:i = 0 | main::flag@main:+8:[i < n] | main::flag@main:+9:sum = sum + i | main::flag@main:+8:i = i + 1 | main::flag@main:+10:[flag <= 0]"}},
	} {
		full := plainValue(t, tc.src, 100_000)
		if full.Status != cegar.Incomplete || full.Reason != "state limit 100000" {
			t.Errorf("%s: full precision: %v %q, want incomplete (state limit 100000)", tc.name, full.Status, full.Reason)
		}
		start := time.Now()
		r := valueCEGAR(t, tc.src, time.Second, cegar.Options{}, cegar.ValueOptions{})
		check(t, tc.name, r, tc.want)
		t.Logf("%s: value-cegar %v in %v", tc.name, r.res.Status, time.Since(start))
	}
	// Plain Beyer & Löwe interpolation of the first contradiction tracks
	// the loop counter and unrolls.
	r := valueCEGAR(t, counterLoop, 10*time.Second, cegar.Options{}, cegar.ValueOptions{Selection: cegar.SelectShortest})
	check(t, "counter, shortest prefix", r, want{status: cegar.Incomplete, reason: "state limit 100000", states: 100_000, refinements: 2,
		precision: "main::i@main:+2:decl int flag | main::i@main:+2:flag = 1 | main::i@main:+3:[i < 1000000] | main::i@main:+4:i = i + 1"})
}

// TestExcludeCovered is the regression test for excluding an infeasible
// error path soundly. The branch x != 5 reaches the join first; the state
// {x = 5} of the other branch is covered by it. The error path through
// x != 5 is infeasible; removing only its target would lose the covered
// state's continuation, a real error path (the plain analysis used to
// answer TRUE). Removing the path's nodes uncovers that state.
func TestExcludeCovered(t *testing.T) {
	const src = `int main(void) {
	int x = __VERIFIER_nondet_int();
	int y;
	if (x != 5)
		y = 0;
	else
		y = 0;
	if (x == 5)
		reach_error();
	return y;
}`
	res := plainValue(t, src, 0)
	if res.Status != cegar.Unsafe || res.Stats.Excluded != 1 {
		t.Fatalf("full precision: %v %q, %d excluded; want unsafe after 1 exclusion", res.Status, res.Reason, res.Stats.Excluded)
	}
	if x := nondetInputs(res); len(x) != 1 || x[0] != 5 {
		t.Errorf("inputs %+v, want __VERIFIER_nondet_int = 5", res.Inputs)
	}
	r := valueCEGAR(t, src, 10*time.Second, cegar.Options{}, cegar.ValueOptions{})
	if r.res.Status != cegar.Unsafe {
		t.Errorf("value CEGAR: %v %q, want unsafe", r.res.Status, r.res.Reason)
	}
}

// nondetInputs returns the values of the __VERIFIER_nondet_int calls on
// the counterexample.
func nondetInputs(res *cegar.Result) []int32 {
	var x []int32
	for _, in := range res.Inputs {
		if in.Source == "__VERIFIER_nondet_int" {
			x = append(x, int32(in.Value))
		}
	}
	return x
}

// TestNotRefutable: a path infeasible only through a relation between an
// unknown input's tests (x > 100 ∧ ¬(x > 50)) cannot be refuted by value
// interpolation; the loop excludes it and counts it.
func TestNotRefutable(t *testing.T) {
	const src = `int main(void) {
	int x = __VERIFIER_nondet_int();
	if (x > 100)
		if (!(x > 50))
			reach_error();
	return 0;
}`
	r := valueCEGAR(t, src, 10*time.Second, cegar.Options{}, cegar.ValueOptions{})
	if s := r.res.Stats; r.res.Status != cegar.Safe || s.Refinements != 0 || s.NotRefutable != 1 || s.Excluded != 1 {
		t.Errorf("%v %q, stats %+v; want safe, 0 refinements, 1 path not refutable and excluded", r.res.Status, r.res.Reason, s)
	}
}

// TestFeasible: a real error path is Unsafe with its inputs, after the
// refinements that remove the spurious ones.
func TestFeasible(t *testing.T) {
	const src = `int main(void) {
	int a = 3;
	int x = __VERIFIER_nondet_int();
	if (a != 3)
		reach_error();
	if (x == 42)
		reach_error();
	return 0;
}`
	r := valueCEGAR(t, src, 10*time.Second, cegar.Options{}, cegar.ValueOptions{})
	res := r.res
	if res.Status != cegar.Unsafe || res.Stats.Refinements != 1 || len(res.Path) == 0 {
		t.Fatalf("%v %q, %d refinements; want unsafe after 1 refinement", res.Status, res.Reason, res.Stats.Refinements)
	}
	if x := nondetInputs(res); len(x) != 1 || x[0] != 42 {
		t.Errorf("inputs %+v, want __VERIFIER_nondet_int = 42", res.Inputs)
	}
}

// TestRefinementLimit: hitting the limit is Unknown, never Safe.
func TestRefinementLimit(t *testing.T) {
	r := valueCEGAR(t, runningExample, 10*time.Second, cegar.Options{MaxRefinements: 1}, cegar.ValueOptions{})
	if r.res.Status != cegar.Unknown || r.res.Reason != "refinement limit 1 reached" || r.res.Stats.Refinements != 1 {
		t.Errorf("%v %q after %d refinements; want unknown (refinement limit 1 reached)", r.res.Status, r.res.Reason, r.res.Stats.Refinements)
	}
}

// stubborn is a refiner that changes nothing: it returns the target's own
// precision and restarts from the root.
type stubborn struct{ calls int }

func (s *stubborn) Refine(ctx context.Context, path []*cpa.Node, arg *cpa.ARG) (*cpa.CompositePrecision, *cpa.Node, error) {
	s.calls++
	return path[len(path)-1].Prec, path[0], nil
}

// TestNoProgress: the same error path under the same precision again is
// Unknown, whatever the refiner claims.
func TestNoProgress(t *testing.T) {
	for _, restart := range []cegar.Restart{cegar.RestartPivot, cegar.RestartRoot} {
		prog, comp := composite(t, runningExample, value.NewScopedPrecision())
		ref := &stubborn{}
		res := cegar.Run(context.Background(), prog, comp, cegar.Options{Solver: z3.Factory, Refiner: ref, Restart: restart})
		if res.Status != cegar.Unknown || !strings.HasPrefix(res.Reason, "refinement made no progress") || ref.calls != 1 {
			t.Errorf("restart at %v: %v %q after %d calls; want unknown (no progress) after 1", restart, res.Status, res.Reason, ref.calls)
		}
	}
}

// TestNewValueRefiner checks the composites the value refiner accepts.
func TestNewValueRefiner(t *testing.T) {
	prog, comp := composite(t, counterLoop, value.FullPrecision{})
	if _, err := cegar.NewValueRefiner(prog, comp, cegar.ValueOptions{}); err == nil || !strings.Contains(err.Error(), "ScopedPrecision") {
		t.Errorf("full precision: error %v", err)
	}
	loc, _ := location.New(prog, "main")
	noValue, _ := cpa.NewComposite(loc, callstack.New(0))
	if _, err := cegar.NewValueRefiner(prog, noValue, cegar.ValueOptions{}); err == nil || !strings.Contains(err.Error(), "no value component") {
		t.Errorf("no value component: error %v", err)
	}
}

// TestInitialPrecision: a run that starts from the precision an earlier
// run learnt needs no refinement.
func TestInitialPrecision(t *testing.T) {
	first := valueCEGAR(t, runningExample, 10*time.Second, cegar.Options{}, cegar.ValueOptions{})
	learnt := first.res.PrecisionText(first.ref)
	prec, err := value.ParseScopedPrecision(learnt)
	if err != nil {
		t.Fatal(err)
	}
	prog, comp := composite(t, runningExample, prec)
	ref, err := cegar.NewValueRefiner(prog, comp, cegar.ValueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := cegar.Run(context.Background(), prog, comp, cegar.Options{Solver: z3.Factory, Refiner: ref})
	if res.Status != cegar.Safe || res.Stats.Refinements != 0 {
		t.Errorf("%v %q after %d refinements; want safe after 0", res.Status, res.Reason, res.Stats.Refinements)
	}
	if got, want := strings.Join(res.PrecisionText(ref), " | "), runningPrecision; got != want || strings.Join(learnt, " | ") != want {
		t.Errorf("precision %q, want %q", got, want)
	}
}

// TestInterpolants checks the precisions value interpolation learns on
// small programs: through a pointer (the pointee and the pointer, not the
// unrelated b), and through recursion (a callee's writes to its own
// frame do not hide the caller's variables from the relevance analysis).
func TestInterpolants(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		vo        cegar.ValueOptions
		want      want
	}{
		{"pointer", `int main(void) {
	int a = 1;
	int *p = &a;
	int b = 2;
	if (*p != 1)
		reach_error();
	return b;
}`, cegar.ValueOptions{}, want{status: cegar.Safe, states: 19, refinements: 1,
			precision: "main::a@main:+2:decl int * p | main::a@main:+2:p = &a | main::a@main:+3:decl int b | main::a@main:+3:b = 2 | main::a@main:+4:[(*p) != 1] | " +
				"main::p@main:+3:decl int b | main::p@main:+3:b = 2 | main::p@main:+4:[(*p) != 1]"}},
		{"recursion", `int fib(int n) {
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}
int main(void) {
	if (fib(6) != 8)
		reach_error();
	return 0;
}`, cegar.ValueOptions{Scope: cegar.FunctionScope}, want{status: cegar.Safe, states: 209, refinements: 2,
			precision: "fib::__retval@fib | fib::__t0@fib | fib::__t1@fib | fib::n@fib | main::__t0@main"}},
	} {
		r := valueCEGAR(t, tc.src, 10*time.Second, cegar.Options{}, tc.vo)
		check(t, tc.name, r, tc.want)
	}
}

package bmc

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
)

const deferralHeader = `extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!(cond)) { reach_error(); abort(); } }
extern int __VERIFIER_nondet_int(void);
`

func deferralProgram(t *testing.T, src string) *cfa.Program {
	t.Helper()
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: deferralHeader + src}})
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestDeferralDue: error queries run at the first and the last bound,
// while they are cheap, and once the cut-off queries since the last ones
// cost as much as they did.
func TestDeferralDue(t *testing.T) {
	var d deferral
	if !d.due() {
		t.Fatal("the first bound must run its error queries")
	}
	d.errorsChecked(1, 2*time.Second)
	d.cutChecked(200 * time.Millisecond)
	steps := []bool{}
	for i := 0; i < 12; i++ {
		due := d.due()
		steps = append(steps, due)
		if due {
			d.errorsChecked(2+i, 2*time.Second)
		}
		d.cutChecked(500 * time.Millisecond)
	}
	// 2 s of error queries against 0.5 s cut-off queries: the fifth
	// bound after the first runs them (0.2 + 0.5 × 4 = 2.2 s pending),
	// then every fourth (0.5 × 4 = 2 s)
	want := []bool{false, false, false, false, true, false, false, false, true, false, false, false}
	for i := range want {
		if steps[i] != want[i] {
			t.Fatalf("due at the bounds after the first: %v, want %v", steps, want)
		}
	}
	cheap := deferral{}
	cheap.errorsChecked(1, 100*time.Millisecond)
	cheap.cutChecked(time.Millisecond)
	if !cheap.due() {
		t.Error("error queries under 250 ms must not wait")
	}
	close := deferral{}
	close.errorsChecked(1, time.Second)
	close.cutChecked(300 * time.Millisecond)
	close.pending = 0
	if !close.due() {
		t.Error("error queries under 4 times the cut-off query must not wait")
	}
	last := deferral{final: true}
	last.errorsChecked(1, time.Minute)
	if !last.due() {
		t.Error("the last bound must run its error queries")
	}
}

// TestDeferredBounds: bounds that skip their error queries (deferral
// with always) lose no verdict. An error in the 51st iteration, which
// bound 64 finds, is found at bound 128, where the unwinding assertions
// hold and the error queries run again; the loop without the error is
// TRUE at the same bound; a loop longer than the last bound ends
// UNKNOWN with the last bound checked (the last bound always runs its
// error queries), and an error in the 4th iteration under MaxUnwind 8 is
// found at bound 8. With k-induction, a cut-off of the entry function's
// loop runs the error queries (its base case), so the error is found at
// bound 4, as without deferral.
func TestDeferredBounds(t *testing.T) {
	const late = `int main(void) {
	int x = __VERIFIER_nondet_int();
	for (int i = 0; i < 100; i++) {
		if (i == 50 && x == 7) reach_error();
	}
	return 0;
}`
	const clean = `int main(void) {
	int x = __VERIFIER_nondet_int();
	for (int i = 0; i < 100; i++) {
		if (i == 500 && x == 7) reach_error();
	}
	return 0;
}`
	const long = `int main(void) {
	unsigned int i = 0;
	while (i < 1000) i++;
	__VERIFIER_assert(i == 1000);
	return 0;
}`
	const early = `int main(void) {
	int x = __VERIFIER_nondet_int();
	unsigned int i = 0;
	while (1) { if (i == 3 && x == 7) reach_error(); i++; }
	return 0;
}`
	for _, c := range []struct {
		name        string
		src         string
		opts        Options
		want        Status
		bound       int
		checked     int
		reasonWants string
	}{
		{"late-error", late, Options{}, False, 128, 0, ""},
		{"clean", clean, Options{}, True, 128, 0, ""},
		{"longer-than-the-last-bound", long, Options{MaxUnwind: 8}, Unknown, 8, 8, "no error within bound 8"},
		{"early-error-last-bound", early, Options{MaxUnwind: 8}, False, 8, 0, ""},
		{"k-induction-base-case", early, Options{MaxUnwind: 8, KInduction: true}, False, 4, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := deferralProgram(t, c.src)
			opts := c.opts
			opts.Entry, opts.Solver, opts.OneShot = "main", z3.Factory, z3.OneShotFactory
			opts.ErrorEdges = property.ErrorCalls(prog, "reach_error")
			r := checkBounds(context.Background(), prog, opts, deferral{always: true})
			if r.Status != c.want || r.Bound != c.bound {
				t.Fatalf("status %d at bound %d (%s); want %d at bound %d", r.Status, r.Bound, r.Reason, c.want, c.bound)
			}
			if c.want == False && len(r.Path) == 0 {
				t.Error("FALSE without a counterexample")
			}
			if c.want == Unknown && (r.Checked != c.checked || !strings.Contains(r.Reason, c.reasonWants)) {
				t.Errorf("checked %d (%s); want %d, %q", r.Checked, r.Reason, c.checked, c.reasonWants)
			}
		})
	}
}

// TestDeferredBoundsAll: CheckAll with deferred error queries decides
// each property as without: the error in the 51st iteration FALSE (at
// bound 128), the other property TRUE.
func TestDeferredBoundsAll(t *testing.T) {
	prog := deferralProgram(t, `void fail_a(void) {}
int main(void) {
	int x = __VERIFIER_nondet_int();
	for (int i = 0; i < 100; i++) {
		if (i == 50 && x == 7) fail_a();
		if (i == 500) reach_error();
	}
	return 0;
}`)
	specs := []Spec{{ErrorEdges: property.ErrorCalls(prog, "fail_a")}, {ErrorEdges: property.ErrorCalls(prog, "reach_error")}}
	got := map[int]Result{}
	left := checkAllBounds(context.Background(), prog, specs, Options{Entry: "main", Solver: z3.Factory, OneShot: z3.OneShotFactory},
		func(i int, r Result) { got[i] = r }, deferral{always: true})
	if len(left) != 0 {
		t.Fatalf("undecided: %v", left)
	}
	if got[0].Status != False || got[0].Bound != 128 || len(got[0].Path) == 0 {
		t.Errorf("fail_a: status %d at bound %d (%s), want FALSE at 128 with a counterexample", got[0].Status, got[0].Bound, got[0].Reason)
	}
	if got[1].Status != True {
		t.Errorf("reach_error: status %d (%s), want TRUE", got[1].Status, got[1].Reason)
	}
}

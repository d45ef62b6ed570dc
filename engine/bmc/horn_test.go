package bmc_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/smt/z3"

	"github.com/reverify/reverify/engine/bmc"
)

// hornPrograms have known verdicts; proved says that the Horn engine
// must be what proves them (k-induction cannot: their invariants are
// relations between variables, or the assertion is after the loop).
var hornPrograms = []struct {
	name, want string
	horn       bool
	src        string
}{
	{"equal-counters", "TRUE", true, `
int main(void) {
	unsigned x = 0, y = 0;
	while (__VERIFIER_nondet_int()) {
		if (__VERIFIER_nondet_int()) { x++; y++; } else { x += 2; y += 2; }
	}
	__VERIFIER_assert(x == y); // want TRUE
	return 0;
}`},
	{"through-a-callee", "TRUE", true, `
static void bump(int *p) { *p += 2; }
int main(void) {
	int a = 0, b = 0;
	while (__VERIFIER_nondet_int()) { bump(&a); b += 2; }
	__VERIFIER_assert(a == b); // want TRUE
	return 0;
}`},
	{"global-in-callee", "TRUE", true, `
int g;
static void twice(void) { g += 2; }
int main(void) {
	int c = 0;
	while (__VERIFIER_nondet_int()) { twice(); c += 2; }
	__VERIFIER_assert(g == c); // want TRUE
	return 0;
}`},
	{"symbolic-size-block", "TRUE", true, `
#include <stdlib.h>
int main(void) {
	int n = __VERIFIER_nondet_int();
	if (n <= 0 || n >= 100000) return 0;
	char *p = malloc(n);
	if (!p) return 0;
	int i = 0, j = 0;
	while (i < n) { p[i] = 1; i++; j += 2; }
	__VERIFIER_assert(j == 2 * i); // want TRUE
	return 0;
}`},
	{"deep-violation", "UNKNOWN", false, `
int main(void) {
	unsigned i = 0;
	while (i < 300) i++;
	__VERIFIER_assert(i != 300); // want FALSE (beyond the bounds tried: UNKNOWN)
	return 0;
}`},
	{"violation-in-loop", "FALSE", false, `
int main(void) {
	int x = 0;
	while (__VERIFIER_nondet_int()) { x++; __VERIFIER_assert(x != 5); } // want FALSE
	return 0;
}`},
	{"extern-writes", "UNKNOWN", false, `
extern void touch(int *p);
int main(void) {
	int y = 0;
	while (__VERIFIER_nondet_int()) touch(&y);
	__VERIFIER_assert(y == 0); // want UNKNOWN (touch may write y)
	return 0;
}`},
	// A global that the loop alone writes: the relation must carry it
	// (a global register missing from the loop head's state would read
	// as its initial value in every iteration, and prove g < 2000).
	{"global-counter-deep", "UNKNOWN", false, `
unsigned g;
int main(void) {
	while (__VERIFIER_nondet_int()) g++;
	__VERIFIER_assert(g < 2000); // want FALSE (after 2000 iterations: UNKNOWN)
	return 0;
}`},
	// Every iteration's block gets the same address in the clause of the
	// loop's segment, so prev == p would hold there although the blocks
	// of two iterations differ: allocation in a loop is refused.
	{"allocation-in-loop", "UNKNOWN", false, `
#include <stdlib.h>
int main(void) {
	int *prev = 0;
	unsigned n = 0;
	while (__VERIFIER_nondet_int()) {
		int *p = malloc(sizeof(int));
		if (!p) return 0;
		n++;
		__VERIFIER_assert(n < 1000 || prev == 0 || prev == p); // want FALSE (after 1000 iterations: UNKNOWN)
		prev = p;
	}
	return 0;
}`},
}

// TestHorn: the Horn engine proves what needs an inductive relation
// between variables, and never a property that an execution violates.
func TestHorn(t *testing.T) {
	for _, p := range hornPrograms {
		t.Run(p.name, func(t *testing.T) {
			// the Horn engine takes half the time left: 5 s
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			r := checkCtx(ctx, t, p.src, bmc.Options{MaxUnwind: 64, KInduction: true, Horn: z3.InProcess{}})
			if got := statusName[r.Status]; got != p.want {
				t.Errorf("%s at bound %d (%s), want %s", got, r.Bound, r.Reason, p.want)
			}
			if r.Horn != p.horn {
				t.Errorf("proved by the Horn engine: %v, want %v (%s)", r.Horn, p.horn, r.Reason)
			}
		})
	}
}

// TestHornInvariants: a Horn proof carries the solution's conditions at
// the loop head in C, over the program's variables (the candidates of
// its correctness witness).
func TestHornInvariants(t *testing.T) {
	r := check(t, hornPrograms[0].src, bmc.Options{MaxUnwind: 64, KInduction: true, Horn: z3.InProcess{}})
	if !r.Horn {
		t.Fatalf("not proved by the Horn engine: %s", r.Reason)
	}
	var got []string
	for _, conds := range r.Invariants {
		for _, c := range conds {
			got = append(got, c.String())
		}
	}
	t.Logf("invariants: %v", got)
	found := false
	for _, s := range got {
		found = found || strings.Contains(s, "x") && strings.Contains(s, "y") && strings.Contains(s, "==")
	}
	if !found {
		t.Errorf("no condition relates x and y: %v", got)
	}
}

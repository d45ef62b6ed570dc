package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa/cfatest"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// translateString writes src to a file of a temporary directory and
// translates it.
func translateString(t *testing.T, name, src string) (*engine.Program, []*spec.Property) {
	t.Helper()
	prog, err := frontend.Translate(frontend.Options{}, cfatest.SourceFile(t, name, src))
	if err != nil {
		t.Fatal(err)
	}
	return prog, spec.Properties(prog, "main")
}

// sharedSrc has eight assertions that value analysis decides in one
// ARG (seven hold, one fails), each on the result of a loop of 2,000
// iterations, so that every run of one property costs about as much as
// the shared run.
const sharedSrc = `extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, "f.c", __LINE__, "main"))
int main(void) {
	int s = 0;
	for (int i = 0; i < 2000; i++)
		s += i % 3;
	int c = __VERIFIER_nondet_int() ? 1 : 2;
	assert(s == 1999);
	assert(s + c >= 2000);
	assert(s + c <= 2001);
	assert(s - c != 2000);
	assert(s > 0);
	assert(c * s >= 1999);
	assert(s < 2000);
	assert(s + c == 2000);
	return 0;
}
`

// TestShareDeadlineShared verifies sharedSrc with Config.ShareDeadline,
// with `value` all at once (MultiOn: the shared run alone) and with
// `default` (the shared value run beside rounds of one property at a
// time), and requires the verdicts of one property at a time (MultiOff
// without ShareDeadline). With `value` the shared run decides all eight
// properties from one ARG (one analysis run, not eight: every result has
// the same state count); with `default` it decides at least one, from
// one ARG, while the rounds may win others.
func TestShareDeadlineShared(t *testing.T) {
	prog, props := translateString(t, "shared.c", sharedSrc)
	if len(props) != 8 {
		t.Fatalf("%d properties, want 8", len(props))
	}
	want := []results.Verdict{results.True, results.True, results.True, results.True, results.True, results.True, results.True, results.False}
	for _, tc := range []struct {
		config, mode, prefix string
		minShared            int
	}{
		{"value", engine.MultiOn, "", 8},
		{"default", engine.MultiAuto, "value (all properties in one run): ", 1},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cfg := engine.Config{MemoryLimit: testMemory, Name: tc.config, Solver: z3.Factory, Timeout: time.Minute, Workers: 1, MultiProperty: tc.mode, ShareDeadline: true}
		rs, err := engine.Verify(ctx, prog, props, cfg)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		byShared, states := 0, map[int]bool{}
		for i, r := range rs {
			if r.Verdict != want[i] {
				t.Errorf("%s: %s: %s (%s), want %s", tc.config, props[i].ID, r.Verdict, r.Reason, want[i])
			}
			if tc.prefix == "" || strings.HasPrefix(r.Reason, tc.prefix) {
				byShared++
				states[r.States] = true
			}
		}
		if byShared < tc.minShared || len(states) != 1 {
			t.Errorf("%s: decided by the shared run: %d of 8, with %d different state counts; want at least %d, from one ARG", tc.config, byShared, len(states), tc.minShared)
		}
		t.Logf("%s: %d of 8 decided by the shared run (%v states)", tc.config, byShared, states)
		cfg.ShareDeadline, cfg.MultiProperty = false, engine.MultiOff
		one, err := engine.Verify(context.Background(), prog, props, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range one {
			if r.Verdict != rs[i].Verdict {
				t.Errorf("%s: %s: one at a time %s (%s), shared deadline %s (%s)", tc.config, props[i].ID, r.Verdict, r.Reason, rs[i].Verdict, rs[i].Reason)
			}
		}
	}
}

// slowSrc has five assertions behind a loop of 10^9 iterations: value
// analysis (full precision) cannot finish, so only the deadline ends it.
const slowSrc = `extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, "f.c", __LINE__, "main"))
int main(void) {
	unsigned s = 0;
	for (unsigned i = 0; i < 1000000000u; i++)
		s += i & 1;
	assert(s != 7);
	assert(s != 8);
	assert(s != 9);
	assert(s != 10);
	assert(s != 11);
	return 0;
}
`

// TestShareDeadlineReturnsInTime verifies slowSrc with a deadline of
// 1.5 s and a property limit of 10 s, one property at a time (MultiOff:
// rounds of 600 ms, a fifth of twice the time) and with the shared run
// (MultiOn): Verify returns soon after the deadline, every property
// UNKNOWN with a timeout, none with more time than the deadline left.
func TestShareDeadlineReturnsInTime(t *testing.T) {
	prog, props := translateString(t, "slow.c", slowSrc)
	if len(props) != 5 {
		t.Fatalf("%d properties, want 5", len(props))
	}
	for _, mode := range []string{engine.MultiOff, engine.MultiOn} {
		const limit = 1500 * time.Millisecond
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		start := time.Now()
		rs, err := engine.Verify(ctx, prog, props, engine.Config{
			// the memory watch judges the whole test process (other
			// tests' memory too): not this test's subject
			Name: "value", Solver: z3.Factory, Timeout: 10 * time.Second, MaxStates: 1 << 30, MemoryLimit: 1 << 34,
			Workers: 2, MultiProperty: mode, ShareDeadline: true,
		})
		took := time.Since(start)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		// the grace covers the cancellation checks of a loaded machine
		if took > limit+2*time.Second {
			t.Errorf("%s: Verify took %v with a deadline of %v", mode, took, limit)
		}
		for i, r := range rs {
			if r.Verdict != results.Unknown || !strings.Contains(r.Reason, "timeout") {
				t.Errorf("%s: %s: %s (%s), want UNKNOWN by a timeout", mode, props[i].ID, r.Verdict, r.Reason)
			}
			if r.Seconds > limit.Seconds()+2 {
				t.Errorf("%s: %s: %.2fs, beyond the deadline", mode, props[i].ID, r.Seconds)
			}
		}
		t.Logf("%s: returned after %v; first reason: %s", mode, took, rs[0].Reason)
	}
}

// bmcSharedSrc has five assertions over bytes of unknown values that a
// loop of up to 12 iterations copies: value analysis enumerates the
// bytes (its state budget ends it), bounded model checking unrolls the
// loop and proves all five over one unrolling.
const bmcSharedSrc = `extern unsigned __VERIFIER_nondet_uint(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int);
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, "f.c", __LINE__, "main"))
int main(void) {
	unsigned char a[12], b[12];
	unsigned n = __VERIFIER_nondet_uint();
	__VERIFIER_assume(n <= 12);
	for (unsigned i = 0; i < 12; i++) a[i] = __VERIFIER_nondet_uchar();
	for (unsigned i = 0; i < n; i++) b[i] = a[i];
	unsigned k = __VERIFIER_nondet_uint();
	__VERIFIER_assume(k < n);
	assert(b[k] == a[k]);
	assert(n > 0);
	assert(k + 1 <= n);
	assert(n <= 12);
	assert(b[0] == a[0]);
	return 0;
}
`

// TestShareDeadlineBMC: under Config.ShareDeadline, `default`'s shared
// run has bounded model checking of all properties over one unrolling
// beside the value analysis's run (roundsShared): what value cannot
// decide, bmc decides for all properties at once, named as its decider.
func TestShareDeadlineBMC(t *testing.T) {
	prog, props := translateString(t, "bmcshared.c", bmcSharedSrc)
	if len(props) != 5 {
		t.Fatalf("%d properties, want 5", len(props))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := engine.Config{MemoryLimit: testMemory, Name: "default", Solver: z3.Factory, OneShot: z3.OneShotFactory, Timeout: 20 * time.Second, Workers: 1, ShareDeadline: true}
	rs, err := engine.Verify(ctx, prog, props, cfg)
	if err != nil {
		t.Fatal(err)
	}
	byBMC := 0
	for i, r := range rs {
		if r.Verdict != results.True {
			t.Errorf("%s: %s (%s), want TRUE", props[i].ID, r.Verdict, r.Reason)
		}
		if r.Decider == "bmc (all properties in one run)" && strings.HasPrefix(r.Reason, r.Decider+": ") {
			byBMC++
		}
	}
	if byBMC == 0 {
		t.Errorf("no property decided by the shared bmc run: %v", rs)
	}
}

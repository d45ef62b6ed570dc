package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/results"
)

// TestSelectionRecorded: under `default` each result says which class
// of program ordered the arms (results.json's "selection"): a loop whose
// bound is an input makes the program input-bounded, and affine when
// Karr's analysis finds an equality at its head (x == 2 * i + 1), which
// k-induction takes as a candidate and proves; without one (x == i * i
// is no affine equality) it is invariant; the lone analyses record
// none.
func TestSelectionRecorded(t *testing.T) {
	const head = `extern unsigned __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, "f.c", __LINE__, "main"))
int main(void) {
  unsigned n = __VERIFIER_nondet_uint(), i = 0, x = 1;
`
	const affine = head + `  while (i < n) { i++; x += 2; }
  assert(x % 2 == 1); // want TRUE
  return 0;
}
`
	const square = head + `  x = 0;
  while (i < n) { i++; x = i * i; }
  assert(x == i * i); // want TRUE
  return 0;
}
`
	for _, c := range []struct{ src, config, want, decider string }{
		{affine, "default", "affine: 1 loop (1 input-bounded at ", "k-induction"},
		{square, "default", "invariant: 1 loop (1 input-bounded at ", ""},
		{affine, "predicate-cegar", "", ""},
	} {
		prog, props := translateString(t, "sel.c", c.src)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		rs, err := engine.Verify(ctx, prog, props, engine.Config{MemoryLimit: testMemory, Name: c.config, Solver: z3.Factory, Timeout: 30 * time.Second})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		r := rs[0]
		if r.Verdict != results.True {
			t.Errorf("%s: %s (%s), want TRUE", c.config, r.Verdict, r.Reason)
		}
		if c.want == "" && r.Selection != "" || !strings.HasPrefix(r.Selection, c.want) {
			t.Errorf("%s: selection %q, want it to start with %q", c.config, r.Selection, c.want)
		}
		if c.decider != "" && r.Decider != c.decider {
			t.Errorf("%s: decided by %q, want %q", c.config, r.Decider, c.decider)
		}
	}
}

package memsafety_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/memsafety"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/strategy"
	"github.com/reverify/reverify/results"
)

// decide runs Step on props of prog from entry under a 20 s limit and
// returns the results in the order of props.
func decide(t *testing.T, prog *cfa.Program, entry string, props []*spec.Property, noLists bool) []*strategy.Result {
	t.Helper()
	opts := memsafety.Options{Entry: entry, MaxStates: 200_000, MaxDepth: 64, Solver: z3.Factory,
		NoListAbstraction: noLists, Limits: strategy.Limits{Timeout: 20 * time.Second}}
	rs := make([]*strategy.Result, len(props))
	idx := make([]int, len(props))
	for i := range idx {
		idx[i] = i
	}
	memsafety.Step(prog, props, opts).Run(context.Background(), idx, func(i int, r *strategy.Result) {
		if rs[i] != nil {
			t.Errorf("property %d decided twice", i)
		}
		rs[i] = r
	})
	for i, r := range rs {
		if r == nil {
			t.Fatalf("property %d: no result", i)
		}
	}
	return rs
}

func translate(t *testing.T, src string) *cfa.Program {
	t.Helper()
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: src}})
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestProbeUndecided: the parent link of the last node is read before
// any write, so the value analysis cannot decide the dereference
// (value.UnknownPointer); the probe finds initial heap bytes that make it
// invalid, within the value analysis's run (Config memsafety-value, not
// symbolic execution's memsafety-symex, which would decide it later).
func TestProbeUndecided(t *testing.T) {
	src, err := os.ReadFile("../testdata/verdicts/memsafety_uninit_pointer.c")
	if err != nil {
		t.Fatal(err)
	}
	prog := translate(t, string(src))
	for _, noLists := range []bool{false, true} {
		r := decide(t, prog, "main", []*spec.Property{spec.MemoryProperty("main", spec.MemSafetySubs)}, noLists)[0]
		if r.Verdict != results.False || r.Violated != "valid-deref" || r.Config != memsafety.ConfigValue {
			t.Fatalf("no list abstraction %v: %s %s by %s (%s), want FALSE valid-deref by %s", noLists, r.Verdict, r.Violated, r.Config, r.Reason, memsafety.ConfigValue)
		}
		if !strings.Contains(r.Reason, "an execution of the path makes it invalid") || len(r.Counterexample) == 0 {
			t.Errorf("reason %q, %d steps: want the probe's confirmed counterexample", r.Reason, len(r.Counterexample))
		}
	}
}

// TestSites: per-site properties of a program whose one out-of-bounds
// write is at a[n] with n up to 4 into int a[4]: that site is FALSE,
// every other site TRUE, and the leak check of the whole program TRUE.
func TestSites(t *testing.T) {
	prog := translate(t, `extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
int main(void) {
	int a[4];
	int n = __VERIFIER_nondet_int();
	if (n < 0 || n > 4) return 0;
	int *p = malloc(sizeof(int));
	if (!p) return 0;
	*p = 1;
	a[n] = *p;
	free(p);
	return 0;
}
`)
	sites := spec.MemorySites(prog, "main", []string{"valid-deref"})
	props := append(sites, spec.MemoryProperty("main", []string{"valid-free", "valid-memtrack"}))
	rs := decide(t, prog, "main", props, false)
	falses := 0
	for i, r := range rs {
		switch {
		case r.Verdict == results.False:
			falses++
			if r.ViolationPos.Line != 11 {
				t.Errorf("%s: FALSE at line %d, want 11", props[i].ID, r.ViolationPos.Line)
			}
		case r.Verdict != results.True:
			t.Errorf("%s: %s (%s), want TRUE", props[i].ID, r.Verdict, r.Reason)
		}
	}
	if falses != 1 {
		t.Errorf("%d FALSE sites, want 1 (a[n])", falses)
	}
}

// TestEntryParameter: a pointer parameter of the entry function the
// function dereferences may designate any object; no run decides it.
func TestEntryParameter(t *testing.T) {
	prog := translate(t, `int get(int *p) { return *p; }`)
	r := decide(t, prog, "get", []*spec.Property{spec.MemoryProperty("get", spec.MemSafetySubs)}, false)[0]
	if r.Verdict != results.Unknown || r.Cause == nil || r.Cause.Kind != results.CauseUnsupported {
		t.Fatalf("%s %+v (%s), want UNKNOWN, unsupported", r.Verdict, r.Cause, r.Reason)
	}
}

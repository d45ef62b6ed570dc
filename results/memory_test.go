package results

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// useAfterFree is the FALSE valid-deref property of
//
//	int *make(void) { int *p = malloc(sizeof(int)); … return p; }  // f.c:3-9
//	void release(int *p) { free(p); }                              // f.c:11-13
//	int main(void) { int *p = make(); release(p); return *p; }     // f.c:15-19
//
// as `reverify check --properties memory` writes it into results.json.
func useAfterFree(t *testing.T) *PropertyReport {
	t.Helper()
	data, err := os.ReadFile("testdata/use_after_free.json")
	if err != nil {
		t.Fatal(err)
	}
	var p PropertyReport
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	return &p
}

func TestMemory(t *testing.T) {
	p := useAfterFree(t)
	m := Memory(p, "")
	if m == nil {
		t.Fatal("no memory facts")
	}
	if m.Kind != ValidDeref || m.Problem != UseAfterFree || m.Access != "*p" || m.Pointer != "p" || m.Object != "heap7#0" {
		t.Errorf("facts %+v", m)
	}
	if m.Alloc == nil || *m.Alloc != (Site{"f.c", 4, "malloc"}) || len(m.Frees) != 1 || m.Frees[0] != (Site{"f.c", 12, "free"}) {
		t.Errorf("alloc %v, frees %v", m.Alloc, m.Frees)
	}
	if got, want := m.Block(), "the block allocated at f.c:4 by malloc"; got != want {
		t.Errorf("Block() = %q, want %q", got, want)
	}
	if got, want := p.ReadableReason(""), "valid-deref: access to the block allocated at f.c:4 by malloc after it was freed (*p) at f.c:18:3; confirmed by SMT and concrete replay"; got != want {
		t.Errorf("ReadableReason = %q, want %q", got, want)
	}
	// Two allocation sites: the analysis's allocation site places the
	// block; without it (a block of an abstracted list) it is not placed.
	q := *p
	q.Steps = append([]StepJSON{{File: "f.c", Line: 2, Op: "__t9 = calloc(1U, 4U)"}}, p.Steps...)
	if got := Memory(&q, "").Block(); got != "the block allocated at f.c:4 by malloc" {
		t.Errorf("two sites: %q", got)
	}
	unplaced := *q.Memory
	unplaced.AllocFile, unplaced.AllocLine, unplaced.AllocFunc = "", 0, ""
	q.Memory = &unplaced
	if got := Memory(&q, "").Block(); got != "a heap block allocated at f.c:2 or f.c:4" {
		t.Errorf("two sites, no allocation site: %q", got)
	}
	// The problem is the typed fact's, never read from the reason: a
	// reason without a fact is OtherViolation whatever it says.
	for _, c := range []struct {
		reason string
		fact   *MemoryViolation
	}{
		{"valid-deref: NULL pointer dereference (p->next) at a.c:3:1; confirmed by SMT and concrete replay", &MemoryViolation{Problem: NullDeref, Access: "p->next"}},
		{"valid-free: double free of heap3#1 at a.c:9:2; confirmed by SMT and concrete replay", &MemoryViolation{Problem: DoubleFree, Object: "heap3#1"}},
		{"valid-deref: out-of-bounds access of 4 bytes at offset 8 of heap2#0 (8 bytes) by a[2] at a.c:5:3; confirmed by SMT and concrete replay", &MemoryViolation{Problem: OutOfBounds, Access: "a[2]", Object: "heap2#0", Bytes: 4, Offset: 8, Size: 8}},
		{"valid-memtrack: heap2#0 is allocated but no longer reachable at a.c:7:1; confirmed by SMT and concrete replay", &MemoryViolation{Problem: Leak, Object: "heap2#0"}},
		{"valid-free: double free of heap3#1 at a.c:9:2; confirmed by SMT and concrete replay", nil},
		{"valid-deref: something new, and an execution of the path makes it invalid; confirmed by SMT and concrete replay", nil},
	} {
		r := PropertyReport{Verdict: False, Violated: strings.Split(c.reason, ":")[0], Reason: c.reason, Memory: c.fact}
		m := Memory(&r, "")
		want := MemoryViolation{Problem: OtherViolation}
		if c.fact != nil {
			want = *c.fact
		}
		if m.Problem != want.Problem || m.Access != want.Access || m.Object != want.Object || m.Bytes != int(want.Bytes) || m.Offset != int(want.Offset) || m.Size != int(want.Size) {
			t.Errorf("%s: %+v", c.reason, m)
		}
	}
	if Memory(&PropertyReport{Verdict: False, Expression: "x > 0"}, "") != nil {
		t.Errorf("an assertion has memory facts")
	}
}

// TestReadableTraceKeepsFree: the call of release(p), which frees the
// block, reads no input and touches no changed line; in an assertion's
// counterexample it would be folded, in a memory-safety one it stays.
func TestReadableTraceKeepsFree(t *testing.T) {
	p := useAfterFree(t)
	var ops []string
	for _, r := range ReadableTrace(p, "", nil) {
		ops = append(ops, p.Steps[r.Step].Op)
	}
	if got := strings.Join(ops, "; "); !strings.Contains(got, "free((void *)p)") || !strings.Contains(got, "__t0 = malloc(4U)") {
		t.Errorf("trace %s", got)
	}
	q := *p
	q.Violated, q.Expression = "", "x > 0"
	for _, r := range ReadableTrace(&q, "", nil) {
		if q.Steps[r.Step].Op == "free((void *)p)" {
			t.Errorf("the call of release is not folded in an assertion's counterexample")
		}
	}
}

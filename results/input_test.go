package results_test

import (
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/results"
)

// TestNewInput: signed values are sign-extended from the type's width,
// unsigned ones are not; the position is the reading edge's start, or
// the callee's for an entry step, and zero outside the path.
func TestNewInput(t *testing.T) {
	at := cfa.Pos{File: "a.c", Line: 4, Col: 9}
	fn := &cfa.Function{Name: "main", Pos: cfa.Range{Start: cfa.Pos{File: "a.c", Line: 1, Col: 5}}}
	path := []cfa.Step{{Kind: cfa.Enter, Callee: fn}, {Edge: &cfa.Edge{Pos: cfa.Range{Start: at}}}}
	for _, tc := range []struct {
		t     *cfa.Type
		bits  uint64
		step  int
		value int64
		pos   cfa.Pos
	}{
		{cfa.IntT, 0xffffffff, 1, -1, at},
		{cfa.UCharType, 0xff, 1, 255, at},
		{cfa.IntT, 7, 0, 7, fn.Pos.Start},
		{nil, 0xffffffff, 2, 0xffffffff, cfa.Pos{}},
	} {
		in := results.NewInput("__VERIFIER_nondet_int", tc.t, tc.bits, tc.step, path)
		if in.Value != tc.value || in.Bits != tc.bits || in.Step != tc.step || in.Pos != tc.pos || in.Type != tc.t {
			t.Errorf("NewInput(%v, %#x, step %d) = %+v, want value %d at %v", tc.t, tc.bits, tc.step, in, tc.value, tc.pos)
		}
	}
}

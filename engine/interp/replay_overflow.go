package interp

import (
	"context"
	"fmt"

	"github.com/reverify/reverify/engine/cfa"
)

// FirstSignedOverflow replays path with inputs, as Replay does, and
// returns the position of the first step that evaluates a signed +, -, *
// or unary - whose mathematical result does not fit its type (undefined
// in C, wrapped by reverify's -fwrapv semantics), with found true; found
// is false when the replayed prefix has no such operation. The error is
// Replay's when the path cannot be replayed to its end.
func FirstSignedOverflow(ctx context.Context, p *cfa.Program, path []cfa.Step, inputs []uint64) (pos cfa.Pos, found bool, err error) {
	m := newMachine(p, inputs)
	m.trace = &Trace{}
	m.detectOverflow = true
	for i, s := range path {
		if i&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return pos, found, fmt.Errorf("interp: replay interrupted at step %d: %w", i, err)
			}
		}
		st := m.try(func() { m.replayStep(s) })
		if m.overflowed && !found {
			found = true
			if s.Edge != nil {
				pos = s.Edge.Pos.Start
			}
		}
		if st != nil {
			return pos, found, fmt.Errorf("interp: replay stops at step %d: %s: %s", i, st.kind, st.msg)
		}
		if m.assumeFailed {
			return pos, found, fmt.Errorf("interp: replay stops at step %d: %w: __VERIFIER_assume failed", i, ErrDiverges)
		}
	}
	return pos, found, nil
}

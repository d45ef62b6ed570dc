package engine

import (
	"context"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/interp"
	"github.com/reverify/reverify/engine/smt"
)

// signedOverflow replays a confirmed counterexample (its path and model
// inputs) and returns the position of its first signed overflow, or ""
// when it has none (or the replay fails, which cegar.CheckPath has
// already ruled out).
func signedOverflow(ctx context.Context, prog *cfa.Program, path []cfa.Step, in []smt.InputValue) string {
	values := make([]uint64, len(in))
	for i, v := range in {
		values[i] = v.Value
	}
	pos, found, _ := interp.FirstSignedOverflow(ctx, prog, path, values)
	if !found {
		return ""
	}
	return pos.String()
}

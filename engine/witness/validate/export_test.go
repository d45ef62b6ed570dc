package validate

import (
	"context"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/witness"
)

// SameUpToFresh exposes sameUpToFresh with empty renaming and memo.
func SameUpToFresh(a, b *smt.Term) bool {
	return sameUpToFresh(a, b, map[string]string{}, map[[2]int]bool{})
}

// StallHoudini makes Select's Houdini run use all of its time and fail,
// as it does over the candidates of a reached set of many states; the
// returned function restores it.
func StallHoudini() (restore func()) {
	runHoudini = func(ctx context.Context, prog *cfa.Program, src *witness.Sources, target *errorTarget, hs []houdiniSite, opts Options) error {
		<-ctx.Done()
		return ctx.Err()
	}
	return func() { runHoudini = houdini }
}

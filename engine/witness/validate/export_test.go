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

// DriftEncodings makes every re-encoded path differ from the conjuncts
// the incremental check asserted, as a variable moving into memory
// would; the returned function restores the comparison.
func DriftEncodings() (restore func()) {
	samePrefix = func(a, b *smt.Term, ren map[string]string, same map[[2]int]bool) bool { return false }
	return func() { samePrefix = sameUpToFresh }
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

// Houdini runs Houdini over cands at the loop at loc under the SV-COMP
// specification and returns the survivors.
func Houdini(ctx context.Context, prog *cfa.Program, loc witness.YAMLLocation, cands []string, opts Options) ([]string, error) {
	target, _, err := targetOf(witness.YAMLMetadata{Task: witness.YAMLTask{Specification: "G ! call(reach_error())"}}, opts.Properties)
	if err != nil {
		return nil, err
	}
	h := houdiniSite{loc: loc}
	for _, t := range cands {
		h.cands = append(h.cands, &candidate{text: t})
	}
	if opts.Entry == "" {
		opts.Entry = "main"
	}
	err = houdini(ctx, prog, witness.NewSources(nil), target, []houdiniSite{h}, opts)
	var live []string
	for _, c := range h.cands {
		if !c.dead {
			live = append(live, c.text)
		}
	}
	return live, err
}

// Iteration is iteration (merged.go).
var Iteration = iteration

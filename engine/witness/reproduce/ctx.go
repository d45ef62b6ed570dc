package reproduce

import (
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/results"
)

// ctx is the violation as the reproducer sees it (witness.Trace).
type ctx struct {
	tr      *witness.Trace
	v       *witness.Violation
	order   []string              // input files
	inputs  map[int]results.Input // by step
	depth   []int                 // call depth of each step (0 = entry function)
	target  int                   // index of the step calling the error function
	errFunc string                // the error function called there
}

func newCtx(v *witness.Violation) (*ctx, error) {
	t, err := witness.NewTrace(v)
	if err != nil {
		return nil, err
	}
	return &ctx{tr: t, v: v, order: t.Files, inputs: t.Inputs, depth: t.Depth, target: t.Target, errFunc: t.ErrFunc}, nil
}

// site returns the value site of step i, if an input was read there.
func (c *ctx) site(i int) (witness.ValueSite, bool) { return c.tr.Site(i) }

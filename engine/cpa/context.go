package cpa

import "context"

// ContextUser is an optional capability of CPAs whose operators call out
// to solvers (the symbolic execution CPA checks path constraints with
// Z3). Algorithm.Run passes its context before it expands any state, so
// cancelling a run interrupts a solver call inside a transfer or a stop;
// the transfer then returns the cancellation as its error and the state
// goes back on the waitlist. The context stays in effect until the next
// Run.
type ContextUser interface {
	UseContext(ctx context.Context)
}

// UseContext passes ctx to the components implementing ContextUser.
func (c *Composite) UseContext(ctx context.Context) {
	for _, x := range c.comps {
		if u, ok := x.(ContextUser); ok {
			u.UseContext(ctx)
		}
	}
}

// Package timeslice lets a scheduler pause and resume analyses that run
// in goroutines of their own: cooperative time slices. Go cannot stop a
// goroutine from outside, and a cancelled analysis loses its work; so an
// analysis calls Yield at its checkpoints (the CPA algorithm once per
// state taken from the waitlist, k-induction once per path), and Yield
// blocks while the scheduler that owns the context has paused it. A
// context without a scheduler never blocks.
//
// The scheduler is engine/strategy's portfolio: with fewer cores than
// arms it runs as many arms as it has slots and rotates them, so that
// each arm keeps the state it reached instead of restarting (seed 000,
// section 4 compares the configurations such a portfolio combines).
package timeslice

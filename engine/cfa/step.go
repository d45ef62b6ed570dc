package cfa

// StepKind says how a Step moves through the interprocedural CFA.
type StepKind uint8

// Step kinds.
const (
	// Intra takes Edge within its function (for a Call edge: a call to a
	// function without a body, treated atomically).
	Intra StepKind = iota
	// Enter takes the Call edge Edge into its callee, which has a body:
	// parameters are bound and control moves to the callee's entry.
	Enter
	// Leave leaves a callee at its exit back to the caller: Edge is the
	// Call edge that entered it; the result is bound and control moves to
	// Edge.To.
	Leave
)

// Step is one transition of an interprocedural path. A path (an error
// path, a counterexample) is a []Step starting at Program.Init's entry (or
// at the entry function's entry when Init is empty). Init's exit is
// followed by an Enter step whose Edge is nil into the entry function.
type Step struct {
	Edge *Edge
	Kind StepKind
	// Callee is the function entered or left (Enter, Leave).
	Callee *Function
}

// Next returns the location a step leads to.
func (s Step) Next() *Location {
	switch s.Kind {
	case Enter:
		return s.Callee.Entry
	case Leave:
		return s.Edge.To
	}
	return s.Edge.To
}

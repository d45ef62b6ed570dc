package location

import (
	"fmt"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

// CPA is the location analysis: its states are program locations, its
// transfer follows CFA edges, and it produces the candidate steps of every
// composite state (cpa.Stepper).
type CPA struct {
	prog  *cfa.Program
	entry *cfa.Function
	start *cfa.Location
	// addrFuncs are the functions with bodies whose address is taken
	// (a FuncRef anywhere in the program), in definition order; extAddr
	// is set when a function pointer may designate a function without a
	// body (cfa.Program.OutsideFuncPointers).
	addrFuncs []*cfa.Function
	extAddr   bool
}

// State is a location state: the current program location. It is a
// single-pointer struct, so storing it in a cpa.State does not allocate.
type State struct{ L *cfa.Location }

// New returns the location CPA of prog, starting at Init's entry (or the
// entry function's entry when Init has no edges) and continuing into the
// function named entry after Init. It reports an error if entry has no
// body in prog.
func New(prog *cfa.Program, entry string) (*CPA, error) {
	f := prog.Func(entry)
	if f == nil {
		return nil, fmt.Errorf("location: entry function %q has no body", entry)
	}
	c := &CPA{prog: prog, entry: f, start: prog.Init.Entry}
	if len(prog.Init.Entry.Out) == 0 {
		c.start = f.Entry
	}
	taken := map[string]bool{}
	for _, e := range prog.Edges {
		cfa.ForEachExpr(e.Op, func(x cfa.Expr) {
			cfa.Walk(x, func(x cfa.Expr) bool {
				if r, ok := x.(*cfa.FuncRef); ok {
					taken[r.Name] = true
				}
				return true
			})
		})
	}
	for _, g := range prog.Funcs {
		if taken[g.Name] {
			c.addrFuncs = append(c.addrFuncs, g)
		}
	}
	c.extAddr = prog.OutsideFuncPointers()
	return c, nil
}

// Entry returns the entry function.
func (c *CPA) Entry() *cfa.Function { return c.entry }

// Name returns "location".
func (c *CPA) Name() string { return "location" }

// Initial returns the start location and a nil precision.
func (c *CPA) Initial() (cpa.State, cpa.Precision) { return State{c.start}, nil }

// Successors appends the location step.Next() (the steps come from Steps,
// so they leave from s).
func (c *CPA) Successors(dst []cpa.State, s cpa.State, step cfa.Step, _ cpa.Precision) ([]cpa.State, error) {
	return append(dst, State{step.Next()}), nil
}

// LessOrEqual holds for equal locations only.
func (c *CPA) LessOrEqual(a, b cpa.State) bool { return a.(State).L == b.(State).L }

// Join joins equal locations (merge-join within a partition).
func (c *CPA) Join(a, b cpa.State) (cpa.State, bool) { return b, a.(State).L == b.(State).L }

// Steps appends the candidate steps at s's location: for each out-edge an
// Intra step, or an Enter step for a Call to a function with a body (for
// a call through a pointer, an Enter step into every function whose
// address is taken and whose parameters match the arguments, plus an
// Intra step when the address of a function without body is taken; the
// data analyses discard the candidates the pointer value rules out). At a
// function's exit: a Leave step to the call edge on top of the call stack
// (a component state implementing cpa.ReturnSiter), at Init's exit an
// Enter step with nil Edge into the entry function, and nothing at the
// entry function's exit.
func (c *CPA) Steps(steps []cfa.Step, self cpa.State, comps []cpa.State) []cfa.Step {
	l := self.(State).L
	if len(l.Out) == 0 {
		if l != l.Func.Exit {
			return steps
		}
		if l.Func == c.prog.Init {
			return append(steps, cfa.Step{Kind: cfa.Enter, Callee: c.entry})
		}
		for _, x := range comps {
			if r, ok := x.(cpa.ReturnSiter); ok {
				if e := r.ReturnSite(); e != nil {
					return append(steps, cfa.Step{Edge: e, Kind: cfa.Leave, Callee: l.Func})
				}
				return steps
			}
		}
		return steps
	}
	for _, e := range l.Out {
		call, ok := e.Op.(*cfa.Call)
		if !ok {
			steps = append(steps, cfa.Step{Edge: e})
			continue
		}
		if call.Fn != "" {
			if f := c.prog.Func(call.Fn); f != nil {
				steps = append(steps, cfa.Step{Edge: e, Kind: cfa.Enter, Callee: f})
			} else {
				steps = append(steps, cfa.Step{Edge: e})
			}
			continue
		}
		for _, f := range c.addrFuncs {
			if len(f.Params) == len(call.Args) || (f.T != nil && f.T.Variadic && len(call.Args) >= len(f.Params)) {
				steps = append(steps, cfa.Step{Edge: e, Kind: cfa.Enter, Callee: f})
			}
		}
		if c.extAddr {
			steps = append(steps, cfa.Step{Edge: e})
		}
	}
	return steps
}

// Location returns the location.
func (s State) Location() *cfa.Location { return s.L }

// PartitionKey is the location itself.
func (s State) PartitionKey() any { return s.L }

func (s State) String() string { return s.L.Func.Name + ":" + s.L.String() }

var (
	_ cpa.CPA     = (*CPA)(nil)
	_ cpa.Stepper = (*CPA)(nil)
	_ cpa.Joiner  = (*CPA)(nil)
)

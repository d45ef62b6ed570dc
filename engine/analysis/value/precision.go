package value

import (
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// Precision says which variables the value analysis tracks: values of
// untracked variables are never stored (they are unknown). Precisions are
// immutable; CEGAR refines by building a larger one.
type Precision interface {
	// Tracks reports whether the value of v is kept at location l; v is
	// nil for objects that are not variables (heap blocks, string
	// literals).
	Tracks(l *cfa.Location, v *cfa.Var) bool
	// Full reports whether every variable is tracked everywhere (the
	// analysis then skips all precision checks).
	Full() bool
}

// FullPrecision tracks everything.
type FullPrecision struct{}

// Tracks returns true.
func (FullPrecision) Tracks(*cfa.Location, *cfa.Var) bool { return true }

// Full returns true.
func (FullPrecision) Full() bool { return true }

func (FullPrecision) String() string { return "full" }

// VarPrecision tracks the variables named in Vars everywhere, those in
// AtLoc[l.ID] at location l only, and heap and string objects when Heap
// is set. Names are Var.QualName: "g" for globals and static locals
// ("f::s"), "f::x" for locals of f, so a precision keyed by function and
// variable name maps directly onto it.
type VarPrecision struct {
	Vars  map[string]bool
	AtLoc map[int]map[string]bool
	Heap  bool
}

// NewVarPrecision returns the precision tracking the given qualified names
// everywhere (and no heap objects).
func NewVarPrecision(names ...string) *VarPrecision {
	p := &VarPrecision{Vars: map[string]bool{}}
	for _, n := range names {
		p.Vars[n] = true
	}
	return p
}

// Tracks implements Precision.
func (p *VarPrecision) Tracks(l *cfa.Location, v *cfa.Var) bool {
	if v == nil {
		return p.Heap
	}
	q := v.QualName()
	if p.Vars[q] {
		return true
	}
	if l != nil && p.AtLoc != nil {
		return p.AtLoc[l.ID][q]
	}
	return false
}

// Full returns false.
func (p *VarPrecision) Full() bool { return false }

// WithVars returns a copy of p that also tracks names everywhere.
func (p *VarPrecision) WithVars(names ...string) *VarPrecision {
	q := &VarPrecision{Vars: map[string]bool{}, AtLoc: p.AtLoc, Heap: p.Heap}
	for n := range p.Vars {
		q.Vars[n] = true
	}
	for _, n := range names {
		q.Vars[n] = true
	}
	return q
}

func (p *VarPrecision) String() string {
	names := make([]string, 0, len(p.Vars))
	for n := range p.Vars {
		names = append(names, n)
	}
	sort.Strings(names)
	s := "{" + strings.Join(names, ", ") + "}"
	if len(p.AtLoc) > 0 {
		s += " +local"
	}
	if p.Heap {
		s += " +heap"
	}
	return s
}

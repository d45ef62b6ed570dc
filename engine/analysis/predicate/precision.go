package predicate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// Precision is the predicate precision of lazy abstraction: per
// abstraction location, a set of predicates. A predicate is a Bool term
// whose free variables are predicate variables: smt Vars named by the
// qualified name of a program variable (cfa.Var.QualName, "main::x" or
// a global's name) with the sort of its value (smt.TypeWidth bits), a
// global or a local of the location's function. The terms belong to the
// smt.Builder of the CPA that uses the precision (CPA.Builder); terms of
// another builder are different predicates. Precisions are immutable;
// With returns a new one, and the nil *Precision is the empty one.
type Precision struct {
	at map[int][]*smt.Term // by Location.ID, sorted by term ID
}

// At returns the predicates of l, sorted by term ID. The result must not
// be modified.
func (p *Precision) At(l *cfa.Location) []*smt.Term {
	if p == nil {
		return nil
	}
	return p.at[l.ID]
}

// Len returns the number of (location, predicate) pairs.
func (p *Precision) Len() int {
	n := 0
	if p != nil {
		for _, ps := range p.at {
			n += len(ps)
		}
	}
	return n
}

// With returns p with preds added at l, and how many of them were new.
func (p *Precision) With(l *cfa.Location, preds ...*smt.Term) (*Precision, int) {
	cur := p.At(l)
	added := 0
	next := cur
	for _, t := range preds {
		var n bool
		if next, n = with(next, t); n {
			added++
		}
	}
	if added == 0 {
		return p, 0
	}
	q := &Precision{at: make(map[int][]*smt.Term, len(p.atMap())+1)}
	for k, v := range p.atMap() {
		q.at[k] = v
	}
	q.at[l.ID] = next
	return q, added
}

func (p *Precision) atMap() map[int][]*smt.Term {
	if p == nil {
		return nil
	}
	return p.at
}

// Format returns the precision in its stable text form, one entry per
// (location, predicate), sorted: "main@L3: (bvslt main::y #x00000000)"
// (function, location index within the function as in cfa's text form,
// the predicate in SMT-LIB syntax over the variables' qualified names).
func (p *Precision) Format(prog *cfa.Program) []string {
	var out []string
	for id, ps := range p.atMap() {
		l := prog.Locs[id]
		for _, t := range ps {
			out = append(out, fmt.Sprintf("%s@%s: %s", l.Func.Name, l, t))
		}
	}
	sort.Strings(out)
	return out
}

// String prints the precision on one line.
func (p *Precision) String() string {
	var out []string
	for id, ps := range p.atMap() {
		for _, t := range ps {
			out = append(out, fmt.Sprintf("%d: %s", id, t))
		}
	}
	sort.Strings(out)
	return "{" + strings.Join(out, "; ") + "}"
}

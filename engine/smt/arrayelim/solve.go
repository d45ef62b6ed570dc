package arrayelim

import (
	"context"

	"github.com/reverify/reverify/engine/smt"
)

// Solve decides the query of a merged encoding (m.Query(extra...)) on a
// fresh solver of f, with the arrays eliminated where Eliminate can. For
// Sat, eval (when not nil) sees the model, which evaluates the merger's
// terms as they were built (through m.Inline and Rewrite). A conjunct
// that is constant false answers Unsat without a solver.
func Solve(ctx context.Context, b *smt.Builder, f smt.Factory, m *smt.Merger, eval func(smt.Model), extra ...*smt.Term) (smt.Result, error) {
	q := m.Query(extra...)
	for _, c := range q {
		if c.Op == smt.False {
			return smt.Unsat, nil
		}
	}
	el := New(b)
	if out, ok := el.Eliminate(q); ok {
		q = out
	} else {
		el = nil
	}
	s := f(b)
	defer s.Close()
	for _, c := range q {
		s.Assert(c)
	}
	r, err := s.Check(ctx)
	if r == smt.Sat && eval != nil {
		eval(model{s.Model(), m, el})
	}
	return r, err
}

// model evaluates terms of a merger in a model of its eliminated query.
type model struct {
	mod smt.Model
	m   *smt.Merger
	el  *Eliminator
}

func (in model) Eval(t *smt.Term) (lo, hi uint64) {
	t = in.m.Inline(t)
	if in.el != nil {
		t = in.el.Rewrite(t)
	}
	return in.mod.Eval(t)
}

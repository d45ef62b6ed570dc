package interp

import (
	"context"
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// Value is the value of one expression at a point of a replayed path.
type Value struct {
	Expr string    // the expression as cfa prints it, e.g. "h->len"
	Type *cfa.Type // its type
	Bits uint64    // its bit pattern, truncated to the type's width
}

// FailureValues replays a confirmed counterexample (path and inputs, as
// for Replay) up to its last Assume step, the failing assertion's
// negated condition, and returns the values of the condition's operand
// lvalues there: variables, members, dereferences and array elements,
// outermost first, each once, in the order they occur. Volatile
// variables are skipped (reading one consumes an input) and so are
// compiler temporaries ("__t0"). An operand the interpreter cannot read
// (uninitialised memory, an unsupported construct) is left out, and so
// are pointers (the interpreter's addresses mean nothing to a reader). The
// error is non-nil when the path has no Assume step or the replay stops
// before it.
func FailureValues(ctx context.Context, p *cfa.Program, path []cfa.Step, inputs []uint64) ([]Value, error) {
	last := -1
	for i, s := range path {
		if s.Edge != nil {
			if _, ok := s.Edge.Op.(*cfa.Assume); ok && s.Kind != cfa.Enter && s.Kind != cfa.Leave {
				last = i
			}
		}
	}
	if last < 0 {
		return nil, fmt.Errorf("interp: the path has no assumption")
	}
	m := newMachine(p, inputs)
	m.trace = &Trace{}
	for i, s := range path[:last] {
		if i&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("interp: replay interrupted at step %d: %w", i, err)
			}
		}
		if st := m.try(func() { m.replayStep(s) }); st != nil {
			return nil, fmt.Errorf("interp: replay stops at step %d: %s: %s", i, st.kind, st.msg)
		}
	}
	cond := path[last].Edge.Op.(*cfa.Assume).Cond
	var out []Value
	seen := map[string]bool{}
	var visit func(x cfa.Expr)
	visit = func(x cfa.Expr) {
		switch x := x.(type) {
		case *cfa.VarRef:
			if x.Var.Volatile || strings.HasPrefix(x.Var.Name, "__t") {
				return
			}
		case *cfa.Deref, *cfa.Member, *cfa.Index:
		case *cfa.Unary:
			visit(x.X)
			return
		case *cfa.Binary:
			visit(x.X)
			visit(x.Y)
			return
		case *cfa.Cast:
			visit(x.X)
			return
		default:
			return
		}
		name := x.String()
		if seen[name] || x.Type() == nil || !x.Type().IsInteger() {
			return
		}
		seen[name] = true
		var v uint64
		if st := m.try(func() { v = m.rval(x) }); st != nil {
			return
		}
		out = append(out, Value{Expr: name, Type: x.Type(), Bits: m.fit(v, x.Type())})
	}
	visit(cond)
	return out, nil
}

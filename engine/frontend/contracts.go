package frontend

import (
	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
)

// The functions the generated text of contracts calls to take the values
// __CPROVER_old reads (contract.Prelude): __reverify_snapshot() marks
// where, __reverify_old(&e) reads e's value there.
const (
	// contractCheckFunc(c, "msg") checks a contract's obligation
	// without blocking (nonBlocking).
	contractCheckFunc = "__reverify_check"
	// unsupportedFunc("what") is an unsupported construct.
	unsupportedFunc = "__reverify_unsupported"
	snapshotFunc    = "__reverify_snapshot"
	oldFunc         = "__reverify_old"
)

// snapshot marks the place of a function's old values: a no-op edge
// before which old's reads are placed.
func (fc *fnctx) snapshot(tn cc.Node) {
	rng, text := fc.rt(tn)
	next := fc.b.node()
	fc.b.edge(fc.cur, next, &cfa.Noop{Label: "old values"}, rng, text)
	fc.snapEdge = len(fc.b.edges) - 1
	fc.snapLocals = len(fc.f.Locals)
	fc.cur = next
}

// old translates __reverify_old(&e): e's value at the snapshot, read
// into a temporary there; the result is the temporary's address. e may
// not use a variable declared after the snapshot (a quantifier's bound
// variable), whose value is not known there.
func (fc *fnctx) old(arg cc.ExpressionNode, tn cc.Node) (res cfa.Expr) {
	if fc.snapEdge < 0 {
		fc.unsupported("__CPROVER_old outside a contract", tn)
	}
	saved, nEdges := fc.cur, len(fc.b.edges)
	defer func() {
		if r := recover(); r != nil {
			fc.b.edges = fc.b.edges[:nEdges]
			fc.cur = saved
			panic(r)
		}
	}()
	fc.cur = fc.b.edges[fc.snapEdge].from
	n0 := len(fc.f.Locals)
	p := fc.rv(arg)
	pt := p.Type()
	if pt.Kind != cfa.Pointer || pt.Elem == nil || pt.Elem.Size == 0 {
		fc.unsupported("__CPROVER_old of an expression without a complete type", tn)
	}
	late := map[*cfa.Var]bool{}
	for _, v := range fc.f.Locals[fc.snapLocals:n0] {
		late[v] = true
	}
	for _, v := range cfa.Vars(p) {
		if late[v] {
			fc.unsupported("__CPROVER_old of an expression over "+v.Orig+", which has no value where the old values are taken", tn)
		}
	}
	o := fc.temp(pt.Elem)
	o.Var.AddrTaken = true
	fc.emit(&cfa.Assign{LHS: o, RHS: &cfa.Deref{X: p, T: pt.Elem}}, tn)
	k, from := fc.snapEdge, fc.b.edges[fc.snapEdge].from
	fc.b.edges[k].from = fc.cur
	// a statement rolled back (unsupported) takes its reads away
	fc.b.undo = append(fc.b.undo, func() {
		if k < len(fc.b.edges) {
			fc.b.edges[k].from = from
		}
	})
	fc.cur = saved
	return &cfa.Cast{X: &cfa.AddrOf{X: o, T: fc.t.tm.Ptr(pt.Elem)}, T: fc.t.tm.Ptr(cfa.VoidType)}
}

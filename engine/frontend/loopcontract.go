package frontend

import (
	"fmt"
	"path/filepath"
	"slices"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/contract"
)

// loopClause is one clause of a loop contract: what contract.Rewrite
// made of it, a declaration `__typeof__((x)) __reverify_loop_<kind>_<n>;`
// at the start of the loop's body.
type loopClause struct {
	kind contract.Kind
	x    cc.ExpressionNode
	decl *cc.Declaration
}

// loopContract returns the contract clauses at the start of a loop body.
func loopContract(s *cc.Statement) []loopClause {
	if s == nil || s.Case != cc.StatementCompound || s.CompoundStatement == nil {
		return nil
	}
	var out []loopClause
	for l := s.CompoundStatement.BlockItemList; l != nil; l = l.BlockItemList {
		bi := l.BlockItem
		if bi == nil || bi.Case != cc.BlockItemDecl || bi.Declaration == nil || bi.Declaration.InitDeclaratorList == nil {
			break
		}
		id := bi.Declaration.InitDeclaratorList.InitDeclarator
		if id == nil || id.Declarator == nil {
			break
		}
		k, ok := contract.LoopClause(id.Declarator.Name())
		if !ok {
			break
		}
		var x cc.ExpressionNode
		for ds := bi.Declaration.DeclarationSpecifiers; ds != nil; ds = ds.DeclarationSpecifiers {
			if ts := ds.TypeSpecifier; ts != nil && ts.Case == cc.TypeSpecifierTypeofExpr {
				x = ts.ExpressionList
			}
		}
		out = append(out, loopClause{kind: k, x: x, decl: bi.Declaration})
	}
	return out
}

// isLoopClause reports whether decl is a loop contract clause (skipped
// where the body's declarations are translated).
func isLoopClause(decl *cc.Declaration) bool {
	if decl == nil || decl.InitDeclaratorList == nil || decl.InitDeclaratorList.InitDeclarator == nil || decl.InitDeclaratorList.InitDeclarator.Declarator == nil {
		return false
	}
	_, ok := contract.LoopClause(decl.InitDeclaratorList.InitDeclarator.Declarator.Name())
	return ok
}

// contractLoop translates a for or while loop with a contract as CBMC's
// --apply-loop-contracts does (CBMC, "Loop Contracts"): the invariants
// asserted on entry; the loop's frame havocked (its assigns clause's
// targets, and every variable and object the body writes); the
// invariants assumed; then one iteration from that arbitrary state (the
// decreases measure taken after the guard), after which the invariants
// are asserted again (preserved) and the measure must have strictly
// decreased, and the path ends. Leaving the loop (the guard false, a
// break) continues after it from a state the invariants describe.
// __CPROVER_loop_entry(e) reads e where the loop is entered.
func (fc *fnctx) contractLoop(is *cc.IterationStatement, lc []loopClause) {
	rngLoop, textLoop := fc.tokRange(is.Token, is.Token)
	var cond, step cc.ExpressionNode
	switch is.Case {
	case cc.IterationStatementWhile:
		cond = is.ExpressionList
	case cc.IterationStatementFor, cc.IterationStatementForDecl:
		cond, step = is.ExpressionList2, is.ExpressionList3
		if is.Case == cc.IterationStatementForDecl {
			fc.declaration(is.Declaration)
			cond, step = is.ExpressionList, is.ExpressionList2
		} else if is.ExpressionList != nil {
			fc.guard(func() { fc.effect(is.ExpressionList) })
		}
	default:
		fc.emitAt(&cfa.Unsupported{Construct: "loop contract on a do-while loop"}, rngLoop, textLoop)
		return
	}
	where := fmt.Sprintf("%s:%d", filepath.Base(rngLoop.Start.File), rngLoop.Start.Line)
	// the values __CPROVER_loop_entry reads are taken here
	savedSnap, savedLocals := fc.snapEdge, fc.snapLocals
	fc.snapshot(is.Token)
	defer func() { fc.snapEdge, fc.snapLocals = savedSnap, savedLocals }()
	for _, c := range lc {
		if c.kind == contract.LoopInvariant {
			fc.contractAssert(c.x, fmt.Sprintf("loop invariant of the loop at %s holds on entry: %s", where, exprText(fc, c.x)), is)
		}
	}
	havoc := fc.cur
	fc.cur = fc.b.node()
	afterHavoc := fc.cur
	for _, c := range lc {
		if c.kind == contract.LoopInvariant {
			term, next := fc.b.node(), fc.b.node()
			fc.b.terminal[term] = true
			fc.guardCond(c.x, next, term)
			fc.cur = next
		}
	}
	x, c := fc.b.node(), fc.b.node()
	if cond != nil {
		body := fc.b.node()
		fc.guardCond(cond, body, x)
		fc.cur = body
	}
	var measures []cfa.Expr
	for _, cl := range lc {
		if cl.kind == contract.Decreases {
			fc.guard(func() {
				v := fc.rv(cl.x)
				t := fc.temp(v.Type())
				fc.emit(&cfa.Assign{LHS: t, RHS: v}, cl.decl)
				measures = append(measures, t)
			})
		}
	}
	k0 := len(fc.b.edges)
	fc.loopBody(is.Statement, x, c)
	fc.b.join(fc.cur, c, "skip", cfa.Range{}, "")
	fc.cur = c
	if step != nil {
		fc.guard(func() { fc.effect(step) })
	}
	k1 := len(fc.b.edges)
	for _, cl := range lc {
		if cl.kind == contract.LoopInvariant {
			fc.contractAssert(cl.x, fmt.Sprintf("loop invariant of the loop at %s is preserved: %s", where, exprText(fc, cl.x)), cl.decl)
		}
	}
	i := 0
	for _, cl := range lc {
		if cl.kind != contract.Decreases || i >= len(measures) {
			continue
		}
		old := measures[i]
		i++
		fc.guard(func() {
			v := fc.rv(cl.x)
			rng, text := fc.rt(cl.decl)
			dec := &cfa.Binary{Op: cfa.Lt, X: v, Y: old, T: cfa.IntT}
			fc.assertExpr(dec, fmt.Sprintf("decreases clause of the loop at %s: %s strictly decreases", where, exprText(fc, cl.x)), rng, text)
		})
	}
	// the iteration ends here: the invariants now hold again
	end := fc.b.node()
	fc.b.terminal[end] = true
	fc.b.join(fc.cur, end, "loop contract: iteration checked", rngLoop, textLoop)
	// the frame, from what the body wrote
	fc.cur = havoc
	fc.havocFrame(lc, fc.b.edges[k0:k1], rngLoop, textLoop)
	fc.b.join(fc.cur, afterHavoc, "loop contract: frame havocked", rngLoop, textLoop)
	fc.cur = x
}

// exprText is the source text of n.
func exprText(fc *fnctx, n cc.Node) string {
	_, t := fc.rt(n)
	return t
}

// contractAssert checks the condition n, a contract's obligation
// described by msg, without blocking (nonBlocking).
func (fc *fnctx) contractAssert(n cc.ExpressionNode, msg string, at cc.Node) {
	next, fail := fc.b.node(), fc.b.node()
	fc.guardCond(n, next, fail)
	fc.cur = fail
	rng, text := fc.rt(at)
	fc.nonBlocking(msg, rng, text, next)
	fc.cur = next
}

// assertExpr checks the condition c without blocking.
func (fc *fnctx) assertExpr(c cfa.Expr, msg string, rng cfa.Range, text string) {
	next, fail := fc.b.node(), fc.b.node()
	fc.branchAt(c, next, fail, rng, text)
	fc.cur = fail
	fc.nonBlocking(msg, rng, text, next)
	fc.cur = next
}

// nonBlocking ends the failing branch of a contract's obligation: a
// choice between the assertion's failure and going on at next, as CBMC's
// assertions do: the obligations of a contract are checked each on its
// own (an invariant that fails on entry does not make its preservation
// hold vacuously).
func (fc *fnctx) nonBlocking(msg string, rng cfa.Range, text string, next int) {
	t := fc.temp(cfa.IntT)
	fc.emitAt(&cfa.Havoc{LHS: t, Source: "contract check"}, rng, text)
	fail := fc.b.node()
	c := &cfa.Binary{Op: cfa.Ne, X: t, Y: cfa.NewConst(cfa.IntT, 0), T: cfa.IntT}
	fc.branchAt(c, fail, next, rng, text)
	fc.cur = fail
	fc.assertFail(msg, rng, text)
}

// assertFail emits the failure of an assertion described by msg.
func (fc *fnctx) assertFail(msg string, rng cfa.Range, text string) {
	fn := ""
	if fc.sym != nil {
		fn = fc.sym.key.name
	}
	cp := fc.t.tm.Ptr(cfa.CharType)
	fc.t.p.Externals["__assert_fail"] = &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType, Params: []*cfa.Type{cp, cp, cfa.UIntType, cp}}
	term := fc.b.node()
	fc.b.terminal[term] = true
	fc.b.edge(fc.cur, term, &cfa.Call{Fn: "__assert_fail", Args: []cfa.Expr{
		fc.decay(strLit(msg)), fc.decay(strLit(rng.Start.File)), cfa.NewConst(cfa.UIntType, int64(rng.Start.Line)), fc.decay(strLit(fn)),
	}, Pos: rng.Start}, rng, text)
	fc.cur = -1
}

// havocFrame gives the loop's frame arbitrary values: the targets of its
// assigns clauses, and what the body's edges write: a variable (whole),
// the object a pointer variable points to (when the body writes through
// it and changes it only by arithmetic on itself). A write the frame
// cannot name (through a pointer loaded from memory, or by a called
// function that may write) makes the loop unsupported: an assigns clause
// is not checked against the body, so it cannot stand for those writes.
func (fc *fnctx) havocFrame(lc []loopClause, body []bedge, rng cfa.Range, text string) {
	vp := fc.t.tm.Ptr(cfa.VoidType)
	fc.t.p.Externals[cfa.HavocObject] = &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType, Params: []*cfa.Type{vp}}
	havocObj := func(p cfa.Expr) {
		fc.emitAt(&cfa.Call{Fn: cfa.HavocObject, Args: []cfa.Expr{&cfa.Cast{X: p, T: vp}}, Pos: rng.Start}, rng, text)
	}
	for _, c := range lc {
		if c.kind != contract.Assigns {
			continue
		}
		fc.guard(func() {
			for _, t := range commaList(c.x) {
				if pc, ok := t.(*cc.PostfixExpression); ok && pc.Case == cc.PostfixExpressionCall {
					if name := calleeName(pc); name == "__CPROVER_object_whole" || name == "__CPROVER_object_from" || name == "__CPROVER_object_upto" {
						args := callArgs(pc)
						if len(args) > 0 {
							havocObj(fc.rv(args[0]))
						}
						continue
					}
				}
				if pe, ok := t.(*cc.PrimaryExpression); ok && pe.Case == cc.PrimaryExpressionInt && exprText(fc, pe) == "0" {
					continue // an empty assigns clause
				}
				lv := fc.lv(t)
				fc.havocLvalue(lv, havocObj, rng, text)
			}
		})
	}
	// What the body writes: variables (whole), and the objects pointer
	// variables point to where the loop is entered. Every object is
	// havocked before any variable, so a pointer is read at its entry
	// value; a pointer the body changes other than by arithmetic on
	// itself would point elsewhere by then, and a write the frame cannot
	// name, or a call that may write (an assigns clause is not checked
	// against the body), makes the loop unsupported.
	unsupported := func(what string, e bedge) {
		fc.emitAt(&cfa.Unsupported{Construct: "loop contract: " + what}, e.pos, e.text)
	}
	var vars, bases []*cfa.Var
	var callees []bedge // calls of functions with bodies, which may write
	seen := map[*cfa.Var]bool{}
	addVar := func(v *cfa.Var) {
		if !v.Temp && !seen[v] {
			seen[v] = true
			vars = append(vars, v)
		}
	}
	addBase := func(p *cfa.Var) {
		if !slices.Contains(bases, p) {
			bases = append(bases, p)
		}
	}
	for _, e := range body {
		var lhs cfa.Expr
		switch op := e.op.(type) {
		case *cfa.Assign:
			lhs = op.LHS
		case *cfa.Havoc:
			lhs = op.LHS
		case *cfa.Call:
			if op.Fn == "" {
				unsupported("the loop's body calls through a pointer, whose writes the loop's frame cannot name", e)
				return
			}
			if pos, ok := fc.t.assignedParams[op.Fn]; ok {
				// the call uses a contract whose assigns clause names
				// only objects of its pointer arguments: they join the
				// frame
				for _, i := range pos {
					if i >= len(op.Args) || !frameArg(op.Args[i], addVar, addBase) {
						unsupported("the loop's body calls "+op.Fn+", whose assigns clause names an object the loop's frame cannot name", e)
						return
					}
				}
			} else if !fc.writesNothing(op.Fn) {
				// settled once every body is translated (localCalls)
				callees = append(callees, e)
			}
			lhs = op.Result
		}
		if lhs == nil {
			continue
		}
		if v := cfa.BaseVar(lhs); v != nil {
			addVar(v)
			continue
		}
		p := pointerBase(lhs)
		if p == nil {
			unsupported("a write the loop's frame cannot name: "+e.text, e)
			return
		}
		addBase(p)
	}
	for _, p := range bases {
		for _, e := range body {
			if a, ok := e.op.(*cfa.Assign); ok && cfa.BaseVar(a.LHS) == p && !selfArithmetic(a, p) {
				unsupported("the loop writes through "+p.Orig+" and changes it otherwise than by arithmetic on itself", e)
				return
			}
		}
	}
	for _, e := range callees {
		// A callee whose body writes nothing but its own locals (nor
		// calls one that does) changes nothing the frame must name; the
		// translation's end (localCalls) drops this edge for it.
		fn := e.op.(*cfa.Call).Fn
		u := &cfa.Unsupported{Construct: "loop contract: the loop's body calls " + fn + ", whose writes the loop's frame cannot name"}
		fc.emitAt(u, e.pos, e.text)
		fc.t.loopCalls = append(fc.t.loopCalls, loopCall{u, fn})
	}
	for _, p := range bases {
		havocObj(&cfa.VarRef{Var: p})
	}
	for _, v := range vars {
		fc.havocLvalue(&cfa.VarRef{Var: v}, havocObj, rng, text)
	}
}

// frameArg adds to a loop's frame the object the argument a of a call
// points to, whose contract may write it (AssignedParams): a variable
// whose address it is (&v, &v.m[i]: the variable, addVar), or the
// object a pointer variable points to (p, p + k, &p->m, &p[i]: addBase).
// It reports false for any other argument.
func frameArg(a cfa.Expr, addVar, addBase func(*cfa.Var)) bool {
	for {
		c, ok := a.(*cfa.Cast)
		if !ok {
			break
		}
		a = c.X
	}
	if ad, ok := a.(*cfa.AddrOf); ok {
		if v := cfa.BaseVar(ad.X); v != nil {
			addVar(v)
			return true
		}
		if p := pointerBase(ad.X); p != nil {
			addBase(p)
			return true
		}
		return false
	}
	if a.Type().Kind != cfa.Pointer {
		return false
	}
	if p := pointerBase(&cfa.Deref{X: a, T: a.Type().Elem}); p != nil {
		addBase(p)
		return true
	}
	return false
}

// writesNothing reports whether a call of fn changes no object a loop's
// frame must name, as known before the bodies are translated: a library
// function that writes nothing (pureLibrary, the memory queries,
// __assert_fail, which ends the path), a function whose call uses a
// contract that assigns nothing, the havoc of the loop frame itself.
func (fc *fnctx) writesNothing(fn string) bool {
	return pureLibrary[fn] || fc.t.writesNothing[fn] || fn == cfa.HavocObject || fn == "__assert_fail" || cfa.MemoryQueries[fn] != 0
}

// loopCall is a call in the body of a loop with a contract of a function
// that may write (loopContract): u is the Unsupported edge's operation
// that stands for it until localCalls settles it.
type loopCall struct {
	u  *cfa.Unsupported
	fn string
}

// localCalls settles the calls of loop bodies with contracts
// (translator.loopCalls), once every body is translated: a callee whose
// body writes only its own local variables and parameters, and calls
// only functions that do the same or write nothing (fnctx.writesNothing),
// writes nothing the caller's loop frame must name, so its Unsupported
// edge becomes a Noop; any other callee (one that writes a global, writes
// through a pointer, calls through a pointer, calls a function without a
// body that may write, or holds an unsupported construct) keeps it.
func (t *translator) localCalls() {
	if len(t.loopCalls) == 0 {
		return
	}
	fc := &fnctx{t: t}
	memo := map[string]bool{}
	var local func(name string) bool
	local = func(name string) bool {
		if v, ok := memo[name]; ok {
			return v
		}
		memo[name] = false // a recursive call is not known to write only locals
		f := t.p.Func(name)
		if f == nil {
			return fc.writesNothing(name)
		}
		own := func(x cfa.Expr) bool {
			r, ok := x.(*cfa.VarRef)
			return ok && !r.Var.Global && r.Var.Func == f.Name
		}
		for _, l := range f.Locs {
			for _, e := range l.Out {
				switch op := e.Op.(type) {
				case *cfa.Assign:
					if !own(op.LHS) {
						return false
					}
				case *cfa.Havoc:
					if !own(op.LHS) {
						return false
					}
				case *cfa.Call:
					if op.Fn == "" || op.Result != nil && !own(op.Result) || !local(op.Fn) {
						return false
					}
				case *cfa.Unsupported:
					return false
				}
			}
		}
		memo[name] = true
		return true
	}
	drop := map[*cfa.Unsupported]string{}
	for _, c := range t.loopCalls {
		if local(c.fn) {
			drop[c.u] = c.fn
		}
	}
	for _, e := range t.p.Edges {
		if u, ok := e.Op.(*cfa.Unsupported); ok && drop[u] != "" {
			e.Op = &cfa.Noop{Label: "loop contract: " + drop[u] + " writes only its own locals"}
		}
	}
}

// selfArithmetic reports whether a assigns p its own value plus or minus
// an offset (p = p + k, p++).
func selfArithmetic(a *cfa.Assign, p *cfa.Var) bool {
	if r, ok := a.LHS.(*cfa.VarRef); !ok || r.Var != p {
		return false
	}
	x := a.RHS
	for {
		switch y := x.(type) {
		case *cfa.Cast:
			x = y.X
			continue
		case *cfa.Binary:
			if y.Op != cfa.Add && y.Op != cfa.Sub {
				return false
			}
			x = y.X
			continue
		case *cfa.VarRef:
			return y.Var == p
		}
		return false
	}
}

// havocLvalue gives lv an arbitrary value: a scalar directly, an
// aggregate through its whole object.
func (fc *fnctx) havocLvalue(lv cfa.Expr, havocObj func(cfa.Expr), rng cfa.Range, text string) {
	if lv.Type().IsScalar() || lv.Type().Kind == cfa.Float {
		fc.emitAt(&cfa.Havoc{LHS: lv, Source: "loop contract"}, rng, text)
		return
	}
	fc.markAddr(lv)
	havocObj(&cfa.AddrOf{X: lv, T: fc.t.tm.Ptr(lv.Type())})
}

// pointerBase returns the pointer variable an lvalue written through a
// pointer is based on (*(p + i), p->f, p[i]), or nil.
func pointerBase(x cfa.Expr) *cfa.Var {
	for {
		switch y := x.(type) {
		case *cfa.Member:
			x = y.X
		case *cfa.Index:
			x = y.X
		case *cfa.Deref:
			x = y.X
			for {
				switch z := x.(type) {
				case *cfa.Binary:
					if z.Op == cfa.Add || z.Op == cfa.Sub {
						x = z.X
						continue
					}
					return nil
				case *cfa.Cast:
					x = z.X
					continue
				case *cfa.VarRef:
					if z.Var.T.Kind == cfa.Pointer {
						return z.Var
					}
					return nil
				}
				return nil
			}
		default:
			return nil
		}
	}
}

// commaList splits a comma expression into its operands.
func commaList(n cc.ExpressionNode) []cc.ExpressionNode {
	for {
		pe, ok := n.(*cc.PrimaryExpression)
		if !ok || pe.Case != cc.PrimaryExpressionExpr {
			break
		}
		n = pe.ExpressionList
	}
	if el, ok := n.(*cc.ExpressionList); ok {
		var out []cc.ExpressionNode
		for l := el; l != nil; l = l.ExpressionList {
			out = append(out, l.AssignmentExpression)
		}
		return out
	}
	return []cc.ExpressionNode{n}
}

// pureLibrary are the functions a loop body may call without an
// assigns clause: they write nothing the caller can see.
var pureLibrary = map[string]bool{"__VERIFIER_assume": true, "abs": true, "labs": true, "strlen": true, "memcmp": true}

// calleeName is the name a call's callee is written with, or "".
func calleeName(x *cc.PostfixExpression) string {
	if _, name, ok := callee(x.PostfixExpression); ok {
		return name
	}
	return ""
}

// callArgs are a call's arguments.
func callArgs(x *cc.PostfixExpression) []cc.ExpressionNode {
	var args []cc.ExpressionNode
	for l := x.ArgumentExpressionList; l != nil; l = l.ArgumentExpressionList {
		args = append(args, l.AssignmentExpression)
	}
	return args
}

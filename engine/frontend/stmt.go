package frontend

import (
	"strconv"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/ccparse"
	"github.com/reverify/reverify/engine/frontend/ctypes"
)

// fnctx translates the body of one function (or, for p.Init, global
// initialisers) into a builder.
type fnctx struct {
	t      *translator
	u      *ccparse.Unit
	f      *cfa.Function
	sym    *funcSym
	b      *builder
	cur    int
	locals map[*cc.Declarator]*cfa.Var
	params map[*cc.Parameter]*cfa.Var
	used   map[string]bool
	labels map[string]int
	brk    []int
	cont   []int
	sw     []*switchCtx
	ntemp  int
	result *cfa.Type
	isInit bool
	// keepConst, when not nil, reports whether constant conditions
	// branch both ways (assertionCond)
	keepConst func() bool
	// vlaDims maps the pointer variables standing for variable-length
	// arrays to their dimensions (temporaries or constants, outermost
	// first); vlaRows maps the row pointers that subscripting them yields
	// to the remaining dimensions.
	vlaDims map[*cfa.Var][]cfa.Expr
	vlaRows map[cfa.Expr][]cfa.Expr
	// atexitReturns are the atexit runner calls main's returns make
	// (atexit.go).
	atexitReturns []*cfa.Call
	// snapEdge is the index (in b.edges) of the no-op edge of
	// __reverify_snapshot(), where the values __CPROVER_old reads are
	// taken (contracts.go), or -1; snapLocals is the number of locals
	// then declared.
	snapEdge   int
	snapLocals int
}

type switchCtx struct {
	cases map[*cc.LabeledStatement]int
}

// unsupportedErr is raised (panicked) by expression translation and caught
// by the innermost statement guard, which replaces the statement by an
// Unsupported edge.
type unsupportedErr struct {
	what string
	rng  cfa.Range
	text string
}

func (t *translator) newFnctx(u *ccparse.Unit, f *cfa.Function, s *funcSym) *fnctx {
	fc := &fnctx{
		t:        t,
		u:        u,
		f:        f,
		sym:      s,
		b:        newBuilder(),
		locals:   map[*cc.Declarator]*cfa.Var{},
		params:   map[*cc.Parameter]*cfa.Var{},
		used:     map[string]bool{},
		labels:   map[string]int{},
		isInit:   s == nil,
		vlaDims:  map[*cfa.Var][]cfa.Expr{},
		vlaRows:  map[cfa.Expr][]cfa.Expr{},
		snapEdge: -1,
	}
	fc.cur = fc.b.entry
	if f != nil && f.T != nil && f.T.Result != nil && f.T.Result.Kind != cfa.Void {
		fc.result = f.T.Result
	}
	return fc
}

func (fc *fnctx) uniqueName(name string) string {
	if !fc.used[name] {
		fc.used[name] = true
		return name
	}
	for i := 1; ; i++ {
		n := name + "." + strconv.Itoa(i)
		if !fc.used[n] {
			fc.used[n] = true
			return n
		}
	}
}

// newLocal adds a local variable (a unique name within the function).
func (fc *fnctx) newLocal(name string, t *cfa.Type) *cfa.Var {
	v := fc.t.p.NewVar(fc.f, fc.uniqueName(name), t)
	v.Orig = name
	if t.Kind == cfa.Array {
		v.AddrTaken = true
	}
	return v
}

// temp returns a fresh temporary __tN of type t.
func (fc *fnctx) temp(t *cfa.Type) *cfa.VarRef {
	for {
		name := "__t" + strconv.Itoa(fc.ntemp)
		fc.ntemp++
		if fc.used[name] {
			continue
		}
		v := fc.newLocal(name, t)
		v.Orig = ""
		v.Temp = true
		return &cfa.VarRef{Var: v}
	}
}

func (fc *fnctx) rt(n cc.Node) (cfa.Range, string) {
	if n == nil {
		return cfa.Range{}, ""
	}
	return fc.u.Files.RangeText(ccparse.NodeSpan(n))
}

func (fc *fnctx) tokRange(first, last cc.Token) (cfa.Range, string) {
	return fc.u.Files.RangeText(ccparse.Span{First: first, Last: last, OK: first.Seq() != 0 && last.Seq() != 0})
}

// emitAt adds an edge with op from the current location to a fresh one.
func (fc *fnctx) emitAt(op cfa.Op, rng cfa.Range, text string) {
	next := fc.b.node()
	fc.b.edge(fc.cur, next, op, rng, text)
	fc.cur = next
}

func (fc *fnctx) emit(op cfa.Op, n cc.Node) {
	rng, text := fc.rt(n)
	fc.emitAt(op, rng, text)
}

// dead starts a fresh location without predecessors (after a jump).
func (fc *fnctx) dead() { fc.cur = fc.b.node() }

func (fc *fnctx) unsupported(what string, n cc.Node) {
	rng, text := fc.rt(n)
	panic(&unsupportedErr{what: what, rng: rng, text: text})
}

type saved struct {
	cp              checkpoint
	cur             int
	nbrk, ncont, ns int
}

func (fc *fnctx) save() saved {
	return saved{fc.b.checkpoint(), fc.cur, len(fc.brk), len(fc.cont), len(fc.sw)}
}

func (fc *fnctx) restore(s saved) {
	fc.b.rollback(s.cp)
	fc.cur = s.cur
	fc.brk = fc.brk[:s.nbrk]
	fc.cont = fc.cont[:s.ncont]
	fc.sw = fc.sw[:s.ns]
}

// guard runs fn; if it meets an unsupported construct, everything fn built
// is rolled back and replaced by one Unsupported edge.
func (fc *fnctx) guard(fn func()) {
	s := fc.save()
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(*unsupportedErr)
			if !ok {
				panic(r)
			}
			fc.restore(s)
			fc.emitAt(&cfa.Unsupported{Construct: u.what}, u.rng, u.text)
		}
	}()
	fn()
}

func (fc *fnctx) guardAt(_ cfa.Range, fn func()) { fc.guard(fn) }

// guardCond branches on n to t or f; when n is unsupported, an Unsupported
// edge is followed by a nondeterministic branch.
func (fc *fnctx) guardCond(n cc.ExpressionNode, t, f int) {
	s := fc.save()
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(*unsupportedErr)
			if !ok {
				panic(r)
			}
			fc.restore(s)
			fc.emitAt(&cfa.Unsupported{Construct: u.what}, u.rng, u.text)
			tmp := fc.temp(cfa.IntT)
			fc.emitAt(&cfa.Havoc{LHS: tmp, Source: "unsupported"}, u.rng, u.text)
			c := &cfa.Binary{Op: cfa.Ne, X: tmp, Y: cfa.NewConst(cfa.IntT, 0), T: cfa.IntT}
			fc.branchAt(c, t, f, u.rng, u.text)
		}
	}()
	fc.cond(n, t, f)
}

func (fc *fnctx) branchAt(c cfa.Expr, t, f int, rng cfa.Range, text string) {
	fc.b.edge(fc.cur, t, &cfa.Assume{Cond: c, Truth: true}, rng, text)
	fc.b.edge(fc.cur, f, &cfa.Assume{Cond: c, Truth: false}, rng, text)
	fc.cur = -1
}

// body translates a function body and the implicit return at its end.
func (fc *fnctx) body(cs *cc.CompoundStatement) {
	fc.compound(cs)
	rng, text := fc.tokRange(cs.Token2, cs.Token2)
	var x cfa.Expr
	if fc.result != nil && fc.f.Name == "main" {
		x = cfa.NewConst(fc.result, 0)
	}
	fc.mainReturn(x, rng, text)
}

func (fc *fnctx) compound(cs *cc.CompoundStatement) {
	if cs == nil {
		return
	}
	for l := cs.BlockItemList; l != nil; l = l.BlockItemList {
		fc.blockItem(l.BlockItem)
	}
}

func (fc *fnctx) blockItem(bi *cc.BlockItem) {
	if bi == nil {
		return
	}
	switch bi.Case {
	case cc.BlockItemDecl:
		fc.declaration(bi.Declaration)
	case cc.BlockItemStmt:
		fc.stmt(bi.Statement)
	case cc.BlockItemFuncDef:
		fc.emit(&cfa.Unsupported{Construct: "nested function"}, bi.Declarator)
	}
}

func (fc *fnctx) stmt(s *cc.Statement) {
	if s == nil {
		return
	}
	switch s.Case {
	case cc.StatementLabeled:
		fc.labeled(s.LabeledStatement)
	case cc.StatementCompound:
		fc.compound(s.CompoundStatement)
	case cc.StatementExpr:
		es := s.ExpressionStatement
		if es != nil && es.ExpressionList != nil {
			fc.guard(func() { fc.effect(es.ExpressionList) })
		}
	case cc.StatementSelection:
		fc.selection(s.SelectionStatement)
	case cc.StatementIteration:
		fc.iteration(s.IterationStatement)
	case cc.StatementJump:
		fc.jump(s.JumpStatement)
	case cc.StatementAsm:
		if a := s.AsmStatement.Asm; a != nil && a.Token3.SrcStr() == `""` {
			// an empty template executes no instruction: its operands
			// keep their values (the value barriers of constant-time
			// code, __asm__ volatile("" : "+r"(x)))
			fc.emit(&cfa.Noop{Label: "empty asm"}, s.AsmStatement)
			return
		}
		fc.emit(&cfa.Unsupported{Construct: "inline assembly"}, s.AsmStatement)
	}
}

func (fc *fnctx) label(name string) int {
	if n, ok := fc.labels[name]; ok {
		return n
	}
	n := fc.b.node()
	fc.labels[name] = n
	fc.b.undo = append(fc.b.undo, func() { delete(fc.labels, name) })
	return n
}

func (fc *fnctx) labeled(ls *cc.LabeledStatement) {
	switch ls.Case {
	case cc.LabeledStatementLabel:
		name := ls.Token.SrcStr()
		l := fc.label(name)
		rng, text := fc.tokRange(ls.Token, ls.Token2)
		fc.b.join(fc.cur, l, "label "+name, rng, text)
		fc.cur = l
	case cc.LabeledStatementCaseLabel, cc.LabeledStatementRange, cc.LabeledStatementDefault:
		for i := len(fc.sw) - 1; i >= 0; i-- {
			if n, ok := fc.sw[i].cases[ls]; ok {
				rng, text := fc.caseRange(ls)
				fc.b.join(fc.cur, n, "case", rng, text)
				fc.cur = n
				break
			}
		}
	}
	fc.stmt(ls.Statement)
}

func (fc *fnctx) caseRange(ls *cc.LabeledStatement) (cfa.Range, string) {
	switch ls.Case {
	case cc.LabeledStatementRange:
		return fc.tokRange(ls.Token, ls.Token3)
	default:
		return fc.tokRange(ls.Token, ls.Token2)
	}
}

func (fc *fnctx) selection(ss *cc.SelectionStatement) {
	switch ss.Case {
	case cc.SelectionStatementIf:
		t, f := fc.b.node(), fc.b.node()
		fc.guardCond(ss.ExpressionList, t, f)
		fc.cur = t
		fc.stmt(ss.Statement)
		fc.b.join(fc.cur, f, "skip", cfa.Range{}, "")
		fc.cur = f
	case cc.SelectionStatementIfElse:
		t, f := fc.b.node(), fc.b.node()
		fc.assertionCond(ss.ExpressionList, t, f, ss.Statement2, fc.guardCond) // assert.h's `if (c) ; else __assert_fail(…)`
		fc.cur = t
		fc.stmt(ss.Statement)
		end := fc.cur
		fc.cur = f
		fc.stmt(ss.Statement2)
		j := fc.b.node()
		fc.b.join(end, j, "skip", cfa.Range{}, "")
		fc.b.join(fc.cur, j, "skip", cfa.Range{}, "")
		fc.cur = j
	case cc.SelectionStatementSwitch:
		fc.switchStmt(ss)
	}
}

func (fc *fnctx) switchStmt(ss *cc.SelectionStatement) {
	x := fc.b.node()
	sc := &switchCtx{cases: map[*cc.LabeledStatement]int{}}
	var v cfa.Expr
	fc.guard(func() {
		e := fc.rv(ss.ExpressionList)
		if e.Type().Kind == cfa.Float {
			fc.unsupported("floating-point switch", ss.ExpressionList)
		}
		e = fc.conv(promote(e), ctypes.Promoted(e.Type()), ss.ExpressionList)
		if !fc.stable(e) {
			tmp := fc.temp(e.Type())
			fc.emit(&cfa.Assign{LHS: tmp, RHS: e}, ss.ExpressionList)
			e = tmp
		}
		v = e
	})
	if v == nil {
		tmp := fc.temp(cfa.IntT)
		fc.emit(&cfa.Havoc{LHS: tmp, Source: "unsupported"}, ss.ExpressionList)
		v = tmp
	}
	deflt := -1
	for _, ls := range ss.LabeledStatements() {
		if ls.Switch() != nil && ls.Switch() != ss {
			continue
		}
		n := fc.b.node()
		sc.cases[ls] = n
		rng, text := fc.caseRange(ls)
		constOf := func(ce cc.ExpressionNode) cfa.Expr {
			val, ok := intValue(ce.Value())
			if !ok || fc.t.tm.HasBadSizeof(ce, 0) {
				return nil
			}
			return cfa.NewConst(v.Type(), val)
		}
		switch ls.Case {
		case cc.LabeledStatementDefault:
			deflt = n
		case cc.LabeledStatementCaseLabel:
			k := constOf(ls.ConstantExpression)
			if k == nil {
				continue
			}
			next := fc.b.node()
			fc.branchAt(&cfa.Binary{Op: cfa.Eq, X: v, Y: k, T: cfa.IntT}, n, next, rng, text)
			fc.cur = next
		case cc.LabeledStatementRange:
			lo, hi := constOf(ls.ConstantExpression), constOf(ls.ConstantExpression2)
			if lo == nil || hi == nil {
				continue
			}
			next, mid := fc.b.node(), fc.b.node()
			fc.branchAt(&cfa.Binary{Op: cfa.Ge, X: v, Y: lo, T: cfa.IntT}, mid, next, rng, text)
			fc.cur = mid
			fc.branchAt(&cfa.Binary{Op: cfa.Le, X: v, Y: hi, T: cfa.IntT}, n, next, rng, text)
			fc.cur = next
		}
	}
	srng, stext := fc.tokRange(ss.Token, ss.Token)
	if deflt >= 0 {
		fc.b.join(fc.cur, deflt, "default", srng, stext)
	} else {
		fc.b.join(fc.cur, x, "skip", srng, stext)
	}
	fc.dead()
	fc.brk = append(fc.brk, x)
	fc.sw = append(fc.sw, sc)
	fc.stmt(ss.Statement)
	fc.brk = fc.brk[:len(fc.brk)-1]
	fc.sw = fc.sw[:len(fc.sw)-1]
	fc.b.join(fc.cur, x, "skip", cfa.Range{}, "")
	fc.cur = x
}

// stable reports whether reading e twice gives the same value: constants
// and non-volatile variables.
func (fc *fnctx) stable(e cfa.Expr) bool {
	switch e := e.(type) {
	case *cfa.Const:
		return true
	case *cfa.VarRef:
		return !e.Var.Volatile
	case *cfa.Cast:
		return fc.stable(e.X)
	}
	return false
}

// loopHead returns the current location as a loop head (a fresh one after
// a no-op edge when the current location is the function entry, which
// must not have in-edges).
func (fc *fnctx) loopHead(label string, n cc.Node) int {
	if fc.b.find(fc.cur) == fc.b.entry {
		rng, text := fc.rt(n)
		h := fc.b.node()
		fc.b.edge(fc.cur, h, &cfa.Noop{Label: label}, rng, text)
		fc.cur = h
	}
	return fc.cur
}

func (fc *fnctx) iteration(is *cc.IterationStatement) {
	if lc := loopContract(is.Statement); lc != nil {
		fc.contractLoop(is, lc)
		return
	}
	switch is.Case {
	case cc.IterationStatementWhile:
		h := fc.loopHead("while", is.Token)
		x, body := fc.b.node(), fc.b.node()
		fc.guardCond(is.ExpressionList, body, x)
		fc.cur = body
		fc.loopBody(is.Statement, x, h)
		rng, text := fc.tokRange(is.Token, is.Token)
		fc.b.join(fc.cur, h, "while", rng, text)
		fc.cur = x
	case cc.IterationStatementDo:
		h := fc.loopHead("do", is.Token)
		x, c := fc.b.node(), fc.b.node()
		fc.loopBody(is.Statement, x, c)
		fc.b.join(fc.cur, c, "skip", cfa.Range{}, "")
		fc.cur = c
		fc.guardCond(is.ExpressionList, h, x)
		fc.cur = x
	case cc.IterationStatementFor, cc.IterationStatementForDecl:
		cond, step := is.ExpressionList2, is.ExpressionList3
		if is.Case == cc.IterationStatementForDecl {
			fc.declaration(is.Declaration)
			cond, step = is.ExpressionList, is.ExpressionList2
		} else if is.ExpressionList != nil {
			fc.guard(func() { fc.effect(is.ExpressionList) })
		}
		h := fc.loopHead("for", is.Token)
		x, c := fc.b.node(), fc.b.node()
		if cond != nil {
			body := fc.b.node()
			fc.guardCond(cond, body, x)
			fc.cur = body
		}
		fc.loopBody(is.Statement, x, c)
		fc.b.join(fc.cur, c, "skip", cfa.Range{}, "")
		fc.cur = c
		if step != nil {
			fc.guard(func() { fc.effect(step) })
		}
		rng, text := fc.tokRange(is.Token, is.Token)
		fc.b.join(fc.cur, h, "for", rng, text)
		fc.cur = x
	}
}

func (fc *fnctx) loopBody(s *cc.Statement, brk, cont int) {
	fc.brk = append(fc.brk, brk)
	fc.cont = append(fc.cont, cont)
	fc.stmt(s)
	fc.brk = fc.brk[:len(fc.brk)-1]
	fc.cont = fc.cont[:len(fc.cont)-1]
}

func (fc *fnctx) jump(js *cc.JumpStatement) {
	switch js.Case {
	case cc.JumpStatementGoto:
		name := js.Token2.SrcStr()
		rng, text := fc.rt(js)
		fc.b.join(fc.cur, fc.label(name), "goto "+name, rng, text)
		fc.dead()
	case cc.JumpStatementGotoExpr:
		fc.emit(&cfa.Unsupported{Construct: "computed goto"}, js)
	case cc.JumpStatementContinue:
		if len(fc.cont) > 0 {
			rng, text := fc.rt(js)
			fc.b.join(fc.cur, fc.cont[len(fc.cont)-1], "continue", rng, text)
			fc.dead()
		}
	case cc.JumpStatementBreak:
		if len(fc.brk) > 0 {
			rng, text := fc.rt(js)
			fc.b.join(fc.cur, fc.brk[len(fc.brk)-1], "break", rng, text)
			fc.dead()
		}
	case cc.JumpStatementReturn:
		fc.guard(func() {
			var x cfa.Expr
			if js.ExpressionList != nil {
				if fc.result == nil {
					fc.effect(js.ExpressionList)
				} else {
					x = fc.conv(fc.rv(js.ExpressionList), fc.result, js.ExpressionList)
				}
			}
			rng, text := fc.rt(js)
			fc.mainReturn(x, rng, text)
			fc.dead()
		})
	}
}

// declaration translates a block-scope declaration.
func (fc *fnctx) declaration(decl *cc.Declaration) {
	if decl == nil {
		return
	}
	if isLoopClause(decl) {
		return // a loop contract's clause (contractLoop)
	}
	switch decl.Case {
	case cc.DeclarationAssert:
		return
	case cc.DeclarationAuto:
		fc.localDecl(decl, decl.Declarator, decl.Initializer, decl)
		return
	}
	for l := decl.InitDeclaratorList; l != nil; l = l.InitDeclaratorList {
		id := l.InitDeclarator
		if id == nil || id.Declarator == nil {
			continue
		}
		fc.localDecl(decl, id.Declarator, id.Initializer, id)
	}
}

func (fc *fnctx) localDecl(decl *cc.Declaration, d *cc.Declarator, init *cc.Initializer, id cc.Node) {
	if d.IsTypename() || d.Name() == "" || d.Type().Kind() == cc.Function || d.IsExtern() {
		return
	}
	if d.Name() == "__func__" {
		return // the predefined identifier (C99 6.4.2.2), a string literal on use
	}
	typ := fc.t.tm.Typ(d.Type())
	ds := ccparse.NodeSpan(decl.DeclarationSpecifiers)
	de := ccparse.NodeSpan(d)
	if !ds.OK {
		ds = de
	}
	rng, text := fc.u.Files.RangeText(ccparse.Span{First: ds.First, Last: de.Last, OK: ds.OK && de.OK})
	if d.IsStatic() || fc.isInit {
		fc.staticLocal(d, typ, init, id, rng, text)
		return
	}
	if at, ok := d.Type().(*cc.ArrayType); ok && at.IsVLA() {
		fc.vla(d, at, rng, text)
		return
	}
	v := fc.newLocal(d.Name(), typ)
	v.Pos = fc.u.Files.Pos(d.Position())
	v.Volatile = ctypes.IsVolatile(d)
	fc.locals[d] = v
	fc.emitAt(&cfa.Decl{Var: v}, rng, text)
	if init != nil {
		fc.guard(func() { fc.initialize(&cfa.VarRef{Var: v}, d.Type(), init, true, id) })
	}
}

// vla translates the declaration of a variable-length array T a[n]…[m]
// (T of constant size): a is a pointer variable T *a, set to alloca(n * …
// * m * sizeof(T)); the dimensions are kept in temporaries, for
// subscripts (a[i][j] is *(a + (i * m + j))) and sizeof(a).
func (fc *fnctx) vla(d *cc.Declarator, at *cc.ArrayType, rng cfa.Range, text string) {
	var sizes []cc.ExpressionNode
	var lens []int64
	var et cc.Type = at
	for {
		a, ok := et.(*cc.ArrayType)
		if !ok {
			break
		}
		sizes = append(sizes, a.SizeExpression())
		lens = append(lens, a.Len())
		et = a.Elem()
	}
	ok := et.Size() > 0 && !ctypes.IsVariable(et, 0) && len(sizes) <= 8
	for i := range sizes {
		if sizes[i] == nil && lens[i] < 0 {
			ok = false
		}
	}
	if !ok {
		v := fc.newLocal(d.Name(), fc.t.tm.Typ(at))
		v.Pos = fc.u.Files.Pos(d.Position())
		fc.locals[d] = v
		fc.emitAt(&cfa.Decl{Var: v}, rng, text)
		fc.emit(&cfa.Unsupported{Construct: "variable-length array"}, d)
		return
	}
	elem := fc.t.tm.Typ(et)
	v := fc.newLocal(d.Name(), fc.t.tm.Ptr(elem))
	v.Pos = fc.u.Files.Pos(d.Position())
	v.Volatile = ctypes.IsVolatile(d)
	fc.locals[d] = v
	fc.emitAt(&cfa.Decl{Var: v}, rng, text)
	fc.guard(func() {
		st := fc.t.tm.SizeT()
		var dims []cfa.Expr
		var total cfa.Expr
		for i, size := range sizes {
			var n cfa.Expr
			if c, ok := intValue(valueOf(size)); ok && size != nil || size == nil {
				if size == nil {
					c = lens[i]
				}
				n = cfa.NewConst(st, c)
			} else {
				tmp := fc.temp(st)
				fc.emit(&cfa.Assign{LHS: tmp, RHS: fc.conv(fc.rv(size), st, size)}, d)
				n = tmp
			}
			dims = append(dims, n)
			if total == nil {
				total = n
			} else {
				total = &cfa.Binary{Op: cfa.Mul, X: total, Y: n, T: st}
			}
		}
		vp := fc.t.tm.Ptr(cfa.VoidType)
		mem := fc.temp(vp)
		drng, dtext := fc.rt(d)
		ft := &cfa.Type{Kind: cfa.Func, Result: vp, Params: []*cfa.Type{st}}
		fc.t.p.Externals["alloca"] = ft
		bytes := &cfa.Binary{Op: cfa.Mul, X: total, Y: cfa.NewConst(st, elem.Size), T: st}
		fc.emitAt(&cfa.Call{Fn: "alloca", Args: []cfa.Expr{bytes}, Result: mem, Pos: drng.Start}, drng, dtext)
		fc.emitAt(&cfa.Assign{LHS: &cfa.VarRef{Var: v}, RHS: &cfa.Cast{X: mem, T: v.T}}, drng, dtext)
		fc.vlaDims[v] = dims
	})
}

func valueOf(n cc.ExpressionNode) cc.Value {
	if n == nil {
		return nil
	}
	return n.Value()
}

// staticLocal creates a static local as a global "f::x" initialised in Init.
func (fc *fnctx) staticLocal(d *cc.Declarator, typ *cfa.Type, init *cc.Initializer, id cc.Node, rng cfa.Range, text string) {
	t := fc.t
	prefix := "__reverify_init"
	if fc.sym != nil {
		prefix = fc.sym.name
	}
	name := prefix + "::" + d.Name()
	for i := 1; t.names[name]; i++ {
		name = prefix + "::" + d.Name() + "." + strconv.Itoa(i)
	}
	t.names[name] = true
	v := t.newGlobal(name, d.Name(), typ, fc.u.Files.Pos(d.Position()))
	v.Volatile = ctypes.IsVolatile(d)
	fc.locals[d] = v
	ic := t.init
	oldU, oldLocals := ic.u, ic.locals
	ic.u, ic.locals = fc.u, fc.locals
	defer func() { ic.u, ic.locals = oldU, oldLocals }()
	ic.emitAt(&cfa.Decl{Var: v}, rng, text)
	if init != nil {
		ic.guard(func() { ic.initialize(&cfa.VarRef{Var: v}, d.Type(), init, true, id) })
	} else {
		ic.emitAt(&cfa.Assign{LHS: &cfa.VarRef{Var: v}, RHS: zeroOf(typ)}, rng, text)
	}
}

package llvmir

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
)

// builder appends edges to one function's CFA at its current location.
type builder struct {
	t   *translator
	f   *cfa.Function
	cur *cfa.Location
	fx  *fnctx // nil in Init
}

func newBuilder(t *translator, f *cfa.Function, fx *fnctx) *builder {
	return &builder{t: t, f: f, cur: f.Entry, fx: fx}
}

func (b *builder) node() *cfa.Location { return b.t.p.NewLocation(b.f) }

// edge appends op from the current location to a new one.
func (b *builder) edge(op cfa.Op, rng cfa.Range, text string) {
	n := b.node()
	b.t.p.AddEdge(b.cur, n, op, rng, text)
	b.cur = n
}

// finish links the current location to the exit.
func (b *builder) finish(f *cfa.Function) {
	b.t.p.AddEdge(b.cur, f.Exit, &cfa.Noop{Label: "skip"}, cfa.Range{}, "")
}

// fnctx is the translation of one function.
type fnctx struct {
	*builder
	irf    *ir.Func
	regs   map[value.Value]*cfa.Var
	slots  map[*ir.InstAlloca]*cfa.Var
	plain  map[*ir.InstAlloca]bool // address only loaded from and stored to
	folds  map[value.Value]bool    // values read only by one later instruction of their block
	folded map[value.Value]cfa.Expr
	// storeOf maps a call to the store right after it that is the one
	// use of its result; skip holds the stores a call made
	storeOf map[*ir.InstCall]*ir.InstStore
	skip    map[*ir.InstStore]bool
	blocks  map[*ir.Block]*cfa.Location
	names   map[string]bool
	pos     cfa.Range
	text    string
}

func (t *translator) function(irf *ir.Func, name string) {
	ft, _ := t.tm.of(irf.Sig)
	f := t.p.NewFunction(name, ft)
	f.Static = irf.Linkage == enum.LinkageInternal || irf.Linkage == enum.LinkagePrivate
	fpos := t.src.funcPos(irf)
	f.Unit = fpos.File
	f.Pos = cfa.Range{Start: fpos, End: cfa.Pos{File: fpos.File, Line: t.src.funcEnd(irf)}}
	fx := &fnctx{irf: irf, regs: map[value.Value]*cfa.Var{}, slots: map[*ir.InstAlloca]*cfa.Var{},
		plain: map[*ir.InstAlloca]bool{}, folds: map[value.Value]bool{}, folded: map[value.Value]cfa.Expr{}, storeOf: map[*ir.InstCall]*ir.InstStore{}, skip: map[*ir.InstStore]bool{}, blocks: map[*ir.Block]*cfa.Location{}, names: map[string]bool{}}
	fx.builder = newBuilder(t, f, fx)
	if ft.Result != nil && ft.Result.Kind != cfa.Void {
		f.RetVar = fx.newVar("__retval", ft.Result)
		f.RetVar.Temp = true
	}
	for i, p := range irf.Params {
		v := fx.newVar(localName(p.LocalIdent), ft.Params[i])
		v.Param = true
		v.Pos = fpos
		f.Params = append(f.Params, v)
		fx.regs[p] = v
	}
	fx.findPlain()
	if !t.opts.Unfolded {
		fx.findFolds()
	}
	// The entry block is the entry location, unless a branch targets it
	// (invalid IR the parser accepts): the entry must have no in-edges.
	entryTargeted := false
	for _, blk := range irf.Blocks {
		for _, op := range blk.Term.Operands() {
			if *op == value.Value(irf.Blocks[0]) {
				entryTargeted = true
			}
		}
	}
	for i, blk := range irf.Blocks {
		if i == 0 && !entryTargeted {
			fx.blocks[blk] = f.Entry
		} else {
			fx.blocks[blk] = fx.node()
		}
	}
	if entryTargeted {
		t.p.AddEdge(f.Entry, fx.blocks[irf.Blocks[0]], &cfa.Noop{Label: "entry"}, cfa.Range{Start: fpos}, "")
	}
	for _, blk := range irf.Blocks {
		fx.cur = fx.blocks[blk]
		fx.block(blk)
	}
	// locations no edge reaches (a block after unreachable code) are
	// dead, as the front end's are
	seen := make([]bool, len(f.Locs))
	cfa.MarkReachable(f.Entry, seen, false)
	for i, l := range f.Locs {
		if !seen[i] {
			l.Dead = true
		}
	}
}

// localName is the variable name of an LLVM local: its name, or t_N for
// the unnamed value %N (seed 000, section 3.4).
func localName(id ir.LocalIdent) string {
	if id.IsUnnamed() {
		return fmt.Sprintf("t_%d", id.LocalID)
	}
	return id.LocalName
}

func (fx *fnctx) newVar(name string, t *cfa.Type) *cfa.Var {
	base := name
	for i := 1; fx.names[name]; i++ {
		name = fmt.Sprintf("%s.%d", base, i)
	}
	fx.names[name] = true
	return fx.t.p.NewVar(fx.f, name, t)
}

// inEntry reports whether the alloca a is in the function's entry
// block.
func (fx *fnctx) inEntry(a *ir.InstAlloca) bool {
	for _, in := range fx.irf.Blocks[0].Insts {
		if in == ir.Instruction(a) {
			return true
		}
	}
	return false
}

// findPlain finds the allocas whose address is only the address of
// loads and stores of the allocated type (and of llvm.dbg.declare):
// those are plain variables, read and written by name.
func (fx *fnctx) findPlain() {
	for _, blk := range fx.irf.Blocks {
		for _, in := range blk.Insts {
			if a, ok := in.(*ir.InstAlloca); ok && a.NElems == nil {
				fx.plain[a] = true
			}
		}
	}
	escape := func(v value.Value) {
		if arg, ok := v.(*ir.Arg); ok {
			v = arg.Value // a call's argument with its attributes (noundef)
		}
		if a, ok := v.(*ir.InstAlloca); ok {
			delete(fx.plain, a)
		}
	}
	for _, blk := range fx.irf.Blocks {
		for _, in := range blk.Insts {
			switch in := in.(type) {
			case *ir.InstLoad:
				if a, ok := in.Src.(*ir.InstAlloca); ok && (in.Volatile || in.Atomic || !in.ElemType.Equal(a.ElemType)) {
					escape(a)
				}
			case *ir.InstStore:
				escape(in.Src)
				if a, ok := in.Dst.(*ir.InstAlloca); ok && (in.Atomic || !in.Src.Type().Equal(a.ElemType)) {
					escape(a)
				}
			case *ir.InstCall:
				if isDbg(in) {
					continue
				}
				for _, op := range in.Operands() {
					escape(*op)
				}
			default:
				for _, op := range in.Operands() {
					escape(*op)
				}
			}
		}
		if blk.Term != nil {
			for _, op := range blk.Term.Operands() {
				escape(*op)
			}
		}
	}
}

func isDbg(c *ir.InstCall) bool {
	f, ok := c.Callee.(*ir.Func)
	return ok && strings.HasPrefix(f.Name(), "llvm.dbg.")
}

// at sets the position and text of the edges of the instruction with
// metadata md (and LLVM text ll, when no source line is known).
func (fx *fnctx) at(it any, md []*metadata.Attachment, ll string) {
	fx.pos, fx.text = fx.t.src.instPos(fx.irf, it, md, ll)
}

func (fx *fnctx) emit(op cfa.Op) { fx.edge(op, fx.pos, fx.text) }

func (fx *fnctx) unsupported(what string) {
	fx.emit(&cfa.Unsupported{Construct: what})
}

// fail records an instruction the mapping cannot express.
func (fx *fnctx) fail(what string, ll string) {
	fx.t.errorf(fx.pos.Start, "%s: %s cannot be verified (%s)", fx.irf.Name(), what, strings.TrimSpace(ll))
}

// reg returns the variable of the register an instruction defines.
func (fx *fnctx) reg(v value.Named, t types.Type) *cfa.Var {
	if r, ok := fx.regs[v]; ok {
		return r
	}
	ct, err := fx.t.tm.of(t)
	if err != nil {
		ct = cfa.CharType
	}
	id, _ := v.(interface{ ID() int64 })
	name := v.Name()
	if id != nil && name == fmt.Sprint(id.ID()) {
		name = "t_" + name
	}
	r := fx.newVar(name, ct)
	r.Temp = true
	r.Orig = ""
	fx.regs[v] = r
	return r
}

// block translates one basic block from the current location.
func (fx *fnctx) block(blk *ir.Block) {
	for _, in := range blk.Insts {
		if _, ok := in.(*ir.InstPhi); ok {
			continue // assigned on the incoming edges
		}
		fx.inst(in)
	}
	fx.term(blk)
}

// define gives the register v (of LLVM type t) the value rhs: an
// assignment edge, or, for a value folded into its one use (folds),
// the expression itself, read where the use is.
func (fx *fnctx) define(v value.Named, t types.Type, rhs cfa.Expr) {
	if fx.folds[v] {
		ct, err := fx.t.tm.of(t)
		if err != nil {
			ct = rhs.Type()
		}
		fx.folded[v] = conv(rhs, ct)
		return
	}
	r := fx.reg(v, t)
	fx.emit(&cfa.Assign{LHS: &cfa.VarRef{Var: r}, RHS: conv(rhs, r.T)})
}

// lvalue returns the object a pointer designates as an lvalue of type
// et: *p, or x itself for p = &x of that type.
func (fx *fnctx) lvalue(p cfa.Expr, et *cfa.Type) cfa.Expr {
	if a, ok := p.(*cfa.AddrOf); ok && cfa.Same(a.X.Type(), et) {
		return a.X
	}
	pt := fx.t.tm.ptr(et)
	if !cfa.Same(p.Type(), pt) {
		p = &cfa.Cast{X: p, T: pt}
	}
	return &cfa.Deref{X: p, T: et}
}

// conv converts x to t unless it has that type; integer constants are
// converted here (csem.Convert).
func conv(x cfa.Expr, t *cfa.Type) cfa.Expr {
	if cfa.Same(x.Type(), t) {
		return x
	}
	if c, ok := x.(*cfa.Const); ok && c.T.IsInteger() && t.IsInteger() {
		return &cfa.Const{T: t, V: csem.Convert(c.V, c.T, t)}
	}
	return &cfa.Cast{X: x, T: t}
}

// signed converts an integer operand to the signed type of its width.
func signed(x cfa.Expr) cfa.Expr {
	t := x.Type()
	if t.Kind != cfa.Int {
		return x
	}
	return conv(x, cfa.IntType(t.Bits, true))
}

func (fx *fnctx) typ(t types.Type) (*cfa.Type, bool) {
	ct, err := fx.t.tm.of(t)
	if err != nil {
		fx.fail(err.Error(), t.LLString())
		return nil, false
	}
	return ct, true
}

// inst translates one instruction.
func (fx *fnctx) inst(in ir.Instruction) {
	ll := in.LLString()
	if m, ok := in.(interface{ MDAttachments() []*metadata.Attachment }); ok {
		fx.at(in, m.MDAttachments(), ll)
	} else {
		fx.at(in, nil, ll)
	}
	assign := fx.define
	switch in := in.(type) {
	case *ir.InstAlloca:
		et, ok := fx.typ(in.ElemType)
		if !ok {
			return
		}
		if in.NElems != nil {
			fx.unsupported("variable-length array (alloca of a run-time count)")
			return
		}
		if !fx.inEntry(in) {
			// each execution allocates a new object, where a declared
			// variable is one object (the C front end's locals are)
			fx.unsupported("alloca outside the entry block")
			return
		}
		name, orig := fx.t.src.allocaName(fx.irf, in)
		v := fx.newVar(name, et)
		v.Orig = orig
		v.AddrTaken = !fx.plain[in]
		v.Pos = fx.pos.Start
		fx.slots[in] = v
		fx.emit(&cfa.Decl{Var: v})
	case *ir.InstLoad:
		if in.Atomic {
			fx.fail("atomic load", ll)
			return
		}
		et, ok := fx.typ(in.ElemType)
		if !ok {
			return
		}
		if !in.Volatile {
			fx.define(in, in.ElemType, fx.lvalue(fx.value(in.Src), et))
			return
		}
		r := fx.reg(in, in.ElemType)
		fx.emit(&cfa.Assign{LHS: &cfa.VarRef{Var: r}, RHS: conv(fx.lvalue(fx.value(in.Src), et), r.T)})
		{
			// every volatile read is an input (another agent may have
			// written the object), after the access itself (which may
			// be invalid)
			fx.emit(&cfa.Havoc{LHS: &cfa.VarRef{Var: r}, Source: "volatile"})
		}
	case *ir.InstStore:
		if fx.skip[in] {
			return
		}
		if in.Atomic {
			fx.fail("atomic store", ll)
			return
		}
		et, ok := fx.typ(in.Src.Type())
		if !ok {
			return
		}
		fx.emit(&cfa.Assign{LHS: fx.lvalue(fx.value(in.Dst), et), RHS: conv(fx.value(in.Src), et)})
	case *ir.InstAdd:
		fx.arith(in, cfa.Add, in.X, in.Y, nsw(in.OverflowFlags))
	case *ir.InstSub:
		if fx.pointerDiff(in) {
			return
		}
		fx.arith(in, cfa.Sub, in.X, in.Y, nsw(in.OverflowFlags))
	case *ir.InstMul:
		fx.arith(in, cfa.Mul, in.X, in.Y, nsw(in.OverflowFlags))
	case *ir.InstUDiv:
		fx.arith(in, cfa.Div, in.X, in.Y, false)
	case *ir.InstSDiv:
		fx.arith(in, cfa.Div, in.X, in.Y, true)
	case *ir.InstURem:
		fx.arith(in, cfa.Rem, in.X, in.Y, false)
	case *ir.InstSRem:
		fx.arith(in, cfa.Rem, in.X, in.Y, true)
	case *ir.InstShl:
		fx.arith(in, cfa.Shl, in.X, in.Y, false)
	case *ir.InstLShr:
		fx.arith(in, cfa.Shr, in.X, in.Y, false)
	case *ir.InstAShr:
		fx.arith(in, cfa.Shr, in.X, in.Y, true)
	case *ir.InstAnd:
		fx.arith(in, cfa.And, in.X, in.Y, false)
	case *ir.InstOr:
		fx.arith(in, cfa.Or, in.X, in.Y, false)
	case *ir.InstXor:
		fx.arith(in, cfa.Xor, in.X, in.Y, false)
	case *ir.InstFAdd:
		fx.arith(in, cfa.Add, in.X, in.Y, false)
	case *ir.InstFSub:
		fx.arith(in, cfa.Sub, in.X, in.Y, false)
	case *ir.InstFMul:
		fx.arith(in, cfa.Mul, in.X, in.Y, false)
	case *ir.InstFDiv:
		fx.arith(in, cfa.Div, in.X, in.Y, false)
	case *ir.InstFNeg:
		x := fx.value(in.X)
		assign(in, in.Type(), &cfa.Unary{Op: cfa.Neg, X: x, T: x.Type()})
	case *ir.InstICmp:
		fx.icmp(in)
	case *ir.InstFCmp:
		op, ok := map[enum.FPred]cfa.BinaryOp{enum.FPredOEQ: cfa.Eq, enum.FPredUNE: cfa.Ne, enum.FPredOLT: cfa.Lt,
			enum.FPredOLE: cfa.Le, enum.FPredOGT: cfa.Gt, enum.FPredOGE: cfa.Ge}[in.Pred]
		if !ok {
			fx.unsupported("floating-point comparison " + in.Pred.String())
			return
		}
		x, y := fx.value(in.X), fx.value(in.Y)
		if e, ok := cfa.FloatEqConst(op, x, y, fx.t.tm.l.ptrBits); ok {
			assign(in, in.Type(), e)
			return
		}
		assign(in, in.Type(), &cfa.Binary{Op: op, X: x, Y: y, T: cfa.IntT})
	case *ir.InstTrunc:
		x := fx.value(in.From)
		if to, ok := in.To.(*types.IntType); ok && to.BitSize == 1 {
			x = &cfa.Binary{Op: cfa.And, X: x, Y: &cfa.Const{T: x.Type(), V: 1}, T: x.Type()}
		}
		assign(in, in.To, x)
	case *ir.InstZExt:
		assign(in, in.To, fx.value(in.From))
	case *ir.InstSExt:
		x := fx.value(in.From)
		to, ok := fx.typ(in.To)
		if !ok {
			return
		}
		if x.Type().Kind == cfa.Bool {
			// i1 true extends to all ones
			assign(in, in.To, &cfa.Unary{Op: cfa.Neg, X: conv(x, to), T: to})
			return
		}
		assign(in, in.To, conv(signed(x), cfa.IntType(to.Bits, true)))
	case *ir.InstFPToSI:
		to, ok := fx.typ(in.To)
		if !ok {
			return
		}
		assign(in, in.To, conv(fx.value(in.From), cfa.IntType(to.Bits, true)))
	case *ir.InstSIToFP:
		assign(in, in.To, signed(fx.value(in.From)))
	case *ir.InstFPToUI:
		assign(in, in.To, fx.value(in.From))
	case *ir.InstUIToFP, *ir.InstFPExt, *ir.InstFPTrunc:
		ops := in.Operands()
		assign(in.(value.Named), in.(value.Value).Type(), fx.value(*ops[0]))
	case *ir.InstPtrToInt:
		assign(in, in.To, fx.value(in.From))
	case *ir.InstIntToPtr:
		assign(in, in.To, fx.value(in.From))
	case *ir.InstBitCast:
		if _, ok := in.To.(*types.PointerType); !ok {
			fx.unsupported("bitcast of a non-pointer " + strings.TrimSpace(ll))
			return
		}
		assign(in, in.To, fx.value(in.From))
	case *ir.InstFreeze:
		assign(in, in.Type(), fx.value(in.X))
	case *ir.InstGetElementPtr:
		p, err := fx.gep(in.ElemType, fx.value(in.Src), in.Indices)
		if err != nil {
			fx.unsupported(err.Error())
			return
		}
		assign(in, in.Type(), p)
	case *ir.InstSelect:
		r := fx.reg(in, in.Type())
		c := fx.value(in.Cond)
		yes, no, join := fx.node(), fx.node(), fx.node()
		fx.t.p.AddEdge(fx.cur, yes, &cfa.Assume{Cond: c, Truth: true}, fx.pos, fx.text)
		fx.t.p.AddEdge(fx.cur, no, &cfa.Assume{Cond: c, Truth: false}, fx.pos, fx.text)
		fx.t.p.AddEdge(yes, join, &cfa.Assign{LHS: &cfa.VarRef{Var: r}, RHS: conv(fx.value(in.ValueTrue), r.T)}, fx.pos, fx.text)
		fx.t.p.AddEdge(no, join, &cfa.Assign{LHS: &cfa.VarRef{Var: r}, RHS: conv(fx.value(in.ValueFalse), r.T)}, fx.pos, fx.text)
		fx.cur = join
	case *ir.InstExtractValue:
		x := fx.value(in.X)
		for _, i := range in.Indices {
			t := x.Type()
			switch t.Kind {
			case cfa.Struct:
				x = &cfa.Member{X: x, Field: int(i), T: t.Fields[i].Type}
			case cfa.Array:
				x = &cfa.Index{X: x, I: cfa.NewConst(cfa.LLType, int64(i)), T: t.Elem}
			}
		}
		assign(in, in.Type(), x)
	case *ir.InstInsertValue:
		r := fx.reg(in, in.Type())
		ref := cfa.Expr(&cfa.VarRef{Var: r})
		fx.emit(&cfa.Assign{LHS: ref, RHS: conv(fx.value(in.X), r.T)})
		for _, i := range in.Indices {
			t := ref.Type()
			switch t.Kind {
			case cfa.Struct:
				ref = &cfa.Member{X: ref, Field: int(i), T: t.Fields[i].Type}
			case cfa.Array:
				ref = &cfa.Index{X: ref, I: cfa.NewConst(cfa.LLType, int64(i)), T: t.Elem}
			}
		}
		fx.emit(&cfa.Assign{LHS: ref, RHS: conv(fx.value(in.Elem), ref.Type())})
	case *ir.InstCall:
		fx.call(in, ll)
	case *ir.InstVAArg:
		fx.unsupported("va_arg")
	case *ir.InstFRem:
		fx.unsupported("floating-point remainder")
	case *ir.InstAtomicRMW, *ir.InstCmpXchg, *ir.InstFence:
		fx.fail("atomic operation", ll)
	case *ir.InstExtractElement, *ir.InstInsertElement, *ir.InstShuffleVector:
		fx.fail("vector operation", ll)
	case *ir.InstLandingPad, *ir.InstCatchPad, *ir.InstCleanupPad:
		fx.fail("exception handling", ll)
	default:
		fx.fail("instruction", ll)
	}
}

// nsw reports whether an add, sub or mul has no signed wrap: clang
// emits it for C's signed arithmetic, whose overflow is undefined
// behaviour, so the operation is C's signed one (and the analyses'
// signed-overflow mode applies to it as to C).
func nsw(flags []enum.OverflowFlag) bool {
	for _, f := range flags {
		if f == enum.OverflowFlagNSW {
			return true
		}
	}
	return false
}

// arith translates a binary instruction; sgn says that its operands are
// read as signed (sdiv, srem, ashr, and add, sub and mul with nsw).
// pointerDiff translates sub (ptrtoint p), (ptrtoint q), C's pointer
// subtraction as clang emits it (before its sdiv exact by the element
// size), as the C front end's pointer subtraction of char pointers: the
// byte distance of p and q as a signed integer of the result's width,
// which the analyses compute on the pointers' objects and offsets
// (UB when they point into different objects), without casting a
// pointer to an integer. It reports whether in had that shape.
func (fx *fnctx) pointerDiff(in *ir.InstSub) bool {
	px, ok1 := in.X.(*ir.InstPtrToInt)
	py, ok2 := in.Y.(*ir.InstPtrToInt)
	if !ok1 || !ok2 {
		return false
	}
	it, ok := in.Type().(*types.IntType)
	if !ok || int(it.BitSize) != fx.t.tm.l.ptrBits {
		return false
	}
	x, y := fx.value(in.X), fx.value(in.Y)
	cx, ok1 := x.(*cfa.Cast)
	cy, ok2 := y.(*cfa.Cast)
	if !ok1 || !ok2 || cx.X.Type().Kind != cfa.Pointer || cy.X.Type().Kind != cfa.Pointer || px.From == nil || py.From == nil {
		return false
	}
	cp := fx.t.tm.ptr(cfa.CharType)
	d := &cfa.Binary{Op: cfa.Sub, X: conv(cx.X, cp), Y: conv(cy.X, cp), T: cfa.IntType(int(it.BitSize), true)}
	fx.define(in, in.Type(), d)
	return true
}

func (fx *fnctx) arith(in value.Named, op cfa.BinaryOp, xv, yv value.Value, sgn bool) {
	x, y := fx.value(xv), fx.value(yv)
	t, ok := fx.typ(xv.Type())
	if !ok {
		return
	}
	if _, vec := xv.Type().(*types.VectorType); vec {
		fx.fail("vector operation", in.(ir.Instruction).LLString())
		return
	}
	if t.Kind == cfa.Bool {
		switch op {
		case cfa.And, cfa.Or, cfa.Xor:
		default:
			fx.unsupported("arithmetic on i1")
			return
		}
	}
	rt := t
	if sgn {
		x, y = signed(x), signed(y)
		rt = x.Type()
	}
	fx.define(in, xv.Type(), &cfa.Binary{Op: op, X: x, Y: y, T: rt})
}

func (fx *fnctx) icmp(in *ir.InstICmp) {
	x, y := fx.value(in.X), fx.value(in.Y)
	var op cfa.BinaryOp
	sgn := false
	switch in.Pred {
	case enum.IPredEQ:
		op = cfa.Eq
	case enum.IPredNE:
		op = cfa.Ne
	case enum.IPredUGT:
		op = cfa.Gt
	case enum.IPredUGE:
		op = cfa.Ge
	case enum.IPredULT:
		op = cfa.Lt
	case enum.IPredULE:
		op = cfa.Le
	case enum.IPredSGT:
		op, sgn = cfa.Gt, true
	case enum.IPredSGE:
		op, sgn = cfa.Ge, true
	case enum.IPredSLT:
		op, sgn = cfa.Lt, true
	case enum.IPredSLE:
		op, sgn = cfa.Le, true
	}
	if sgn {
		x, y = signed(x), signed(y)
	}
	if x.Type().Kind == cfa.Pointer && y.Type().Kind == cfa.Pointer && !cfa.Same(x.Type(), y.Type()) {
		y = conv(y, x.Type())
	}
	fx.define(in, in.Type(), &cfa.Binary{Op: op, X: x, Y: y, T: cfa.IntT})
}

// gep is the address getelementptr computes from the pointer src to
// an et: src + i0, then a member or element per further index.
func (fx *fnctx) gep(elem types.Type, src cfa.Expr, idx []value.Value) (cfa.Expr, error) {
	et, err := fx.t.tm.of(elem)
	if err != nil {
		return nil, err
	}
	return gepExpr(fx.t.tm, et, src, idx, fx.value)
}

func gepExpr(tm *typeMap, et *cfa.Type, src cfa.Expr, idx []value.Value, val func(value.Value) cfa.Expr) (cfa.Expr, error) {
	pt := tm.ptr(et)
	cur := conv(src, pt)
	if len(idx) == 0 {
		return cur, nil
	}
	if !isZeroValue(idx[0]) {
		cur = &cfa.Binary{Op: cfa.Add, X: cur, Y: signed(val(idx[0])), T: pt}
	}
	if len(idx) == 1 {
		return cur, nil
	}
	var lv cfa.Expr
	if a, ok := cur.(*cfa.AddrOf); ok && cfa.Same(a.X.Type(), et) {
		lv = a.X
	} else {
		lv = &cfa.Deref{X: cur, T: et}
	}
	for _, i := range idx[1:] {
		t := lv.Type()
		switch t.Kind {
		case cfa.Struct:
			k, ok := constIndex(i)
			if !ok || k < 0 || int(k) >= len(t.Fields) {
				return nil, fmt.Errorf("getelementptr: field index %s", i.Ident())
			}
			lv = &cfa.Member{X: lv, Field: int(k), T: t.Fields[k].Type}
		case cfa.Array:
			lv = &cfa.Index{X: lv, I: signed(val(i)), T: t.Elem}
		default:
			return nil, fmt.Errorf("getelementptr into %s", t)
		}
	}
	return &cfa.AddrOf{X: lv, T: tm.ptr(lv.Type())}, nil
}

func constIndex(v value.Value) (int64, bool) {
	if ix, ok := v.(*constant.Index); ok {
		v = ix.Constant
	}
	c, ok := v.(*constant.Int)
	if !ok {
		return 0, false
	}
	return c.X.Int64(), true
}

func isZeroValue(v value.Value) bool {
	k, ok := constIndex(v)
	return ok && k == 0
}

// value is the expression of an operand.
func (fx *fnctx) value(v value.Value) cfa.Expr {
	if a, ok := v.(*ir.Arg); ok {
		v = a.Value // a call argument with its attributes
	}
	switch v := v.(type) {
	case *ir.InstAlloca:
		s := fx.slots[v]
		if s == nil {
			return &cfa.Const{T: fx.t.tm.ptr(cfa.CharType)}
		}
		return &cfa.AddrOf{X: &cfa.VarRef{Var: s}, T: fx.t.tm.ptr(s.T)}
	case constant.Constant:
		e, err := fx.constant(v)
		if err != nil {
			fx.unsupported("constant " + v.Ident() + ": " + err.Error())
			t, err := fx.t.tm.of(v.Type())
			if err != nil || !t.IsScalar() {
				t = cfa.IntT
			}
			return &cfa.Const{T: t} // after the unsupported edge: never used
		}
		return e
	}
	if e, ok := fx.folded[v]; ok {
		return e
	}
	if r, ok := fx.regs[v]; ok {
		return &cfa.VarRef{Var: r}
	}
	if n, ok := v.(value.Named); ok {
		// a register used before its definition in block order (a
		// dominating definition in a later-listed block)
		return &cfa.VarRef{Var: fx.reg(n, v.Type())}
	}
	fx.unsupported("operand " + v.Ident())
	return &cfa.Const{T: cfa.IntT}
}

// constant is the expression of a constant: integers, null, undef (an
// indeterminate value: a fresh variable nothing assigns), the addresses
// of globals and functions, and constant expressions of casts and
// getelementptr.
func (b *builder) constant(c constant.Constant) (cfa.Expr, error) {
	tm := b.t.tm
	switch c := c.(type) {
	case *constant.Int:
		t, err := tm.of(c.Typ)
		if err != nil {
			return nil, err
		}
		if t.Kind == cfa.Bool {
			return &cfa.Const{T: t, V: uint64(c.X.Int64() & 1)}, nil
		}
		if t.Bits > 64 && !c.X.IsInt64() && !c.X.IsUint64() {
			return nil, fmt.Errorf("a %d-bit constant beyond 64 bits", t.Bits)
		}
		v := bigU(c.X, min(t.Bits, 64))
		if t.Bits > 64 && c.X.Sign() < 0 {
			// sign-extended: a negative 64-bit pattern of a wider type
			// is the constant's value only if cfa.Const extends it; it
			// does not
			return nil, fmt.Errorf("a negative %d-bit constant", t.Bits)
		}
		return &cfa.Const{T: t, V: v}, nil
	case *constant.Null:
		return &cfa.Const{T: tm.ptr(cfa.CharType)}, nil
	case *constant.Float:
		t, err := tm.of(c.Typ)
		if err != nil {
			return nil, err
		}
		f, _ := c.X.Float64()
		return &cfa.FloatConst{T: t, V: f}, nil
	case *constant.ZeroInitializer:
		t, err := tm.of(c.Typ)
		if err != nil {
			return nil, err
		}
		return zeroOf(t), nil
	case *constant.Undef, *constant.Poison:
		t, err := tm.of(c.Type())
		if err != nil {
			return nil, err
		}
		if b.fx == nil {
			return zeroOf(t), nil // Init: undef may be any value; zero is one
		}
		v := b.fx.newVar("undef", t)
		v.Temp = true
		return &cfa.VarRef{Var: v}, nil
	case *ir.Global:
		if s, ok := b.t.strs[c]; ok {
			return &cfa.AddrOf{X: s, T: tm.ptr(s.T)}, nil
		}
		v := b.t.globals[c]
		if v == nil {
			return nil, fmt.Errorf("global @%s", c.Name())
		}
		return &cfa.AddrOf{X: &cfa.VarRef{Var: v}, T: tm.ptr(v.T)}, nil
	case *ir.Func:
		ft, err := tm.of(c.Sig)
		if err != nil {
			return nil, err
		}
		return &cfa.AddrOf{X: &cfa.FuncRef{Name: c.Name(), T: ft}, T: tm.ptr(ft)}, nil
	case *constant.ExprBitCast:
		return b.castConst(c.From, c.To)
	case *constant.ExprPtrToInt:
		return b.castConst(c.From, c.To)
	case *constant.ExprIntToPtr:
		return b.castConst(c.From, c.To)
	case *constant.ExprGetElementPtr:
		src, err := b.constant(c.Src)
		if err != nil {
			return nil, err
		}
		et, err := tm.of(c.ElemType)
		if err != nil {
			return nil, err
		}
		idx := make([]value.Value, len(c.Indices))
		for i, x := range c.Indices {
			idx[i] = x
		}
		var ierr error
		e, err := gepExpr(tm, et, src, idx, func(v value.Value) cfa.Expr {
			e, err := b.constant(v.(constant.Constant))
			if err != nil {
				ierr = err
				return &cfa.Const{T: cfa.LLType}
			}
			return e
		})
		if err == nil {
			err = ierr
		}
		return e, err
	case *constant.Index:
		return b.constant(c.Constant)
	}
	return nil, fmt.Errorf("constant %s is not supported", c.Ident())
}

func (b *builder) castConst(from constant.Constant, to types.Type) (cfa.Expr, error) {
	x, err := b.constant(from)
	if err != nil {
		return nil, err
	}
	t, err := b.t.tm.of(to)
	if err != nil {
		return nil, err
	}
	return conv(x, t), nil
}

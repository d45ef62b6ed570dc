package llvmir

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/reverify/reverify/engine/cfa"
)

// term translates a block's terminator: ret to a return edge, br to a
// no-op edge, a conditional br to two assume edges, switch to a chain of
// assume pairs, unreachable to a terminal location. The phi
// assignments of the successor are on each edge into it (phiCopies).
func (fx *fnctx) term(blk *ir.Block) {
	ll := blk.Term.LLString()
	if m, ok := blk.Term.(interface{ MDAttachments() []*metadata.Attachment }); ok {
		fx.at(blk.Term, m.MDAttachments(), ll)
	} else {
		fx.at(blk.Term, nil, ll)
	}
	switch tm := blk.Term.(type) {
	case *ir.TermRet:
		var x cfa.Expr
		if tm.X != nil && fx.f.RetVar != nil {
			x = conv(fx.value(tm.X), fx.f.RetVar.T)
		}
		if fx.irf.Name() == "main" && fx.t.src.atexitModel {
			if _, isConst := x.(*cfa.Const); x != nil && !isConst {
				tmp := fx.newVar("ret", x.Type())
				tmp.Temp = true
				fx.emit(&cfa.Assign{LHS: &cfa.VarRef{Var: tmp}, RHS: x})
				x = &cfa.VarRef{Var: tmp}
			}
			fx.runAtexit(true)
		}
		fx.t.p.AddEdge(fx.cur, fx.f.Exit, &cfa.Return{X: x}, fx.pos, fx.text)
	case *ir.TermBr:
		fx.jump(blk, tm.Target.(*ir.Block), &cfa.Noop{Label: "goto"})
	case *ir.TermCondBr:
		c := fx.value(tm.Cond)
		if k, ok := c.(*cfa.Cast); ok && k.T.Kind == cfa.Bool {
			if b, ok := k.X.(*cfa.Binary); ok && b.Op.IsComparison() {
				c = b // a comparison is its own truth value
			}
		}
		from := fx.cur
		fx.jump(blk, tm.TargetTrue.(*ir.Block), &cfa.Assume{Cond: c, Truth: true})
		fx.cur = from
		fx.jump(blk, tm.TargetFalse.(*ir.Block), &cfa.Assume{Cond: c, Truth: false})
	case *ir.TermSwitch:
		x := fx.value(tm.X)
		for _, cs := range tm.Cases {
			k := fx.value(cs.X)
			cond := &cfa.Binary{Op: cfa.Eq, X: x, Y: conv(k, x.Type()), T: cfa.IntT}
			from := fx.cur
			fx.jump(blk, cs.Target.(*ir.Block), &cfa.Assume{Cond: cond, Truth: true})
			next := fx.node()
			fx.t.p.AddEdge(from, next, &cfa.Assume{Cond: cond, Truth: false}, fx.pos, fx.text)
			fx.cur = next
		}
		fx.jump(blk, tm.TargetDefault.(*ir.Block), &cfa.Noop{Label: "default"})
	case *ir.TermUnreachable:
		fx.cur.Terminal = true
	case *ir.TermInvoke, *ir.TermResume, *ir.TermCatchSwitch, *ir.TermCatchRet, *ir.TermCleanupRet:
		fx.fail("exception handling", ll)
		fx.cur.Terminal = true
	default:
		fx.fail("terminator", ll)
		fx.cur.Terminal = true
	}
}

// jump adds the edge op from the current location to the location of
// block to, with the phi assignments of to for the edge from blk: all
// incoming values are read before any phi is written (they are
// parallel), through temporaries when a phi reads another phi of to.
func (fx *fnctx) jump(blk, to *ir.Block, op cfa.Op) {
	var phis []*ir.InstPhi
	for _, in := range to.Insts {
		if p, ok := in.(*ir.InstPhi); ok {
			phis = append(phis, p)
		}
	}
	if len(phis) == 0 {
		fx.t.p.AddEdge(fx.cur, fx.blocks[to], op, fx.pos, fx.text)
		return
	}
	fx.edge(op, fx.pos, fx.text)
	type copy struct {
		dst *cfa.Var
		src cfa.Expr
	}
	var copies []copy
	readsPhi := false
	for _, p := range phis {
		for _, inc := range p.Incs {
			if inc.Pred.(*ir.Block) != blk {
				continue
			}
			if q, ok := inc.X.(*ir.InstPhi); ok && isPhiOf(q, phis) {
				readsPhi = true
			}
			r := fx.reg(p, p.Typ)
			copies = append(copies, copy{r, conv(fx.value(inc.X), r.T)})
			break
		}
	}
	if readsPhi {
		for i, c := range copies {
			tmp := fx.newVar("phi", c.dst.T)
			tmp.Temp = true
			fx.edge(&cfa.Assign{LHS: &cfa.VarRef{Var: tmp}, RHS: c.src}, fx.pos, fx.text)
			copies[i].src = &cfa.VarRef{Var: tmp}
		}
	}
	for i, c := range copies {
		if i == len(copies)-1 {
			fx.t.p.AddEdge(fx.cur, fx.blocks[to], &cfa.Assign{LHS: &cfa.VarRef{Var: c.dst}, RHS: c.src}, fx.pos, fx.text)
			return
		}
		fx.edge(&cfa.Assign{LHS: &cfa.VarRef{Var: c.dst}, RHS: c.src}, fx.pos, fx.text)
	}
	fx.t.p.AddEdge(fx.cur, fx.blocks[to], &cfa.Noop{Label: "phi"}, fx.pos, fx.text)
}

// ignoredIntrinsics have no effect on what a C program computes.
var ignoredIntrinsics = []string{"llvm.dbg.", "llvm.lifetime.", "llvm.invariant.", "llvm.assume", "llvm.experimental.noalias", "llvm.donothing", "llvm.var.annotation"}

// memIntrinsics are the intrinsics that are C library functions, with
// the number of arguments the C function takes.
var memIntrinsics = map[string]string{"llvm.memcpy.": "memcpy", "llvm.memmove.": "memmove", "llvm.memset.": "memset"}

// call translates a call: __VERIFIER_nondet_* to an input,
// __VERIFIER_assume to an assumption, the memory intrinsics to the C
// functions they are, the other intrinsics to nothing (debug
// information, lifetimes) or to an unsupported construct, and every
// other call to a call edge (through a pointer when the callee is not a
// function).
func (fx *fnctx) call(in *ir.InstCall, ll string) {
	callee := stripCasts(in.Callee)
	if _, ok := callee.(*ir.InlineAsm); ok {
		fx.unsupported("inline assembly")
		return
	}
	var result cfa.Expr
	hasResult := !in.Typ.Equal(types.Void)
	if hasResult {
		rt, ok := fx.typ(in.Typ)
		if !ok {
			return
		}
		if st := fx.storeOf[in]; st != nil {
			// x = f(…) is one call edge, its result stored by the
			// call itself (the store is skipped)
			result = fx.lvalue(fx.value(st.Dst), rt)
			fx.skip[st] = true
		} else {
			result = &cfa.VarRef{Var: fx.reg(in, in.Typ)}
		}
	}
	f, direct := callee.(*ir.Func)
	if direct {
		name := f.Name()
		for _, p := range ignoredIntrinsics {
			if strings.HasPrefix(name, p) {
				return
			}
		}
		for p, c := range memIntrinsics {
			if strings.HasPrefix(name, p) && len(in.Args) >= 3 {
				args := make([]cfa.Expr, 3)
				vp := fx.t.tm.ptr(cfa.VoidType)
				size := cfa.IntType(fx.t.tm.l.ptrBits, false)
				args[0] = conv(fx.value(in.Args[0]), vp)
				if c == "memset" {
					args[1] = conv(fx.value(in.Args[1]), cfa.IntT)
				} else {
					args[1] = conv(fx.value(in.Args[1]), vp)
				}
				args[2] = conv(fx.value(in.Args[2]), size)
				ft := &cfa.Type{Kind: cfa.Func, Result: vp, Params: []*cfa.Type{vp, args[1].Type(), size}}
				if _, defined := fx.t.p.Externals[c]; !defined && fx.t.m != nil && !fx.t.hasBody(c) {
					fx.t.p.Externals[c] = ft
				}
				fx.emit(&cfa.Call{Fn: c, Args: args, Pos: fx.pos.Start})
				if len(in.Args) > 3 && !isZeroBool(in.Args[3]) {
					fx.volatileCopy(in.Args[0])
				}
				return
			}
		}
		switch {
		case name == "llvm.trap" || name == "llvm.debugtrap":
			fx.t.p.Externals["abort"] = &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType}
			fx.emit(&cfa.Call{Fn: "abort", Pos: fx.pos.Start})
			fx.cur.Terminal = true
			return
		case bitIntrinsic(name) != "" && result != nil && len(in.Args) >= 1:
			fx.bitOp(bitIntrinsic(name), in, result)
			return
		case overflowIntrinsic(name) != "" && result != nil && len(in.Args) == 2:
			fx.withOverflow(overflowIntrinsic(name), in, result)
			return
		case byteOrder[name] != 0 && len(f.Blocks) == 0 && result != nil && len(in.Args) == 1:
			w := byteOrder[name]
			u := cfa.IntType(w, false)
			ct := u
			if w < 32 {
				ct = cfa.UIntType
			}
			x := conv(conv(fx.value(in.Args[0]), u), ct)
			fx.emit(&cfa.Assign{LHS: result, RHS: conv(conv(cfa.ByteSwap(x, w), u), result.Type())})
			return
		case name == "llvm.stacksave" || name == "llvm.stackrestore":
			fx.unsupported("variable-length array (" + name + ")")
			return
		case strings.HasPrefix(name, "llvm."):
			fx.unsupported("LLVM intrinsic " + name)
			return
		case (strings.HasPrefix(name, "__VERIFIER_nondet_") || strings.HasPrefix(name, "nondet_")) && len(f.Blocks) == 0:
			if result != nil {
				fx.emit(&cfa.Havoc{LHS: result, Source: name})
			}
			return
		case cfa.StdinByte(name, len(in.Args) == 1 && isStdin(in.Args[0])) && len(f.Blocks) == 0 && result != nil && result.Type().IsInteger():
			fx.emit(&cfa.Assign{LHS: result, RHS: conv(cfa.StdinRead(llInput{fx}, name), result.Type())})
			return
		case len(f.Blocks) == 0 && result != nil && cfa.StdinCall(name, len(in.Args), len(in.Args) >= 3 && isStdin(in.Args[len(in.Args)-1]), len(in.Args) == 4 && isConstOne(in.Args[1])) && fx.stdinCall(name, in, result):
			return
		case len(f.Blocks) == 0 && result != nil && fx.input(name, in, result):
			return
		case len(f.Blocks) == 0 && result != nil && fx.scanf(name, in, result):
			return
		case len(f.Blocks) == 0 && result != nil && fx.read(name, in, result):
			return
		case name == "posix_memalign" && len(f.Blocks) == 0 && len(in.Args) == 3 && result != nil:
			fx.posixMemalign(in, result)
			return
		case (name == "__CPROVER_assert" || name == "__CPROVER_precondition") && len(f.Blocks) == 0 && len(in.Args) == 2:
			fx.cbmcAssert(name, in)
			return
		case (name == "__VERIFIER_assume" || name == "__CPROVER_assume") && len(f.Blocks) == 0 && len(in.Args) == 1:
			c := fx.value(in.Args[0])
			next, stop := fx.node(), fx.node()
			stop.Terminal = true
			fx.t.p.AddEdge(fx.cur, next, &cfa.Assume{Cond: c, Truth: true}, fx.pos, fx.text)
			fx.t.p.AddEdge(fx.cur, stop, &cfa.Assume{Cond: c, Truth: false}, fx.pos, fx.text)
			fx.cur = next
			return
		}
	}
	ft, ok := fx.typ(in.Callee.Type().(*types.PointerType).ElemType)
	if !ok {
		return
	}
	args := make([]cfa.Expr, len(in.Args))
	for i, a := range in.Args {
		x := fx.value(a)
		if i < len(ft.Params) {
			x = conv(x, ft.Params[i])
		}
		if direct && len(f.Blocks) == 0 && signedParam(f.Name(), i) {
			x = signed(x)
		}
		args[i] = x
	}
	if direct && len(f.Blocks) == 0 && f.Name() == "exit" {
		fx.runAtexit(false)
	}
	if direct && !f.Sig.Variadic && len(args) != len(f.Params) {
		fx.unsupported(fmt.Sprintf("call of %s with %d arguments, which takes %d", f.Name(), len(args), len(f.Params)))
		return
	}
	c := &cfa.Call{Args: args, Result: result, Pos: fx.pos.Start}
	if direct {
		c.Fn = f.Name()
		if !f.Sig.Equal(in.Callee.Type().(*types.PointerType).ElemType) {
			// called through a cast to another function type (an
			// unprototyped declaration): the arguments as passed
			for i, a := range c.Args {
				if i < len(f.Params) {
					if pt, err := fx.t.tm.of(f.Sig.Params[i]); err == nil {
						c.Args[i] = conv(a, pt)
					}
				}
			}
			if rt, err := fx.t.tm.of(f.Sig.RetType); err == nil && result != nil && !cfa.Same(rt, result.Type()) {
				tmp := fx.newVar("ret", rt)
				tmp.Temp = true
				c.Result = &cfa.VarRef{Var: tmp}
				fx.emit(c)
				fx.emit(&cfa.Assign{LHS: result, RHS: conv(c.Result, result.Type())})
				return
			}
		}
	} else {
		c.FnPtr = fx.value(in.Callee)
	}
	fx.emit(c)
	if direct && len(f.Blocks) == 0 && (f.Name() == "malloc" || f.Name() == "calloc") && c.Result != nil && fx.t.opts.Malloc == MallocMayFail {
		// the block may be NULL instead (as the C front end's
		// mallocFail): a choice, then the result 0 on one branch
		choice := fx.newVar("fails", cfa.IntT)
		choice.Temp = true
		fx.emit(&cfa.Havoc{LHS: &cfa.VarRef{Var: choice}, Source: cfa.MallocFailureSource})
		fx.branch(&cfa.Binary{Op: cfa.Ne, X: &cfa.VarRef{Var: choice}, Y: cfa.NewConst(cfa.IntT, 0), T: cfa.IntT},
			&cfa.Assign{LHS: c.Result, RHS: &cfa.Const{T: c.Result.Type()}})
	}
	if direct && len(f.Blocks) == 0 && cfa.EndsProgram(f.Name()) {
		// exit, abort and the assertion failure handlers end the
		// program whether or not their declaration says noreturn (as
		// in the C front end); what clang put after the call is dead
		fx.cur.Terminal = true
		fx.cur = fx.node()
	}
}

func isZeroBool(v value.Value) bool {
	if a, ok := v.(*ir.Arg); ok {
		v = a.Value
	}
	c, ok := v.(*constant.Int)
	return ok && c.X.Sign() == 0
}

// volatileCopy makes the object a volatile memcpy, memmove or memset
// wrote (through dst, an i8* usually cast from the object's pointer)
// hold inputs: what a volatile access reads is any value. An object
// whose scalars cannot be listed is an unsupported construct.
func (fx *fnctx) volatileCopy(dst value.Value) {
	if a, ok := dst.(*ir.Arg); ok {
		dst = a.Value
	}
	switch c := dst.(type) {
	case *ir.InstBitCast:
		dst = c.From
	case *constant.ExprBitCast:
		dst = c.From
	}
	pt, ok := dst.Type().(*types.PointerType)
	if ok {
		if et, err := fx.t.tm.of(pt.ElemType); err == nil {
			lv := fx.lvalue(fx.value(dst), et)
			var ops []cfa.Op
			if cfa.HavocInputs(lv, et, "volatile", func(op cfa.Op) { ops = append(ops, op) }) {
				for _, op := range ops {
					fx.emit(op)
				}
				return
			}
		}
	}
	fx.unsupported("volatile copy of an object whose contents are not enumerable")
}

// overflowIntrinsic is the operation of LLVM's arithmetic with
// overflow intrinsics (LLVM Language Reference, "Arithmetic with
// Overflow Intrinsics"): "sadd", "uadd", "ssub", "usub", "smul", "umul",
// or "".
func overflowIntrinsic(name string) string {
	for _, op := range []string{"sadd", "uadd", "ssub", "usub", "smul", "umul"} {
		if strings.HasPrefix(name, "llvm."+op+".with.overflow.i") {
			return op
		}
	}
	return ""
}

// withOverflow translates llvm.{s,u}{add,sub,mul}.with.overflow into
// res, a {iN, i1} struct: field 0 the result modulo 2^N, field 1
// whether the exact result leaves the signed or unsigned range of N
// bits (cfa.Overflow, the condition the C front end's overflow builtins
// use).
func (fx *fnctx) withOverflow(op string, in *ir.InstCall, res cfa.Expr) {
	a, b := fx.value(in.Args[0]), fx.value(in.Args[1])
	rt := res.Type()
	u := a.Type()
	if rt.Kind != cfa.Struct || len(rt.Fields) != 2 || !u.IsInteger() || u.Kind == cfa.Bool || u.Bits > 64 {
		fx.unsupported("LLVM intrinsic llvm." + op + ".with.overflow of " + u.String())
		return
	}
	let := fx.let
	a, b = let(a), let(b)
	arith := map[string]cfa.BinaryOp{"sadd": cfa.Add, "uadd": cfa.Add, "ssub": cfa.Sub, "usub": cfa.Sub, "smul": cfa.Mul, "umul": cfa.Mul}[op]
	r := &cfa.Binary{Op: arith, X: a, Y: b, T: u}
	t := u
	if op[0] == 's' {
		t = cfa.IntType(u.Bits, true)
	}
	ov := cfa.Overflow(arith, conv(a, t), conv(b, t), t, conv)
	fx.emit(&cfa.Assign{LHS: &cfa.Member{X: res, Field: 0, T: rt.Fields[0].Type}, RHS: conv(r, rt.Fields[0].Type)})
	flag := &cfa.Member{X: res, Field: 1, T: rt.Fields[1].Type}
	fx.emit(&cfa.Assign{LHS: flag, RHS: conv(ov, flag.T)})
}

// byteOrder are the byte-order functions, by the width they swap: on
// the little-endian targets (x86) host to network order and back
// reverse the bytes (as in the C front end).
var byteOrder = map[string]int{"htonl": 32, "ntohl": 32, "htons": 16, "ntohs": 16}

// bitIntrinsic is the operation of LLVM's bit-counting and byte-swap
// intrinsics (LLVM Language Reference, "Bit Manipulation Intrinsics"):
// "ctpop", "ctlz", "cttz", "bswap", or "".
func bitIntrinsic(name string) string {
	for _, op := range []string{"ctpop", "ctlz", "cttz", "bswap"} {
		if strings.HasPrefix(name, "llvm."+op+".i") {
			return op
		}
	}
	return ""
}

// bitOp translates llvm.ctpop, llvm.ctlz, llvm.cttz and llvm.bswap into
// res with the shared lowerings (cfa.PopCount, …). ctlz and cttz of 0
// are the width when their second argument is false; when it is true
// the result is poison, and that branch is an unsupported construct.
func (fx *fnctx) bitOp(op string, in *ir.InstCall, res cfa.Expr) {
	x := fx.value(in.Args[0])
	u := x.Type()
	if !u.IsInteger() || u.Kind == cfa.Bool || u.Bits > 64 || u.Bits%8 != 0 {
		fx.unsupported("LLVM intrinsic " + stripCasts(in.Callee).(*ir.Func).Name() + " of " + u.String())
		return
	}
	w := u.Bits
	let := fx.let
	v := let(x)
	switch op {
	case "ctpop":
		fx.emit(&cfa.Assign{LHS: res, RHS: conv(cfa.PopCount(v, w, let), res.Type())})
		return
	case "bswap":
		if w < 16 {
			fx.unsupported("llvm.bswap of " + u.String())
			return
		}
		ct := u
		if w < 32 {
			ct = cfa.UIntType
		}
		fx.emit(&cfa.Assign{LHS: res, RHS: conv(conv(cfa.ByteSwap(conv(v, ct), w), u), res.Type())})
		return
	}
	// ctlz, cttz: 0 separately
	zero := &cfa.Binary{Op: cfa.Eq, X: v, Y: &cfa.Const{T: u}, T: cfa.IntT}
	isZero, nonzero, join := fx.node(), fx.node(), fx.node()
	fx.t.p.AddEdge(fx.cur, isZero, &cfa.Assume{Cond: zero, Truth: true}, fx.pos, fx.text)
	fx.t.p.AddEdge(fx.cur, nonzero, &cfa.Assume{Cond: zero, Truth: false}, fx.pos, fx.text)
	fx.cur = isZero
	if len(in.Args) < 2 || !isZeroBool(in.Args[1]) {
		fx.unsupported(op + " of 0 (poison)")
	}
	fx.edge(&cfa.Assign{LHS: res, RHS: conv(&cfa.Const{T: u, V: uint64(w)}, res.Type())}, fx.pos, fx.text)
	fx.t.p.AddEdge(fx.cur, join, &cfa.Noop{Label: "skip"}, fx.pos, fx.text)
	fx.cur = nonzero
	r := cfa.LeadingZeros(v, w, let)
	if op == "cttz" {
		r = cfa.TrailingZeros(v, w, let)
	}
	fx.edge(&cfa.Assign{LHS: res, RHS: conv(r, res.Type())}, fx.pos, fx.text)
	fx.t.p.AddEdge(fx.cur, join, &cfa.Noop{Label: "skip"}, fx.pos, fx.text)
	fx.cur = join
}

// posixMemalign translates posix_memalign(memptr, alignment, size)
// without a body as the C front end does (POSIX.1-2008; CBMC's library
// models it on malloc): an alignment that is not a power of two
// multiple of sizeof(void *) gives EINVAL (22) and allocates nothing;
// otherwise malloc(size) (which may fail as malloc does) gives ENOMEM
// (12) on NULL, else *memptr is the block and the result 0.
func (fx *fnctx) posixMemalign(in *ir.InstCall, res cfa.Expr) {
	vp := fx.t.tm.ptr(cfa.VoidType)
	sizeT := cfa.IntType(fx.t.tm.l.ptrBits, false)
	let := fx.let
	mp := let(conv(fx.value(in.Args[0]), fx.t.tm.ptr(vp)))
	al := let(conv(fx.value(in.Args[1]), sizeT))
	sz := let(conv(fx.value(in.Args[2]), sizeT))
	k := func(v int64) cfa.Expr { return cfa.NewConst(sizeT, v) }
	bin := func(op cfa.BinaryOp, a, b cfa.Expr, t *cfa.Type) cfa.Expr {
		return &cfa.Binary{Op: op, X: a, Y: b, T: t}
	}
	valid := bin(cfa.LAnd, bin(cfa.Ne, al, k(0), cfa.IntT),
		bin(cfa.LAnd, bin(cfa.Eq, bin(cfa.And, al, bin(cfa.Sub, al, k(1), sizeT), sizeT), k(0), cfa.IntT),
			bin(cfa.Eq, bin(cfa.Rem, al, k(int64(fx.t.tm.l.ptrBits/8)), sizeT), k(0), cfa.IntT), cfa.IntT), cfa.IntT)
	r := fx.newVar("pmres", cfa.IntT)
	r.Temp = true
	rr := &cfa.VarRef{Var: r}
	alloc, bad, join := fx.node(), fx.node(), fx.node()
	fx.t.p.AddEdge(fx.cur, alloc, &cfa.Assume{Cond: valid, Truth: true}, fx.pos, fx.text)
	fx.t.p.AddEdge(fx.cur, bad, &cfa.Assume{Cond: valid, Truth: false}, fx.pos, fx.text)
	fx.cur = bad
	fx.edge(&cfa.Assign{LHS: rr, RHS: cfa.NewConst(cfa.IntT, 22)}, fx.pos, fx.text)
	fx.t.p.AddEdge(fx.cur, join, &cfa.Noop{Label: "skip"}, fx.pos, fx.text)
	fx.cur = alloc
	blk := fx.newVar("block", vp)
	blk.Temp = true
	br := &cfa.VarRef{Var: blk}
	if !fx.t.hasBody("malloc") {
		fx.t.p.Externals["malloc"] = &cfa.Type{Kind: cfa.Func, Result: vp, Params: []*cfa.Type{sizeT}}
	}
	fx.emit(&cfa.Call{Fn: "malloc", Args: []cfa.Expr{sz}, Result: br, Pos: fx.pos.Start})
	if fx.t.opts.Malloc == MallocMayFail && !fx.t.hasBody("malloc") {
		choice := fx.newVar("fails", cfa.IntT)
		choice.Temp = true
		fx.emit(&cfa.Havoc{LHS: &cfa.VarRef{Var: choice}, Source: cfa.MallocFailureSource})
		fx.branch(&cfa.Binary{Op: cfa.Ne, X: &cfa.VarRef{Var: choice}, Y: cfa.NewConst(cfa.IntT, 0), T: cfa.IntT},
			&cfa.Assign{LHS: br, RHS: &cfa.Const{T: vp}})
	}
	nonnull := bin(cfa.Ne, br, &cfa.Const{T: vp}, cfa.IntT)
	ok, fail := fx.node(), fx.node()
	fx.t.p.AddEdge(fx.cur, ok, &cfa.Assume{Cond: nonnull, Truth: true}, fx.pos, fx.text)
	fx.t.p.AddEdge(fx.cur, fail, &cfa.Assume{Cond: nonnull, Truth: false}, fx.pos, fx.text)
	fx.cur = fail
	fx.edge(&cfa.Assign{LHS: rr, RHS: cfa.NewConst(cfa.IntT, 12)}, fx.pos, fx.text)
	fx.t.p.AddEdge(fx.cur, join, &cfa.Noop{Label: "skip"}, fx.pos, fx.text)
	fx.cur = ok
	fx.edge(&cfa.Assign{LHS: &cfa.Deref{X: mp, T: vp}, RHS: br}, fx.pos, fx.text)
	fx.edge(&cfa.Assign{LHS: rr, RHS: cfa.NewConst(cfa.IntT, 0)}, fx.pos, fx.text)
	fx.t.p.AddEdge(fx.cur, join, &cfa.Noop{Label: "skip"}, fx.pos, fx.text)
	fx.cur = join
	fx.emit(&cfa.Assign{LHS: res, RHS: conv(rr, res.Type())})
}

// signedParam reports whether parameter i of the C library function
// name has a signed integer type (int): the models of cfa.LibraryModels
// read an argument by its type, and LLVM's integers have no sign.
func signedParam(name string, i int) bool {
	switch name {
	case "abs", "labs", "llabs", "toupper", "tolower", "isdigit", "isalpha", "isalnum", "isspace",
		"isupper", "islower", "isxdigit", "isprint", "putchar", "exit", "_exit", "_Exit":
		return i == 0
	case "memset", "strchr", "memchr", "strrchr":
		return i == 1
	}
	return false
}

func isPhiOf(q *ir.InstPhi, phis []*ir.InstPhi) bool {
	for _, p := range phis {
		if p == q {
			return true
		}
	}
	return false
}

// let assigns e to a fresh temporary and returns the temporary, so that
// an expression used several times is evaluated once.
func (fx *fnctx) let(e cfa.Expr) cfa.Expr {
	v := fx.newVar("let", e.Type())
	v.Temp = true
	fx.emit(&cfa.Assign{LHS: &cfa.VarRef{Var: v}, RHS: e})
	return &cfa.VarRef{Var: v}
}

// isStdin reports whether v is the value of the C library's stdin (a
// load of the global @stdin).
func isStdin(v value.Value) bool {
	if a, ok := v.(*ir.Arg); ok {
		v = a.Value
	}
	ld, ok := v.(*ir.InstLoad)
	if !ok {
		return false
	}
	g, ok := ld.Src.(*ir.Global)
	return ok && g.Name() == "stdin" && g.Init == nil
}

// isConstOne reports whether v is the integer constant 1 (fread's
// element size).
func isConstOne(v value.Value) bool {
	if a, ok := v.(*ir.Arg); ok {
		v = a.Value
	}
	c, ok := v.(*constant.Int)
	return ok && c.X.IsInt64() && c.X.Int64() == 1
}

// stdinCall translates a read of a block of standard input
// (cfa.StdinCall: fgets, fread of stdin) by its model, as the C front
// end does, its result stored into res; it reports false, having
// emitted nothing, when the arguments' or result's types do not fit.
func (fx *fnctx) stdinCall(name string, in *ir.InstCall, res cfa.Expr) bool {
	if _, ok := in.Args[0].Type().(*types.PointerType); !ok {
		return false
	}
	k := 1
	if len(in.Args) == 4 {
		k = 2
	}
	if _, ok := in.Args[k].Type().(*types.IntType); !ok {
		return false
	}
	rt := res.Type()
	if strings.HasPrefix(name, "fgets") != (rt.Kind == cfa.Pointer) || rt.Kind != cfa.Pointer && !rt.IsInteger() {
		return false
	}
	args := make([]cfa.Expr, len(in.Args))
	for i, a := range in.Args {
		args[i] = fx.value(a)
	}
	v := fx.newVar("input", rt)
	v.Temp = true
	x := &cfa.VarRef{Var: v}
	cfa.EmitStdinCall(llInput{fx}, name, x, args)
	fx.emit(&cfa.Assign{LHS: res, RHS: x})
	return true
}

// scanf translates a call of scanf, or of fscanf on stdin, that
// cfa.ScanfCall models (a string literal format of numeric conversions,
// each argument a pointer to an integer of the conversion's width) by
// its model (cfa.EmitScanf), as the C front end does, its result stored
// into res; it reports false, having emitted nothing, for any other
// call.
func (fx *fnctx) scanf(name string, in *ir.InstCall, res cfa.Expr) bool {
	params, onStdin := in.Args, false
	if cfa.ScanfStream(name) {
		if len(params) == 0 {
			return false
		}
		onStdin, params = isStdin(params[0]), params[1:]
	}
	if len(params) < 2 || !res.Type().IsInteger() {
		return false
	}
	format, ok := stringLit(fx.value(params[0]))
	args := make([]cfa.Expr, len(params)-1)
	types := make([]*cfa.Type, len(args))
	for i, a := range params[1:] {
		args[i] = fx.value(a)
		types[i] = args[i].Type()
	}
	convs, ok := cfa.ScanfCall(name, onStdin, format, ok, types, fx.t.p.DataModel)
	if !ok {
		return false
	}
	b := llInput{fx}
	x := b.Temp(res.Type())
	cfa.EmitScanf(b, x, args, convs)
	fx.emit(&cfa.Assign{LHS: res, RHS: x})
	return true
}

// stringLit returns the string literal x points to the start of
// (through casts, address-of and zero indices).
func stringLit(x cfa.Expr) (string, bool) {
	for {
		switch e := x.(type) {
		case *cfa.Cast:
			x = e.X
		case *cfa.AddrOf:
			x = e.X
		case *cfa.Index:
			if c, ok := e.I.(*cfa.Const); !ok || c.V != 0 {
				return "", false
			}
			x = e.X
		case *cfa.StringLit:
			return e.Val, true
		default:
			return "", false
		}
	}
}

// input translates a call of one of the C library's input functions
// (cfa.InputCall: rand, random, time, clock) by its model, as the C
// front end does, with its value stored into res; it reports false,
// having emitted nothing, for any other call.
func (fx *fnctx) input(name string, in *ir.InstCall, res cfa.Expr) bool {
	m, ok := cfa.InputCall(name, res.Type(), len(in.Args))
	if !ok {
		return false
	}
	if m.Store {
		if _, ok := in.Args[0].Type().(*types.PointerType); !ok {
			return false
		}
	}
	args := make([]cfa.Expr, len(in.Args))
	for i, a := range in.Args {
		args[i] = fx.value(a)
	}
	v := fx.newVar("input", res.Type())
	v.Temp = true
	x := &cfa.VarRef{Var: v}
	if !m.Emit(llInput{fx}, x, args) {
		return false
	}
	fx.emit(&cfa.Assign{LHS: res, RHS: x})
	return true
}

// read translates a call of POSIX read (cfa.ReadCall) by its model
// (cfa.EmitRead), as the C front end does, its result stored into res;
// it reports false, having emitted nothing, for any other call or when
// the arguments' or result's types do not fit.
func (fx *fnctx) read(name string, in *ir.InstCall, res cfa.Expr) bool {
	if name != "read" || len(in.Args) != 3 {
		return false
	}
	params := make([]*cfa.Type, len(in.Args))
	for i, a := range in.Args {
		t, err := fx.t.tm.of(a.Type())
		if err != nil {
			return false
		}
		params[i] = t
	}
	if !cfa.ReadCall(name, res.Type(), params) {
		return false
	}
	args := make([]cfa.Expr, len(in.Args))
	for i, a := range in.Args {
		args[i] = fx.value(a)
	}
	v := fx.newVar("input", res.Type())
	v.Temp = true
	x := &cfa.VarRef{Var: v}
	cfa.EmitRead(llInput{fx}, x, args)
	fx.emit(&cfa.Assign{LHS: res, RHS: x})
	return true
}

// llInput is the LLVM front end's cfa.InputBuilder: its operations carry
// the call's position, its conditions none (they are the model's, as in
// the C front end).
type llInput struct{ fx *fnctx }

func (b llInput) Op(op cfa.Op) { b.fx.emit(op) }

func (b llInput) Assume(c cfa.Expr) {
	fx := b.fx
	yes, no := fx.node(), fx.node()
	no.Terminal = true
	fx.t.p.AddEdge(fx.cur, yes, &cfa.Assume{Cond: c, Truth: true}, cfa.Range{}, "")
	fx.t.p.AddEdge(fx.cur, no, &cfa.Assume{Cond: c, Truth: false}, cfa.Range{}, "")
	fx.cur = yes
}

func (b llInput) If(c cfa.Expr, then, els func()) {
	fx := b.fx
	yes, no, join := fx.node(), fx.node(), fx.node()
	fx.t.p.AddEdge(fx.cur, yes, &cfa.Assume{Cond: c, Truth: true}, cfa.Range{}, "")
	fx.t.p.AddEdge(fx.cur, no, &cfa.Assume{Cond: c, Truth: false}, cfa.Range{}, "")
	fx.cur = yes
	then()
	fx.t.p.AddEdge(fx.cur, join, &cfa.Noop{Label: "skip"}, fx.pos, fx.text)
	fx.cur = no
	if els != nil {
		els()
	}
	fx.t.p.AddEdge(fx.cur, join, &cfa.Noop{Label: "skip"}, fx.pos, fx.text)
	fx.cur = join
}

func (b llInput) While(c cfa.Expr, body func()) {
	fx := b.fx
	head, in, out := fx.node(), fx.node(), fx.node()
	fx.t.p.AddEdge(fx.cur, head, &cfa.Noop{Label: "loop"}, fx.pos, fx.text)
	fx.t.p.AddEdge(head, in, &cfa.Assume{Cond: c, Truth: true}, cfa.Range{}, "")
	fx.t.p.AddEdge(head, out, &cfa.Assume{Cond: c, Truth: false}, cfa.Range{}, "")
	fx.cur = in
	body()
	fx.t.p.AddEdge(fx.cur, head, &cfa.Noop{Label: "loop"}, fx.pos, fx.text)
	fx.cur = out
}

func (b llInput) Temp(t *cfa.Type) cfa.Expr {
	v := b.fx.newVar("input", t)
	v.Temp = true
	return &cfa.VarRef{Var: v}
}

func (b llInput) StdinState() cfa.Expr { return &cfa.VarRef{Var: b.fx.t.stdinState()} }

// branch continues at the current location when cond holds after the
// edge op (nil: only when cond holds; the other side ends, a terminal
// location, as an assumption does), or joins both sides after op on
// the true side.
func (fx *fnctx) branch(cond cfa.Expr, op cfa.Op) {
	yes, no := fx.node(), fx.node()
	fx.t.p.AddEdge(fx.cur, yes, &cfa.Assume{Cond: cond, Truth: true}, fx.pos, fx.text)
	fx.t.p.AddEdge(fx.cur, no, &cfa.Assume{Cond: cond, Truth: false}, fx.pos, fx.text)
	if op == nil {
		no.Terminal = true
		fx.cur = yes
		return
	}
	join := fx.node()
	fx.t.p.AddEdge(yes, join, op, fx.pos, fx.text)
	fx.t.p.AddEdge(no, join, &cfa.Noop{Label: "skip"}, fx.pos, fx.text)
	fx.cur = join
}

// cbmcAssert translates CBMC's __CPROVER_assert(c, msg) (and
// __CPROVER_precondition) as the C front end does: when c is false, a
// call of __assert_fail with msg, which ends the execution.
func (fx *fnctx) cbmcAssert(name string, in *ir.InstCall) {
	c := fx.value(in.Args[0])
	msg := cfa.Expr(&cfa.Const{T: fx.t.tm.ptr(cfa.CharType)})
	if m := fx.value(in.Args[1]); m != nil {
		msg = m
	}
	cp := fx.t.tm.ptr(cfa.CharType)
	ft := &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType, Params: []*cfa.Type{cp, cp, cfa.UIntType, cp}}
	fx.t.p.Externals["__assert_fail"] = ft
	ok, fail := fx.node(), fx.node()
	fx.t.p.AddEdge(fx.cur, ok, &cfa.Assume{Cond: c, Truth: true}, fx.pos, fx.text)
	fx.t.p.AddEdge(fx.cur, fail, &cfa.Assume{Cond: c, Truth: false}, fx.pos, fx.text)
	if name == "__CPROVER_precondition" {
		if fx.t.p.Preconditions == nil {
			fx.t.p.Preconditions = map[cfa.Pos]bool{}
		}
		fx.t.p.Preconditions[fx.pos.Start] = true
	}
	str := func(s string) cfa.Expr {
		lit := &cfa.StringLit{T: cfa.ArrayOf(cfa.CharType, int64(len(s))+1), Val: s}
		return &cfa.AddrOf{X: &cfa.Index{X: lit, I: cfa.NewConst(cfa.IntT, 0), T: cfa.CharType}, T: cp}
	}
	end := fx.node()
	end.Terminal = true
	fx.t.p.AddEdge(fail, end, &cfa.Call{Fn: "__assert_fail", Args: []cfa.Expr{conv(msg, cp), str(fx.pos.Start.File),
		cfa.NewConst(cfa.UIntType, int64(fx.pos.Start.Line)), str(fx.irf.Name())}, Pos: fx.pos.Start}, fx.pos, fx.text)
	fx.cur = ok
}

func (t *translator) hasBody(name string) bool {
	for _, f := range t.m.Funcs {
		if f.Name() == name && len(f.Blocks) > 0 {
			return true
		}
	}
	return false
}

var _ value.Value = (*ir.InstCall)(nil)

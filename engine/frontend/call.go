package frontend

import (
	"fmt"
	"path/filepath"
	"strings"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/ctypes"
)

// noreturnNames are functions known not to return (when they have no
// body), in addition to those declared _Noreturn or
// __attribute__((noreturn)).
var noreturnNames = map[string]bool{
	"abort": true, "exit": true, "_exit": true, "_Exit": true, "quick_exit": true,
	"__builtin_abort": true, "__builtin_exit": true, "__builtin_trap": true, "__builtin_unreachable": true,
	"__assert_fail": true, "__assert_perror_fail": true, "__assert": true, "__assert_rtn": true,
	"pthread_exit": true, "__VERIFIER_error": true,
}

// libcBuiltins are the C library functions whose __builtin_ forms (without
// body) are calls of the library function itself.
var libcBuiltins = map[string]bool{
	"abs": true, "labs": true, "llabs": true, "malloc": true, "calloc": true, "realloc": true, "free": true,
	"alloca": true, "memcpy": true, "memmove": true, "memset": true, "memcmp": true, "memchr": true,
	"strlen": true, "strcmp": true, "strncmp": true, "strcpy": true, "strncpy": true, "strcat": true,
	"strncat": true, "strchr": true, "strrchr": true, "strstr": true, "printf": true, "sprintf": true,
	"snprintf": true, "fprintf": true, "puts": true, "putchar": true, "abort": true, "exit": true,
	"ffs": true, "ffsl": true, "ffsll": true,
}

// unsupportedCalls maps functions (without body) whose effect the CFA
// cannot express to the construct named in the Unsupported edge.
var unsupportedCalls = map[string]string{
	"setjmp": "setjmp/longjmp", "_setjmp": "setjmp/longjmp", "__setjmp": "setjmp/longjmp",
	"sigsetjmp": "setjmp/longjmp", "__sigsetjmp": "setjmp/longjmp",
	"longjmp": "setjmp/longjmp", "_longjmp": "setjmp/longjmp", "siglongjmp": "setjmp/longjmp",
	"__longjmp_chk":    "setjmp/longjmp",
	"__builtin_setjmp": "setjmp/longjmp", "__builtin_longjmp": "setjmp/longjmp",
	"__builtin_va_start": "variadic arguments (va_list)", "__builtin_va_end": "variadic arguments (va_list)",
	"__builtin_va_arg_impl": "variadic arguments (va_list)", "__builtin_va_copy": "variadic arguments (va_list)",
	"__builtin_va_arg": "variadic arguments (va_list)",
}

// cbmcAsserts are CBMC's assertions with a description:
// __CPROVER_assert(c, "msg") and the contract checks
// __CPROVER_precondition and __CPROVER_postcondition, checked as
// assertions where they are called (as CBMC does).
var cbmcAsserts = map[string]bool{"__CPROVER_assert": true, "__CPROVER_precondition": true, "__CPROVER_postcondition": true}

// callee identifies a direct call: the declarator of the called function,
// or the name of an undeclared one.
func callee(n cc.ExpressionNode) (*cc.Declarator, string, bool) {
	n = ctypes.StripParens(n)
	for {
		u, ok := n.(*cc.UnaryExpression)
		if !ok || u.Case != cc.UnaryExpressionDeref {
			break
		}
		n = ctypes.StripParens(u.CastExpression)
	}
	p, ok := n.(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return nil, "", false
	}
	switch d := p.ResolvedTo().(type) {
	case *cc.Declarator:
		if d.Type().Kind() == cc.Function {
			return d, d.Name(), true
		}
		return nil, "", false
	case nil:
		return nil, p.Token.SrcStr(), true
	}
	return nil, "", false
}

func (fc *fnctx) symbolFor(d *cc.Declarator, name string) *funcSym {
	t := fc.t
	if d != nil {
		if s := t.funcOf(fc.u, d); s != nil {
			return s
		}
	}
	k := symKey{name, -1}
	if s := t.funcs[k]; s != nil {
		return s
	}
	typ := &cfa.Type{Kind: cfa.Func, Result: cfa.IntT}
	if d != nil {
		typ = t.tm.Typ(d.Type())
	}
	s := &funcSym{key: k, name: name, unit: fc.u, decl: d, typ: typ}
	t.funcs[k] = s
	t.fnList = append(t.fnList, s)
	if t.byName[name] == nil {
		t.byName[name] = s
	}
	t.names[name] = true
	return s
}

// call translates a function call. dst, when not nil, is an lvalue that
// may receive the result directly; tn is the node whose source the edge
// carries.
func (fc *fnctx) call(x *cc.PostfixExpression, want bool, dst cfa.Expr, tn cc.Node) cfa.Expr {
	var args []cc.ExpressionNode
	for l := x.ArgumentExpressionList; l != nil; l = l.ArgumentExpressionList {
		args = append(args, l.AssignmentExpression)
	}
	var s *funcSym
	var ft *cfa.Type
	var fnptr cfa.Expr
	if d, name, ok := callee(x.PostfixExpression); ok {
		s = fc.t.removedTarget(fc.symbolFor(d, name))
		fc.dupUse(s, x)
		if s.def == nil && strings.HasPrefix(s.key.name, "__CPROVER_file_local_") {
			if f := fc.t.fileLocal(s.key.name); f != nil {
				s = f
			}
		}
		if s.def == nil {
			if r, ok := fc.special(s, x, args, want, dst, tn); ok {
				return r
			}
		}
		ft = s.typ
	} else {
		fnptr = fc.rv(x.PostfixExpression)
		if a, ok := fnptr.(*cfa.AddrOf); ok {
			if r, ok := a.X.(*cfa.FuncRef); ok {
				s = fc.t.byName[r.Name]
				fnptr = nil
				ft = r.T
			}
		}
		if fnptr != nil {
			pt := fnptr.Type()
			if pt.Kind != cfa.Pointer || pt.Elem.Kind != cfa.Func {
				fc.unsupported("call of a non-function", x)
			}
			ft = pt.Elem
		}
	}
	if ft == nil || ft.Kind != cfa.Func {
		ft = &cfa.Type{Kind: cfa.Func, Result: cfa.IntT}
	}
	vals := make([]cfa.Expr, 0, len(args))
	for i, a := range args {
		v := fc.rv(a)
		if i < len(ft.Params) {
			v = fc.conv(v, ft.Params[i], a)
		} else {
			v = fc.argPromote(v, a)
		}
		vals = append(vals, v)
	}
	var res cfa.Expr
	if rt := ft.Result; want && rt != nil && rt.Kind != cfa.Void {
		if dst != nil && cfa.Same(dst.Type(), rt) {
			res = dst
		} else {
			res = fc.temp(rt)
		}
	}
	rng, text := fc.rt(tn)
	c := &cfa.Call{FnPtr: fnptr, Args: vals, Result: res, Pos: rng.Start}
	noret := false
	if s != nil {
		c.Fn = s.name
		if s.def == nil {
			if lib, ok := strings.CutPrefix(s.key.name, "__builtin_"); ok && libcBuiltins[lib] && (fc.t.byName[lib] == nil || fc.t.byName[lib].def == nil) {
				c.Fn = lib // gcc's __builtin_memcpy is memcpy
			}
			fc.t.p.Externals[c.Fn] = ft
			noret = s.noreturn || noreturnNames[s.key.name]
		}
	}
	if noret {
		if c.Fn == "exit" {
			fc.runAtexit(rng, text)
		}
		term := fc.b.node()
		fc.b.terminal[term] = true
		fc.b.edge(fc.cur, term, c, rng, text)
		fc.dead()
		return res
	}
	fc.emitAt(c, rng, text)
	if res != nil && fc.t.cfg.Malloc == MallocMayFail && (c.Fn == "malloc" || c.Fn == "calloc") && s != nil && s.def == nil {
		fc.mallocFail(res, rng, text)
	}
	return res
}

// mallocFail lets the block just allocated into res be NULL instead
// (Options.Malloc): a nondeterministic choice, then res = 0 on one branch.
// The block stays allocated and unreachable, which no property observes.
func (fc *fnctx) mallocFail(res cfa.Expr, rng cfa.Range, text string) {
	choice := fc.temp(cfa.IntT)
	fc.emitAt(&cfa.Havoc{LHS: choice, Source: "malloc-may-fail"}, rng, text)
	fail, join := fc.b.node(), fc.b.node()
	c := &cfa.Binary{Op: cfa.Ne, X: choice, Y: cfa.NewConst(cfa.IntT, 0), T: cfa.IntT}
	fc.branchAt(c, fail, join, rng, text)
	fc.cur = fail
	fc.emitAt(&cfa.Assign{LHS: res, RHS: cfa.NewConst(res.Type(), 0)}, rng, text)
	fc.b.join(fc.cur, join, "", rng, text)
	fc.cur = join
}

// fileLocal resolves a name CBMC's --export-file-local-symbols gives a
// static function, __CPROVER_file_local_<file>_<function> where <file> is
// the base name of its translation unit with every character other than
// a letter or digit replaced by '_' (core_http_client.c:
// core_http_client_c), to that function; nil if no static function with
// a body has that name.
func (t *translator) fileLocal(name string) *funcSym {
	for _, f := range t.fnList {
		if !f.static || f.def == nil || f.defUnit == nil {
			continue
		}
		if name == fileLocalName(f.defUnit.Name, f.key.name) {
			return f
		}
	}
	return nil
}

// fileLocalName is CBMC's name of the static function fn of the
// translation unit file (fileLocal).
func fileLocalName(file, fn string) string {
	base := []byte(filepath.Base(file))
	for i, c := range base {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			base[i] = '_'
		}
	}
	return "__CPROVER_file_local_" + string(base) + "_" + fn
}

// removedTarget returns what a call or the address of s designates: for
// a static function whose body REMOVE_FUNCTION_BODY removed
// (funcSym.removedAs), the function with a body of CBMC's name for it
// (a stub the proof defines under that name), else s itself, which has
// no body and is called by that name (so the proof's "assumed pure"
// applies to it).
func (t *translator) removedTarget(s *funcSym) *funcSym {
	if s == nil || s.removedAs == "" {
		return s
	}
	if g := t.funcs[symKey{s.removedAs, -1}]; g != nil && g.def != nil {
		return g
	}
	return s
}

// argPromote applies the default argument promotions (variadic and
// unprototyped arguments).
func (fc *fnctx) argPromote(v cfa.Expr, n cc.Node) cfa.Expr {
	t := v.Type()
	switch {
	case t.IsInteger():
		return promote(v)
	case t.Kind == cfa.Float && t.Bits < 64:
		return fc.conv(v, fc.t.tm.FloatType("double", 8, 8), n)
	}
	return v
}

// isStdin reports whether n is the identifier stdin (the C library's
// object, not a local of that name).
func isStdin(n cc.ExpressionNode) bool {
	p, ok := ctypes.StripParens(n).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent || p.Token.SrcStr() != "stdin" {
		return false
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	return ok && d.Linkage() == cc.External
}

// special translates calls to functions without body that have a meaning
// of their own (SV-COMP conventions, builtins, unsupported library calls).
func (fc *fnctx) special(s *funcSym, x *cc.PostfixExpression, args []cc.ExpressionNode, want bool, dst cfa.Expr, tn cc.Node) (cfa.Expr, bool) {
	name := s.key.name
	switch {
	case strings.HasPrefix(name, "__VERIFIER_nondet_") || strings.HasPrefix(name, "nondet_"):
		for _, a := range args {
			fc.effect(a)
		}
		suffix, ok := strings.CutPrefix(name, "__VERIFIER_nondet_")
		if !ok {
			suffix = strings.TrimPrefix(name, "nondet_")
		}
		t := fc.t.tm.NondetType(suffix)
		if s.decl != nil && s.typ.Kind == cfa.Func && s.typ.Result != nil && s.typ.Result.Kind != cfa.Void && !s.decl.IsSynthetic() {
			t = s.typ.Result
		}
		var lhs cfa.Expr
		if want && dst != nil && cfa.Same(dst.Type(), t) {
			lhs = dst
		} else {
			lhs = fc.temp(t)
		}
		ext := s.typ
		if ext.Kind != cfa.Func || ext.Result == nil || !cfa.Same(ext.Result, t) {
			ext = &cfa.Type{Kind: cfa.Func, Result: t}
		}
		fc.t.p.Externals[s.name] = ext
		fc.emit(&cfa.Havoc{LHS: lhs, Source: name}, tn)
		return lhs, true
	case cfa.StdinByte(name, len(args) == 1 && isStdin(args[0])) && (s.typ.Kind != cfa.Func || s.typ.Result == nil || s.typ.Result.IsInteger()):
		// A byte of standard input or EOF (C11 7.21.7.1, 7.21.7.6): an
		// input of int in [EOF, UCHAR_MAX]; once it has returned EOF
		// the end-of-file indicator is set and it returns EOF again
		// (cfa.StdinRead, the program's one flag of stdin). Reading
		// changes nothing else the program can see.
		for _, a := range args {
			fc.effect(a)
		}
		if s.typ.Kind == cfa.Func {
			fc.t.p.Externals[s.name] = s.typ
		}
		rng, text := fc.rt(tn)
		c := cfa.StdinRead(cInput{fc, rng, text}, name)
		return c, true
	case fc.inputModel(s, len(args)) != nil:
		return fc.input(s, args, tn), true
	case modelled(fc.scanfConvs(s, args)):
		return fc.scanf(s, args, tn), true
	case fc.sscanfConvs(s, args) != nil:
		return fc.sscanf(s, args, tn), true
	case s.typ.Kind == cfa.Func && len(args) == 3 && cfa.ReadCall(name, s.typ.Result, s.typ.Params):
		return fc.read(s, args, tn), true
	case cfa.StdinCall(name, len(args), len(args) >= 3 && isStdin(args[len(args)-1]), len(args) == 4 && isConstOne(args[1])) && fc.stdinCallTypes(s):
		return fc.stdinCall(s, args, tn), true
	case name == snapshotFunc && len(args) == 0:
		fc.snapshot(tn)
		return nil, true
	case name == oldFunc && len(args) == 1:
		return fc.old(args[0], tn), true
	case name == "__VERIFIER_assume" || name == "__CPROVER_assume":
		if name == "__VERIFIER_assume" {
			fc.t.p.Externals[s.name] = s.typ
		}
		if len(args) == 0 {
			return nil, true
		}
		term, next := fc.b.node(), fc.b.node()
		fc.b.terminal[term] = true
		fc.cond(args[0], next, term)
		fc.cur = next
		return nil, true
	case name == unsupportedFunc && len(args) == 1:
		// a construct of a contract the checks do not model (generated
		// text): what it reaches is UNKNOWN, naming it
		msg, _ := stringLitArg(args[0])
		fc.emit(&cfa.Unsupported{Construct: msg}, tn)
		return nil, true
	case name == contractCheckFunc && len(args) == 2:
		// a contract's obligation (generated text): checked without
		// blocking
		msg, _ := stringLitArg(args[1])
		fc.contractAssert(args[0], msg, tn)
		return nil, true
	case name == "assert" && len(args) == 1, cbmcAsserts[name] && len(args) == 2:
		next, fail := fc.b.node(), fc.b.node()
		if name == "assert" {
			fc.cond(args[0], next, fail)
		} else {
			// the property stays, UNKNOWN, when its condition is unsupported
			fc.guardCond(args[0], next, fail)
		}
		fc.cur = fail
		rng, text := fc.rt(tn)
		_, ctext := fc.rt(args[0])
		if len(args) == 2 {
			// CBMC's description of the property, when a string literal
			if msg, ok := stringLitArg(args[1]); ok && strings.TrimSpace(msg) != "" {
				ctext = msg
			} else {
				fc.effect(args[1])
			}
		}
		fn := ""
		if fc.sym != nil {
			fn = fc.sym.key.name
		}
		cp := fc.t.tm.Ptr(cfa.CharType)
		ft := &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType, Params: []*cfa.Type{cp, cp, cfa.UIntType, cp}}
		fc.t.p.Externals["__assert_fail"] = ft
		term := fc.b.node()
		fc.b.terminal[term] = true
		if name == "__CPROVER_precondition" {
			if fc.t.p.Preconditions == nil {
				fc.t.p.Preconditions = map[cfa.Pos]bool{}
			}
			fc.t.p.Preconditions[rng.Start] = true
		}
		fc.b.edge(fc.cur, term, &cfa.Call{Fn: "__assert_fail", Args: []cfa.Expr{
			fc.decay(strLit(ctext)), fc.decay(strLit(rng.Start.File)), cfa.NewConst(cfa.UIntType, int64(rng.Start.Line)), fc.decay(strLit(fn)),
		}, Pos: rng.Start}, rng, text)
		fc.cur = next
		return nil, true
	case cfa.MemoryQueries[name] != 0:
		return fc.memoryQuery(name, x, args, tn), true
	case name == "__CPROVER_havoc_object" && len(args) == 1:
		// CBMC gives p's whole object any contents: a call of the
		// function without a body, unmodelled (cfa.ExternUnmodelled: it
		// may write everything reachable from p, and more)
		v := fc.rv(args[0])
		if v.Type().Kind != cfa.Pointer {
			fc.unsupported(name+" of a non-pointer", args[0])
		}
		vp := fc.t.tm.Ptr(cfa.VoidType)
		fc.t.p.Externals[name] = &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType, Params: []*cfa.Type{vp}}
		rng, text := fc.rt(tn)
		fc.emitAt(&cfa.Call{Fn: name, Args: []cfa.Expr{fc.conv(v, vp, args[0])}, Pos: rng.Start}, rng, text)
		return nil, true
	case name == cfa.HavocSlice && len(args) == 2:
		// CBMC gives the n bytes from p any contents (cfa.HavocSlice)
		v, n := fc.rv(args[0]), fc.rv(args[1])
		if v.Type().Kind != cfa.Pointer {
			fc.unsupported(name+" of a non-pointer", args[0])
		}
		if !n.Type().IsInteger() {
			fc.unsupported(name+" with a non-integer size", args[1])
		}
		vp := fc.t.tm.Ptr(cfa.VoidType)
		st := fc.t.tm.SizeT()
		fc.t.p.Externals[name] = &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType, Params: []*cfa.Type{vp, st}}
		rng, text := fc.rt(tn)
		fc.emitAt(&cfa.Call{Fn: name, Args: []cfa.Expr{fc.conv(v, vp, args[0]), fc.conv(n, st, args[1])}, Pos: rng.Start}, rng, text)
		return nil, true
	case byteSwaps[name] != 0 && len(args) == 1:
		return fc.byteSwap(byteSwaps[name], x, args[0]), true
	case isCBMCOverflow(name) && len(args) == 2:
		return fc.overflowCheck(name, x, args[0], args[1]), true
	case name == "__builtin_expect" && len(args) >= 1:
		v := fc.rv(args[0])
		for _, a := range args[1:] {
			fc.effect(a)
		}
		return v, true
	case strings.HasPrefix(name, "__builtin_") && len(args) == 1 && fc.isBitBuiltin(name):
		op, w, _ := fc.bitBuiltin(name)
		return fc.bitCount(name, op, w, x, args[0]), true // cbmc_builtins.go
	case strings.HasPrefix(name, "__builtin_") && len(args) == 3 && fc.isOverflowBuiltin(name):
		op, typed, _ := fc.overflowBuiltin(name)
		return fc.checkedArith(name, op, typed, x, args), true
	case name == "posix_memalign" && len(args) == 3:
		return fc.posixMemalign(x, args), true
	case strings.HasPrefix(name, "__atomic_") || strings.HasPrefix(name, "__sync_") || strings.HasPrefix(name, "__c11_atomic_"):
		fc.unsupported("atomic operation", x)
	}
	if what, ok := unsupportedCalls[name]; ok {
		fc.unsupported(what, x)
	}
	if strings.HasPrefix(name, "__CPROVER_") && !cfa.Uninterpreted(name) {
		// the quantifier shapes lowerQuantifier does not know, …
		fc.unsupported(name, x)
	}
	return nil, false
}

// stringLitArg returns the value of a string literal argument (in
// parentheses or not, without its NUL).
func stringLitArg(n cc.ExpressionNode) (string, bool) {
	p, ok := ctypes.StripParens(n).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionString {
		return "", false
	}
	s, ok := p.Value().(cc.StringValue)
	if !ok {
		return "", false
	}
	return strings.TrimSuffix(string(s), "\x00"), true
}

func strLit(s string) *cfa.StringLit {
	return &cfa.StringLit{T: cfa.ArrayOf(cfa.CharType, int64(len(s))+1), Val: s}
}

// cbmcOverflow maps CBMC's overflow predicates to the operation whose
// overflow they test.
var cbmcOverflow = map[string]cfa.BinaryOp{
	"__CPROVER_overflow_plus": cfa.Add, "__CPROVER_overflow_minus": cfa.Sub, "__CPROVER_overflow_mult": cfa.Mul,
}

func isCBMCOverflow(name string) bool { _, ok := cbmcOverflow[name]; return ok }

// overflowCheck translates __CPROVER_overflow_plus/minus/mult(a, b):
// whether a op b, computed in the type of the usual arithmetic conversions
// of a and b (CBMC's c_typecheck: implicit_typecast_arithmetic), falls
// outside that type's range (cfa.Overflow). Operands that are not
// integers, or wider than 64 bits, are unsupported.
func (fc *fnctx) overflowCheck(name string, n cc.Node, an, bn cc.ExpressionNode) cfa.Expr {
	op := cbmcOverflow[name]
	a, b := fc.rv(an), fc.rv(bn)
	if !a.Type().IsInteger() || !b.Type().IsInteger() {
		fc.unsupported(name+" of non-integer operands", n)
	}
	c := cfa.UsualArithmetic(ctypes.Promoted(a.Type()), ctypes.Promoted(b.Type()))
	w := c.Width()
	if w > 64 {
		fc.unsupported(name+" of operands wider than 64 bits", n)
	}
	return fc.overflowIn(op, fc.conv(a, c, n), fc.conv(b, c, n), c, n)
}

// overflowIn is overflowCheck's condition on a and b already of the
// integer type c (at most 64 bits): whether a op b leaves c's range, as
// an int 0 or 1 (cfa.Overflow, shared with the LLVM front end).
func (fc *fnctx) overflowIn(op cfa.BinaryOp, a, b cfa.Expr, c *cfa.Type, n cc.Node) cfa.Expr {
	return cfa.Overflow(op, a, b, c, func(x cfa.Expr, t *cfa.Type) cfa.Expr { return fc.conv(x, t, n) })
}

// byteSwaps are the byte-order functions, by the width they swap: on the
// little-endian targets of the data models (x86), host to network order
// and back reverse the bytes.
var byteSwaps = map[string]int{
	"htonl": 32, "ntohl": 32, "htons": 16, "ntohs": 16,
	"__builtin_bswap16": 16, "__builtin_bswap32": 32, "__builtin_bswap64": 64,
}

// byteSwap translates a call of a byte-order function without a body:
// the argument converted to the unsigned type of w bits, its bytes
// reversed by shifts and masks (computed in at least 32 bits), the result
// of that unsigned type.
func (fc *fnctx) byteSwap(w int, n cc.Node, an cc.ExpressionNode) cfa.Expr {
	a := fc.rv(an)
	if !a.Type().IsInteger() {
		fc.unsupported("byte swap of a non-integer", n)
	}
	u := cfa.IntType(w, false)
	ct := u
	if w < 32 {
		ct = cfa.IntType(32, false)
	}
	x := fc.conv(fc.conv(a, u, n), ct, n)
	r := cfa.ByteSwap(x, w)
	return fc.conv(r, u, n)
}

// memoryQuery translates a call of one of CBMC's memory primitives
// (cfa.MemoryQueries: __CPROVER_r_ok, w_ok, rw_ok, same_object,
// POINTER_OBJECT, POINTER_OFFSET) to a Call edge of the function without
// a body, whatever the harness declared: pointer arguments converted to
// void *, the size to size_t, the result a fresh temporary of CBMC's type
// (_Bool for the predicates, size_t for POINTER_OBJECT, the signed
// ptrdiff_t for POINTER_OFFSET). A call with another number of arguments,
// or a non-pointer where a pointer is expected, is unsupported.
func (fc *fnctx) memoryQuery(name string, x *cc.PostfixExpression, args []cc.ExpressionNode, tn cc.Node) cfa.Expr {
	if len(args) != cfa.MemoryQueries[name] {
		fc.unsupported(fmt.Sprintf("%s with %d arguments", name, len(args)), x)
	}
	vp := fc.t.tm.Ptr(cfa.VoidType)
	ft := &cfa.Type{Kind: cfa.Func, Result: cfa.BoolType, Params: []*cfa.Type{vp, fc.t.tm.SizeT()}}
	switch name {
	case "__CPROVER_same_object":
		ft.Params = []*cfa.Type{vp, vp}
	case "__CPROVER_POINTER_OBJECT":
		ft.Result, ft.Params = fc.t.tm.SizeT(), []*cfa.Type{vp}
	case "__CPROVER_POINTER_OFFSET":
		ft.Result, ft.Params = fc.t.tm.PtrdiffT(), []*cfa.Type{vp}
	}
	vals := make([]cfa.Expr, len(args))
	for i, a := range args {
		v := fc.rv(a)
		if ft.Params[i].Kind == cfa.Pointer && v.Type().Kind != cfa.Pointer {
			fc.unsupported(fmt.Sprintf("%s of a non-pointer", name), a)
		}
		if ft.Params[i].Kind != cfa.Pointer && !v.Type().IsInteger() {
			fc.unsupported(fmt.Sprintf("%s with a non-integer size", name), a)
		}
		vals[i] = fc.conv(v, ft.Params[i], a)
	}
	res := fc.temp(ft.Result)
	fc.t.p.Externals[name] = ft
	rng, text := fc.rt(tn)
	fc.emitAt(&cfa.Call{Fn: name, Args: vals, Result: res, Pos: rng.Start}, rng, text)
	return res
}

// inputModel returns the model of a call of s with nargs arguments when
// s is one of the C library's input functions (cfa.InputCall: rand,
// random, time, clock), else nil. time is modelled only when its
// declaration gives its pointer parameter, so that the argument's value
// is a pointer.
func (fc *fnctx) inputModel(s *funcSym, nargs int) *cfa.InputModel {
	res := cfa.IntT
	if s.typ.Kind == cfa.Func {
		res = s.typ.Result
	}
	m, ok := cfa.InputCall(s.key.name, res, nargs)
	if !ok {
		return nil
	}
	if m.Store && (s.typ.Kind != cfa.Func || len(s.typ.Params) < 1 || s.typ.Params[0].Kind != cfa.Pointer) {
		return nil
	}
	return &m
}

// input translates a call of an input function (cfa.InputCall) by its
// model: its value, a fresh temporary, is returned.
func (fc *fnctx) input(s *funcSym, args []cc.ExpressionNode, tn cc.Node) cfa.Expr {
	m := fc.inputModel(s, len(args))
	res := cfa.IntT
	if s.typ.Kind == cfa.Func {
		fc.t.p.Externals[s.name] = s.typ
		res = s.typ.Result
	}
	vals := make([]cfa.Expr, len(args))
	for i, a := range args {
		vals[i] = fc.conv(fc.rv(a), s.typ.Params[i], a)
	}
	c := fc.temp(res)
	rng, text := fc.rt(tn)
	if !m.Emit(cInput{fc, rng, text}, c, vals) {
		fc.unsupported("call of "+s.key.name, tn)
	}
	return c
}

// scanfConvs returns the conversions of a call of scanf, or of fscanf
// on stdin, that cfa.ScanfCall models (a string literal format of
// numeric conversions, each argument a pointer to an integer of the
// conversion's width), else nil, and the call's arguments from the
// format on (fscanf's stream, stdin, dropped).
func (fc *fnctx) scanfConvs(s *funcSym, args []cc.ExpressionNode) ([]cfa.ScanfConv, []cc.ExpressionNode) {
	onStdin := false
	if cfa.ScanfStream(s.key.name) {
		if len(args) == 0 {
			return nil, nil
		}
		onStdin, args = isStdin(args[0]), args[1:]
	}
	if len(args) < 2 {
		return nil, nil
	}
	format, ok := stringLitArg(args[0])
	types := make([]*cfa.Type, len(args)-1)
	for i, a := range args[1:] {
		types[i] = fc.t.tm.Typ(a.Type())
	}
	convs, ok := cfa.ScanfCall(s.key.name, onStdin, format, ok, types, fc.t.p.DataModel)
	if !ok {
		return nil, nil
	}
	return convs, args
}

// modelled reports whether scanfConvs found conversions it models.
func modelled(convs []cfa.ScanfConv, _ []cc.ExpressionNode) bool { return convs != nil }

// scanf translates a call of scanf, or of fscanf on stdin, by its
// model (cfa.EmitScanf): its value, a fresh temporary of int, is
// returned.
func (fc *fnctx) scanf(s *funcSym, args []cc.ExpressionNode, tn cc.Node) cfa.Expr {
	convs, args := fc.scanfConvs(s, args)
	fc.t.p.Externals[s.name] = s.typ
	vals, r := fc.scanfOperands(s, args[1:])
	rng, text := fc.rt(tn)
	cfa.EmitScanf(cInput{fc, rng, text}, r, vals, convs)
	return r
}

// scanfOperands evaluates the pointer arguments ptrs of a call of a
// function of scanf's family s and returns their values and a fresh
// temporary for the call's value (of s's declared integer result type,
// else int).
func (fc *fnctx) scanfOperands(s *funcSym, ptrs []cc.ExpressionNode) ([]cfa.Expr, cfa.Expr) {
	vals := make([]cfa.Expr, len(ptrs))
	for i, a := range ptrs {
		vals[i] = fc.rv(a)
	}
	res := cfa.IntT
	if s.typ.Kind == cfa.Func && s.typ.Result != nil && s.typ.Result.IsInteger() {
		res = s.typ.Result
	}
	return vals, fc.temp(res)
}

// sscanfConvs returns the conversions of a call of sscanf that
// cfa.SscanfCall models, when the program has the model's helpers (the
// unit of engine/frontend/cmodel's decimal conversions), else nil.
func (fc *fnctx) sscanfConvs(s *funcSym, args []cc.ExpressionNode) []cfa.ScanfConv {
	if h := fc.t.byName[cfa.SscanfNum]; h == nil || h.def == nil || len(args) < 3 {
		return nil
	}
	format, ok := stringLitArg(args[1])
	types := make([]*cfa.Type, len(args)-2)
	for i, a := range args[2:] {
		types[i] = fc.t.tm.Typ(a.Type())
	}
	convs, _ := cfa.SscanfCall(s.key.name, format, ok, types, fc.t.p.DataModel)
	return convs
}

// sscanf translates a call of sscanf by its model (cfa.EmitSscanf,
// calling the helpers of the model's unit): its value, a fresh
// temporary of int, is returned.
func (fc *fnctx) sscanf(s *funcSym, args []cc.ExpressionNode, tn cc.Node) cfa.Expr {
	convs := fc.sscanfConvs(s, args)
	str := fc.rv(args[0])
	vals, r := fc.scanfOperands(s, args[2:])
	rng, text := fc.rt(tn)
	cfa.EmitSscanf(cInput{fc, rng, text}, r, str, vals, convs, func(name string, xs []cfa.Expr, result cfa.Expr) {
		h := fc.t.byName[name]
		for i := range xs {
			xs[i] = fc.conv(xs[i], h.typ.Params[i], tn)
		}
		fc.emitAt(&cfa.Call{Fn: h.name, Args: xs, Result: result, Pos: rng.Start}, rng, text)
	})
	return r
}

// read translates a call of POSIX read whose declaration fits
// (cfa.ReadCall) by its model (cfa.EmitRead): its value, a fresh
// temporary, is returned.
func (fc *fnctx) read(s *funcSym, args []cc.ExpressionNode, tn cc.Node) cfa.Expr {
	fc.t.p.Externals[s.name] = s.typ
	vals := make([]cfa.Expr, len(args))
	for i, a := range args {
		vals[i] = fc.conv(fc.rv(a), s.typ.Params[i], a)
	}
	r := fc.temp(s.typ.Result)
	rng, text := fc.rt(tn)
	cfa.EmitRead(cInput{fc, rng, text}, r, vals)
	return r
}

// cInput is the C front end's cfa.InputBuilder: edges from the current
// location; its operations carry the call's source range, its
// conditions none (they are the model's, not a branch of the source,
// and witnesses give no branching waypoints for them).
type cInput struct {
	fc   *fnctx
	rng  cfa.Range
	text string
}

func (b cInput) Op(op cfa.Op) { b.fc.emitAt(op, b.rng, b.text) }

func (b cInput) Assume(c cfa.Expr) {
	fc := b.fc
	term, next := fc.b.node(), fc.b.node()
	fc.b.terminal[term] = true
	fc.branchAt(c, next, term, cfa.Range{}, "")
	fc.cur = next
}

func (b cInput) If(c cfa.Expr, then, els func()) {
	fc := b.fc
	yes, no, join := fc.b.node(), fc.b.node(), fc.b.node()
	fc.branchAt(c, yes, no, cfa.Range{}, "")
	fc.cur = yes
	then()
	fc.b.join(fc.cur, join, "skip", cfa.Range{}, "")
	fc.cur = no
	if els != nil {
		els()
	}
	fc.b.join(fc.cur, join, "skip", cfa.Range{}, "")
	fc.cur = join
}

func (b cInput) While(c cfa.Expr, body func()) {
	fc := b.fc
	head, in, out := fc.b.node(), fc.b.node(), fc.b.node()
	fc.b.join(fc.cur, head, "loop", cfa.Range{}, "")
	fc.cur = head
	fc.branchAt(c, in, out, cfa.Range{}, "")
	fc.cur = in
	body()
	fc.b.join(fc.cur, head, "loop", cfa.Range{}, "")
	fc.cur = out
}

func (b cInput) Temp(t *cfa.Type) cfa.Expr { return b.fc.temp(t) }

func (b cInput) StdinState() cfa.Expr { return &cfa.VarRef{Var: b.fc.t.stdinState()} }

// isConstOne reports whether n is an integer constant expression of
// value 1 (fread's element size).
func isConstOne(n cc.ExpressionNode) bool {
	v, ok := intValue(n.Value())
	return ok && v == 1
}

// stdinCallTypes reports whether s's declaration gives the parameters
// and result cfa.EmitStdinCall needs: a pointer buffer, an integer
// count, a pointer (fgets) or integer (fread) result.
func (fc *fnctx) stdinCallTypes(s *funcSym) bool {
	t := s.typ
	if t.Kind != cfa.Func || t.Result == nil || len(t.Params) < 3 || t.Params[0].Kind != cfa.Pointer {
		return false
	}
	if strings.HasPrefix(s.key.name, "fgets") {
		return t.Params[1].IsInteger() && t.Result.Kind == cfa.Pointer
	}
	return len(t.Params) == 4 && t.Params[2].IsInteger() && t.Result.IsInteger()
}

// stdinCall translates a read of a block of standard input
// (cfa.StdinCall: fgets, fread of stdin) by its model, byte by byte.
func (fc *fnctx) stdinCall(s *funcSym, args []cc.ExpressionNode, tn cc.Node) cfa.Expr {
	fc.t.p.Externals[s.name] = s.typ
	vals := make([]cfa.Expr, len(args))
	for i, a := range args {
		vals[i] = fc.conv(fc.rv(a), s.typ.Params[i], a)
	}
	r := fc.temp(s.typ.Result)
	rng, text := fc.rt(tn)
	cfa.EmitStdinCall(cInput{fc, rng, text}, s.key.name, r, vals)
	return r
}

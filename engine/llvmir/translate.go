package llvmir

import (
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/llir/llvm/asm"
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/value"

	"github.com/reverify/reverify/engine/cfa"
)

// Options are the options of a translation.
type Options struct {
	// DataModel is used when the module names no target (no triple and
	// no pointer width in its data layout); a module's own target
	// decides otherwise, since its types are laid out for it.
	DataModel cfa.DataModel
	// Sources maps the file names of the debug information to readable
	// paths, for the source text of edges (Edge.Text). Files not listed
	// are read by their own names when they exist.
	Sources map[string]string
	// Files are the C files the module was compiled from, as the user
	// named them: positions in them use these names.
	Files []string
	// Names maps absolute paths of debug files to the names positions
	// give them (files compiled from a temporary copy of a repository,
	// named by their repository paths); it wins over Files.
	Names map[string]string
	// MallocMayFail lets malloc and calloc (without a body) return NULL,
	// as the C front end's frontend.MallocMayFail does; MallocAuto (the
	// zero value) does when the module names CBMC's builtins
	// (__CPROVER_…), as CBMC's harness dialect assumes.
	Malloc MallocMode
	// Unfolded keeps one edge per instruction, every register a
	// variable, as seed 000's figure 23 draws the CFA. By default a
	// value read only once, later in its own block, is folded into its
	// use, so that the edges read as C statements (x = x - 1, not three
	// edges through two registers): fewer states, and no precision on
	// registers (fold.go).
	Unfolded bool
}

// MallocMode says whether malloc and calloc may fail (Options.Malloc),
// with the values of frontend.MallocMode.
type MallocMode uint8

// Malloc modes.
const (
	MallocAuto MallocMode = iota
	MallocMayFail
	MallocNeverFails
)

// TranslateText parses the textual LLVM IR text (name is its file name,
// for positions) and translates it into a program: the CFA of each
// defined function, built as seed 000 (000_f76fde50ed4a4828.txt,
// section 3.4, "LLVM Front-end in CPACHECKER") builds it. Each basic
// block is a chain of edges, one per instruction; blocks are linked by a
// no-op edge for an unconditional branch and two assume edges for a
// conditional one; select becomes a branch and phi becomes assignments
// on the incoming edges. Registers are local variables; allocas whose
// address is only loaded from and stored to are plain local variables
// (the C variable they come from, by its debug name), the others are
// variables whose address is taken. Global variables are initialised in
// Program.Init as their initialisers say.
//
// Errors: a parse error (file:line from the LLVM parser), and one line
// per construct the mapping cannot express (vectors, exceptions,
// atomics, types other than integers, float, double, pointers, arrays
// and structs), each with its instruction and position. Constructs
// whose meaning is known but not modelled (inline assembly, intrinsics
// without a C counterpart, variable-length allocas) become
// cfa.Unsupported edges: what they reach is UNKNOWN.
func TranslateText(opts Options, name, text string) (*cfa.Program, error) {
	if opts.Malloc == MallocAuto {
		opts.Malloc = MallocNeverFails
		if strings.Contains(text, "@__CPROVER_") {
			opts.Malloc = MallocMayFail
		}
	}
	text, modelLine := withAtexit(text)
	m, err := parse(name, text)
	if err != nil {
		return nil, err
	}
	p, err := translate(opts, m, name, text, modelLine)
	if p != nil {
		p.CBMC = strings.Contains(text, "@__CPROVER_")
	}
	return p, err
}

// parse parses textual IR. The parser panics on constructs it does not
// implement (a constant expression as a getelementptr index in v0.3.6):
// that is an error naming the file, not a crash.
func parse(name, text string) (m *ir.Module, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("%s: the LLVM IR parser cannot read this module: %v", name, r)
		}
	}()
	m, err = asm.ParseString(name, text)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return m, nil
}

// translate translates the parsed module m, whose text (for positions
// of modules without debug information) is text, read from file name;
// the atexit model starts at line modelLine of text (0: none).
func translate(opts Options, m *ir.Module, name, text string, modelLine int) (*cfa.Program, error) {
	model := opts.DataModel
	switch {
	case strings.HasPrefix(m.TargetTriple, "i386"), strings.HasPrefix(m.TargetTriple, "i686"):
		model = cfa.ILP32
	case strings.HasPrefix(m.TargetTriple, "x86_64"):
		model = cfa.LP64
	case m.TargetTriple != "":
		return nil, fmt.Errorf("%s: target %s: only x86_64 (LP64) and i386 (ILP32) modules are read", name, m.TargetTriple)
	}
	l := parseLayout(m.DataLayout, model)
	if l.ptrBits != model.PointerBits() {
		if l.ptrBits == 32 {
			model = cfa.ILP32
		} else {
			model = cfa.LP64
		}
	}
	t := &translator{
		opts:    opts,
		m:       m,
		name:    name,
		p:       cfa.NewProgram(model),
		tm:      newTypeMap(l),
		globals: map[*ir.Global]*cfa.Var{},
		strs:    map[*ir.Global]*cfa.StringLit{},
		src:     newSources(opts, name, text, m, modelLine),
	}
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				if c, ok := in.(*ir.InstCall); ok {
					if g, ok := stripCasts(c.Callee).(*ir.Func); ok && g.Name() == "main" {
						t.callsMain = true
					}
				}
			}
		}
	}
	t.p.Files = []string{name}
	return t.run()
}

type translator struct {
	opts     Options
	m        *ir.Module
	name     string
	p        *cfa.Program
	tm       *typeMap
	globals  map[*ir.Global]*cfa.Var
	strs     map[*ir.Global]*cfa.StringLit // private constant C strings
	src      *sources
	errs     []string
	names    map[string]bool
	init     *builder // Init, open until the functions are translated
	stdinVar *cfa.Var // the state of standard input (stdinState)
	// callsMain: the module calls main (the atexit model then cannot
	// run the registered functions at main's returns)
	callsMain bool
}

func (t *translator) errorf(pos cfa.Pos, format string, args ...any) {
	t.errs = append(t.errs, fmt.Sprintf("%s: %s", pos, fmt.Sprintf(format, args...)))
}

// final reports whether a definition with linkage l is the one a link
// keeps: weak and link-once definitions may be replaced by another
// module's, and available_externally ones are copies of another's.
func final(l enum.Linkage) bool {
	switch l {
	case enum.LinkageWeak, enum.LinkageWeakODR, enum.LinkageLinkOnce, enum.LinkageLinkOnceODR,
		enum.LinkageExternWeak, enum.LinkageAvailableExternally:
		return false
	}
	return true
}

func (t *translator) run() (*cfa.Program, error) {
	t.names = map[string]bool{}
	// functions: bodies to translate, declarations as externals
	var bodies []*ir.Func
	for _, f := range t.m.Funcs {
		if strings.HasPrefix(f.Name(), "llvm.") {
			continue
		}
		ft, err := t.tm.of(f.Sig)
		if err != nil {
			t.errorf(t.src.funcPos(f), "function %s: %v", f.Name(), err)
			continue
		}
		if len(f.Blocks) == 0 || !final(f.Linkage) {
			t.p.Externals[f.Name()] = ft
		}
		if len(f.Blocks) > 0 {
			bodies = append(bodies, f)
		}
	}
	if len(t.errs) > 0 {
		return nil, errors.New(strings.Join(t.errs, "\n"))
	}
	t.globalVars()
	init := newBuilder(t, t.p.Init, nil)
	t.init = init
	t.initGlobals(init)
	t.registerDestructors(init)
	names := map[*ir.Func]string{}
	for _, f := range bodies {
		name := f.Name()
		if !final(f.Linkage) {
			// a body a link may replace: checked as its own function,
			// unmodelled at its calls (as engine/frontend's weak
			// definitions)
			name += ".weak"
		}
		names[f] = name
		t.function(f, name)
	}
	t.defs(bodies, names)
	t.constructors(init)
	init.finish(t.p.Init)
	if len(t.errs) > 0 {
		return nil, errors.New(strings.Join(t.errs, "\n"))
	}
	t.p.Finish()
	return t.p, nil
}

// globalVars declares the module's global variables: a private or
// internal constant array of i8 holding a C string is a string literal
// (its address is what assert.h passes); the others are variables.
func (t *translator) globalVars() {
	use := t.globalUses()
	for _, g := range t.m.Globals {
		if strings.HasPrefix(g.Name(), "llvm.") {
			continue
		}
		if ca, ok := g.Init.(*constant.CharArray); ok && g.Immutable && (g.Linkage == enum.LinkagePrivate || g.Linkage == enum.LinkageInternal) {
			if n := len(ca.X); n > 0 && ca.X[n-1] == 0 && !strings.ContainsRune(string(ca.X[:n-1]), 0) {
				st, _ := t.tm.of(g.ContentType)
				t.strs[g] = &cfa.StringLit{T: st, Val: string(ca.X[:n-1])}
				continue
			}
		}
		ct, err := t.tm.of(g.ContentType)
		if err != nil {
			t.errorf(t.src.globalPos(g), "global %s: %v", g.Name(), err)
			continue
		}
		v := t.p.NewVar(nil, t.uniqueName(g.Name()), ct)
		v.Orig = t.src.globalName(g)
		v.AddrTaken = ct.Kind == cfa.Array || use[g].escapes
		v.Volatile = !v.AddrTaken && use[g].volatile && !use[g].plainLoad
		v.Pos = t.src.globalPos(g)
		t.globals[g] = v
	}
}

// globalUse is how a module uses a global variable: whether its
// address escapes (is anything but the address of a load or store of
// its own type, or appears in a constant), and whether it is loaded
// with and without volatile.
type globalUse struct{ escapes, volatile, plainLoad bool }

func (t *translator) globalUses() map[*ir.Global]*globalUse {
	use := map[*ir.Global]*globalUse{}
	for _, g := range t.m.Globals {
		use[g] = &globalUse{}
	}
	var escape func(v value.Value)
	escape = func(v value.Value) {
		switch v := v.(type) {
		case *ir.Global:
			if u := use[v]; u != nil {
				u.escapes = true
			}
		case constant.Constant:
			walkConst(v, func(g *ir.Global) {
				if u := use[g]; u != nil {
					u.escapes = true
				}
			})
		}
	}
	for _, g := range t.m.Globals {
		if g.Init != nil {
			escape(g.Init)
		}
	}
	for _, f := range t.m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				switch in := in.(type) {
				case *ir.InstLoad:
					if g, ok := in.Src.(*ir.Global); ok && in.ElemType.Equal(g.ContentType) && !in.Atomic {
						if in.Volatile {
							use[g].volatile = true
						} else {
							use[g].plainLoad = true
						}
						continue
					}
				case *ir.InstStore:
					escape(in.Src)
					if g, ok := in.Dst.(*ir.Global); ok && in.Src.Type().Equal(g.ContentType) && !in.Atomic {
						continue
					}
				case *ir.InstCall:
					if isDbg(in) {
						continue
					}
				}
				for _, op := range in.Operands() {
					v := *op
					if a, ok := v.(*ir.Arg); ok {
						v = a.Value
					}
					escape(v)
				}
			}
			for _, op := range b.Term.Operands() {
				escape(*op)
			}
		}
	}
	return use
}

// walkConst calls f on every global a constant refers to.
func walkConst(c constant.Constant, f func(*ir.Global)) {
	switch c := c.(type) {
	case *ir.Global:
		f(c)
	case *constant.Array:
		for _, e := range c.Elems {
			walkConst(e, f)
		}
	case *constant.Struct:
		for _, e := range c.Fields {
			walkConst(e, f)
		}
	case *constant.Index:
		walkConst(c.Constant, f)
	default:
		if x, ok := c.(interface{ Operands() []*value.Value }); ok {
			for _, op := range x.Operands() {
				if k, ok := (*op).(constant.Constant); ok {
					walkConst(k, f)
				}
			}
		}
	}
}

// stdinState is the global of the state of standard input
// (cfa.StdinState), declared and zeroed in Init on first use.
func (t *translator) stdinState() *cfa.Var {
	if t.stdinVar == nil {
		v := t.p.NewVar(nil, t.uniqueName(cfa.StdinState), cfa.IntT)
		t.init.edge(&cfa.Decl{Var: v}, cfa.Range{}, "")
		t.init.edge(&cfa.Assign{LHS: &cfa.VarRef{Var: v}, RHS: cfa.NewConst(cfa.IntT, cfa.StdinOpen)}, cfa.Range{}, "")
		t.stdinVar = v
	}
	return t.stdinVar
}

func (t *translator) uniqueName(n string) string {
	base := n
	for i := 1; t.names[n]; i++ {
		n = fmt.Sprintf("%s.%d", base, i)
	}
	t.names[n] = true
	return n
}

// initGlobals declares and initialises every global variable in Init: a
// definition with its initialiser, an external declaration (defined
// outside the module) or a weak definition with inputs for its scalars
// (cfa.HavocInputs), the C library's own objects untouched.
func (t *translator) initGlobals(b *builder) {
	for _, g := range t.m.Globals {
		v := t.globals[g]
		if v == nil {
			continue
		}
		pos := t.src.globalPos(g)
		rng := cfa.Range{Start: pos}
		b.edge(&cfa.Decl{Var: v}, rng, "")
		if g.Linkage == enum.LinkageExternWeak {
			// a weak symbol no module defines has the address null
			b.edge(&cfa.Unsupported{Construct: "weak undefined object " + v.Orig + ", whose address may be null"}, rng, "")
			continue
		}
		ref := &cfa.VarRef{Var: v}
		switch {
		case g.Init != nil && final(g.Linkage):
			t.initConst(b, ref, g.Init, rng)
		case cfa.LibraryObjects[g.Name()]:
		default:
			vp := t.tm.ptr(cfa.VoidType)
			addr := &cfa.Cast{X: &cfa.AddrOf{X: ref, T: t.tm.ptr(v.T)}, T: vp}
			ok, whole := cfa.HavocExtern(ref, v.T, addr, rng.Start, "extern "+v.Orig, func(op cfa.Op) { b.edge(op, rng, "") })
			switch {
			case !ok:
				b.edge(&cfa.Unsupported{Construct: "extern object " + v.Orig + " without a definition whose contents are not enumerable"}, rng, "")
			case whole:
				t.p.Externals[cfa.HavocObject] = &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType, Params: []*cfa.Type{vp}}
			}
		}
	}
}

// initConst stores the constant c into the lvalue x: a zero aggregate
// first when c is an aggregate, then its non-zero scalars.
func (t *translator) initConst(b *builder, x cfa.Expr, c constant.Constant, rng cfa.Range) {
	xt := x.Type()
	if isZero(c) {
		b.edge(&cfa.Assign{LHS: x, RHS: zeroOf(xt)}, rng, "")
		return
	}
	switch c.(type) {
	case *constant.Array, *constant.CharArray, *constant.Struct:
		b.edge(&cfa.Assign{LHS: x, RHS: zeroOf(xt)}, rng, "")
	}
	t.initSub(b, x, c, rng)
}

// initElems stores the non-zero elements of an aggregate constant.
func (t *translator) initElems(b *builder, x cfa.Expr, c constant.Constant, rng cfa.Range) {
	xt := x.Type()
	switch c := c.(type) {
	case *constant.CharArray:
		for i, ch := range c.X {
			if ch != 0 {
				b.edge(&cfa.Assign{LHS: &cfa.Index{X: x, I: cfa.NewConst(cfa.LLType, int64(i)), T: xt.Elem}, RHS: &cfa.Const{T: xt.Elem, V: uint64(ch)}}, rng, "")
			}
		}
	case *constant.Array:
		for i, e := range c.Elems {
			if !isZero(e) {
				t.initSub(b, &cfa.Index{X: x, I: cfa.NewConst(cfa.LLType, int64(i)), T: xt.Elem}, e, rng)
			}
		}
	case *constant.Struct:
		for i, e := range c.Fields {
			if !isZero(e) && i < len(xt.Fields) {
				t.initSub(b, &cfa.Member{X: x, Field: i, T: xt.Fields[i].Type}, e, rng)
			}
		}
	}
}

func (t *translator) initSub(b *builder, x cfa.Expr, c constant.Constant, rng cfa.Range) {
	switch c.(type) {
	case *constant.Array, *constant.CharArray, *constant.Struct:
		t.initElems(b, x, c, rng)
		return
	}
	e, err := b.constant(c)
	if err != nil {
		b.edge(&cfa.Unsupported{Construct: "initialiser " + c.Ident() + ": " + err.Error()}, rng, "")
		return
	}
	b.edge(&cfa.Assign{LHS: x, RHS: conv(e, x.Type())}, rng, "")
}

func isZero(c constant.Constant) bool {
	switch c := c.(type) {
	case *constant.ZeroInitializer:
		return true
	case *constant.Int:
		return c.X.Sign() == 0
	case *constant.Null:
		return true
	case *constant.Float:
		return !c.NaN && c.X.Sign() == 0 && !c.X.Signbit()
	case *constant.CharArray:
		for _, ch := range c.X {
			if ch != 0 {
				return false
			}
		}
		return true
	case *constant.Array:
		for _, e := range c.Elems {
			if !isZero(e) {
				return false
			}
		}
		return true
	case *constant.Struct:
		for _, e := range c.Fields {
			if !isZero(e) {
				return false
			}
		}
		return true
	}
	return false
}

func zeroOf(t *cfa.Type) cfa.Expr { return cfa.Zero(t) }

// constructors calls, at the end of Init, the functions of
// @llvm.global_ctors in ascending priority (their order in the array
// among equal priorities: the order in which gcc and the dynamic linker
// run them). Destructors are registered with the atexit model
// (registerDestructors).
func (t *translator) constructors(b *builder) {
	for _, g := range t.m.Globals {
		switch g.Name() {
		case "llvm.global_ctors":
			arr, ok := g.Init.(*constant.Array)
			if !ok {
				continue
			}
			type ctor struct {
				prio  int64
				order int
				fn    string
			}
			var cs []ctor
			for i, e := range arr.Elems {
				s, ok := e.(*constant.Struct)
				if !ok || len(s.Fields) < 2 {
					continue
				}
				p, _ := s.Fields[0].(*constant.Int)
				f, _ := stripCasts(s.Fields[1]).(*ir.Func)
				if p == nil || f == nil {
					b.edge(&cfa.Unsupported{Construct: "constructor entry " + e.Ident()}, cfa.Range{Start: t.src.globalPos(g)}, "")
					continue
				}
				cs = append(cs, ctor{p.X.Int64(), i, f.Name()})
			}
			sort.SliceStable(cs, func(i, j int) bool { return cs[i].prio < cs[j].prio })
			for _, c := range cs {
				pos := t.src.globalPos(g)
				b.edge(&cfa.Call{Fn: c.fn, Pos: pos}, cfa.Range{Start: pos}, "")
			}
		}
	}
}

// stripCasts returns v without constant bitcasts.
func stripCasts(v value.Value) value.Value {
	for {
		c, ok := v.(*constant.ExprBitCast)
		if !ok {
			return v
		}
		v = c.From
	}
}

// bigU is the two's complement bit pattern of x in w bits.
func bigU(x *big.Int, w int) uint64 {
	m := new(big.Int).Lsh(big.NewInt(1), uint(w))
	y := new(big.Int).Mod(x, m)
	return y.Uint64()
}

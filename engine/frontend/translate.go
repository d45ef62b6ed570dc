package frontend

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/ccparse"
	"github.com/reverify/reverify/engine/frontend/cmodel"
	"github.com/reverify/reverify/engine/frontend/ctypes"
)

// symKey identifies a file-scope entity: by name for external linkage, by
// name and translation unit for internal linkage.
type symKey struct {
	name string
	unit int // -1: external linkage
}

// objSym is a global variable (file scope or static local).
type objSym struct {
	key     symKey
	name    string // linked (program-unique) name
	v       *cfa.Var
	unit    *ccparse.Unit
	decl    *cc.Declarator     // first declaration
	def     *cc.InitDeclarator // the definition with an initialiser
	defUnit *ccparse.Unit
	defined bool // has a definition (initialised or tentative)
	typ     cc.Type
	spec    *cc.DeclarationSpecifiers // of the declaration defining it
	// weak says that the definitions seen so far are all weak
	// (__attribute__((weak))): another object file may define the
	// object, so its value is not final (weakDefs).
	weak bool
}

// funcSym is a function.
type funcSym struct {
	key      symKey
	name     string
	unit     *ccparse.Unit
	decl     *cc.Declarator
	def      *cc.FunctionDefinition
	defUnit  *ccparse.Unit
	noreturn bool
	typ      *cfa.Type
	static   bool
	// removedAs is CBMC's name of a static function whose body
	// REMOVE_FUNCTION_BODY removes (__CPROVER_file_local_…, Options.
	// RemoveBody): it has no body, and calls and addresses of it go to
	// the function of that name (removedTarget).
	removedAs string
	// dupAt lists the positions of further definitions of a C library
	// function defined more than once (libraryName).
	dupAt []string
	// ctor says whether a declaration or the definition carries
	// __attribute__((constructor)), with its priority (ctors.go).
	ctor     bool
	ctorPrio int
	// dtor and dtorPrio: the same of __attribute__((destructor)).
	dtor     bool
	dtorPrio int
	// weakDef says that the definition is weak: a strong definition
	// replaces it, and without one it is not final (weakDefs).
	weakDef bool
	// weakOf is, for the body of a weak definition kept as "f.weak"
	// (weakDefs), the function f, bodiless at its calls.
	weakOf *funcSym
}

// markCtor records a constructor or destructor attribute among the
// tokens of n on s.
func (s *funcSym) markCtor(n cc.Node) {
	if ok, prio := ctorAttr(n); ok && (!s.ctor || prio < s.ctorPrio) {
		s.ctor, s.ctorPrio = true, prio
	}
	if ok, prio := dtorAttr(n); ok && (!s.dtor || prio < s.dtorPrio) {
		s.dtor, s.dtorPrio = true, prio
	}
}

type translator struct {
	cfg   Options
	units []*ccparse.Unit
	// writesNothing are the functions whose calls use contracts that
	// assign nothing (cbmctext.Contracts.WritesNothing)
	writesNothing map[string]bool
	// assignedParams are the functions whose calls use contracts whose
	// assigns clauses name only their pointer parameters' objects, with
	// those parameters' positions (cbmctext.Contracts.AssignedParams)
	assignedParams map[string][]int
	// loopCalls are the calls in loop bodies with contracts that
	// localCalls settles at the end
	loopCalls []loopCall
	p         *cfa.Program
	tm        *ctypes.Map

	objs    map[symKey]*objSym
	funcs   map[symKey]*funcSym
	objList []*objSym
	fnList  []*funcSym
	byName  map[string]*funcSym // linked name → function
	names   map[string]bool     // program-level names in use

	init     *fnctx   // builds p.Init
	stdinVar *cfa.Var // the state of standard input (stdinState)
	errs     []string
	ncompl   int // compound literals with static storage
	unitTag  map[int]string
}

func newTranslator(cfg Options, units []*ccparse.Unit) *translator {
	t := &translator{
		cfg:     cfg,
		units:   units,
		p:       cfa.NewProgram(cfg.DataModel),
		tm:      ctypes.NewMap(cfg.DataModel),
		objs:    map[symKey]*objSym{},
		funcs:   map[symKey]*funcSym{},
		byName:  map[string]*funcSym{},
		names:   map[string]bool{},
		unitTag: map[int]string{},
	}
	for _, u := range units {
		t.p.Files = append(t.p.Files, u.Name)
		t.tm.AddPacks(u.Packs)
	}
	return t
}

// checkLayoutConstants makes the program unsupported when a constant
// expression that cc/v4 folds and the translation takes as folded (an
// array length, an enumerator, a bit-field width, an alignment, a
// designator) depends on a layout gcc computes otherwise than cc/v4
// (engine/frontend/ctypes): cc/v4 folds it with its own layout.
func (t *translator) checkLayoutConstants() {
	for _, u := range t.units {
		if u.Packs == nil || t.tm.LayoutIssue != "" {
			continue
		}
		for _, n := range u.Packs.Consts {
			if _, ok := intValue(n.Value()); ok && t.tm.HasBadSizeof(n, 0) {
				t.tm.LayoutIssue = "a constant at " + u.Files.Pos(n.Position()).String() + " that depends on the layout of a packed struct (cc/v4 folds it with its own layout)"
				break
			}
		}
	}
}

func (t *translator) errorf(format string, args ...any) {
	t.errs = append(t.errs, fmt.Sprintf(format, args...))
}

func (t *translator) run() (*cfa.Program, error) {
	for _, u := range t.units {
		t.collect(u)
	}
	if len(t.errs) > 0 {
		return nil, errors.New(strings.Join(t.errs, "\n"))
	}
	weakBodies := t.weakDefs()
	t.assignNames()
	t.init = t.newFnctx(nil, t.p.Init, nil)
	var ctors, dtors []constructor
	for _, o := range t.objList {
		if o.defined {
			t.defineGlobal(o)
		}
	}
	for _, u := range t.units {
		for tu := u.AST.TranslationUnit; tu != nil; tu = tu.TranslationUnit {
			ed := tu.ExternalDeclaration
			if ed == nil || ed.Case != cc.ExternalDeclarationFuncDef {
				continue
			}
			fd := ed.FunctionDefinition
			s := t.funcOf(u, fd.Declarator)
			if s == nil || s.def != fd {
				continue
			}
			if err := t.function(u, s); err != nil {
				t.errs = append(t.errs, err.Error())
			}
			if s.ctor || s.dtor {
				rng, text := u.Files.RangeText(ccparse.NodeSpan(fd.Declarator))
				c := constructor{name: s.name, order: len(ctors) + len(dtors), pos: u.Files.Pos(fd.Declarator.Position()), rng: rng, text: text}
				if s.ctor {
					c.priority = s.ctorPrio
					ctors = append(ctors, c)
				}
				if s.dtor {
					c.priority = s.dtorPrio
					dtors = append(dtors, c)
				}
			}
		}
	}
	for _, b := range weakBodies {
		if err := t.function(b.defUnit, b); err != nil {
			t.errs = append(t.errs, err.Error())
		}
		// A weak constructor or destructor runs, whichever definition
		// the link keeps: the function without a body (unmodelled).
		if f := b.weakOf; f.ctor || f.dtor {
			t.p.Externals[f.name] = f.typ
			rng, text := b.defUnit.Files.RangeText(ccparse.NodeSpan(b.def.Declarator))
			c := constructor{name: f.name, order: len(ctors) + len(dtors), pos: b.defUnit.Files.Pos(b.def.Declarator.Position()), rng: rng, text: text}
			if f.ctor {
				c.priority = f.ctorPrio
				ctors = append(ctors, c)
			}
			if f.dtor {
				c.priority = f.dtorPrio
				dtors = append(dtors, c)
			}
		}
	}
	t.registerDestructors(dtors)
	t.runConstructors(ctors)
	t.checkLayoutConstants()
	if issue := t.tm.LayoutIssue; issue != "" {
		t.init.emitAt(&cfa.Unsupported{Construct: issue}, cfa.Range{}, "")
	}
	ic := t.init
	if ic.b.find(ic.cur) == ic.b.entry {
		ic.b.edge(ic.cur, ic.b.exit, &cfa.Noop{Label: "skip"}, cfa.Range{}, "")
	} else {
		ic.b.join(ic.cur, ic.b.exit, "skip", cfa.Range{}, "")
	}
	if err := ic.b.emit(t.p, t.p.Init); err != nil {
		t.errs = append(t.errs, err.Error())
	}
	for _, u := range t.units {
		t.p.Defs = ccparse.Definitions(t.p.Defs, u, func(d *cc.Declarator, fn bool) string {
			if fn {
				if s := t.funcOf(u, d); s != nil {
					return s.name
				}
			} else if o := t.objs[t.key(u, d)]; o != nil {
				return o.name
			}
			return ""
		})
	}
	if len(t.errs) > 0 {
		return nil, errors.New(strings.Join(t.errs, "\n"))
	}
	t.localCalls()
	t.p.Finish()
	return t.p, nil
}

func (t *translator) key(u *ccparse.Unit, d *cc.Declarator) symKey {
	if d.Linkage() == cc.Internal {
		return symKey{d.Name(), u.Idx}
	}
	return symKey{d.Name(), -1}
}

// collect records the file-scope declarations and definitions of u.
func (t *translator) collect(u *ccparse.Unit) {
	for tu := u.AST.TranslationUnit; tu != nil; tu = tu.TranslationUnit {
		ed := tu.ExternalDeclaration
		if ed == nil {
			continue
		}
		switch ed.Case {
		case cc.ExternalDeclarationFuncDef:
			fd := ed.FunctionDefinition
			d := fd.Declarator
			s := t.funcSymbol(u, d)
			// external linkage by the plain name; goto-cc renames static
			// functions (__CPROVER_file_local_<file>_<f>), and only that
			// name removes one
			if t.cfg.RemoveBody[d.Name()] && d.Linkage() != cc.Internal && (t.cfg.RemoveBodyIn == nil || t.cfg.RemoveBodyIn[u.Name]) {
				continue
			}
			if fl := fileLocalName(u.Name, d.Name()); d.Linkage() == cc.Internal && t.cfg.RemoveBody[fl] && (t.cfg.RemoveBodyIn == nil || t.cfg.RemoveBodyIn[u.Name]) {
				s.removedAs = fl // removedTarget
				continue
			}
			if s.def != nil && cmodel.IsUnit(u.Name) {
				// a model's unit (engine/frontend/cmodel, added after the
				// program's) defines a C library function the program
				// defines too, in a header its sources include: the
				// program's is the one linked
				continue
			}
			weak := hasAttr(fd.DeclarationSpecifiers, "weak") || hasAttr(fd.Declarator, "weak")
			if s.def != nil && (weak || s.weakDef) {
				// gcc links the strong definition over a weak one
				if !weak {
					s.def, s.defUnit, s.weakDef = fd, u, false
					s.typ = t.tm.Typ(d.Type())
				}
				continue
			}
			if s.def != nil {
				p := u.Files.Pos(d.Position())
				if libraryName(d.Name()) {
					// two stubs of a C library function (CBMC proofs'
					// memcpy/memset overrides): the first is kept and
					// every use is unsupported (cbmc_builtins.go)
					s.dupAt = append(s.dupAt, p.String())
					continue
				}
				if s.defUnit.Files.Pos(s.def.Declarator.Position()) == p {
					// one definition in a header two units include,
					// external because the build defines static away
					// (mlkem-native's proofs: -Dstatic=): one function,
					// as goto-cc links identical definitions
					continue
				}
				t.errorf("%s: multiple definition of %s", p, d.Name())
				continue
			}
			s.def, s.defUnit = fd, u
			s.weakDef = weak
			s.typ = t.tm.Typ(d.Type())
			s.markCtor(fd.DeclarationSpecifiers)
			s.markCtor(fd.Declarator)
			s.static = d.IsStatic()
			if hasNoreturn(fd.DeclarationSpecifiers) {
				s.noreturn = true
			}
		case cc.ExternalDeclarationDecl:
			t.collectDecl(u, ed.Declaration)
		}
	}
}

func (t *translator) collectDecl(u *ccparse.Unit, decl *cc.Declaration) {
	if decl == nil || decl.Case != cc.DeclarationDecl {
		return
	}
	noret := false
	checked := false
	for l := decl.InitDeclaratorList; l != nil; l = l.InitDeclaratorList {
		id := l.InitDeclarator
		if id == nil || id.Declarator == nil {
			continue
		}
		d := id.Declarator
		if d.IsTypename() || d.Name() == "" {
			continue
		}
		if d.Type().Kind() == cc.Function {
			s := t.funcSymbol(u, d)
			s.markCtor(decl)
			if !checked {
				noret = hasNoreturn(decl)
				checked = true
			}
			if noret {
				s.noreturn = true
			}
			continue
		}
		o := t.objSymbol(u, d, id, decl.DeclarationSpecifiers)
		if o.def == id || o.spec == nil {
			o.spec = decl.DeclarationSpecifiers
		}
	}
}

func (t *translator) funcSymbol(u *ccparse.Unit, d *cc.Declarator) *funcSym {
	k := t.key(u, d)
	s := t.funcs[k]
	if s == nil {
		s = &funcSym{key: k, unit: u, decl: d, typ: t.tm.Typ(d.Type()), static: k.unit >= 0}
		t.funcs[k] = s
		t.fnList = append(t.fnList, s)
	}
	return s
}

func (t *translator) objSymbol(u *ccparse.Unit, d *cc.Declarator, id *cc.InitDeclarator, spec *cc.DeclarationSpecifiers) *objSym {
	k := t.key(u, d)
	o := t.objs[k]
	if o == nil {
		o = &objSym{key: k, unit: u, decl: d, typ: d.Type()}
		t.objs[k] = o
		t.objList = append(t.objList, o)
	}
	if id != nil {
		weak := hasAttr(d, "weak") || spec != nil && hasAttr(spec, "weak")
		if (id.Initializer != nil || !d.IsExtern()) && o.defined && (weak || o.weak) {
			// gcc links a strong definition over weak ones
			if !weak && o.weak {
				o.def, o.defUnit, o.typ, o.weak = nil, u, d.Type(), false
				if id.Initializer != nil {
					o.def = id
				}
			}
			return o
		}
		if id.Initializer != nil || !d.IsExtern() {
			o.weak = weak
		}
		if id.Initializer != nil {
			if o.def != nil {
				t.errorf("%s: multiple definition of %s", u.Files.Pos(d.Position()), d.Name())
			}
			o.def, o.defUnit = id, u
			o.typ = d.Type()
			o.defined = true
		} else if !d.IsExtern() {
			o.defined = true
			if o.def == nil {
				o.typ = d.Type()
				o.defUnit = u
			}
		}
	}
	return o
}

// hasNoreturn reports whether a declaration carries _Noreturn or
// __attribute__((noreturn)).
func hasNoreturn(n cc.Node) bool {
	found := false
	if n == nil {
		return false
	}
	ccparse.WalkTokens(reflect.ValueOf(n), func(tok *cc.Token) bool {
		if tok.Ch == rune(cc.IDENTIFIER) || tok.Ch > 0xe000 {
			switch string(tok.Src()) {
			case "_Noreturn", "noreturn", "__noreturn__":
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// assignNames gives every file-scope entity its program-unique name:
// entities with external linkage keep theirs; an internal (static) one
// keeps its name unless another entity has it, and is then renamed
// "name.file" (the base name of its translation unit).
func (t *translator) assignNames() {
	for _, o := range t.objList {
		if o.key.unit < 0 {
			o.name = o.key.name
			t.names[o.name] = true
		}
	}
	for _, s := range t.fnList {
		if s.key.unit < 0 {
			s.name = s.key.name
			t.names[s.name] = true
		}
	}
	claim := func(k symKey) string {
		n := k.name
		if !t.names[n] {
			t.names[n] = true
			return n
		}
		base := t.unitBase(k.unit)
		n = k.name + "." + base
		for i := 2; t.names[n]; i++ {
			n = k.name + "." + base + strconv.Itoa(i)
		}
		t.names[n] = true
		return n
	}
	for _, u := range t.units {
		for _, o := range t.objList {
			if o.key.unit == u.Idx {
				o.name = claim(o.key)
			}
		}
		for _, s := range t.fnList {
			if s.key.unit == u.Idx {
				s.name = claim(s.key)
			}
		}
	}
	for _, s := range t.fnList {
		if s.removedAs != "" && t.removedTarget(s) == s {
			s.name = s.removedAs // bodiless, under CBMC's name
			t.names[s.name] = true
		}
		if s.def != nil || t.byName[s.name] == nil {
			t.byName[s.name] = s
		}
	}
}

func (t *translator) unitBase(idx int) string {
	if s, ok := t.unitTag[idx]; ok {
		return s
	}
	b := filepath.Base(t.units[idx].Name)
	b = strings.TrimSuffix(b, filepath.Ext(b))
	var sb strings.Builder
	for _, c := range b {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			sb.WriteRune(c)
		} else {
			sb.WriteByte('_')
		}
	}
	s := sb.String()
	if s == "" {
		s = "file" + strconv.Itoa(idx+1)
	}
	t.unitTag[idx] = s
	return s
}

// funcOf returns the function a declarator of u names (nil if unknown).
func (t *translator) funcOf(u *ccparse.Unit, d *cc.Declarator) *funcSym {
	return t.funcs[t.key(u, d)]
}

// globalOf returns the global variable a file-scope or extern declarator
// of u names, creating it for block-scope extern declarations of
// otherwise unknown names.
func (t *translator) globalOf(u *ccparse.Unit, d *cc.Declarator) *cfa.Var {
	k := t.key(u, d)
	o := t.objs[k]
	if o == nil {
		o = &objSym{key: k, unit: u, decl: d, typ: d.Type(), name: d.Name()}
		if t.names[o.name] {
			o.name = d.Name() + "." + t.unitBase(u.Idx)
			for i := 2; t.names[o.name]; i++ {
				o.name = d.Name() + "." + t.unitBase(u.Idx) + strconv.Itoa(i)
			}
		}
		t.names[o.name] = true
		t.objs[k] = o
		t.objList = append(t.objList, o)
	}
	if o.v == nil {
		// Declared extern only (defined outside the program): created on
		// first use, declared in Init without initialisation.
		t.defineGlobal(o)
	}
	return o.v
}

// newGlobal creates a global variable.
func (t *translator) newGlobal(name, orig string, typ *cfa.Type, pos cfa.Pos) *cfa.Var {
	v := t.p.NewVar(nil, name, typ)
	v.Orig = orig
	v.Pos = pos
	if typ.Kind == cfa.Array {
		v.AddrTaken = true
	}
	return v
}

// defineGlobal creates the variable of o and its initialisation in Init.
func (t *translator) defineGlobal(o *objSym) {
	if o.v != nil {
		return
	}
	u := o.unit
	d := o.decl
	if o.def != nil {
		u, d = o.defUnit, o.def.Declarator
	} else if o.defUnit != nil {
		u = o.defUnit
	}
	typ := t.tm.Typ(o.typ)
	if typ.Kind == cfa.Array && typ.Len < 0 && o.defined && o.def == nil {
		// A tentative definition of an array of unknown size has one
		// element (C11 6.9.2p5).
		typ = cfa.ArrayOf(typ.Elem, 1)
	}
	v := t.newGlobal(o.name, d.Name(), typ, u.Files.Pos(d.Position()))
	v.Volatile = ctypes.IsVolatile(d)
	v.ReadOnly = isConst(d)
	o.v = v
	ic := t.init
	ic.u = u
	ds, de := ccparse.NodeSpan(o.spec), ccparse.NodeSpan(d)
	if !ds.OK || ds.First.Position().Filename != de.First.Position().Filename {
		ds = de
	}
	rng, text := u.Files.RangeText(ccparse.Span{First: ds.First, Last: de.Last, OK: ds.OK && de.OK})
	ic.emitAt(&cfa.Decl{Var: v}, rng, text)
	switch {
	case o.def != nil:
		ic.guard(func() {
			ic.initialize(&cfa.VarRef{Var: v}, o.def.Declarator.Type(), o.def.Initializer, true, o.def)
		})
	case o.defined:
		ic.emitAt(&cfa.Assign{LHS: &cfa.VarRef{Var: v}, RHS: zeroOf(typ)}, rng, text)
	case cfa.LibraryObjects[d.Name()]:
		// the C library's own objects (stdin, optind, …): the library
		// functions that read them are modelled or unmodelled as such
	default:
		// Declared extern and defined by no source: its value comes from
		// outside the program, an input like an entry parameter's.
		vp := t.tm.Ptr(cfa.VoidType)
		addr := &cfa.Cast{X: &cfa.AddrOf{X: &cfa.VarRef{Var: v}, T: t.tm.Ptr(typ)}, T: vp}
		ok, whole := cfa.HavocExtern(&cfa.VarRef{Var: v}, typ, addr, rng.Start, "extern "+d.Name(), func(op cfa.Op) { ic.emitAt(op, rng, text) })
		switch {
		case !ok:
			ic.emitAt(&cfa.Unsupported{Construct: "extern object " + d.Name() + " without a definition whose contents are not enumerable"}, rng, text)
		case whole:
			t.p.Externals[cfa.HavocObject] = &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType, Params: []*cfa.Type{vp}}
		}
	}
}

// isConst reports whether the object d declares is const at its top
// level: the qualifiers of its outermost pointer, else of the
// declaration (const int n; const char t[4], an array of const
// elements; not const char *p).
func isConst(d *cc.Declarator) bool {
	if d.Pointer != nil {
		p := d.Pointer
		for p.Pointer != nil {
			p = p.Pointer
		}
		for q := p.TypeQualifiers; q != nil; q = q.TypeQualifiers {
			if q.TypeQualifier != nil && q.TypeQualifier.Case == cc.TypeQualifierConst {
				return true
			}
		}
		return false
	}
	return d.IsConst()
}

// zeroOf is the zero value of t (cfa.Zero).
func zeroOf(t *cfa.Type) cfa.Expr { return cfa.Zero(t) }

// function translates a function definition.
func (t *translator) function(u *ccparse.Unit, s *funcSym) error {
	fd := s.def
	ft := s.typ
	if ft.Kind != cfa.Func {
		ft = &cfa.Type{Kind: cfa.Func, Result: cfa.IntT}
	}
	f := t.p.NewFunction(s.name, ft)
	f.Static = s.static
	if u != nil {
		f.Unit = u.Name
	}
	fs := ccparse.SlowSpan(fd.DeclarationSpecifiers)
	if !fs.OK {
		fs = ccparse.SlowSpan(fd.Declarator)
	}
	fs.Last = fd.CompoundStatement.Token2
	rng, _ := u.Files.RangeText(fs)
	f.Pos = rng
	fc := t.newFnctx(u, f, s)
	// Parameters.
	cft, _ := fd.Declarator.Type().(*cc.FunctionType)
	if cft != nil {
		for i, prm := range cft.Parameters() {
			pt := t.tm.ParamType(t.tm.Typ(prm.Type()))
			if pt.Kind == cfa.Void {
				continue
			}
			name := prm.Name()
			if name == "" {
				name = "__param" + strconv.Itoa(i)
			}
			v := fc.newLocal(name, pt)
			v.Param = true
			v.Orig = prm.Name()
			v.Pos = u.Files.Pos(prm.Position())
			if prm.Declarator != nil {
				fc.locals[prm.Declarator] = v
				v.Volatile = ctypes.IsVolatile(prm.Declarator)
			}
			fc.params[prm] = v
			f.Params = append(f.Params, v)
		}
	}
	// Params are not Locals.
	f.Locals = f.Locals[:0]
	if ft.Result != nil && ft.Result.Kind != cfa.Void {
		rv := t.p.NewVar(f, fc.uniqueName("__retval"), ft.Result)
		rv.Orig = ""
		rv.Temp = true
		f.RetVar = rv
		f.Locals = f.Locals[:0]
	}
	fc.body(fd.CompoundStatement)
	if f.Name == "main" {
		fc.atexitLifetimes()
	}
	return fc.b.emit(t.p, f)
}

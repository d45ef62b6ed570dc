package pdg

import (
	"slices"

	"github.com/reverify/reverify/engine/cfa"
)

// access is what one SDG node reads and writes: objects whose current
// definitions it uses, and objects it defines for sure (strong: the
// previous definitions are killed) or possibly (weak).
type access struct {
	uses  []int32
	sdefs []int32
	wdefs []int32
}

// siteAccess splits the accesses of a call edge among the SDG nodes of the
// call site: the call node itself (the function pointer, and everything an
// external callee does), one actual-in per argument, and the actual-out of
// the result.
type siteAccess struct {
	node    access
	args    [][]int32 // uses per argument
	resUses []int32   // objects read to compute the Result lvalue's address
	resS    []int32   // objects the Result lvalue designates, strong
	resW    []int32   // … weak
}

// extractor computes accesses from expressions, using the solved points-to
// sets.
type extractor struct {
	a      *pta
	strong func(v *cfa.Var) bool
	// rawUnknownRead/Write: the Unknown object was read/written.
	rawUnknownRead, rawUnknownWrite bool
}

func (x *extractor) ptsObjs(n int32, out []int32) []int32 {
	if n < 0 {
		return out
	}
	for _, o := range x.a.pts[n] {
		if x.a.objs[o].Kind != ObjFunc {
			out = append(out, o)
		}
	}
	return out
}

// reads appends the objects the rvalue e reads.
func (x *extractor) reads(e cfa.Expr, out []int32) []int32 {
	switch e := e.(type) {
	case *cfa.VarRef:
		if !isArray(e.Var.T) {
			out = append(out, int32(e.Var.ID))
		}
	case *cfa.Unary:
		out = x.reads(e.X, out)
	case *cfa.Binary:
		out = x.reads(e.X, out)
		out = x.reads(e.Y, out)
	case *cfa.Cast:
		out = x.reads(e.X, out)
	case *cfa.Deref:
		out = x.reads(e.X, out)
		if !isArray(e.T) && e.T.Kind != cfa.Func {
			out = x.ptsObjs(x.a.derefPtr[e], out)
		}
	case *cfa.AddrOf:
		out = x.addrUses(e.X, out)
	case *cfa.Member:
		out = x.readLvalue(e, e.X, out)
	case *cfa.Index:
		out = x.reads(e.I, out)
		out = x.readLvalue(e, e.X, out)
	}
	return out
}

// readLvalue appends what reading e (= X.f or X[i]) reads from X.
func (x *extractor) readLvalue(e, base cfa.Expr, out []int32) []int32 {
	if !cfa.IsLvalue(base) {
		return x.reads(base, out)
	}
	out = x.addrUses(base, out)
	if isArray(e.Type()) {
		return out // decays to its address
	}
	return x.objects(base, out)
}

// addrUses appends what computing the address of lvalue l reads.
func (x *extractor) addrUses(l cfa.Expr, out []int32) []int32 {
	switch l := l.(type) {
	case *cfa.Deref:
		return x.reads(l.X, out)
	case *cfa.Member:
		return x.addrUses(l.X, out)
	case *cfa.Index:
		out = x.reads(l.I, out)
		return x.addrUses(l.X, out)
	case *cfa.VarRef, *cfa.StringLit, *cfa.FuncRef:
		return out
	}
	return x.reads(l, out)
}

// objects appends the objects lvalue l designates.
func (x *extractor) objects(l cfa.Expr, out []int32) []int32 {
	switch l := l.(type) {
	case *cfa.VarRef:
		return append(out, int32(l.Var.ID))
	case *cfa.Deref:
		return x.ptsObjs(x.a.derefPtr[l], out)
	case *cfa.Member:
		return x.objects(l.X, out)
	case *cfa.Index:
		return x.objects(l.X, out)
	case *cfa.StringLit:
		if o, ok := x.a.strObj[l]; ok {
			return append(out, o)
		}
	}
	return out
}

// defines returns the objects an assignment to l writes, strongly or
// weakly.
func (x *extractor) defines(l cfa.Expr) (strong, weak []int32) {
	if r, ok := l.(*cfa.VarRef); ok && x.strong(r.Var) {
		return []int32{int32(r.Var.ID)}, nil
	}
	return nil, x.objects(l, nil)
}

// edge computes the access of a non-call edge of f.
func (x *extractor) edge(f *cfa.Function, e *cfa.Edge) access {
	var a access
	switch op := e.Op.(type) {
	case *cfa.Decl:
		if x.strong(op.Var) {
			a.sdefs = []int32{int32(op.Var.ID)}
		} else {
			a.wdefs = []int32{int32(op.Var.ID)}
		}
	case *cfa.Assign:
		a.uses = x.addrUses(op.LHS, nil)
		a.uses = x.reads(op.RHS, a.uses)
		a.sdefs, a.wdefs = x.defines(op.LHS)
	case *cfa.Havoc:
		a.uses = x.addrUses(op.LHS, nil)
		a.sdefs, a.wdefs = x.defines(op.LHS)
	case *cfa.Assume:
		a.uses = x.reads(op.Cond, nil)
	case *cfa.Return:
		if op.X != nil {
			a.uses = x.reads(op.X, nil)
		}
		if f.RetVar != nil {
			a.sdefs = []int32{int32(f.RetVar.ID)}
		}
	}
	x.note(&a)
	return a
}

// site computes the accesses of a call site. external is true when some
// callee has no body (or is unresolved): its effects go on the call node.
// mixed is true when bodies and externals may both be called: every
// definition is then weak.
func (x *extractor) site(s *callSite, external, mixed bool) siteAccess {
	var sa siteAccess
	op := s.call
	if op.FnPtr != nil {
		sa.node.uses = x.reads(op.FnPtr, nil)
	}
	sa.args = make([][]int32, len(op.Args))
	for i, arg := range op.Args {
		sa.args[i] = x.reads(arg, nil)
	}
	if op.Result != nil {
		sa.resUses = x.addrUses(op.Result, nil)
		sa.resS, sa.resW = x.defines(op.Result)
		if mixed {
			sa.resW = append(sa.resW, sa.resS...)
			sa.resS = nil
		}
	}
	if external {
		n := &sa.node
		for _, u := range sa.args {
			n.uses = append(n.uses, u...)
		}
		n.uses = append(n.uses, sa.resUses...)
		if len(s.bodies) == 0 && len(s.callbacks) == 0 && !mixed {
			n.sdefs = append(n.sdefs, sa.resS...)
			n.wdefs = append(n.wdefs, sa.resW...)
		} else {
			n.wdefs = append(n.wdefs, sa.resS...)
			n.wdefs = append(n.wdefs, sa.resW...)
		}
		arg := func(i int) int32 {
			if i < len(s.args) {
				return s.args[i]
			}
			return -1
		}
		kinds := make([]extKind, 0, len(s.exts)+1)
		for _, name := range s.exts {
			kinds = append(kinds, externKindIn(x.a.prog, name))
		}
		if s.unknown {
			kinds = append(kinds, extGeneric)
		}
		for _, k := range kinds {
			switch k {
			case extPure, extRetArg0, extAssume, extNoReturn:
				for i := range s.args {
					n.uses = x.ptsObjs(arg(i), n.uses)
				}
			case extAlloc:
				if s.heap >= 0 && op.Fn == "calloc" {
					n.wdefs = append(n.wdefs, s.heap)
				}
				if op.Fn == "strdup" || op.Fn == "strndup" {
					n.uses = x.ptsObjs(arg(0), n.uses)
				}
			case extRealloc:
				if s.heap >= 0 {
					n.wdefs = append(n.wdefs, s.heap)
				}
				n.uses = x.ptsObjs(arg(0), n.uses)
			case extCopy:
				n.wdefs = x.ptsObjs(arg(0), n.wdefs)
				n.uses = x.ptsObjs(arg(0), n.uses)
				n.uses = x.ptsObjs(arg(1), n.uses)
			case extSet:
				n.wdefs = x.ptsObjs(arg(0), n.wdefs)
				for i := 1; i < len(s.args); i++ {
					n.uses = x.ptsObjs(arg(i), n.uses)
				}
			case extGeneric:
				n.wdefs = x.ptsObjs(s.generic, n.wdefs)
				n.uses = x.ptsObjs(s.generic, n.uses)
			}
		}
	}
	x.note(&sa.node)
	for _, u := range sa.args {
		x.noteUses(u)
	}
	x.noteUses(sa.resUses)
	x.noteDefs(sa.resW)
	return sa
}

func (x *extractor) note(a *access) {
	x.noteUses(a.uses)
	x.noteDefs(a.wdefs)
}

func (x *extractor) noteUses(u []int32) {
	if slices.Contains(u, x.a.unknown) {
		x.rawUnknownRead = true
	}
}

func (x *extractor) noteDefs(d []int32) {
	if slices.Contains(d, x.a.unknown) {
		x.rawUnknownWrite = true
	}
}

// normalizer rewrites raw accesses for the reaching definitions: the
// Unknown object becomes the pseudo-objects ObjWriteUnknown (written through
// an unresolved pointer) and ObjReadUnknown (any memory, read through an
// unresolved pointer); reads of memory also read ObjWriteUnknown, writes of
// memory also write ObjReadUnknown; every read reads ObjAny when the
// program has unsupported constructs. Sets come out sorted and without
// duplicates.
type normalizer struct {
	mem            func(o int32) bool
	unknown        int32
	uw, ur, any    int32
	useUW, defUR   bool // some write / read through an unresolved pointer exists
	hasUnsupported bool
}

func (n *normalizer) uses(u []int32) []int32 {
	if len(u) == 0 {
		return nil
	}
	out := make([]int32, 0, len(u)+2)
	mem := false
	for _, o := range u {
		if o == n.unknown {
			out = append(out, n.ur)
			continue
		}
		out = append(out, o)
		if n.mem(o) {
			mem = true
		}
	}
	if mem && n.useUW {
		out = append(out, n.uw)
	}
	if n.hasUnsupported {
		out = append(out, n.any)
	}
	return sortUniq(out)
}

func (n *normalizer) access(a *access) {
	a.uses = n.uses(a.uses)
	a.sdefs = sortUniq(a.sdefs)
	var w []int32
	mem := false
	for _, o := range a.wdefs {
		if o == n.unknown {
			w = append(w, n.uw)
			if n.defUR {
				w = append(w, n.ur)
			}
			continue
		}
		w = append(w, o)
		if n.mem(o) {
			mem = true
		}
	}
	for _, o := range a.sdefs {
		if n.mem(o) {
			mem = true
		}
	}
	if mem && n.defUR {
		w = append(w, n.ur)
	}
	a.wdefs = sortUniq(w)
	// A strong definition wins over a weak one of the same object.
	if len(a.sdefs) > 0 && len(a.wdefs) > 0 {
		a.wdefs = slices.DeleteFunc(a.wdefs, func(o int32) bool { return containsSorted(a.sdefs, o) })
	}
}

func (n *normalizer) site(sa *siteAccess) {
	n.access(&sa.node)
	for i := range sa.args {
		sa.args[i] = n.uses(sa.args[i])
	}
	sa.resUses = n.uses(sa.resUses)
	r := access{sdefs: sa.resS, wdefs: sa.resW}
	n.access(&r)
	sa.resS, sa.resW = r.sdefs, r.wdefs
}

func sortUniq(s []int32) []int32 {
	if len(s) < 2 {
		return s
	}
	slices.Sort(s)
	return slices.Compact(s)
}

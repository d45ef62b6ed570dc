package frontend

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/ctypes"
)

// initialize emits the assignments that initialise the object obj (of
// cc/v4 type ct) from in. Initialiser lists zero the whole object first
// (one Assign of the aggregate zero constant) unless they cover every
// scalar, then assign each initialised sub-object in list order.
func (fc *fnctx) initialize(obj cfa.Expr, ct cc.Type, in *cc.Initializer, zero bool, n cc.Node) {
	if in == nil {
		return
	}
	switch in.Case {
	case cc.InitializerExpr:
		rng, text := fc.rt(n)
		fc.initLeaf(obj, in.AssignmentExpression, zero, rng, text, n)
	case cc.InitializerInitList:
		fc.initList(obj, ct, in.InitializerList, n)
	}
}

// stringInit returns the string literal e initialises a char array with.
func stringInit(e cc.ExpressionNode) (string, bool) {
	p, ok := ctypes.StripParens(e).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionString {
		return "", false
	}
	s, ok := p.Value().(cc.StringValue)
	if !ok {
		return "", false
	}
	return strings.TrimSuffix(string(s), "\x00"), true
}

// initLeaf assigns the value of e to the object target.
func (fc *fnctx) initLeaf(target cfa.Expr, e cc.ExpressionNode, zero bool, rng cfa.Range, text string, tn cc.Node) {
	t := target.Type()
	if t.Kind == cfa.Array && t.Elem.IsInteger() {
		if s, ok := stringInit(e); ok {
			val := s + "\x00"
			n := int64(len(val))
			if t.Len >= 0 && t.Len < n {
				n = t.Len
			}
			if zero && t.Len > int64(len(val)) {
				fc.emitAt(&cfa.Assign{LHS: target, RHS: zeroOf(t)}, rng, text)
			}
			for i := int64(0); i < n; i++ {
				fc.emitAt(&cfa.Assign{
					LHS: &cfa.Index{X: target, I: cfa.NewConst(cfa.IntT, i), T: t.Elem},
					RHS: cfa.NewConst(t.Elem, int64(val[i])),
				}, rng, text)
			}
			return
		}
	}
	if call, ok := ctypes.StripParens(e).(*cc.PostfixExpression); ok && call.Case == cc.PostfixExpressionCall && !fc.isInit {
		r := fc.call(call, true, target, tn)
		if r == target {
			return
		}
		if r == nil {
			fc.unsupported("initialisation with a void value", e)
		}
		fc.emitAt(&cfa.Assign{LHS: target, RHS: fc.conv(fc.decay(r), t, e)}, rng, text)
		return
	}
	v := fc.rv(e)
	fc.emitAt(&cfa.Assign{LHS: target, RHS: fc.conv(v, t, e)}, rng, text)
}

type step struct {
	field int   // -1 for an array index
	index int64 // array index
}

// initList initialises obj from an initialiser list.
// maxInitScalars bounds the elements one initialiser list is
// translated with: beyond it the initialiser is an unsupported
// construct, so that translation stays within a small multiple of the
// source's size.
const maxInitScalars = 1 << 16

func (fc *fnctx) initList(obj cfa.Expr, ct cc.Type, list *cc.InitializerList, n cc.Node) {
	// Leaves with the offsets they initialise: GNU range designators
	// [lo ... hi] initialise several elements (the value is evaluated
	// once).
	type leafAt struct {
		leaf *cc.Initializer
		offs []int64
	}
	var leaves []leafAt
	var collect func(l *cc.InitializerList, deltas []int64)
	collect = func(l *cc.InitializerList, deltas []int64) {
		for ; l != nil; l = l.InitializerList {
			in := l.Initializer
			if in == nil {
				continue
			}
			ds := deltas
			if n := in.Len(); n > 1 {
				es := in.Type().Size()
				if es <= 0 || n > 1<<20 {
					fc.unsupported("initialiser range", in)
				}
				ds = nil
				for _, d := range deltas {
					for k := int64(0); k < n; k++ {
						ds = append(ds, d+k*es)
					}
				}
			}
			switch in.Case {
			case cc.InitializerExpr:
				offs := make([]int64, len(ds))
				for i, d := range ds {
					offs[i] = in.Offset() + d
				}
				leaves = append(leaves, leafAt{in, offs})
			case cc.InitializerInitList:
				collect(in.InitializerList, ds)
			}
		}
	}
	collect(list, []int64{0})
	scalars := 0
	for _, la := range leaves {
		scalars += len(la.offs)
	}
	if scalars > maxInitScalars {
		// one edge per element would hold the property's memory and
		// time outside its limits (1 MiB of initialised bytes took 2.5 GB
		// and a minute before the first property started)
		fc.unsupported(fmt.Sprintf("initialiser of %d elements (more than %d are not translated)", scalars, maxInitScalars), n)
	}
	type target struct {
		leaf  *cc.Initializer
		path  []step
		lv    cfa.Expr
		first bool // the first of a range
		last  bool // the last of a range
	}
	targets := make([]target, 0, len(leaves))
	for _, la := range leaves {
		for i, off := range la.offs {
			path, ok := fc.initPath(ct, la.leaf, off)
			if !ok {
				what := "initialiser"
				switch {
				case hasVector(ct, 0) || la.leaf.Type() != nil && la.leaf.Type().VectorSize() > 0:
					what = "vector types"
				case hasFlexibleArray(obj.Type()):
					what = "initialised flexible array member"
				}
				fc.unsupported(what, la.leaf.AssignmentExpression)
			}
			targets = append(targets, target{la.leaf, path, fc.pathExpr(obj, path, la.leaf), i == 0, i == len(la.offs)-1})
		}
	}
	// Coverage: the scalars initialised by paths that no other initialised
	// path contains.
	keys := make([]string, len(targets))
	set := map[string]bool{}
	for i, tg := range targets {
		keys[i] = pathKey(tg.path)
		set[keys[i]] = true
	}
	covered := int64(0)
	counted := map[string]bool{}
	for i, tg := range targets {
		k := keys[i]
		if counted[k] || dominated(k, set) {
			continue
		}
		counted[k] = true
		t := tg.lv.Type()
		if s, ok := stringInit(tg.leaf.AssignmentExpression); ok && t.Kind == cfa.Array {
			c := int64(len(s) + 1)
			if t.Len >= 0 && c > t.Len {
				c = t.Len
			}
			covered += c
			continue
		}
		covered += scalarCount(t)
	}
	rng, text := fc.rt(n)
	if covered < scalarCount(obj.Type()) || hasUnion(obj.Type()) {
		fc.emitAt(&cfa.Assign{LHS: obj, RHS: zeroOf(obj.Type())}, rng, text)
	}
	var shared cfa.Expr // the value of a range initialiser
	for _, tg := range targets {
		lrng, ltext := fc.rt(tg.leaf)
		switch {
		case tg.first && tg.last:
			fc.initLeaf(tg.lv, tg.leaf.AssignmentExpression, false, lrng, ltext, tg.leaf)
		default:
			if tg.first {
				v := fc.rv(tg.leaf.AssignmentExpression)
				if !fc.stable(v) {
					tmp := fc.temp(v.Type())
					fc.emitAt(&cfa.Assign{LHS: tmp, RHS: v}, lrng, ltext)
					v = tmp
				}
				shared = v
			}
			fc.emitAt(&cfa.Assign{LHS: tg.lv, RHS: fc.conv(shared, tg.lv.Type(), tg.leaf)}, lrng, ltext)
		}
	}
}

func pathKey(p []step) string {
	var b strings.Builder
	for _, s := range p {
		if s.field >= 0 {
			b.WriteString(".")
			b.WriteString(itoa64(int64(s.field)))
		} else {
			b.WriteString("[")
			b.WriteString(itoa64(s.index))
		}
	}
	b.WriteString("/")
	return b.String()
}

// dominated reports whether a proper prefix of path key k is in set.
func dominated(k string, set map[string]bool) bool {
	for i := 0; i < len(k)-1; i++ {
		if k[i] == '.' || k[i] == '[' {
			if set[k[:i]+"/"] {
				return true
			}
		}
	}
	return false
}

func itoa64(v int64) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	if neg {
		v = -v
	}
	var b [20]byte
	i := len(b)
	for v > 0 {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// scalarCount is the number of scalar sub-objects of t (a union counts as
// one; unnamed bit-fields and flexible arrays as none).
func scalarCount(t *cfa.Type) int64 {
	switch t.Kind {
	case cfa.Array:
		if t.Len <= 0 {
			return 0
		}
		c := scalarCount(t.Elem)
		if c > 0 && t.Len > (1<<62)/c {
			return 1 << 62
		}
		return t.Len * c
	case cfa.Struct:
		var n int64
		for _, f := range t.Fields {
			if f.Name == "" && f.BitWidth > 0 {
				continue
			}
			n += scalarCount(f.Type)
		}
		return n
	}
	return 1
}

// hasVector reports whether t is or contains a vector type.
func hasVector(t cc.Type, depth int) bool {
	if t == nil || depth > 16 {
		return false
	}
	if t.VectorSize() > 0 {
		return true
	}
	switch x := t.(type) {
	case *cc.ArrayType:
		return hasVector(x.Elem(), depth+1)
	case *cc.StructType:
		for i := 0; i < x.NumFields(); i++ {
			if f := x.FieldByIndex(i); f != nil && hasVector(f.Type(), depth+1) {
				return true
			}
		}
	case *cc.UnionType:
		for i := 0; i < x.NumFields(); i++ {
			if f := x.FieldByIndex(i); f != nil && hasVector(f.Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// hasFlexibleArray reports whether the struct t ends in an array of
// unknown size.
func hasFlexibleArray(t *cfa.Type) bool {
	switch t.Kind {
	case cfa.Union:
		for _, f := range t.Fields {
			if hasFlexibleArray(f.Type) {
				return true
			}
		}
	case cfa.Struct:
		if len(t.Fields) == 0 {
			return false
		}
		last := t.Fields[len(t.Fields)-1].Type
		return last.Kind == cfa.Array && last.Len <= 0 || hasFlexibleArray(last)
	}
	return false
}

// hasUnion reports whether t is or contains a union (whose members an
// initialiser may cover only partly).
func hasUnion(t *cfa.Type) bool {
	switch t.Kind {
	case cfa.Union:
		return true
	case cfa.Array:
		return hasUnion(t.Elem)
	case cfa.Struct:
		for _, f := range t.Fields {
			if hasUnion(f.Type) {
				return true
			}
		}
	}
	return false
}

// pathExpr builds the lvalue of the sub-object at path inside obj.
func (fc *fnctx) pathExpr(obj cfa.Expr, path []step, leaf *cc.Initializer) cfa.Expr {
	x := obj
	for _, s := range path {
		t := x.Type()
		if s.field >= 0 {
			if (t.Kind != cfa.Struct && t.Kind != cfa.Union) || s.field >= len(t.Fields) {
				fc.unsupported("initialiser", leaf.AssignmentExpression)
			}
			x = &cfa.Member{X: x, Field: s.field, T: t.Fields[s.field].Type}
			continue
		}
		if t.Kind != cfa.Array {
			fc.unsupported("initialiser", leaf.AssignmentExpression)
		}
		it := cfa.IntT
		if s.index > 1<<31-1 {
			it = cfa.LLType
		}
		x = &cfa.Index{X: x, I: cfa.NewConst(it, s.index), T: t.Elem}
	}
	return x
}

// initPath finds the sub-object of an object of type ct that the leaf
// initialiser initialises, from the offset, type and field cc/v4 computed.
func (fc *fnctx) initPath(ct cc.Type, leaf *cc.Initializer, off int64) ([]step, bool) {
	lt := leaf.Type()
	lf := leaf.Field()
	lname := ""
	if lf != nil {
		lname = lf.Name()
	}
	ltyp := fc.t.tm.Typ(lt)
	var rec func(t cc.Type, off int64, path []step, last string, strict bool, depth int) ([]step, bool)
	rec = func(t cc.Type, off int64, path []step, last string, strict bool, depth int) ([]step, bool) {
		if depth > 100 || t == nil {
			return nil, false
		}
		if off == 0 && cfa.Same(fc.t.tm.Typ(t), ltyp) && (!strict || lf == nil || last == lname) {
			return path, true
		}
		ext := func(s step) []step {
			p := make([]step, len(path), len(path)+1)
			copy(p, path)
			return append(p, s)
		}
		switch t.Kind() {
		case cc.Array:
			at := t.(*cc.ArrayType)
			et := at.Elem()
			es := et.Size()
			if es <= 0 || off < 0 {
				return nil, false
			}
			idx := off / es
			if n := at.Len(); n >= 0 && idx >= n && !at.IsIncomplete() {
				return nil, false
			}
			return rec(et, off-idx*es, ext(step{field: -1, index: idx}), "", strict, depth+1)
		case cc.Struct, cc.Union:
			var nf int
			var field func(int) *cc.Field
			switch st := t.(type) {
			case *cc.StructType:
				nf, field = st.NumFields(), st.FieldByIndex
			case *cc.UnionType:
				nf, field = st.NumFields(), st.FieldByIndex
			default:
				return nil, false
			}
			for pass := 0; pass < 2; pass++ {
				for i := 0; i < nf; i++ {
					f := field(i)
					if f == nil {
						continue
					}
					// First the field the leaf names, then the others.
					if (pass == 0) != (lname != "" && f.Name() == lname) {
						continue
					}
					fo := f.Offset()
					if t.Kind() == cc.Union {
						fo = 0
					}
					fs := f.Type().Size()
					if off < fo || (off >= fo+fs && !(fs <= 0 && off == fo)) {
						continue
					}
					if r, ok := rec(f.Type(), off-fo, ext(step{field: i}), f.Name(), strict, depth+1); ok {
						return r, true
					}
				}
			}
		}
		return nil, false
	}
	if r, ok := rec(ct, off, nil, "", true, 0); ok {
		return r, true
	}
	return rec(ct, off, nil, "", false, 0)
}

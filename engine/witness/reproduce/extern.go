package reproduce

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/results"
)

// An object the program declares extern and no source defines holds
// what its definition elsewhere gives it: both front ends make each of
// its scalars an input of source "extern NAME" at the program's start
// (cfa.HavocInputs: the fields in order, the elements in order), and so
// they make a weak object's, whose definition a link may replace. The
// harness is that definition elsewhere: it defines the object with the
// counterexample's values (a scalar without an input is 0). gcc links the
// harness's definition with the program's references, and a strong
// definition takes precedence over a weak one, so the same definition
// overrides a weak object's.
//
// The definition spells the object's type with the same layout: scalars
// by width and signedness (witness.CType), arrays of known length, and
// structs as an untagged struct of the same members in the same order
// (members the source leaves unnamed get harness names), initialised
// with designators,
//
//	int table[2] = {
//		[0] = 0,
//		[1] = 5,
//	};
//
// and checked at compile time against the analysis's size. A struct
// whose layout its members do not determine (bit-fields, whose declared
// storage type the analysis does not keep; packed or aligned members), a
// _Bool holding another byte than 0 or 1 and a NaN are written as the
// object's bytes instead, laid out as the analysis lays them out,
//
//	unsigned char s[8] __attribute__((aligned(4))) = { … };
//
// with the scalars' values in a comment; so is an object whose every
// byte is an input (cfa.HavocExtern: too many scalars for an input
// each). The definition is const when
// the declaration is. An object holding a pointer is refused: where a
// pointer from outside the program points is not part of the
// counterexample (the analysis answers UNKNOWN for such programs).

// externObj is an object whose contents are inputs "extern NAME".
type externObj struct {
	name    string
	dm      cfa.DataModel
	v       *cfa.Var
	scalars []*externScalar // in cfa.HavocInputs's order
	// whole: its scalars are its bytes, in order (cfa.HavocExtern's
	// call of cfa.HavocObject), and its definition is its bytes
	whole   bool
	byDesig map[string]*externScalar
	next    int // the next scalar an input without a step fills
}

// externScalar is one scalar of an extern object.
type externScalar struct {
	t     *cfa.Type
	desig string     // the designator within the object: ".f[2].g", "" for the object itself
	off   int64      // byte offset within the object
	field *cfa.Field // the bit-field, if it is one
	bits  uint64
	set   bool // the counterexample gives its value
}

// externObjects returns the objects the program's start gives inputs of
// source "extern NAME", by name.
func externObjects(p *cfa.Program) (map[string]*externObj, error) {
	objs := map[string]*externObj{}
	for _, e := range p.Edges {
		if v := wholeExtern(p, e); v != nil && objs[v.Orig] == nil {
			// too many scalars for an input each: one per byte, in
			// order (cfa.HavocExtern)
			x := &externObj{name: v.Orig, dm: p.DataModel, v: v, whole: true, byDesig: map[string]*externScalar{}}
			for i := int64(0); i < v.T.Size; i++ {
				x.scalars = append(x.scalars, &externScalar{t: cfa.UCharType, desig: fmt.Sprintf("[%d]", i), off: i})
			}
			objs[v.Orig] = x
			continue
		}
		h, ok := e.Op.(*cfa.Havoc)
		if !ok {
			continue
		}
		name, ok := strings.CutPrefix(h.Source, "extern ")
		if !ok || objs[name] != nil {
			continue
		}
		v := rootVar(h.LHS)
		if v == nil || !v.Global {
			continue
		}
		x := &externObj{name: name, dm: p.DataModel, v: v, byDesig: map[string]*externScalar{}}
		var bad error
		enumerable := cfa.HavocInputs(&cfa.VarRef{Var: v}, v.T, h.Source, func(op cfa.Op) {
			s, ok := scalarOf(op.(*cfa.Havoc).LHS)
			if !ok {
				bad = fmt.Errorf("witness: cannot reproduce extern %s: a scalar the harness cannot place", name)
				return
			}
			x.scalars = append(x.scalars, s)
			x.byDesig[s.desig] = s
		})
		if bad != nil {
			return nil, bad
		}
		if !enumerable {
			return nil, fmt.Errorf("witness: cannot reproduce extern %s: its scalars cannot be listed", name)
		}
		objs[name] = x
	}
	return objs, nil
}

// wholeExtern returns the extern object whose every byte the program's
// start makes an input (cfa.HavocExtern: a call of cfa.HavocObject on
// its address in p.Init), if e is that call.
func wholeExtern(p *cfa.Program, e *cfa.Edge) *cfa.Var {
	c, ok := e.Op.(*cfa.Call)
	if !ok || c.Fn != cfa.HavocObject || len(c.Args) != 1 || e.From == nil || e.From.Func != p.Init {
		return nil
	}
	x := c.Args[0]
	if cast, ok := x.(*cfa.Cast); ok {
		x = cast.X
	}
	a, ok := x.(*cfa.AddrOf)
	if !ok {
		return nil
	}
	r, ok := a.X.(*cfa.VarRef)
	if !ok || !r.Var.Global || !isIdent(r.Var.Orig) {
		return nil
	}
	return r.Var
}

// rootVar returns the variable an lvalue of members and elements lies in.
func rootVar(e cfa.Expr) *cfa.Var {
	for {
		switch x := e.(type) {
		case *cfa.VarRef:
			return x.Var
		case *cfa.Member:
			e = x.X
		case *cfa.Index:
			e = x.X
		default:
			return nil
		}
	}
}

// scalarOf places the scalar an lvalue of cfa.HavocInputs designates in
// its object: the designator and the byte offset.
func scalarOf(e cfa.Expr) (*externScalar, bool) {
	switch x := e.(type) {
	case *cfa.VarRef:
		return &externScalar{t: x.Var.T}, true
	case *cfa.Member:
		s, ok := scalarOf(x.X)
		st := x.X.Type()
		if !ok || st.Kind != cfa.Struct || x.Field < 0 || x.Field >= len(st.Fields) {
			return nil, false
		}
		f := &st.Fields[x.Field]
		s.desig += "." + fieldName(x.Field, f)
		s.off += f.Offset
		s.t = f.Type
		if f.BitWidth > 0 {
			s.field = f
		}
		return s, true
	case *cfa.Index:
		s, ok := scalarOf(x.X)
		c, isConst := x.I.(*cfa.Const)
		if !ok || !isConst {
			return nil, false
		}
		i := int64(c.V)
		s.desig += fmt.Sprintf("[%d]", i)
		s.off += i * x.T.Size
		s.t = x.T
		return s, true
	}
	return nil, false
}

// fieldName is the name the harness gives the i-th member f of a
// struct: its own, or rv_fI for a member the source leaves unnamed.
func fieldName(i int, f *cfa.Field) string {
	if isIdent(f.Name) {
		return f.Name
	}
	return fmt.Sprintf("rv_f%d", i)
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// externInput returns the extern object that the input in is a scalar
// of, if it is one: by the Havoc at its step, else by its source.
func (c *ctx) externInput(p *cfa.Program, objs map[string]*externObj, in results.Input) (*externObj, bool) {
	if in.Step >= 0 && in.Step < len(c.v.Path) && c.v.Path[in.Step].Edge != nil {
		if v := wholeExtern(p, c.v.Path[in.Step].Edge); v != nil {
			x, ok := objs[v.Orig]
			return x, ok
		}
		if h, ok := c.v.Path[in.Step].Edge.Op.(*cfa.Havoc); ok {
			if name, ok := strings.CutPrefix(h.Source, "extern "); ok && objs[name] != nil {
				return objs[name], true
			}
			return nil, false
		}
	}
	if name, ok := strings.CutPrefix(in.Source, "extern "); ok && objs[name] != nil {
		return objs[name], true
	}
	return nil, false
}

// add records the input in as the value of its scalar of x: the one the
// Havoc at its step stores into, else (an input without a step) the
// next one in cfa.HavocInputs's order.
func (x *externObj) add(c *ctx, in results.Input) {
	var s *externScalar
	if in.Step >= 0 && in.Step < len(c.v.Path) && c.v.Path[in.Step].Edge != nil {
		if h, ok := c.v.Path[in.Step].Edge.Op.(*cfa.Havoc); ok {
			if p, ok := scalarOf(h.LHS); ok {
				s = x.byDesig[p.desig]
			}
		}
	}
	if s == nil {
		for x.next < len(x.scalars) && x.scalars[x.next].set {
			x.next++
		}
		if x.next == len(x.scalars) {
			return
		}
		s = x.scalars[x.next]
	}
	if !s.set {
		s.bits, s.set = in.Bits, true
	}
}

// externDefs returns the harness's definitions of the objects, in name
// order, or why it cannot define one.
func externDefs(objs map[string]*externObj) (string, error) {
	if len(objs) == 0 {
		return "", nil
	}
	var names []string
	for name := range objs {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("\n/* Objects the program declares extern and no source defines (or\n * defines weakly): the harness defines them with the counterexample's\n * values. */\n")
	for _, name := range names {
		def, err := objs[name].def()
		if err != nil {
			return "", err
		}
		b.WriteString(def)
	}
	return b.String(), nil
}

// def returns the definition of x (see the comment at the top).
func (x *externObj) def() (string, error) {
	if !isIdent(x.name) {
		return "", fmt.Errorf("witness: cannot reproduce extern %s: its name is no C identifier", x.name)
	}
	for _, s := range x.scalars {
		if s.t.Kind == cfa.Pointer {
			return "", fmt.Errorf("witness: counterexample depends on extern %s, which holds a pointer (%s%s): a harness cannot supply where a pointer from outside the program points", x.name, x.name, s.desig)
		}
	}
	quals := ""
	if x.v.ReadOnly {
		quals = "const "
	}
	if x.whole {
		return x.bytesDef(quals)
	}
	if decl, ok := spellType(x.v.T, x.name, "", x.dm); ok && x.typedValues() {
		var b strings.Builder
		if x.v.T.Kind != cfa.Array && x.v.T.Kind != cfa.Struct {
			fmt.Fprintf(&b, "%s%s = %s;\n", quals, decl, scalarLit(x.scalars[0].t, x.scalars[0].bits))
			return b.String(), nil
		}
		fmt.Fprintf(&b, "%s%s = {\n", quals, decl)
		n := 0
		for _, s := range x.scalars {
			if s.set {
				fmt.Fprintf(&b, "\t%s = %s,\n", s.desig, scalarLit(s.t, s.bits))
				n++
			}
		}
		if n == 0 && len(x.scalars) > 0 {
			fmt.Fprintf(&b, "\t%s = 0,\n", x.scalars[0].desig)
		}
		fmt.Fprintf(&b, "};\n_Static_assert(sizeof %s == %d, \"%s has the size the analysis gives it\");\n", x.name, x.v.T.Size, x.name)
		return b.String(), nil
	}
	return x.bytesDef(quals)
}

// typedValues reports whether every value has a literal of its type in a
// typed definition: a _Bool holds 0 or 1, a float is no NaN.
func (x *externObj) typedValues() bool {
	for _, s := range x.scalars {
		switch {
		case s.t.Kind == cfa.Bool && s.bits > 1:
			return false
		case s.t.Kind == cfa.Float && math.IsNaN(floatOf(s.t, s.bits)):
			return false
		}
	}
	return true
}

// spellType spells a declaration of decl with type t, in a layout gcc
// gives it as the analysis does: false for what it cannot spell so (a
// pointer, a union, an array of unknown length, a struct with bit-fields
// or with members off their natural places).
func spellType(t *cfa.Type, decl, indent string, dm cfa.DataModel) (string, bool) {
	switch t.Kind {
	case cfa.Array:
		if t.Len < 0 {
			return "", false
		}
		return spellType(t.Elem, fmt.Sprintf("%s[%d]", decl, t.Len), indent, dm)
	case cfa.Struct:
		if !naturalLayout(t, dm) {
			return "", false
		}
		var b strings.Builder
		b.WriteString("struct {\n")
		for i := range t.Fields {
			f := &t.Fields[i]
			s, ok := spellType(f.Type, fieldName(i, f), indent+"\t", dm)
			if !ok {
				return "", false
			}
			fmt.Fprintf(&b, "%s\t%s;\n", indent, s)
		}
		fmt.Fprintf(&b, "%s} %s", indent, decl)
		return b.String(), true
	case cfa.Int, cfa.Bool, cfa.Float:
		ct, ok := witness.CType(t)
		if !ok {
			return "", false
		}
		return ct + " " + decl, true
	}
	return "", false
}

// naturalLayout reports whether the members of struct t lie where C's
// rules place them by their types' sizes and alignments, and t's size
// and alignment are theirs: no bit-fields, packing or alignment
// attributes.
func naturalLayout(t *cfa.Type, dm cfa.DataModel) bool {
	var off, align int64 = 0, 1
	for _, f := range t.Fields {
		fa := memberAlign(f.Type, dm)
		if f.BitWidth > 0 || f.Type.Size <= 0 || fa <= 0 {
			return false
		}
		off = alignUp(off, fa)
		if f.Offset != off {
			return false
		}
		off += f.Type.Size
		align = max(align, fa)
	}
	return len(t.Fields) > 0 && t.Align == align && t.Size == alignUp(off, align)
}

// memberAlign is the alignment of a struct member of type t: the i386
// System V ABI (ILP32) aligns long long, double and long double members
// to 4 bytes, less than such objects on their own.
func memberAlign(t *cfa.Type, dm cfa.DataModel) int64 {
	if t.Kind == cfa.Array {
		return memberAlign(t.Elem, dm)
	}
	if dm == cfa.ILP32 && (t.Kind == cfa.Int || t.Kind == cfa.Float) && t.Align > 4 {
		return 4
	}
	return t.Align
}

func alignUp(n, a int64) int64 { return (n + a - 1) / a * a }

// floatOf returns the value of the float bits of type t (a long double's
// as a double's, as the analysis keeps it).
func floatOf(t *cfa.Type, bits uint64) float64 {
	if t.Bits == 32 {
		return float64(math.Float32frombits(uint32(bits)))
	}
	return math.Float64frombits(bits)
}

// scalarLit is a C constant of type t with the value bits.
func scalarLit(t *cfa.Type, bits uint64) string {
	if t.Kind != cfa.Float {
		return witness.CValue(t, bits)
	}
	f := floatOf(t, bits)
	suffix := map[int]string{32: "f", 64: ""}[t.Bits]
	if t.Bits != 32 && t.Bits != 64 {
		suffix = "L"
	}
	switch {
	case math.IsInf(f, 1):
		return "__builtin_inf" + strings.ToLower(suffix) + "()"
	case math.IsInf(f, -1):
		return "-__builtin_inf" + strings.ToLower(suffix) + "()"
	}
	bs := 64
	if t.Bits == 32 {
		bs = 32
	}
	return strconv.FormatFloat(f, 'x', -1, bs) + suffix
}

// bytesDef defines x as its bytes, laid out as the analysis lays it out
// (little-endian, bit-fields at their bit offsets), with the scalars'
// values in a comment.
func (x *externObj) bytesDef(quals string) (string, error) {
	size, align := x.v.T.Size, x.v.T.Align
	if size <= 0 {
		return "", fmt.Errorf("witness: cannot reproduce extern %s: its size is unknown", x.name)
	}
	img := make([]byte, size)
	var b strings.Builder
	fmt.Fprintf(&b, "/* %s, as its bytes:\n", comment(x.name))
	for _, s := range x.scalars {
		if !s.set {
			continue
		}
		if err := s.store(img); err != nil {
			return "", fmt.Errorf("witness: cannot reproduce extern %s: %s%s %v", x.name, x.name, s.desig, err)
		}
		if !x.whole {
			fmt.Fprintf(&b, " *   %s%s = %s\n", comment(x.name), comment(s.desig), comment(scalarLit(s.t, s.bits)))
		}
	}
	if x.whole {
		b.WriteString(" *   every byte an input of the counterexample (bytes it leaves open are 0)\n")
	}
	b.WriteString(" */\n")
	fmt.Fprintf(&b, "%sunsigned char %s[%d] __attribute__((aligned(%d))) = {", quals, x.name, size, max(align, 1))
	for i, c := range img {
		if i%12 == 0 {
			b.WriteString("\n\t")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "0x%02x,", c)
	}
	b.WriteString("\n};\n")
	return b.String(), nil
}

// store writes the scalar's value into the object's bytes img.
func (s *externScalar) store(img []byte) error {
	if f := s.field; f != nil {
		v := cfa.Truncate(s.bits, f.BitWidth)
		for i := 0; i < f.BitWidth; i++ {
			bit := s.off*8 + int64(f.BitOffset+i)
			if bit/8 >= int64(len(img)) {
				return fmt.Errorf("lies outside the object")
			}
			if v>>uint(i)&1 != 0 {
				img[bit/8] |= 1 << uint(bit%8)
			} else {
				img[bit/8] &^= 1 << uint(bit%8)
			}
		}
		return nil
	}
	var raw []byte
	switch {
	case s.t.Kind == cfa.Float && s.t.Bits != 32 && s.t.Bits != 64:
		raw = x87(s.bits)
	default:
		n := s.t.Size
		if n <= 0 || n > 8 {
			if s.t.Kind != cfa.Int || n != 16 {
				return fmt.Errorf("has a size (%d) the harness cannot write", n)
			}
		}
		raw = make([]byte, n)
		for i := int64(0); i < n && i < 8; i++ {
			raw[i] = byte(s.bits >> (8 * uint(i)))
		}
		if n == 16 && s.t.Signed && int64(s.bits) < 0 {
			for i := 8; i < 16; i++ {
				raw[i] = 0xff
			}
		}
	}
	if s.off < 0 || s.off+int64(len(raw)) > int64(len(img)) {
		return fmt.Errorf("lies outside the object")
	}
	copy(img[s.off:], raw)
	return nil
}

// x87 returns the 10 bytes of the x87 extended-precision number (long
// double on x86) equal to the double with the bits d.
func x87(d uint64) []byte {
	sign := d >> 63
	exp := int64(d >> 52 & 0x7ff)
	frac := d & (1<<52 - 1)
	var e, m uint64
	switch {
	case exp == 0 && frac == 0:
	case exp == 0x7ff:
		e, m = 0x7fff, 1<<63|frac<<11
	case exp == 0:
		// subnormal: normalise
		p := int64(63 - bits.LeadingZeros64(frac))
		e = uint64(p - 1074 + 16383)
		m = frac << uint(63-p)
	default:
		e, m = uint64(exp-1023+16383), 1<<63|frac<<11
	}
	raw := make([]byte, 10)
	for i := 0; i < 8; i++ {
		raw[i] = byte(m >> (8 * uint(i)))
	}
	se := sign<<15 | e
	raw[8], raw[9] = byte(se), byte(se>>8)
	return raw
}

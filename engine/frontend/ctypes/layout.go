package ctypes

import (
	"reflect"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/ccparse"
)

// cc/v4 lays out structs by the platform ABI (with the alignment an
// _Alignas or aligned(N) asks of a member or of a struct) and ignores
// __attribute__((packed)) and #pragma pack. gcc packs a packed struct (no
// padding, every member at alignment 1 unless the member asks for one
// with _Alignas or aligned(N)), and under #pragma pack(N) caps the
// alignment of every member at N ("Structure-Layout Pragmas" in the GCC
// manual; engine/frontend/ccparse places the pragmas), the struct's
// alignment being the largest of its members' and of the aligned(N) of
// its definition. This
// file is the one owner of the layouts that differ from cc/v4's: the
// type map lays them out here (OwnLayout, relayout), and sizeof, _Alignof
// and member offsets of such types are never folded by cc/v4
// (HasBadSizeof), so the encoding, the value analysis and the replay all
// read the one layout of cfa.Type.

// packedAttr reports whether a carries packed.
func packedAttr(a *cc.Attributes) bool {
	return a != nil && (a.IsAttrSet("packed") || a.IsAttrSet("__packed__"))
}

// alignedAttr is the alignment a's aligned(N) asks for (0: none).
func alignedAttr(a *cc.Attributes) int64 {
	if a == nil || a.Aligned() <= 0 {
		return 0
	}
	return a.Aligned()
}

// memberAlign is the alignment the _Alignas or aligned(N) of member f
// asks for (0: none). cc/v4 keeps it unexported (Field.align); ok is
// false when it cannot be read (another cc/v4), and the layout is then
// not computed.
func memberAlign(f *cc.Field) (n int64, ok bool) {
	v := reflect.ValueOf(f).Elem().FieldByName("align")
	if !v.IsValid() || !v.CanInt() {
		return 0, false
	}
	return v.Int(), true
}

// definitionAlign is the alignment the aligned(N) of the definition of
// the struct or union t asks for (0: none), which cc/v4 keeps
// unexported (defAlign) and removes from the type's attributes.
func definitionAlign(t cc.Type) (n int64, ok bool) {
	if t == nil {
		return 0, true
	}
	v := reflect.ValueOf(t)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return 0, false
	}
	v = v.Elem().FieldByName("defAlign")
	if !v.IsValid() || !v.CanInt() {
		return 0, false
	}
	return v.Int(), true
}

// packOf is the #pragma pack value gcc lays the struct or union t out
// under: 0 (none), the maximum member alignment in bytes, or ccparse.PackUnknown.
func (tm *Map) packOf(t cc.Type) int64 {
	if len(tm.packs) == 0 {
		return 0
	}
	if k := ccparse.LayoutKey(t); k != nil {
		return tm.packs[k]
	}
	return 0
}

// OwnLayout reports whether gcc lays out t otherwise than cc/v4: a
// packed struct or union, one whose aligned(N) raises its alignment, one
// whose #pragma pack lowers the alignment of a member (or may, when the
// value is not known, or has bit-fields: gcc then packs them without the
// rule that keeps a bit-field within a unit of its type), or an aggregate
// that contains one.
func (tm *Map) OwnLayout(t cc.Type) bool { return tm.ownLayoutDepth(t, 0) }

func (tm *Map) ownLayoutDepth(t cc.Type, depth int) bool {
	if t == nil || depth > 32 {
		return false
	}
	switch x := t.(type) {
	case *cc.ArrayType:
		return tm.ownLayoutDepth(x.Elem(), depth+1)
	case *cc.StructType:
		if packedAttr(x.Attributes()) || alignedAttr(x.Attributes()) > int64(x.Align()) || tm.packLowers(t, x.NumFields(), x.FieldByIndex) || tm.bitFieldIssue(x) != "" {
			return true
		}
		for i := 0; i < x.NumFields(); i++ {
			if f := x.FieldByIndex(i); f != nil && tm.ownLayoutDepth(f.Type(), depth+1) {
				return true
			}
		}
	case *cc.UnionType:
		if packedAttr(x.Attributes()) || alignedAttr(x.Attributes()) > int64(x.Align()) || tm.packLowers(t, x.NumFields(), x.FieldByIndex) {
			return true
		}
		for i := 0; i < x.NumFields(); i++ {
			if f := x.FieldByIndex(i); f != nil && tm.ownLayoutDepth(f.Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// packLowers reports whether the #pragma pack value of t changes its
// layout (or may).
func (tm *Map) packLowers(t cc.Type, nf int, field func(int) *cc.Field) bool {
	pack := tm.packOf(t)
	if pack == 0 {
		return false
	}
	if pack == ccparse.PackUnknown {
		return true
	}
	for i := 0; i < nf; i++ {
		f := field(i)
		if f == nil {
			continue
		}
		a, ok := memberAlign(f)
		if !ok || f.IsBitfield() || max(int64(f.Type().Align()), a) > pack {
			return true
		}
	}
	return false
}

// memberLayout is what the layout of one member depends on besides its
// type: the alignment its declaration asks for, and whether it is a
// bit-field.
type memberLayout struct {
	align    int64
	bitField bool
}

// relayout lays out the fields of r (a struct or union whose field types
// are final) as gcc does: each field at the next multiple of its
// alignment, the size rounded up to the largest alignment. A field's
// alignment is that of its type, or the one its declaration asks for if
// larger (m); in a packed struct only the one its declaration asks for,
// else 1; under #pragma pack(N) (pack > 0) at most N. The struct's
// alignment is at least aligned, its definition's aligned(N), which
// #pragma pack does not cap. It reports false for bit-fields, whose
// packing it does not compute.
func relayout(r *cfa.Type, m []memberLayout, packed bool, pack, aligned int64) bool {
	var off, maxAlign int64 = 0, 1
	for i := range r.Fields {
		f := &r.Fields[i]
		if f.BitWidth > 0 || i < len(m) && m[i].bitField {
			return false
		}
		var decl int64
		if i < len(m) {
			decl = m[i].align
		}
		a := max(f.Type.Align, decl, 1)
		if packed {
			a = max(decl, 1)
		}
		if pack > 0 {
			a = min(a, pack)
		}
		maxAlign = max(maxAlign, a)
		if r.Kind == cfa.Union {
			f.Offset = 0
			off = max(off, f.Type.Size)
			continue
		}
		off = (off + a - 1) / a * a
		f.Offset = off
		off += f.Type.Size
	}
	maxAlign = max(maxAlign, aligned)
	r.Align = maxAlign
	r.Size = (off + maxAlign - 1) / maxAlign * maxAlign
	return true
}

// packValues are the values a struct whose #pragma pack value is not
// known may be laid out under: none, and every value gcc accepts.
var packValues = []int64{0, 1, 2, 4, 8, 16}

// gccLayout lays out r, the conversion of the struct or union t whose
// layout gcc computes otherwise than cc/v4 (OwnLayout), and returns what
// it cannot lay out ("" when it did).
func (tm *Map) gccLayout(r *cfa.Type, t cc.Type) string {
	var packed bool
	var aligned int64
	var nf int
	var field func(int) *cc.Field
	switch st := t.(type) {
	case *cc.StructType:
		if issue := tm.bitFieldIssue(st); issue != "" {
			return issue
		}
		packed, aligned, nf, field = packedAttr(st.Attributes()), alignedAttr(st.Attributes()), st.NumFields(), st.FieldByIndex
	case *cc.UnionType:
		packed, aligned, nf, field = packedAttr(st.Attributes()), alignedAttr(st.Attributes()), st.NumFields(), st.FieldByIndex
	default:
		return ""
	}
	def, ok := definitionAlign(ccparse.LayoutKey(t))
	if !ok {
		return "the layout of " + r.String() + " (cc/v4's alignments cannot be read)"
	}
	aligned = max(aligned, def)
	var m []memberLayout
	for i := 0; i < nf; i++ {
		f := field(i)
		if f == nil {
			continue
		}
		a, ok := memberAlign(f)
		if !ok {
			return "the layout of " + r.String() + " (cc/v4's alignments cannot be read)"
		}
		m = append(m, memberLayout{align: a, bitField: f.IsBitfield()})
	}
	pack := tm.packOf(t)
	if pack != ccparse.PackUnknown {
		if relayout(r, m, packed, pack, aligned) {
			return ""
		}
		switch {
		case pack > 0:
			return "bit-fields in " + r.String() + " under #pragma pack (gcc's packing of bit-fields is not computed)"
		case packed:
			return "bit-fields in a packed " + r.String() + " (gcc's packing of bit-fields is not computed)"
		}
		return "bit-fields in " + r.String() + " after a member laid out otherwise than by cc/v4 (gcc's packing of bit-fields is not computed)"
	}
	// Not known: the layout must be the same under every value.
	var first *cfa.Type
	for _, p := range packValues {
		c := *r
		c.Fields = append([]cfa.Field(nil), r.Fields...)
		if !relayout(&c, m, packed, p, aligned) && p > 0 {
			return r.String() + " defined where a #pragma pack cannot be placed (" + tm.unplaced + "), with bit-fields"
		}
		if first == nil {
			first = &c
			continue
		}
		if c.Size != first.Size || c.Align != first.Align || !sameOffsets(&c, first) {
			return r.String() + " defined where a #pragma pack cannot be placed (" + tm.unplaced + "): its layout depends on the pack value"
		}
	}
	*r = *first
	return ""
}

func sameOffsets(a, b *cfa.Type) bool {
	for i := range a.Fields {
		if a.Fields[i].Offset != b.Fields[i].Offset {
			return false
		}
	}
	return true
}

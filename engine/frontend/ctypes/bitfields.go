package ctypes

import (
	"modernc.org/cc/v4"
)

// bitFieldIssue reports whether cc/v4 lays out the struct st, which has
// bit-fields and no packing attribute or #pragma pack,
// otherwise than gcc, and names it ("" when it does not, or when st is
// not of that kind). cc/v4 starts a bit-field of a type wider than what
// precedes it in a fresh unit of its type, and a member after a
// bit-field after that unit, where gcc packs them: `struct { char c;
// long long e:40; }` is 16 bytes to cc/v4 and 8 to gcc (LP64 and ILP32),
// and under ILP32 cc/v4 also aligns a long long bit-field's unit at 8
// where gcc -m32 aligns long long members at 4. cc/v4 folds sizeof and
// offsetof with its own layout, so the type map cannot correct it; the
// translation makes such a program unsupported instead (Map.LayoutIssue).
//
// gcc's layout of bit-fields on x86 (System V ABI, i386 section 2.2 and
// AMD64 section 3.1.2; gcc's PCC_BITFIELD_TYPE_MATTERS): a bit-field of
// type T and width w starts at the next free bit unless it would then
// cross the end of the sizeof(T)-byte unit that starts at the last
// multiple of alignof(T) at or before that bit, in which case it starts
// at the next multiple of alignof(T); a zero-width bit-field moves to the
// next multiple of alignof(T); a named bit-field's alignof(T) counts in
// the struct's alignment, an unnamed one's does not; other members are
// placed at the next multiple of their alignment.
func (tm *Map) bitFieldIssue(st *cc.StructType) string {
	if packedAttr(st.Attributes()) || tm.packOf(st) != 0 {
		return "" // gccLayout refuses bit-fields under packing
	}
	hasBits := false
	for i := 0; i < st.NumFields(); i++ {
		f := st.FieldByIndex(i)
		if f == nil {
			return tm.bitFieldMessage(st)
		}
		hasBits = hasBits || f.IsBitfield()
	}
	if !hasBits {
		return ""
	}
	var pos, align int64 = 0, max(alignedAttr(st.Attributes()), 1) // bits; bytes
	for i := 0; i < st.NumFields(); i++ {
		f := st.FieldByIndex(i)
		ft := f.Type()
		size, al := ft.Size(), int64(ft.Align())
		if at, ok := ft.(*cc.ArrayType); ok && i == st.NumFields()-1 && !f.IsBitfield() && (size <= 0 || ft.IsIncomplete()) {
			size, al = 0, int64(at.Elem().Align()) // a flexible array member
		}
		decl, ok := memberAlign(f)
		if size < 0 || al <= 0 || !ok || f.IsBitfield() && decl > al {
			return tm.bitFieldMessage(st) // a layout this rule does not cover: refused, not trusted
		}
		al = max(al, decl)
		unit := al * 8
		var at int64
		if f.IsBitfield() {
			w := f.ValueBits()
			if w == 0 {
				pos = (pos + unit - 1) / unit * unit
				continue
			}
			if start := pos / unit * unit; pos+w > start+size*8 {
				pos = (pos + unit - 1) / unit * unit
			}
			at = pos
			pos += w
			if f.Name() != "" {
				align = max(align, al)
			}
		} else {
			pos = (pos + unit - 1) / unit * unit
			at = pos
			pos += size * 8
			align = max(align, al)
		}
		if f.Name() != "" && at != f.Offset()*8+int64(f.OffsetBits()) {
			return tm.bitFieldMessage(st)
		}
	}
	bytes := (pos + 7) / 8
	if size := (bytes + align - 1) / align * align; size != st.Size() || align != int64(st.Align()) {
		return tm.bitFieldMessage(st)
	}
	return ""
}

func (tm *Map) bitFieldMessage(st *cc.StructType) string {
	return "the layout of " + st.String() + " (bit-fields that gcc packs otherwise than cc/v4, which folds sizeof and offsetof with its own layout)"
}

package frontend

import (
	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
)

// cc/v4 lays out structs by the platform ABI and ignores
// __attribute__((packed)) and a struct's aligned(N). gcc packs such a
// struct (no padding, every field at alignment 1) and raises its
// alignment to N, its size to a multiple of N. This file is the one owner of the layouts that
// differ from cc/v4's: the type map lays them out here (ownLayout,
// relayout), and sizeof, _Alignof and member offsets of such types are
// never folded by cc/v4 (hasBadSizeof), so the encoding, the value
// analysis and the replay all read the one layout of cfa.Type.

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

// ownLayout reports whether gcc lays out t otherwise than cc/v4: a
// packed struct or union, one whose aligned(N) raises its alignment, or
// an aggregate that contains one.
func ownLayout(t cc.Type) bool { return ownLayoutDepth(t, 0) }

func ownLayoutDepth(t cc.Type, depth int) bool {
	if t == nil || depth > 32 {
		return false
	}
	switch x := t.(type) {
	case *cc.ArrayType:
		return ownLayoutDepth(x.Elem(), depth+1)
	case *cc.StructType:
		if packedAttr(x.Attributes()) || alignedAttr(x.Attributes()) > int64(x.Align()) {
			return true
		}
		for i := 0; i < x.NumFields(); i++ {
			if f := x.FieldByIndex(i); f != nil && ownLayoutDepth(f.Type(), depth+1) {
				return true
			}
		}
	case *cc.UnionType:
		if packedAttr(x.Attributes()) || alignedAttr(x.Attributes()) > int64(x.Align()) {
			return true
		}
		for i := 0; i < x.NumFields(); i++ {
			if f := x.FieldByIndex(i); f != nil && ownLayoutDepth(f.Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// relayout lays out the fields of r (a struct or union whose field types
// are final) as gcc does: each field at the next multiple of its
// alignment (1 when packed), the size rounded up to the largest
// alignment, at least aligned (an aligned(N) attribute; 0: none). It
// reports false for bit-fields, whose packing it does not compute.
func relayout(r *cfa.Type, packed bool, aligned int64) bool {
	var off, maxAlign int64 = 0, 1
	for i := range r.Fields {
		f := &r.Fields[i]
		if f.BitWidth > 0 {
			return false
		}
		a := f.Type.Align
		if packed || a < 1 {
			a = 1
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

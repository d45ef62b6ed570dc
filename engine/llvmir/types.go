package llvmir

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir/types"

	"github.com/reverify/reverify/engine/cfa"
)

// layout holds the ABI alignments of a module's target data layout
// (LLVM Language Reference, "Data Layout"): integer and floating-point
// alignments by width in bits, and the pointer width and alignment.
// Struct types are laid out from it as LLVM lays them out: each field at
// the next multiple of its ABI alignment (1 in packed structs), the size
// rounded up to the struct's alignment.
type layout struct {
	ints    map[int]int64 // bits → ABI alignment in bytes
	floats  map[int]int64
	ptrBits int
	ptrAl   int64
}

// parseLayout reads the specifications of a datalayout string over
// LLVM's defaults; model gives the pointer width when the string has no
// "p:" entry.
func parseLayout(dl string, model cfa.DataModel) *layout {
	l := &layout{
		ints:    map[int]int64{1: 1, 8: 1, 16: 2, 32: 4, 64: 4},
		floats:  map[int]int64{16: 2, 32: 4, 64: 8, 128: 16},
		ptrBits: model.PointerBits(),
	}
	l.ptrAl = int64(l.ptrBits / 8)
	for _, spec := range strings.Split(dl, "-") {
		if spec == "" {
			continue
		}
		parts := strings.Split(spec, ":")
		kind, width := spec[0], parts[0][1:]
		switch kind {
		case 'i', 'f':
			if len(parts) < 2 {
				continue
			}
			bits, err1 := strconv.Atoi(width)
			abi, err2 := strconv.Atoi(parts[1])
			if err1 != nil || err2 != nil {
				continue
			}
			if kind == 'i' {
				l.ints[bits] = int64(abi / 8)
			} else {
				l.floats[bits] = int64(abi / 8)
			}
		case 'p':
			// p[n]:size:abi; only the default address space 0
			if width != "" && width != "0" || len(parts) < 3 {
				continue
			}
			size, err1 := strconv.Atoi(parts[1])
			abi, err2 := strconv.Atoi(parts[2])
			if err1 == nil && err2 == nil {
				l.ptrBits, l.ptrAl = size, int64(abi/8)
			}
		}
	}
	return l
}

// intAlign is the ABI alignment of an integer of the given width: its
// own entry, else the entry of the next larger width, else the largest
// one (LLVM's rule for widths the layout does not list).
func (l *layout) intAlign(bits int) int64 {
	if a, ok := l.ints[bits]; ok {
		return a
	}
	best, bestBits := int64(0), 0
	for b, a := range l.ints {
		if b > bits && (bestBits == 0 || b < bestBits) {
			best, bestBits = a, b
		}
	}
	if bestBits != 0 {
		return best
	}
	for b, a := range l.ints {
		if b > bestBits {
			best, bestBits = a, b
		}
	}
	return best
}

// typeMap maps LLVM types to cfa types: iN to the unsigned N-bit integer
// (LLVM's integers have no sign; signed operations convert explicitly),
// i1 to _Bool, pointers, arrays, structs (fields f0, f1, … at LLVM's
// offsets), functions, float and double. Other types (vectors, x86_fp80,
// widths other than 1, 8, 16, 32, 64 and 128) are unsupported.
type typeMap struct {
	l       *layout
	structs map[types.Type]*cfa.Type
	ptrs    map[*cfa.Type]*cfa.Type
}

func newTypeMap(l *layout) *typeMap {
	return &typeMap{l: l, structs: map[types.Type]*cfa.Type{}, ptrs: map[*cfa.Type]*cfa.Type{}}
}

// errUnsupportedType is the error of a type the mapping cannot express.
type errUnsupportedType struct{ t types.Type }

func (e errUnsupportedType) Error() string {
	return "unsupported type " + e.t.LLString()
}

func (tm *typeMap) ptr(elem *cfa.Type) *cfa.Type {
	if p, ok := tm.ptrs[elem]; ok {
		return p
	}
	p := cfa.PointerTo(elem, tm.l.ptrBits)
	p.Align = tm.l.ptrAl
	tm.ptrs[elem] = p
	return p
}

// of returns the cfa type of t, or an errUnsupportedType.
func (tm *typeMap) of(t types.Type) (*cfa.Type, error) {
	switch t := t.(type) {
	case *types.VoidType:
		return cfa.VoidType, nil
	case *types.IntType:
		switch t.BitSize {
		case 1:
			return cfa.BoolType, nil
		case 8, 16, 32, 64, 128:
			it := cfa.IntType(int(t.BitSize), false)
			if a := tm.l.intAlign(int(t.BitSize)); a != it.Align {
				c := *it
				c.Align = a
				return &c, nil
			}
			return it, nil
		}
	case *types.FloatType:
		switch t.Kind {
		case types.FloatKindFloat:
			return &cfa.Type{Kind: cfa.Float, Bits: 32, Name: "float", Size: 4, Align: tm.l.floats[32]}, nil
		case types.FloatKindDouble:
			return &cfa.Type{Kind: cfa.Float, Bits: 64, Name: "double", Size: 8, Align: tm.l.floats[64]}, nil
		}
	case *types.PointerType:
		if t.AddrSpace != 0 {
			break
		}
		elem, err := tm.of(t.ElemType)
		if err != nil {
			// a pointer to what cannot be expressed is still a pointer:
			// only a load or store through it needs the pointee
			elem = cfa.CharType
		}
		return tm.ptr(elem), nil
	case *types.ArrayType:
		elem, err := tm.of(t.ElemType)
		if err != nil {
			return nil, err
		}
		a := cfa.ArrayOf(elem, int64(t.Len))
		return a, nil
	case *types.StructType:
		return tm.structType(t)
	case *types.FuncType:
		ft := &cfa.Type{Kind: cfa.Func, Variadic: t.Variadic}
		r, err := tm.of(t.RetType)
		if err != nil {
			return nil, err
		}
		ft.Result = r
		for _, p := range t.Params {
			pt, err := tm.of(p)
			if err != nil {
				return nil, err
			}
			ft.Params = append(ft.Params, pt)
		}
		return ft, nil
	}
	return nil, errUnsupportedType{t}
}

// structType lays out an LLVM struct type. A named type is made once
// (so recursive types through pointers terminate); an opaque one is an
// incomplete struct.
func (tm *typeMap) structType(t *types.StructType) (*cfa.Type, error) {
	if c, ok := tm.structs[t]; ok {
		return c, nil
	}
	// %struct.S → "struct S"; a literal struct type is named by its own
	// text, so that cfa.Same (names, sizes, field counts) never takes
	// two different literal types for one
	name := t.LLString()
	if n := t.Name(); n != "" {
		name = strings.Replace(n, ".", " ", 1)
	}
	c := &cfa.Type{Kind: cfa.Struct, Name: name}
	tm.structs[t] = c
	if t.Opaque {
		return c, nil
	}
	var off, align int64 = 0, 1
	for i, ft := range t.Fields {
		f, err := tm.of(ft)
		if err != nil {
			delete(tm.structs, t)
			return nil, err
		}
		a := f.Align
		if t.Packed || a < 1 {
			a = 1
		}
		off = (off + a - 1) / a * a
		c.Fields = append(c.Fields, cfa.Field{Name: fmt.Sprintf("f%d", i), Type: f, Offset: off})
		off += f.Size
		if a > align {
			align = a
		}
	}
	c.Size = (off + align - 1) / align * align
	c.Align = align
	return c, nil
}

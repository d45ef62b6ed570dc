package ctypes

import (
	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/ccparse"
)

// Map converts cc/v4 types to cfa types under one data model. Integer
// types map to the canonical cfa.IntType instances of their width and
// signedness (so long is "long long" under LP64 and "int" under ILP32);
// enumerations map to their underlying integer type; floating types to
// Float types of their width; struct and union types are memoised so that
// recursive types terminate.
type Map struct {
	ptrBits int
	cache   map[cc.Type]*cfa.Type
	floats  map[string]*cfa.Type
	bitInts map[[2]int]*cfa.Type
	// LayoutIssue names a layout gcc computes and the type map does not
	// (layout.go); the translation then makes Init unsupported.
	LayoutIssue string
	// packs are the #pragma pack values of the struct and union
	// definitions laid out under one (by ccparse.LayoutKey; AddPacks), and
	// unplaced the position of a pack pragma that could not be placed.
	packs    map[cc.Type]int64
	unplaced string
}

// NewMap returns the type map of the data model m.
func NewMap(m cfa.DataModel) *Map {
	return &Map{ptrBits: m.PointerBits(), cache: map[cc.Type]*cfa.Type{}, floats: map[string]*cfa.Type{}, bitInts: map[[2]int]*cfa.Type{}}
}

func (tm *Map) intType(bits int, signed bool) *cfa.Type {
	switch bits {
	case 8, 16, 32, 64, 128:
		return cfa.IntType(bits, signed)
	}
	s := 0
	if signed {
		s = 1
	}
	k := [2]int{bits, s}
	if t := tm.bitInts[k]; t != nil {
		return t
	}
	t := &cfa.Type{Kind: cfa.Int, Bits: bits, Signed: signed, Size: int64((bits + 7) / 8), Align: 1}
	tm.bitInts[k] = t
	return t
}

func (tm *Map) FloatType(name string, size int64, align int) *cfa.Type {
	if t := tm.floats[name]; t != nil {
		return t
	}
	t := &cfa.Type{Kind: cfa.Float, Bits: int(size * 8), Name: name, Size: size, Align: int64(align)}
	tm.floats[name] = t
	return t
}

// AddPacks adds the #pragma pack values of a translation unit's struct
// and union definitions (nil: none); the first unit's pack pragma that
// could not be placed is the one layout issues name.
func (tm *Map) AddPacks(p *ccparse.PackInfo) {
	if p == nil {
		return
	}
	for k, v := range p.Packs {
		if tm.packs == nil {
			tm.packs = map[cc.Type]int64{}
		}
		tm.packs[k] = v
	}
	if tm.unplaced == "" {
		tm.unplaced = p.Unplaced
	}
}

// PtrBits is the width of pointers.
func (tm *Map) PtrBits() int { return tm.ptrBits }

// Ptr returns a pointer to elem.
func (tm *Map) Ptr(elem *cfa.Type) *cfa.Type { return cfa.PointerTo(elem, tm.ptrBits) }

// SizeT is the type of sizeof; PtrdiffT the type of pointer differences.
func (tm *Map) SizeT() *cfa.Type    { return cfa.IntType(tm.ptrBits, false) }
func (tm *Map) PtrdiffT() *cfa.Type { return cfa.IntType(tm.ptrBits, true) }

func (tm *Map) Typ(t cc.Type) *cfa.Type {
	if t == nil {
		return cfa.IntT
	}
	if r := tm.cache[t]; r != nil {
		return r
	}
	r := tm.convert(t)
	tm.cache[t] = r
	return r
}

func (tm *Map) convert(t cc.Type) *cfa.Type {
	switch k := t.Kind(); k {
	case cc.Void:
		return cfa.VoidType
	case cc.Bool:
		return cfa.BoolType
	case cc.Char, cc.SChar, cc.UChar, cc.Short, cc.UShort, cc.Int, cc.UInt, cc.Long, cc.ULong,
		cc.LongLong, cc.ULongLong, cc.Int128, cc.UInt128:
		size := t.Size()
		if size <= 0 {
			size = 4
		}
		return tm.intType(int(size*8), cc.IsSignedInteger(t))
	case cc.Enum:
		u := t.(*cc.EnumType).UnderlyingType()
		if u == nil || u.Kind() == cc.Enum || u.Kind() == cc.InvalidKind {
			return cfa.IntT
		}
		return tm.Typ(u)
	case cc.Float, cc.Double, cc.LongDouble, cc.Float16, cc.BFloat16, cc.Float32, cc.Float32x, cc.Float64,
		cc.Float64x, cc.Float128, cc.Float128x, cc.Decimal32, cc.Decimal64, cc.Decimal128,
		cc.ComplexChar, cc.ComplexDouble, cc.ComplexFloat, cc.ComplexFloat16, cc.ComplexInt, cc.ComplexLong,
		cc.ComplexLongDouble, cc.ComplexLongLong, cc.ComplexShort, cc.ComplexUInt, cc.ComplexUShort:
		size := t.Size()
		if size <= 0 {
			size = 8
		}
		return tm.FloatType(k.String(), size, t.Align())
	case cc.Ptr:
		pt := t.(*cc.PointerType)
		r := &cfa.Type{Kind: cfa.Pointer, Bits: tm.ptrBits, Size: int64(tm.ptrBits / 8), Align: int64(tm.ptrBits / 8)}
		tm.cache[t] = r
		r.Elem = tm.Typ(pt.Elem())
		return r
	case cc.Array:
		at := t.(*cc.ArrayType)
		n := at.Len()
		if at.IsVLA() || at.IsIncomplete() || n < 0 {
			n = -1
		}
		r := &cfa.Type{Kind: cfa.Array, Len: n}
		tm.cache[t] = r
		r.Elem = tm.Typ(at.Elem())
		r.Align = r.Elem.Align
		if n >= 0 {
			r.Size = t.Size()
			if r.Size < 0 || tm.OwnLayout(at.Elem()) {
				r.Size = n * r.Elem.Size
			}
		}
		return r
	case cc.Struct, cc.Union:
		r := &cfa.Type{Kind: cfa.Struct}
		if k == cc.Union {
			r.Kind = cfa.Union
		}
		tm.cache[t] = r
		var tag string
		var nf int
		var field func(int) *cc.Field
		switch st := t.(type) {
		case *cc.StructType:
			tok := st.Tag()
			tag = tok.SrcStr()
			nf = st.NumFields()
			field = st.FieldByIndex
		case *cc.UnionType:
			tok := st.Tag()
			tag = tok.SrcStr()
			nf = st.NumFields()
			field = st.FieldByIndex
		}
		if tag != "" {
			if r.Kind == cfa.Union {
				r.Name = "union " + tag
			} else {
				r.Name = "struct " + tag
			}
		}
		if !t.IsIncomplete() {
			r.Size = t.Size()
			r.Align = int64(t.Align())
		}
		for i := 0; i < nf; i++ {
			f := field(i)
			if f == nil {
				continue
			}
			cf := cfa.Field{Name: f.Name(), Offset: f.Offset()}
			ft := tm.Typ(f.Type())
			if f.IsBitfield() {
				cf.BitWidth = int(f.ValueBits())
				cf.BitOffset = f.OffsetBits()
				if cf.BitWidth > 0 && (ft.Kind == cfa.Int || ft.Kind == cfa.Bool) {
					if ft.Kind == cfa.Bool {
						ft = cfa.BoolType
					} else {
						ft = tm.intType(cf.BitWidth, ft.Signed)
					}
				}
			}
			cf.Type = ft
			r.Fields = append(r.Fields, cf)
		}
		if tm.OwnLayout(t) && !t.IsIncomplete() {
			if issue := tm.gccLayout(r, t); issue != "" && tm.LayoutIssue == "" {
				tm.LayoutIssue = issue
			}
		}
		return r
	case cc.Function:
		ft := t.(*cc.FunctionType)
		r := &cfa.Type{Kind: cfa.Func}
		tm.cache[t] = r
		r.Result = tm.Typ(ft.Result())
		for _, p := range ft.Parameters() {
			pt := tm.Typ(p.Type())
			if pt.Kind == cfa.Void {
				continue
			}
			r.Params = append(r.Params, tm.ParamType(pt))
		}
		r.Variadic = ft.IsVariadic()
		return r
	}
	return cfa.IntT
}

// ParamType adjusts a parameter type: arrays and functions become pointers.
func (tm *Map) ParamType(t *cfa.Type) *cfa.Type {
	switch t.Kind {
	case cfa.Array:
		return tm.Ptr(t.Elem)
	case cfa.Func:
		return tm.Ptr(t)
	}
	return t
}

// Promoted returns the integer promotion of t (width-based: every integer
// type narrower than int, bit-fields and _Bool included, becomes int).
func Promoted(t *cfa.Type) *cfa.Type {
	switch t.Kind {
	case cfa.Bool:
		return cfa.IntT
	case cfa.Int:
		if t.Bits < 32 {
			return cfa.IntT
		}
		if t.Bits == 32 {
			return cfa.IntType(32, t.Signed)
		}
		if t.Bits != 64 && t.Bits != 128 {
			return cfa.IntType(64, t.Signed)
		}
	}
	return t
}

// NondetType is the result type of __VERIFIER_nondet_<suffix> when the
// program does not declare it.
func (tm *Map) NondetType(suffix string) *cfa.Type {
	switch suffix {
	case "bool", "_Bool":
		return cfa.BoolType
	case "char":
		return cfa.CharType
	case "uchar", "unsigned_char", "u8":
		return cfa.UCharType
	case "short", "s16":
		return cfa.ShortType
	case "ushort", "unsigned_short", "u16":
		return cfa.IntType(16, false)
	case "int", "s32":
		return cfa.IntT
	case "uint", "unsigned", "unsigned_int", "u32":
		return cfa.UIntType
	case "long", "loff_t", "ssize_t":
		return cfa.IntType(tm.ptrBits, true)
	case "ulong", "unsigned_long", "size_t", "sector_t":
		return cfa.IntType(tm.ptrBits, false)
	case "longlong", "s64":
		return cfa.LLType
	case "ulonglong", "u64":
		return cfa.ULLType
	case "int128":
		return cfa.IntType(128, true)
	case "uint128":
		return cfa.IntType(128, false)
	case "pointer", "pchar":
		if suffix == "pchar" {
			return tm.Ptr(cfa.CharType)
		}
		return tm.Ptr(cfa.VoidType)
	case "float":
		return tm.FloatType("float", 4, 4)
	case "double":
		return tm.FloatType("double", 8, 8)
	}
	return cfa.IntT
}

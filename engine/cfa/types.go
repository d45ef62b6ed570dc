package cfa

import (
	"fmt"
	"strings"
)

// Kind classifies a C type.
type Kind uint8

// The kinds of C types. Enumerations are Int; typedefs are resolved.
const (
	Void    Kind = iota
	Bool         // _Bool: 8 bits in memory, values 0 and 1
	Int          // every integer type, char included: Bits and Signed give width and signedness
	Float        // float, double, long double: Bits gives the width
	Pointer      // Elem is the pointee
	Array        // Elem is the element type, Len the number of elements (-1 when unknown)
	Struct       // Fields
	Union        // Fields, all at offset 0
	Func         // Params, Result, Variadic
)

var kindNames = [...]string{"void", "_Bool", "int", "float", "pointer", "array", "struct", "union", "func"}

func (k Kind) String() string { return kindNames[k] }

// Type is a C type after typedef resolution. Sizes are in bytes and follow
// the data model the program was translated under (Program.DataModel).
// Types are compared with Same, never with ==, except the shared scalar
// instances returned by IntType, which are canonical.
type Type struct {
	Kind   Kind
	Bits   int  // Int, Bool, Float, Pointer: width in bits
	Signed bool // Int: signedness
	Name   string
	// Name is the C spelling for scalars ("unsigned short"), the tag for
	// structs and unions ("struct node"), and empty otherwise.
	Elem     *Type   // Pointer, Array
	Len      int64   // Array: number of elements, -1 if incomplete
	Fields   []Field // Struct, Union
	Params   []*Type // Func
	Result   *Type   // Func
	Variadic bool    // Func
	Size     int64   // size in bytes (sizeof); 0 for void, functions and incomplete types
	Align    int64   // alignment in bytes
}

// Field is a member of a struct or union. Offset is in bytes; bit-fields
// have BitWidth > 0 and BitOffset within the storage unit at Offset.
type Field struct {
	Name      string
	Type      *Type
	Offset    int64
	BitOffset int
	BitWidth  int
}

// Bytes is how many bytes from Offset hold a bit-field's bits (as many as
// its last bit needs; little-endian, gcc's x86 layout): the bytes the
// value analysis, the SMT encoding and the concrete replay read and
// write for it.
func (f *Field) Bytes() int64 { return int64((f.BitOffset + f.BitWidth + 7) / 8) }

var (
	// VoidType is the canonical void.
	VoidType = &Type{Kind: Void, Name: "void"}
	// BoolType is the canonical _Bool.
	BoolType = &Type{Kind: Bool, Bits: 8, Name: "_Bool", Size: 1, Align: 1}
)

// intTypes is built by a function call, not in init, because the package
// variables below (CharType, …) call IntType during variable
// initialisation, which runs before init functions.
var intTypes = makeIntTypes()

func makeIntTypes() map[[2]int]*Type {
	m := map[[2]int]*Type{}
	names := map[[2]int]string{
		{8, 1}: "char", {8, 0}: "unsigned char",
		{16, 1}: "short", {16, 0}: "unsigned short",
		{32, 1}: "int", {32, 0}: "unsigned int",
		{64, 1}: "long long", {64, 0}: "unsigned long long",
		{128, 1}: "__int128", {128, 0}: "unsigned __int128",
	}
	for k, n := range names {
		m[k] = &Type{Kind: Int, Bits: k[0], Signed: k[1] == 1, Name: n, Size: int64(k[0] / 8), Align: int64(k[0] / 8)}
	}
	return m
}

// IntType returns the canonical integer type of the given width in bits (8,
// 16, 32, 64 or 128) and signedness. char is signed (as on x86), so
// IntType(8, true) is plain char. It panics on other widths: that is a bug
// in the caller, not bad input.
func IntType(bits int, signed bool) *Type {
	s := 0
	if signed {
		s = 1
	}
	t, ok := intTypes[[2]int{bits, s}]
	if !ok {
		panic(fmt.Sprintf("cfa.IntType: no %d-bit integer type", bits))
	}
	return t
}

// Common integer types.
var (
	CharType  = IntType(8, true)
	UCharType = IntType(8, false)
	ShortType = IntType(16, true)
	IntT      = IntType(32, true)
	UIntType  = IntType(32, false)
	LLType    = IntType(64, true)
	ULLType   = IntType(64, false)
)

// PointerTo returns a pointer type of the given width in bits.
func PointerTo(elem *Type, bits int) *Type {
	return &Type{Kind: Pointer, Elem: elem, Bits: bits, Size: int64(bits / 8), Align: int64(bits / 8)}
}

// ArrayOf returns an array type of n elements (n = -1: incomplete).
func ArrayOf(elem *Type, n int64) *Type {
	t := &Type{Kind: Array, Elem: elem, Len: n, Align: elem.Align}
	if n >= 0 {
		t.Size = n * elem.Size
	}
	return t
}

// IsInteger reports whether t is an integer type (_Bool included).
func (t *Type) IsInteger() bool { return t.Kind == Int || t.Kind == Bool }

// IsScalar reports whether values of t are single bit-vectors: integers,
// _Bool and pointers.
func (t *Type) IsScalar() bool { return t.Kind == Int || t.Kind == Bool || t.Kind == Pointer }

// Width is the number of bits of a scalar value of t: Bits for integers and
// pointers, 8 for _Bool.
func (t *Type) Width() int { return t.Bits }

// IsSigned reports whether t is a signed integer type.
func (t *Type) IsSigned() bool { return t.Kind == Int && t.Signed }

// FieldByName returns the field named name and true, or false.
func (t *Type) FieldByName(name string) (Field, bool) {
	for _, f := range t.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// Same reports whether a and b are the same type structurally (struct and
// union types by tag and size, so recursive types terminate).
func Same(a, b *Type) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Void, Bool:
		return true
	case Int:
		return a.Bits == b.Bits && a.Signed == b.Signed
	case Float:
		return a.Bits == b.Bits
	case Pointer:
		return a.Bits == b.Bits && Same(a.Elem, b.Elem)
	case Array:
		return a.Len == b.Len && Same(a.Elem, b.Elem)
	case Struct, Union:
		return a.Name == b.Name && a.Size == b.Size && len(a.Fields) == len(b.Fields)
	case Func:
		if len(a.Params) != len(b.Params) || a.Variadic != b.Variadic || !Same(a.Result, b.Result) {
			return false
		}
		for i := range a.Params {
			if !Same(a.Params[i], b.Params[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// String returns the C spelling of t, e.g. "unsigned char", "int *",
// "int [4]", "struct node", "int (int, char *)".
func (t *Type) String() string {
	if t == nil {
		return "<nil>"
	}
	switch t.Kind {
	case Void, Bool, Int, Float:
		if t.Name != "" {
			return t.Name
		}
		if t.Kind == Float {
			return fmt.Sprintf("float%d", t.Bits)
		}
		if t.Signed {
			return fmt.Sprintf("int%d", t.Bits)
		}
		return fmt.Sprintf("uint%d", t.Bits)
	case Pointer:
		return t.Elem.String() + " *"
	case Array:
		if t.Len < 0 {
			return t.Elem.String() + " []"
		}
		return fmt.Sprintf("%s [%d]", t.Elem, t.Len)
	case Struct, Union:
		if t.Name != "" {
			return t.Name
		}
		var b strings.Builder
		b.WriteString(t.Kind.String())
		b.WriteString(" {")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(";")
			}
			fmt.Fprintf(&b, " %s %s", f.Type, f.Name)
		}
		b.WriteString(" }")
		return b.String()
	case Func:
		var b strings.Builder
		b.WriteString(t.Result.String())
		b.WriteString(" (")
		for i, p := range t.Params {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(p.String())
		}
		if t.Variadic {
			if len(t.Params) > 0 {
				b.WriteString(", ")
			}
			b.WriteString("...")
		}
		b.WriteString(")")
		return b.String()
	}
	return "?"
}

// UsualArithmetic returns the common type of the usual arithmetic
// conversions (C11 6.3.1.8) of two promoted integer types a and b: the
// wider one; at equal width the unsigned one; a signed type wider than
// the unsigned one wins.
func UsualArithmetic(a, b *Type) *Type {
	if Same(a, b) {
		return a
	}
	if a.Signed == b.Signed {
		if a.Bits >= b.Bits {
			return a
		}
		return b
	}
	u, s := a, b
	if a.Signed {
		u, s = b, a
	}
	if u.Bits >= s.Bits {
		return u
	}
	return s
}

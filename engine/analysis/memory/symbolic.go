package memory

import "github.com/reverify/reverify/engine/smt"

// Symbolic values and offsets (symbolic mode; seed 001_7a124141fc78263e.txt,
// section 3.9: symbolic offsets into objects, and seed 000, section 2.3
// for the term semantics). A pointer into a known object whose byte
// offset is not a constant is Value{Obj: o, Sym: off}, off a bit-vector
// term of the pointer width.

// OfTerm returns the integer value of the bit-vector term x: concrete
// when x is a constant, else Value{Sym: x}.
func OfTerm(x *smt.Term) Value {
	if x.Op == smt.BVConst {
		return Value{Bits: x.Val}
	}
	return Value{Sym: x}
}

// PtrValue returns the address of obj at the byte offset off (a term of
// the pointer width): concrete when off is a constant.
func PtrValue(obj uint64, off *smt.Term) Value {
	if off.Op == smt.BVConst {
		return Value{Obj: obj, Bits: off.Val}
	}
	return Value{Obj: obj, Sym: off}
}

// SymOffsetObj reports whether obj may carry a symbolic offset:
// variables, heap blocks and string literals (not list segments,
// functions or metadata).
func SymOffsetObj(obj uint64) bool {
	switch ObjKind(obj) {
	case KindGlobal, KindLocal, KindString, KindHeap:
		return true
	}
	return false
}

// Residue returns x mod m for a pointer-width term x and a power of two
// m (in bytes), when x's structure decides it: constants, sums, and
// products with a constant multiple of m; ok is false otherwise.
// Wrap-around modulo 2^width keeps residues modulo m, a power of two no
// larger than 2^width.
func Residue(x *smt.Term, m int64) (r int64, ok bool) {
	switch x.Op {
	case smt.BVConst:
		return int64(x.Val & uint64(m-1)), true
	case smt.Add:
		r1, ok1 := Residue(x.Args[0], m)
		r2, ok2 := Residue(x.Args[1], m)
		return (r1 + r2) & (m - 1), ok1 && ok2
	case smt.Mul:
		for _, a := range x.Args {
			if a.Op == smt.BVConst && a.Val&uint64(m-1) == 0 {
				return 0, true
			}
		}
		r1, ok1 := Residue(x.Args[0], m)
		r2, ok2 := Residue(x.Args[1], m)
		return (r1 * r2) & (m - 1), ok1 && ok2
	}
	if m == 1 {
		return 0, true
	}
	return 0, false
}

// Package ctypes gives the front end (engine/frontend) the C types of
// cc/v4 as cfa types, laid out as gcc lays them out. A Map converts under
// one data model: integer types to the canonical cfa.IntType instances
// of their width and signedness (long is "long long" under LP64 and "int"
// under ILP32), enumerations to their underlying type, bit-fields to the
// integer type of their width, floating types to Float types, struct and
// union types memoised so that recursive types terminate; Promoted is the
// integer promotion, NondetType the type __VERIFIER_nondet_<suffix>
// names.
//
// cc/v4 lays structs out by the platform ABI and ignores packed and
// #pragma pack; this package is the one owner of the layouts gcc computes
// otherwise (layout.go: packed and aligned(N) structs, members under
// #pragma pack(N), after "Structure-Layout Pragmas" and "Common Type
// Attributes" in the GCC manual; the pack values come from
// engine/frontend/ccparse). A sizeof, _Alignof or offset of such a type
// must not be folded by cc/v4 (BadSizeof, HasBadSizeof, sizeof.go); a
// layout it cannot compute (bit-fields under packing) is named in
// Map.LayoutIssue, which the translation makes unsupported.
//
// volatile.go says which lvalues have a volatile-qualified type
// (VolatileLvalue, IsVolatile; C11 6.7.3), reading the syntax where
// cc/v4's types drop the qualifier (casts, member expressions of a
// volatile object, pointer declarators of a volatile typedef).
package ctypes

// Package smt is reverify's solver layer: a hash-consed term language over
// Booleans, bit-vectors (1..128 bits) and arrays of bit-vectors, a Solver
// interface (implemented by engine/smt/z3, the only cgo and go-z3 importer),
// the bit-precise symbolic C semantics (csem.go), and the SSA encoding of
// interprocedural CFA paths (EncodePath, CheckPath). It is pure Go.
//
// # Terms
//
// A Builder creates Terms. Structurally equal terms are the same pointer
// (compare with ==), IDs are dense in creation order, and every
// constructor folds constant arguments with exact SMT-LIB semantics
// (bvudiv x 0 = all ones, bvurem x 0 = x, bvsdiv/bvsrem derived from them,
// shifts by ≥ width give 0 or the sign fill) and applies cheap rewrites:
// x+0, x·1, x&0, x^x, ¬¬x, p∧¬p, ite with a constant condition or equal
// branches, x = x, ite(c,1,0) = 1 → c, extract over concat/extend,
// adjacent extracts merged, select over stores with equal or provably
// distinct indices. Eval evaluates a term concretely with the same
// semantics; Vars and Substitute traverse terms; String prints SMT-LIB.
//
// # Solvers
//
// Solver.Check never answers Unsat when the solver gave up or the context
// was cancelled: that is Unknown with an error. CheckAssuming returns an
// unsat core (a subset of the assumptions) for constraint interpolation.
//
// # C semantics
//
// engine/cfa/csem is the single source of truth for concrete C integer
// semantics (gcc -O0 -fwrapv on x86); csem.go here is its symbolic twin,
// and a property test (engine/interp, TestCrossCheck) checks on thousands
// of random programs that the two agree value for value. Undefined
// behaviour is never given a value silently: the operation yields a fresh
// unconstrained "undef!n" variable and the path formula records a UBCond
// saying when it happens. The choices:
//
//   - + - * unary -, conversions: wrap around (-fwrapv); with
//     EncodeOptions.AssumeNoSignedOverflow (EncodePathOpts, CheckPathOpts)
//     signed + - * and unary - instead add the assumption that they do not
//     overflow (CSignedOverflow), cutting paths that would;
//   - / truncates toward zero, % has the sign of the dividend;
//   - x/0, x%0: UB "division by zero";
//   - MIN/-1, MIN%-1 (signed): UB "signed division overflow" (x86 traps);
//   - shift count negative or ≥ the promoted left operand's width: UB
//     "shift count out of range"; signed << otherwise shifts bits out as
//     gcc documents; >> is arithmetic on signed operands;
//   - conversion to _Bool is != 0; otherwise truncation or sign/zero
//     extension by the source's signedness;
//   - pointer to integer: 0 for NULL, the offset for NULL plus an offset
//     (the classic offsetof), otherwise an unconstrained value and UB
//     "pointer-to-integer cast" (addresses are implementation-defined);
//     integer to pointer: only the constant 0;
//   - out-of-bounds, null, dangling (after free or the frame's end) and
//     function accesses: UB "invalid memory access"; pointer arithmetic
//     leaving the object's offset range: UB "pointer arithmetic out of
//     object bounds"; free of a non-heap or interior pointer, double free:
//     UB "invalid free"; relational comparison and subtraction of pointers
//     to different objects: UB.
//
// CheckPath looks for an execution without any UB (Sat, with inputs the
// interpreter replays); if there is none but the formula is satisfiable
// the answer is Unknown ("feasible only with undefined behaviour");
// Unsat means infeasible whatever values undefined operations produce.
//
// # Path encoding
//
// EncodePath follows the cfa.Step convention (Init, then an Enter step with
// a nil Edge into the entry function; Enter/Leave steps for calls with
// bodies). Plain scalars whose address is never taken are SSA registers:
// every definition creates a variable main::x@3 (frames of second and later
// activations of a function are named f#k, so recursion works) and a
// conjunct main::x@3 = value; globals are named x@n. Inputs are created in
// path order, and engine/interp.Run consumes its input values in exactly
// this order: Havoc steps and __VERIFIER_nondet_* calls (Source = the
// function), results of external functions ("extern f"), Decl of a scalar
// local ("decl x": its indeterminate value; a Decl of a global zeroes it),
// scalar parameters of the entry function ("param x"), reads of volatile
// variables ("volatile x"). A local read before any definition is declared
// implicitly there (consuming an input), exactly as in the interpreter.
//
// Memory: variables whose address is taken, arrays, structs and unions,
// heap blocks (malloc, calloc, alloca), string literals and functions are
// objects numbered 1, 2, … in the order the path creates them; each has
// an SMT array from offsets to bytes (little-endian), a size and a
// liveness term. A pointer is the bit-vector object·2^OffsetBits + offset
// (OffsetBits = 32 under LP64, 20 under ILP32), NULL is 0. Loads and stores
// through pointers whose object is a constant touch that object only;
// otherwise they are case splits over all objects. A Decl of an aggregate
// local gives a new object with unconstrained contents (no input: the
// interpreter refuses to read such bytes), malloc the same, calloc and
// globals zero contents. Functions without a body follow
// cfa.Program.Extern (extern.go): the string.h and ctype.h models unroll
// over one object of constant size (up to 1 KiB; comparisons give a fresh
// value of the right sign), memset/memcpy/memmove of a non-constant size
// rewrite each byte of destination objects of constant size (up to 4 KiB)
// by an if-then-else on the range, and give larger destination objects
// fresh contents, functions declared pure
// and output functions write nothing, and an unmodelled call gives every
// global a fresh value and every address-taken variable, heap and alloca
// block fresh contents (not inputs: such a path is only ever refuted).
// External functions returning pointers, floating point, bit-fields,
// integer-to-pointer casts and unsupported edges are an *EncodeError
// naming the construct and step: the analysis answers UNKNOWN.
//
// For example, the path
//
//	L0 -> L2  decl unsigned char x
//	L2 -> L3  x = nondet(__VERIFIER_nondet_unsigned char)
//	L3 -> L4  a[1] = 100 / (((int)x) + 1)
//	L4 -> L5  [a[1] == 0]
//
// encodes as (step: conjunct; the array a lives in memory, and the read
// a[1] resolves to the stored value by select-over-store):
//
//	0: (= |main::x@1| |main::x@2|)
//	1: (= |main::x@3| |main::x@4|)
//	3: (= (ite (= (bvadd ((_ zero_extend 24) |main::x@4|) #x00000001) #x00000000) undef!0
//	          (bvsdiv #x00000064 (bvadd ((_ zero_extend 24) |main::x@4|) #x00000001))) #x00000000)
//	UB 2 (division by zero): (= (bvadd ((_ zero_extend 24) |main::x@4|) #x00000001) #x00000000)
//	input 0 decl x: main::x@1
//	input 1 __VERIFIER_nondet_unsigned char: main::x@3
//
// PathFormula.Inline substitutes the SSA definitions away (CheckPath solves
// that form: constants then fold along the path).
package smt

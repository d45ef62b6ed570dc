// Package frontend translates C programs into reverify's intermediate
// representation, cfa.Program. It and its subpackages are the only
// importers of modernc.org/cc/v4, whose preprocessor, parser and type
// checker (types, sizes and offsets under the linux/amd64 ABI for LP64
// and the linux/386 ABI for ILP32, constant values) they use; no C typing
// is reimplemented beyond making conversions explicit and laying out
// what gcc lays out otherwise than cc/v4.
//
// The subpackages have one job each: engine/frontend/ccparse parses (the
// host compiler's configuration, asked once per process and data model
// and kept on disk by a command line through ccparse.SetHostCompiler;
// line maps, source texts, #pragma pack, definitions), ctypes gives the
// cfa types of cc/v4's types as gcc lays them out, cbmctext turns CBMC's
// dialect (quantifiers, contracts) into C before parsing, and csyntax is
// the C syntax other packages read without cc/v4. This package reads no
// environment variable.
//
// # Guarantees
//
// Every translated program passes cfa.Program.Check. In addition:
//
//   - Expressions on edges are side-effect free. Assignments, ++/--, and
//     calls inside expressions become separate edges, in evaluation order
//     (left to right, operands before operators). Plain reads are not
//     copied: an operand reads its variable on the edge that uses it, after
//     the side effects of the operands to its right (an order C allows:
//     they are unsequenced or indeterminately sequenced). A call whose
//     value is used stores it into a temporary, or directly into the
//     assigned variable when the types agree (x = f(y) is one Call edge);
//     x++ whose value is used copies x into a temporary first.
//   - The integer promotions and the usual arithmetic conversions are
//     explicit Casts: both operands of an arithmetic or comparison Binary
//     have the same type; shift operands are promoted independently;
//     comparisons and ! have type int; constants are folded into Consts
//     of the converted type. (_Bool)x means x != 0. Integer types are the
//     canonical cfa.IntType instances of their width and signedness, so
//     long prints as "long long" under LP64 and "int" under ILP32;
//     enumerations are their underlying integer type; typedefs are
//     resolved.
//   - Pointer arithmetic keeps pointer type (p + i, p - i); p - q has the
//     type of ptrdiff_t and counts elements, as in C; p[i] is *(p + i);
//     a[i] on an array is Index; arrays in value position decay to
//     &a[0] (AddrOf of Index 0) and functions to &f.
//   - && and || and ?: are branches: in conditions they branch directly;
//     in value position they branch into a temporary assigned 1/0 or the
//     chosen operand. Conditions are comparisons: if (x) becomes the
//     assume pair [x != 0] / [!(x != 0)]; ! swaps the targets. Constant
//     conditions (while (1), if (0), do … while (0)) branch directly.
//   - switch is a chain of assume pairs [v == k] in the order of the case
//     labels (case ranges as two comparisons), ending at default or after
//     the switch; fall-through follows the source. goto, labels (also
//     into loops), break and continue are plain control flow: the front
//     end merges locations instead of adding no-op edges, except where
//     the function entry would get an in-edge or a jump targets itself.
//   - Function calls are Call edges from the call site to the return
//     site; arguments are converted to the parameter types (default
//     argument promotions for variadic and unprototyped calls); return
//     values to the result type. A function falling off its end returns
//     (main returns 0). Each function with a result has a RetVar
//     "__retval" (a temporary, not in Locals); Params are not in Locals.
//   - Locals: a Decl edge, then Assign edges for the initialiser; locals
//     with an initialiser list, and all objects with static storage
//     duration, are first zeroed as C requires. Zeroing an aggregate is a
//     single Assign of a cfa.Const of the aggregate type with V = 0 (the
//     all-zero object); scalars get 0 or NULL. A list that covers every
//     scalar (and contains no union) is not zeroed first. Then every
//     initialised sub-object (designated, nested, brace-elided) is
//     assigned in list order; string literals initialise char arrays
//     element by element.
//   - Globals (file scope, in definition order across translation units)
//     are declared and initialised in Program.Init: a Decl edge, then
//     the initialiser's Assign edges, or the zero Assign for tentative
//     definitions. Globals only declared extern (defined outside the
//     program, like stdin) get a Decl but no Assign, and only when used.
//     Static locals are globals named "f::x", initialised in Init.
//   - Shadowed locals get unique names within the function ("x", "x.1");
//     parameters keep their names. Temporaries are locals "__t0",
//     "__t1", … (numbered per function, skipping names the program uses)
//     with Var.Temp set; they are not declared by Decl edges and are
//     always assigned before they are read. A compound literal is a
//     temporary too (one object per block, as in C, reinitialised when
//     evaluated again), initialised like a local with an initialiser
//     list; at file scope it is a global "__compound_literalN".
//   - Calls of __builtin_memcpy, __builtin_abs and other C library
//     functions in gcc's __builtin_ form (without body) call the library
//     function (memcpy, abs).
//   - Var.Volatile marks variables declared volatile (every read is
//     nondeterministic; for `T *volatile p` the pointer, for
//     `volatile T *p` and `reg_t *p` with a volatile typedef reg_t only
//     the pointee). Every other read of an lvalue of volatile-qualified
//     type (C11 6.7.3p7, 5.1.2.3p2) — a volatile member or element, a
//     member of a volatile struct, *p with p a pointer to volatile, also
//     through a cast such as *(volatile unsigned *)0x40000000, the read
//     of ++ and op=, a whole volatile struct copied — is the access into
//     a temporary, then a cfa.Havoc "volatile" of it (of each scalar
//     leaf for a struct or array), whose value the read takes (see
//     volatile.go): consumers need no volatile-specific code, and the
//     access keeps its own verdicts (an address that is no object is
//     UNKNOWN). Var.AddrTaken marks variables whose address is
//     taken or that are arrays. Bit-field members have the integer type
//     of their width (an unsigned 3-bit field is a 3-bit unsigned Int, a
//     Type that is not one of cfa.IntType's canonical instances), so reads
//     promote and writes truncate explicitly; Field.BitWidth and BitOffset
//     give the layout.
//   - Unreachable code (after return, break, continue, goto, or under a
//     constant false condition) produces no locations; locations are
//     numbered in depth-first order from the entry (true branches first).
//
// # Linking
//
// Several translation units form one program: external declarations of
// objects and functions resolve to the one definition (two definitions
// are an error), tentative definitions merge, and entities with internal
// linkage (static) of different files stay apart: the first keeps its
// name, later ones are renamed "name.file" after the base name of their
// file. Functions without a body in any unit that the program calls (or
// whose address it takes) are Program.Externals; calls to them stay Call
// edges.
//
// # SV-COMP conventions
//
// Calls of functions without a body named __VERIFIER_nondet_<type>
// become cfa.Havoc{LHS, Source: the function name} of the declared result
// type (or, when undeclared, of the type its suffix names: uchar, ushort,
// uint, ulong, long, char, short, bool, pointer, size_t, u32, loff_t,
// float, double, …). __VERIFIER_assume(c) without a body is an assume pair
// whose false branch ends in a terminal location. abort, exit, _Exit,
// __assert_fail and every function declared _Noreturn or
// __attribute__((noreturn)) without a body are Call edges into a fresh
// terminal location. reach_error, __VERIFIER_error and __assert_fail stay
// Call edges (package spec identifies properties by callee); an assert(c)
// without assert.h and without a body is if (!c) __assert_fail(…).
// __builtin_expect(x, y) is x.
//
// A program that calls atexit without defining it gets a translation unit
// of the front end's that defines atexit (a stack of 32 functions) and
// __reverify_atexit_run, which runs them in reverse order; calls of exit
// and main's returns call it first (atexit.go).
//
// # Contracts
//
// In CBMC's dialect, contract clauses after a function declarator or a
// loop header (CBMC 6's contract language; a project's macro layer
// included) are read by engine/contract before parsing (cbmctext):
// a first parse of each unit says which contracts' declarations the
// preprocessor keeps, and the unit is translated with the checks and
// uses of those contracts appended under #line directives to their
// clauses. Loop clauses become declarations at the start of the loop's
// body, which contractLoop (loopcontract.go) translates as CBMC's
// --apply-loop-contracts: the invariant checked on entry, the frame
// havocked, one iteration checked to preserve it and to decrease the
// measure. __CPROVER_old and __CPROVER_loop_entry read values taken
// where the check calls its function or the loop is entered (a no-op
// edge the reads are spliced before). The obligations of a contract are
// checked without blocking one another (nonBlocking). After translation
// contract.Instrument replaces the calls by the contracts and enforces
// the assigns clauses.
//
// # CBMC/ESBMC harness conventions
//
// Proof harnesses written for CBMC are translated unedited:
// functions without a body named nondet_* (cfa.NondetFunc; declared or
// not, nondet_<type> typed by its suffix as above) are Havocs like
// __VERIFIER_nondet_*; __CPROVER_assume(c) is __VERIFIER_assume(c);
// __CPROVER_assert(c, "msg"), __CPROVER_precondition and
// __CPROVER_postcondition are if (!c) __assert_fail("msg", file, line,
// function), so package spec makes a property described by msg (its
// condition is evaluated by guardCond: an unsupported condition keeps the
// property, UNKNOWN). When a source contains "__CPROVER_" the prelude
// defines __CPROVER_bool, __CPROVER_size_t and __CPROVER_max_malloc_size
// (2^csem.OffsetBits - 1, the largest block of the memory model), and
// Options.Malloc (MallocAuto) makes malloc and calloc may-fail, CBMC's
// default: after the Call, a Havoc of Source "malloc-may-fail" chooses
// between the block and NULL. __CPROVER_overflow_plus, minus and mult
// (a, b) are exact expressions: whether a op b leaves the range of the
// type of the usual arithmetic conversions of a and b, as CBMC types them
// (overflowCheck; checked against gcc's __builtin_*_overflow). The bounded
// quantifier __CPROVER_forall { int i; (i >= 0 && i < H) ==> B } becomes a
// statement expression looping over [0, H), exact as an assumption and as
// an assertion (lowerQuantifier), and so does __CPROVER_exists { int i;
// (i >= 0 && i < H) && B } (lowerExists); other quantifier shapes become calls
// without arguments (positions kept), so Unsupported edges. Calls of
// htonl, ntohl, htons, ntohs and __builtin_bswap16/32/64 without a body
// reverse the bytes (x86 is little-endian). Config.RemoveBody drops the
// definitions of the named functions in the files Config.RemoveBodyIn, as
// CBMC's goto-instrument --remove-function-body does for a starter kit's
// REMOVE_FUNCTION_BODY. CBMC's memory primitives __CPROVER_r_ok, w_ok,
// rw_ok(p, n), same_object(p, q), POINTER_OBJECT(p) and POINTER_OFFSET(p)
// (cfa.MemoryQueries) are Calls of the function without a body, pointer
// arguments converted to void *, n to size_t, the result a temporary of
// CBMC's type (_Bool, size_t, ptrdiff_t): each consumer evaluates them
// where it can and otherwise takes any result (memoryQuery). A call
// __CPROVER_havoc_object(p) is a Call of cfa.HavocObject, and
// __CPROVER_havoc_slice(p, n) one of cfa.HavocSlice, which the value
// analysis, the SMT encoding and the interpreter model. A static
// function is removed by CBMC's name for it (__CPROVER_file_local_<file>_<f>,
// fileLocalName): its calls and address go to a function of that name
// (removedTarget). A C library function that two stubs define
// (libraryName) keeps its first definition and every use is an
// Unsupported edge. gcc's __builtin_popcount, parity, clz and ctz (and
// their l, ll forms) are exact expressions, clz and ctz of 0 an
// Unsupported branch (bitCount), and __builtin_add/sub/mul_overflow (and
// the typed __builtin_[su]…_overflow) store the wrapped result and give
// the overflow exactly when both operands fit the result type
// (checkedArith; both checked against gcc). Every other __CPROVER_
// function, and a primitive with another number of arguments, is an
// Unsupported edge naming it.
//
// # Unsupported constructs
//
// What cannot be translated becomes a cfa.Unsupported edge at the exact
// position of the construct (Edge.Pos, Edge.Text), in place of the
// statement: everything the statement would have done before is rolled
// back. A declaration keeps its Decl edge; an unsupported condition is
// followed by a nondeterministic branch (a Havoc with Source
// "unsupported"), so both branches remain. Unsupported are: inline
// assembly; setjmp/longjmp; floating-point arithmetic, comparisons and
// conversions to integers (float variables, FloatConst values, copies
// and integer-to-float conversions are fine); variable-length arrays of
// more than one dimension (a one-dimensional T a[n] is a pointer
// variable a = alloca(n * sizeof(T)), with sizeof(a) computed from the
// length saved at the declaration) and sizeof of other variably modified
// types; computed goto and label addresses; complex numbers; atomic builtins;
// va_list access (va_start, va_arg); wide string literals; nested
// functions.
//
// # Source positions and texts
//
// Every edge keeps the source range of the statement or expression it
// came from (Edge.Pos) and its original source text (Edge.Text), cut
// from the file's bytes, not re-printed from tokens; a construct that
// comes from a macro expansion carries the text of the macro invocation.
// In preprocessed .i files, gcc line markers (# 12 "foo.c" 1 3) and
// #line directives map physical lines back to the original file and line;
// cc/v4 sees them as ignored directives, and the mapping is applied to
// every position and to error messages (ccparse). Text of marked regions
// stays the .i file's text, which is the original text.
//
// # Definitions and fingerprints
//
// Program.Defs lists, outside system headers, every function, global
// variable, struct/union/enum tag definition, typedef and macro, with its
// file and lines and a fingerprint: the hex SHA-256 of its token stream
// after preprocessing, token spellings joined by one space. Whitespace
// and comments change nothing; a changed macro changes the tokens of
// every definition that expands it, and its own fingerprint (over
// "#define NAME(params) replacement-list"; ccparse.Definitions).
//
// # C syntax for the other packages
//
// The packages that read C text without translating it use engine/ctext
// and engine/frontend/csyntax built on it, not their own: identifiers,
// mentions, macro uses and enumerators (diffslice), C expressions of
// witnesses (engine/witness).
//
// # Errors
//
// Unparsable C yields an error whose message lists one "file:line:col:
// message" per line (positions mapped through line markers). The front
// end never panics: an internal failure is reported as an error naming
// it. cc/v4 (v4.31.0) never terminates on a few invalid inputs (an
// initialised array of an incomplete struct type); after a time limit
// (a minute plus a second per 10 kB) the translation fails with an error,
// abandoning the parser goroutine. Every source is handed to cc/v4 with a
// sentinel appended (closing open comments and conditionals, then an empty
// declaration), because its parser also loops on some constructs cut off
// by the end of the file ("enum").
//
// # Example
//
// The program
//
//	int main(void) {
//	  int x = 0;
//	  while (x < 10 && __VERIFIER_nondet_int())
//	    x++;
//	  if (x > 10)
//	    reach_error();
//	  return 0;
//	}
//
// translates to (Program.Text; the empty Init omitted)
//
//	extern __VERIFIER_nondet_int, reach_error
//
//	func main() int  // ex.c
//	  entry L0 exit L1
//	  L0 -> L2  decl int x  @2:3
//	  L2 -> L3*  x = 0  @2:7
//	  L3 -> L4  [x < 10]  @3:10
//	  L3 -> L7  [!(x < 10)]  @3:10
//	  L4 -> L5  __t0 = nondet(__VERIFIER_nondet_int)  @3:20
//	  L5 -> L6  [__t0 != 0]  @3:20
//	  L5 -> L7  [!(__t0 != 0)]  @3:20
//	  L6 -> L3*  x = x + 1  @4:5
//	  L7 -> L8  [x > 10]  @5:7
//	  L7 -> L9  [!(x > 10)]  @5:7
//	  L8 -> L9  reach_error()  @6:5
//	  L9 -> L1  return 0  @7:3
package frontend

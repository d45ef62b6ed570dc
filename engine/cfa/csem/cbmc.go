package csem

import (
	"fmt"

	"github.com/reverify/reverify/engine/cfa"
)

// CBMCMacros is the C text that defines the names of CBMC's harness
// dialect that a harness uses without declaring them and that are types
// or constants: __CPROVER_bool (_Bool), __CPROVER_size_t (size_t) and
// __CPROVER_max_malloc_size, the largest size of a block the memory model
// holds (2^OffsetBits(m) - 1 bytes). Each is defined only where the
// harness has not defined it. The C front end predefines this text; the
// compilers of CBMCPreludeGNU get it as part of that.
func CBMCMacros(m cfa.DataModel) string {
	return fmt.Sprintf(`#ifndef __CPROVER_bool
#define __CPROVER_bool _Bool
#endif
#ifndef __CPROVER_size_t
#define __CPROVER_size_t __SIZE_TYPE__
#endif
#ifndef __CPROVER_max_malloc_size
#define __CPROVER_max_malloc_size ((__SIZE_TYPE__)%d)
#endif
`, int64(1)<<OffsetBits(m)-1)
}

// CBMCPreludeGNU is CBMC's harness dialect as GNU C, for the compilers
// that lack it (clang for `--frontend clang`, gcc for reproducers): a
// header to force-include (-include) before each source that uses the
// dialect. It holds CBMCMacros, CBMC's declarations of
// __CPROVER_assume, __CPROVER_assert, __CPROVER_precondition and the
// memory queries (cfa.MemoryQueries, with CBMC's types), and the overflow
// predicates __CPROVER_overflow_plus, minus and mult as statement
// expressions over the compilers' __builtin_*_overflow. These are exact:
// both operands are first converted to the type of the usual arithmetic
// conversions, CBMC's type for the operation (c_typecheck's
// implicit_typecast_arithmetic), and the builtin reports whether the
// exact result of that operation leaves the type; each operand is
// evaluated once. The C front end lowers the same predicates itself
// (engine/frontend, overflowCheck), and the verdict program
// cbmc_overflow.c holds both to the same verdicts. Contract clauses
// (__CPROVER_requires, ensures, assigns, frees, loop_invariant,
// decreases) expand to nothing: the compiled program runs the bodies,
// as a reproducer does (the C front end checks and uses the contracts).
//
// Whoever force-includes it must define the declared functions it calls
// (the LLVM front end models them by name; a reproducer defines them).
func CBMCPreludeGNU(m cfa.DataModel) string {
	return CBMCMacros(m) + `void __CPROVER_assume(__CPROVER_bool);
void __CPROVER_assert(__CPROVER_bool, const char *);
void __CPROVER_precondition(__CPROVER_bool, const char *);
__CPROVER_bool __CPROVER_r_ok(const void *, __CPROVER_size_t);
__CPROVER_bool __CPROVER_w_ok(const void *, __CPROVER_size_t);
__CPROVER_bool __CPROVER_rw_ok(const void *, __CPROVER_size_t);
__CPROVER_bool __CPROVER_same_object(const void *, const void *);
#define __cprover_overflow(op, a, b) __extension__({ \
	__typeof__((a) + (b)) __cprover_r; \
	__builtin_##op##_overflow((__typeof__((a) + (b)))(a), (__typeof__((a) + (b)))(b), &__cprover_r); })
#define __CPROVER_overflow_plus(a, b) __cprover_overflow(add, a, b)
#define __CPROVER_overflow_minus(a, b) __cprover_overflow(sub, a, b)
#define __CPROVER_overflow_mult(a, b) __cprover_overflow(mul, a, b)
#define __CPROVER_requires(...)
#define __CPROVER_ensures(...)
#define __CPROVER_assigns(...)
#define __CPROVER_frees(...)
#define __CPROVER_loop_invariant(...)
#define __CPROVER_decreases(...)
`
}

// Package csem is the single source of truth for reverify's concrete C
// integer semantics: what gcc -O0 -fwrapv on x86 computes, and which
// operations reverify treats as undefined behaviour (UB) because no single
// result can be relied on. It is a leaf below engine/smt (whose symbolic
// encoding in csem.go mirrors these functions, checked by a property test)
// and engine/interp (the concrete interpreter, which calls them).
//
// Values are two's complement bit patterns in a uint64, truncated to the
// type's width; integer and pointer types up to 64 bits are supported
// (Supported reports which). _Bool values are 0 or 1.
//
// Semantics chosen:
//   - +, -, *, unary - and conversions wrap modulo 2^width (-fwrapv).
//   - / truncates toward zero; % takes the sign of the dividend.
//   - x / 0 and x % 0: UB DivByZero.
//   - MIN / -1 and MIN % -1 for signed types: UB DivOverflow (the x86
//     idiv instruction traps on both).
//   - << and >> with a count that is negative or ≥ the width of the
//     promoted left operand: UB ShiftCount (gcc folds constant shifts
//     differently from the x86 masking of variable ones, so no result is
//     reliable). Otherwise << shifts bits out (signed left shifts of
//     negative values or into the sign bit are defined, as gcc documents);
//     >> is arithmetic for signed and logical for unsigned left operands.
//   - conversion to _Bool is x != 0; to an integer or pointer type it
//     truncates or sign-/zero-extends by the source's signedness.
//   - comparisons and ! yield 0 or 1 in the result type (int).
package csem

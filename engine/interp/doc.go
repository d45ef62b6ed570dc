// Package interp is reverify's concrete, bit-precise CFA interpreter: it
// confirms counterexamples (Replay, the final check of every FALSE
// verdict) and runs programs on given inputs (Run, for reproducers and
// tests).
//
// It implements exactly the semantics of engine/smt's path encoding (the
// property test TestCrossCheck compares both on thousands of random
// programs): integer operations through engine/cfa/csem (gcc -O0 -fwrapv
// on x86), the same memory model (objects with byte contents,
// little-endian, sizes from the types under Program.DataModel; a pointer
// is object·2^csem.OffsetBits + offset, NULL is 0), and the same inputs in
// the same order: Havoc steps and __VERIFIER_nondet_* calls, results of
// external functions, the indeterminate value of each scalar local at its
// Decl (or at its first read when no Decl precedes it), scalar parameters
// of the entry function, reads of volatile variables. Decl of a global
// zeroes it, of an aggregate gives uninitialised memory.
//
// Execution stops, without taking the step, on undefined behaviour
// (division by zero, MIN / -1, shift count out of range, invalid memory
// access — null, out of bounds, dangling, function —, pointer arithmetic
// out of the object's offset range, invalid or double free, pointer
// comparison or subtraction across objects, pointer-to-integer casts of
// pointers into objects; NULL plus an offset converts to the offset) and
// on what it does not execute (floating point, integers wider than 64
// bits, reads of uninitialised memory — their value
// is no input —, unmodelled external functions (cfa.ExternUnmodelled)
// when the program has globals, address-taken variables or heap blocks
// they may write, or with pointer arguments or results, bit-fields,
// integer-to-pointer casts). A call of reach_error,
// __VERIFIER_error or __assert_fail ends the run as ReachedError (the
// call is the last step); abort and exit lead to Terminal locations.
// Builtins: malloc, calloc, alloca, free, memset, memcpy, memmove, memcmp,
// strlen, strcmp, strncmp, strcpy, strncpy, strchr, abs, labs, llabs,
// toupper, tolower and the ctype classifications (cfa.CtypeValue),
// __VERIFIER_assume; output functions and functions declared pure write
// nothing and return an input.
//
// ReplayMemory (memsafety.go) confirms a memory-safety violation: the
// path's last step must stop on the invalid access or free, or leave a
// live heap block unreachable (valid-memtrack) or allocated at the end
// (valid-memcleanup).
package interp

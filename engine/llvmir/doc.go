// Package llvmir is reverify's LLVM front end (seed 000,
// 000_f76fde50ed4a4828.txt, section 3.4 "LLVM Front-end in CPACHECKER"):
// it reads LLVM IR, textual (.ll) or bitcode (.bc, through llvm-dis),
// parsed by github.com/llir/llvm, and maps it to the same C-semantics
// control-flow automata that engine/frontend builds from C, so that
// every analysis, witness and reproducer works unchanged on it. With
// TranslateC it is also a second C front end: clang compiles the C
// files at -O0 -g and the debug information maps every edge back to its
// C line.
//
// The mapping follows the seed: globals first (Program.Init), then one
// CFA per defined function, each basic block a chain of edges from a
// location that stands for its label, linked by a no-op edge
// (unconditional br) or two assume edges (conditional br). select is a
// branch with an assignment on each side; phi is a set of parallel
// assignments on the edges into its block. LLVM's integers have no sign:
// iN is the unsigned N-bit integer, and the operations that read their
// operands as signed (sdiv, srem, ashr, the signed comparisons, sext)
// convert them explicitly. getelementptr is C address arithmetic: p + i,
// then a member or element per further index. An alloca whose address is
// only loaded from and stored to is a plain local variable named as the
// debug information names it.
//
// # Guarantees
//
// Every translated program passes cfa.Program.Check. What the mapping
// cannot express (vectors, exceptions, atomics, integer widths other
// than 1, 8, 16, 32, 64 and 128) is an error naming the instruction and
// its position; what it does not model (inline assembly, intrinsics
// without a C counterpart, variable-length allocas, destructors) is a
// cfa.Unsupported edge, so what it reaches is UNKNOWN. Extern objects
// and weak definitions are inputs (cfa.HavocExtern) as in the C front
// end; volatile loads are inputs.
package llvmir

// Package smtlib writes engine/smt's terms as SMT-LIB 2 text and reads
// such text back. It writes a conjunction as a script of declarations,
// shared subterms and assertions for a solver process (Script, package
// solverproc) and a Horn system as Z3's fixedpoint rules (Horn). It reads
// SMT-LIB 2 text into engine/smt's terms: its
// s-expressions (ParseSExprs), a term of QF_ABV with let bindings
// (ParseTerm; SMT-LIB 2.6 standard, "Theories" FixedSizeBitVectors and
// ArraysEx), and a Horn solver's solution in Z3's format, the
// interpretation of each relation of an smt.HornSystem (ReadSolution).
// A text it cannot read gives an error or leaves the relation out,
// never a panic (FuzzReadSolution). engine/smt/z3 reads Spacer's answers
// with it.
package smtlib

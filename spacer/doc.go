// Package spacer decides constrained Horn clauses with Z3's Spacer in a
// child process, for engine/bmc's unbounded engine (engine.Config.Horn):
// Spacer in Z3 4.8.12 dies with SIGSEGV on some bit-vector clause sets
// (engine/smt/z3.SolveHornScript), and a crash must cost one answer,
// not the verifier. The child is the running program itself, started
// again with ChildEnv set: this package's init hands such a process to
// the solver, which reads the clauses on standard input and writes its
// answer. Any program that imports this package (reverify, its tests)
// can therefore serve as its own solver process.
package spacer

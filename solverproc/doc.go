// Package solverproc runs Z3 in solver processes: the running program
// started again with ChildEnv set, killed when its check's context is
// done and bounded in memory (its data segment may grow to the
// property's memory limit less what the verifier holds). Any program
// that imports this package (reverify, its tests) can serve as its own
// solver process: this package's init hands such a process to the
// solver, which reads its input on standard input and writes its answer.
//
// Two solvers use it, both injected by cmd:
//   - OneShot, engine/bmc's one-shot checks (engine.Config.OneShot). Z3
//     4.8 does not always heed an interrupt in a one-shot check's
//     preprocessing and bit-blasting: in the verifier's process such a
//     check went on after its property's deadline, with its CPU time and
//     memory (gigabytes on large unrollings), while the next properties
//     ran. The query goes as engine/smt/smtlib.Script's text; the solver
//     process reads it back into terms (engine/smt/smtlib) and decides
//     them with the verifier's own one-shot solver
//     (engine/smt/z3.OneShotFactory), so that Z3 sees the formula it
//     would see in the verifier (Z3's own SMT-LIB front end took
//     minutes on queries that solver decides in milliseconds). The
//     model comes back as SMT-LIB values (engine/smt/z3.ModelText),
//     evaluated by engine/smt.EvalModel. Small queries, which finish in
//     milliseconds, are checked in this process: starting a process
//     costs more than they do.
//   - Horn, engine/bmc's unbounded engine (engine.Config.Horn): Horn
//     clauses decided by Z3's Spacer (engine/smt/z3.SolveHornScript),
//     which in Z3 4.8.12 dies with SIGSEGV on some bit-vector clause
//     sets; a crash must cost one answer, not the verifier.
package solverproc

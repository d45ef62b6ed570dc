// Package solverproc runs Z3's one-shot checks in a child process that
// is killed at the check's deadline and bounded in memory, for
// engine/bmc's bounded model checking (engine.Config.OneShot). Z3 4.8
// does not always heed an interrupt in a one-shot check's preprocessing
// and bit-blasting: in this process such a check goes on after its
// property's deadline, with its CPU time and memory (gigabytes on large
// unrollings), while the next properties run. A process can be stopped
// and limited for sure.
//
// The child is the running program itself, started again with ChildEnv
// set: this package's init hands such a process to the solver
// (engine/smt/z3.CheckScript), which reads the query (engine/smt.Script)
// on standard input and writes its answer. Any program that imports
// this package (reverify, its tests) can serve as its own solver
// process. Small queries, which finish in milliseconds, are checked in
// this process: starting a process costs more than they do.
package solverproc

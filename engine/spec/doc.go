// Package spec finds the properties of a program: one per assertion site.
//
// A property is a set of error edges (CFA Call edges to an error function:
// reach_error, __VERIFIER_error, __assert_fail, __assert_perror_fail,
// __assert) that must be unreachable, optionally restricted to executions
// inside the call of an assert wrapper at one call site (Via). Sites are:
//
//   - each call of an error function that lies neither in the body of an
//     error function (reach_error calling __assert_fail) nor in the body of
//     an assert wrapper;
//   - each call of an assert wrapper: a function with a body, named
//     __VERIFIER_assert or assert, or any function all of whose error calls
//     are guarded by conditions on its parameters alone.
//
// Property IDs survive edits elsewhere (DESIGN.md, output contracts):
// "function:expression" with the expression normalised (whitespace
// removed), and "#k" appended for the k-th (k ≥ 2) site with the same
// function and expression in CFA order. File, line and column are for
// display only. Examples: "main:x<10", "main:x<10#2", "f:reach_error()".
//
// In SV-COMP mode the whole task is one property, "unreach-call", whose
// error edges are all calls of reach_error and __VERIFIER_error (seed
// 004_cf6cf6ed7e985aa5.txt discusses single- vs multi-property checking;
// SV-COMP's unreach-call.prp is the single-property case).
//
// An assertion that the entry function cannot reach (through the call
// graph, function pointers included conservatively) is reported with
// Reachable false: "not checked", never TRUE.
package spec

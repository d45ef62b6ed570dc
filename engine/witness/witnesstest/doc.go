// Package witnesstest is test support for the witness writers, the
// reproducer and the validator (engine/witness and its subpackages): it
// compares output with golden files (Golden, rewritten under the -update
// flag), translates C source with the front end (Translate) and runs a
// program concretely along given values of its nondeterministic inputs
// up to the first call of an error function (Execute), which gives an
// error path with its inputs in read order, the shape of an engine
// counterexample ([]cfa.Step, []results.Input), without running an
// analysis.
package witnesstest

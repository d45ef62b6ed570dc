package smt

// FoldAccesses switches the folding of access addresses (foldAccess)
// for benchmarks and tests.
var FoldAccesses = &foldAccesses

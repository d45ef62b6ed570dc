// Package harness writes the most general calling context of a C
// function as C text: a parameterless function that gives every
// parameter and every global the module may have written an arbitrary
// value (pointers NULL or fresh objects, filled recursively up to a
// depth), then calls the function. Appended to the function's own
// translation unit, it becomes the entry that verifies the function's
// assertions without a harness written by hand.
//
// The contexts follow CBMC's goto-harness function-call harnesses (nondet
// object trees: --max-nondet-tree-depth, --min-null-tree-depth 0,
// --associated-array-size, --treat-pointer-as-cstring, --nondet-globals)
// and Kani's autoharness; what each context assumes beyond C (bounded
// lengths, depth, distinct objects) is listed in Context.Assumptions.
package harness

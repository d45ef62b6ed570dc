// Package cmodel holds the models of C library functions that the C
// front end (engine/frontend) adds to a program as C translation units
// of their own, named in angle brackets ("<atexit>", "<strto>"). A unit
// is added when a source of the program calls one of the functions it
// defines and no source defines one of them (Needed). The analyses then
// read the model as the program's own code, so every analysis, the
// counterexample checks and the witness validator mean one thing by it;
// the reproducer leaves the units out (engine/witness/reproduce) and
// links the C library itself, which is why every model must do exactly
// what glibc does on every execution it admits, and a test compiles
// each model with gcc and compares it with the C library.
//
//   - atexit (atexit.go; C11 7.22.4.2–4): the registered functions run
//     in the reverse order of their registration after main.
//   - the conversions of decimal strings to integers (strto.go; C11
//     7.22.1.2 and 7.22.1.4): atoi, atol, atoll, and strtol, strtoll,
//     strtoul, strtoull in base 10, as glibc computes them; another
//     base is an unmodelled call. The unit also holds the helpers of
//     sscanf's model (cfa.EmitSscanf), one decimal conversion each.
//
// The helpers of a model are named with the prefix "__reverify_"
// (cfa.Generated), so that the witness validator unrolls their loops,
// which no witness can name.
package cmodel

// Package artifacts writes the files that document each property's
// verdict next to results.json, and compiles and runs reproducers: it is
// the file and process side of the engine's results for `reverify check`,
// the Action and `reverify reproduce` (cmd/reverify wires
// facades and reaches no package below them).
//
// Per property, [Write] creates the directory [Dir] (the property ID made
// file-name safe, with its line) and writes there:
//   - the pixel tree of the ARG (pixeltree.png, .svg, .txt and
//     .mosaic.txt; report/pixeltree, seed 000 section 3.5), with the path
//     to a FALSE property's own target highlighted ([PixelTree]);
//   - for TRUE, the correctness witnesses (witness.yml with the loop
//     invariants when there are any, witness.graphml always;
//     engine/witness), after choosing compact invariants the validator
//     proves within [SelectBudget];
//   - for FALSE, the violation witnesses (witness.yml, format 2.0, and
//     witness.graphml, format 1.0), the reproducer harness reproducer.c
//     (engine/witness/reproduce.Reproducer) and reproduce.sh, which builds it with
//     the program's files (reproduce.BuildLine) and runs it, under
//     qemu-i386 when the kernel cannot execute an ILP32 program, with
//     the bytes the counterexample reads from standard input piped in
//     (reproduce.Stdin).
//
// It records the paths it wrote in the results.Report. [BuildAndRun]
// compiles a reproducer in a temporary directory and runs it
// (report/reproducer.Run) to tell whether it reaches the error
// ([ReachedExitCode] and [ReachedMarker]). doc/DESIGN.md, "Output
// contracts".
package artifacts

// Package reproducer runs compiled counterexample reproducers (the
// programs engine/witness/reproduce's Reproducer and BuildLine describe): [Run]
// executes one directly, or under qemu-i386 ([Emulator], Debian
// qemu-user) when the kernel refuses an i386 program with ENOEXEC, and
// returns its exit status; [RunInput] also puts bytes on its standard
// input. It is the process side of `reverify
// reproduce` and of report/artifacts.BuildAndRun; the engine itself runs no processes (layers_test.go,
// sysImports). doc/DESIGN.md, "Output contracts".
package reproducer

// Package reproduce turns a counterexample (a witness.Violation) into a
// runnable C reproducer, and says how to build it (BuildLine,
// BuildFlags) and what to feed it (Stdin); running it is
// report/reproducer's job, since the engine runs no processes (DESIGN.md,
// output contracts: every violation also as a C reproducer that gcc
// compiles and that reaches the failing assertion when run; seed
// 001_7a124141fc78263e.txt, section 5.4: a violation witness documents
// the cause of the violation by the path and the concrete values along
// it). It reads the path as the witness writers do (witness.Trace: the
// error call, the value site of each input, the source text).
//
// Reproducer returns a C test harness: a separate translation unit that is
// compiled together with the unchanged program,
//
//	gcc -O0 -fwrapv -finstrument-functions [-m32] [flags…] -o repro program.c… reproducer.c
//
// (BuildLine; -m32 for ILP32, -fwrapv for the wrap-around the analysis
// assumes, -finstrument-functions so that the harness sees the program
// enter an error function it defines itself, flags from BuildFlags for
// volatile objects) and then run, by report/reproducer.Run: directly, or under
// qemu-i386 (Debian qemu-user) when the kernel refuses an i386 program
// with ENOEXEC. Judging it is the caller's job (`reverify reproduce`,
// reproduce.sh); the engine itself runs no processes. The harness
//
//   - defines every __VERIFIER_nondet_* function the program uses without
//     defining it, with the program's declared result type (spelled by width
//     and signedness, so the ABI matches), returning the counterexample's
//     values from one table in read order, one index over all of them; a
//     call beyond the table returns 0 with a note on stderr, as does a value
//     read by another function than recorded;
//   - defines __VERIFIER_assume (a failed assumption prints a note and
//     exits with status 0: the run left the counterexample) and
//     __VERIFIER_atomic_begin/_end when the program uses them;
//   - makes reaching the error observable: it prints a line starting with
//     ReachedMarker ("reverify-reproducer: reached error") to stderr and
//     exits with ReachedExitCode (77). The harness defines the error
//     function itself when the program only declares it (reach_error,
//     __VERIFIER_error), and the C library's assertion-failure functions
//     (__assert_fail, __assert_perror_fail, __assert, __assert_rtn) when the
//     program uses them: SV-COMP's reach_error calls __assert_fail, and the
//     executable's definition takes precedence over libc's, so no linker
//     tricks or LD_PRELOAD are needed. When the program's error function
//     ends in abort() instead, the harness defines abort(): an abort whose
//     return address lies in the error function (up to the next function's
//     address among the program's external functions and the harness's) is
//     the error; every other abort (assume_abort_if_not) aborts as usual. A
//     SIGABRT handler could not tell the two apart. An error function that
//     does neither (an empty reach_error) is observed on entry: the
//     harness defines gcc's __cyg_profile_func_enter hook
//     (-finstrument-functions) and compares the function entered with
//     the error function; a static one cannot be named and Reproducer
//     says so. Only the reported assertion counts (site.go): the harness
//     compares the failing call's file name and line with the property's
//     error calls and, for an assert wrapper's property, the wrapper's call
//     site (the arguments of __assert_fail, else addr2line on return
//     addresses from a shadow call stack the -finstrument-functions hooks
//     keep); another failing assertion prints where it failed and aborts
//     (exit status 134);
//   - supplies the counterexample's value for each read of a volatile
//     global (see volatile.go: the macro -Dv=(*rv_volatile_0()) turns
//     every evaluation of v in the program into an accessor call, one
//     queue of values per variable), refusing with the reason where an
//     accessor could give a value to the wrong evaluation (the path
//     writes v or takes its address, v is local or initialised, its name
//     is not unique, one expression reads it twice with different values);
//   - exits with status 0 before main when the environment variable
//     ProbeEnv is set (reproduce.sh's probe of whether the kernel runs it);
//   - carries the bytes the counterexample reads from standard input
//     (getchar, getc and fgetc of stdin: cfa.StdinByte; fgets and fread
//     of stdin byte by byte: cfa.StdinCall; cfa.IsStdinRead) up to its first
//     EOF in lines starting "// reverify-stdin: " (printf octal escapes,
//     read back by Stdin), for the runner to put on the program's standard
//     input (stdin.go); a path that also consumes stdin with an unmodelled
//     function (ungetc, scanf, …) is refused;
//   - defines the C library's input functions the program calls
//     (rand, random, time, clock: cfa.InputCall; read: cfa.ReadCall;
//     cfa.IsInputFunc) to return the counterexample's values in order
//     with the values of the __VERIFIER_nondet_* functions, time storing
//     its value through its argument and read its bytes into its buffer
//     as their models do (inputDefs); the executable's definition takes
//     precedence over the shared C library's (the harness's own reads go
//     through stdio, which does not call it);
//   - defines the objects the program declares extern and no source
//     defines, and the weakly defined ones (whose scalars are inputs
//     "extern NAME", cfa.HavocInputs), with the counterexample's values
//     (extern.go): a typed definition with designated initializers for
//     scalars, arrays and structs of natural layout, the object's bytes
//     in the analysis's layout otherwise (bit-fields, packed members);
//     gcc links the harness's strong definition over a weak one. An
//     object holding a pointer is refused;
//   - calls the entry function itself when it is not main, or when the
//     counterexample gives main's parameters (argc is an input; entry.go):
//     it defines __wrap_main and names -Wl,--wrap=main among its build
//     flags, so that the C runtime calls the harness, which calls the
//     entry function with the counterexample's values of its parameters
//     ("param x"). main gets that argc, an argv of as many strings (the
//     program's name, then empty strings: a counterexample never reads
//     them) and the real envp; a pointer parameter the function never uses
//     is a null pointer. A static entry function, a used pointer parameter
//     (what it points to is not part of the counterexample), a parameter or
//     result of a type the harness cannot spell, and an argc above 2^24
//     are refused with the reason.
//
// A counterexample that depends on values a harness cannot supply fails
// with an error naming the value: an uninitialised local read before it is
// overwritten ("depends on an uninitialised value of x at f.c:3:3"), the
// result of an external function ("depends on the result of extern f at
// …"), a volatile read it cannot supply, an extern object that holds a
// pointer ("depends on extern p, which holds a pointer (p.next): …").
// Values that are never read on the path do not count: for a register
// local by the path's syntax (read before overwritten in its frame), for
// an address-taken local by replaying the counterexample concretely
// (engine/interp.UnobservedInputs: its bytes are all overwritten,
// directly or through pointers, before any load or block copy reads
// one).
//
// A FALSE of a contract's obligation (engine/contract) fails generated
// code the compiled program does not have: an ensures clause's reproducer
// replays the contract check in its own main, a requires clause broken at
// a call is asserted by a wrapper in library mode's copies of the
// sources, and the others are refused with what a reproducer cannot do
// (contract.go).
package reproduce

// Package difftest is reverify's differential test harness:
// it generates random, well-defined C programs, lets gcc compute their
// values, asserts those values, and compares reverify's verdicts with
// gcc's runs.
//
// # Programs
//
// Generate(seed, opt) writes a program from a seeded pseudo-random
// source: globals of all integer types from signed char to unsigned long
// long, a global array, a struct (global and local copies), main's
// locals and an array, pointers to main's objects (retargeted, written
// through), helper functions with bodies and scalar and pointer
// parameters, if/else, for loops of at most 4 iterations (with break),
// and, by option, __VERIFIER_nondet_* inputs and calls of functions
// without a body. Nothing in it is undefined under gcc -O0 -fwrapv:
// divisors are never 0 or -1 (`a / (b == 0 || b == -1 ? 3 : b)`), shift
// counts are masked to 0..15 and left shifts are unsigned, array indices
// are masked to the array, and pointers only ever point to objects that
// live as long as main. Signed overflow wraps (reverify's default
// --signed-overflow wrap); conversions to signed types are gcc's
// (modulo 2^N).
//
// Further options (Options, rotated by OptionsFor) bring in the C of
// real programs, each drawing random numbers only when it is on, so that
// a program without them is the one it always was:
//
//   - Layout: a struct L that is packed, completed under #pragma pack(N)
//     or has an aligned(8|16) member (GCC manual "Common Type
//     Attributes", "Structure-Layout Pragmas"); its members are read and
//     written, and checkpoints take sizeof, _Alignof, offsetof and bytes
//     of its members copied out with memcpy, never padding bytes (see
//     below).
//   - WideShift: shifts of 64-bit operands by 0..63 and of 32-bit ones
//     by 0..31, masked or constant counts (C11 6.5.7).
//   - WideBits: bit-fields of long long type in struct S,
//     `unsigned long long b2 : 40; long long b3 : 33;` (widths drawn),
//     which gcc computes with in their own width when wider than int and
//     promotes to int otherwise.
//   - Startup: constructors (some with a priority) that write globals
//     before main, and functions registered with atexit that write a
//     global and hold a checkpoint; main then ends with exit(0). A
//     violated assertion in main stops the program before those run, so
//     in every other such program the `!=` assertion is in one of them.
//   - Volatile: volatile globals without an initialiser, read by main
//     and never written: reverify reads any value, gcc's runs read 0. A
//     program with them is one with inputs: a FALSE is confirmed only
//     by its reproducer (the volatile reads get the counterexample's
//     values through accessors, engine/witness/reproduce/volatile.go).
//   - ExternObj: objects declared extern and not defined
//     (`extern int cfg_value9;`), inputs for reverify; gcc's runs link a
//     benign definition (0) and an adversarial one (nonzero) in benign.c
//     and adversarial.c, with the bodies of the external functions. The
//     definitions are weak: a FALSE's reproducer defines the objects
//     itself with the counterexample's values, and its strong
//     definitions take precedence over benign.c's.
//   - Stdin (not rotated; the test's -diff.stdin turns it on for every
//     program): statements read an int from standard input,
//     `{ int rv_in; if (scanf("%d", &rv_in) == 1) x = rv_in; }`; gcc's
//     runs get the input vector's numbers as text on standard input,
//     and a FALSE's reproducer the text it writes (engine/cfa's scanf
//     model).
//   - Env (not rotated; -diff.env turns it on for every program):
//     statements read RV_ENV0..RV_ENV2 with getenv and store what they
//     hold (NULL, the empty string, the first byte plus the length);
//     gcc's runs get the variables the input vector sets or leaves unset
//     (inputEnv), and a FALSE's reproducer defines getenv itself.
//   - Convert (rotated when q%7 == 2; -diff.convert turns it on for
//     every program): statements convert a string literal with atoi,
//     strtol or strtoul in base 10, or read it with sscanf("%d"), and
//     store the value (for sscanf, the count when it is not 1): digits
//     after white space and signs, numbers beyond every type's range,
//     letters (engine/frontend/cmodel's models against glibc's).
//
// e.g. under Layout:
//
//	struct __attribute__((packed)) L { unsigned long m0; _Bool m1; unsigned long m2; };
//	…
//	memcpy(lb, &gl, sizeof(struct L));
//	assert(lb[offsetof(struct L, m1) + 0] == (unsigned char)1ULL);
//
// Bit-fields (BitFields, WideBits) cannot be encoded in SMT yet, so most
// FALSE verdicts of programs with them are UNKNOWN. In a program that
// also calls functions without a body, the atexit model's call through
// its array of functions is an unmodelled callback (UNKNOWN).
//
// # Procedure
//
// MakeCase compiles an instrumented variant (each checkpoint, in main or
// in a function registered with atexit, prints its object's value) with gcc, runs it on the first input
// vector with the benign bodies of the external functions (no effect,
// result 0), and returns the asserted program: at each checkpoint
// `assert(obj == value)`, except one in the second half,
// `assert(obj != value)`, which that run violates (checkpoints after it
// stay unasserted), e.g.
//
//	assert(x3 == (unsigned short)65531ULL);
//	assert(gs.f1 == (long)(-7LL));
//	assert(*p9 != (int)42LL);
//
// Check then runs the asserted program with gcc (benign and adversarial
// bodies, every input vector; an adversarial body writes every global and
// through every pointer it was ever given), notes the first assertion
// each run violates, verifies the program with reverify's engine in
// process, and classifies each verdict:
//
//   - TRUE on an assertion some gcc run violates: WrongTrue (Bodiless
//     when only the adversarial bodies violate it).
//   - FALSE on a program without inputs, volatile reads, extern objects
//     or external functions whose gcc run passes the assertion:
//     WrongFalse.
//   - FALSE otherwise: the counterexample's reproducer
//     (engine/witness/reproduce.Reproducer, built with reproduce.BuildLine, its
//     BuildFlags and the benign bodies) must reach the error: NotReached
//     or BadRepro if not; NoReproducer when the witness package refuses
//     to write one (counted, not a failure: the reason is reported).
//     Then, in a program without external functions, extern objects or
//     volatile reads, gcc's run on the counterexample's
//     __VERIFIER_nondet_* values must violate the assertion first, else
//     WrongFalse.
//   - UNKNOWN: allowed, counted with its reason.
//
// ILP32 programs are built with -m32 and run directly or, on a kernel
// that cannot run 32-bit programs (ENOEXEC), under qemu-i386; without
// either the ILP32 runs are skipped with the reason logged.
//
// # Running
//
//	go test ./internal/difftest                        # 12 programs (6 with -short)
//	REVERIFY_DIFF_N=500 go test ./internal/difftest -run TestDiff -v -timeout 3h
//	go test ./internal/difftest -run TestDiff -v -diff.n 200 -diff.cross -diff.out /tmp/fails
//
// The counts of a long run (programs, properties, TRUE, FALSE, UNKNOWN,
// wrong TRUE, wrong FALSE, reproducer problems, the commonest UNKNOWN
// reasons) are printed at its end, and every 20 programs with -v; seeds
// from 1000 on are outside CI's rotation:
//
//	go test ./internal/difftest -run 'TestDiff$' -v -timeout 3h -diff.n 500 -diff.seed 1000 \
//		-diff.timeout 2s -diff.out /tmp/difftest-fails -diff.reduce 150
//
// (about 5 s a program on two shared cores). A failing case file is
// reduced by hand with (-v, or go test hides what it prints)
//
//	go test ./internal/difftest -v -run TestReduceFile -diff.reducefile F -diff.reduce 300
//
// Reduce removes lines without regard to well-definedness (a helper may
// lose its return statement): check a reduced program before filing it.
//
// Failing cases are written to -diff.out in the format of testdata/*.txt
// (Case.Format), the regression inputs TestRegressions checks; a
// "# known: ISSUE" header marks a case expected to fail until that issue
// is fixed.
//
// The package runs processes (gcc, the programs it builds), which
// engine/... may not: it sits above cmd in the layering, and nothing
// imports it.
package difftest

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
// # Procedure
//
// MakeCase compiles an instrumented variant (each checkpoint in main
// prints its object's value) with gcc, runs it on the first input
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
//   - FALSE on a program without inputs or external functions whose gcc
//     run passes the assertion: WrongFalse.
//   - FALSE otherwise: the counterexample's reproducer
//     (engine/witness.Reproducer, built with witness.BuildLine and the
//     benign bodies) must reach the error: NotReached or BadRepro if not;
//     NoReproducer when the witness package refuses to write one
//     (counted, not a failure: the reason is reported). Then, in a
//     program without external functions, gcc's run on the
//     counterexample's __VERIFIER_nondet_* values must violate the
//     assertion first, else WrongFalse.
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
// Failing cases are written to -diff.out in the format of testdata/*.txt
// (Case.Format), the regression inputs TestRegressions checks; a
// "# known: ISSUE" header marks a case expected to fail until that issue
// is fixed.
//
// The package runs processes (gcc, the programs it builds), which
// engine/... may not: it sits above cmd in the layering, and nothing
// imports it.
package difftest

package main

import (
	"fmt"
	"io"

	"github.com/reverify/reverify/report/artifacts"
)

// runReproduce implements `reverify reproduce --witness W FILE...`: the
// witness (a YAML violation witness) is replayed against the program
// (engine.ValidateWitness), the feasible path it describes gives the
// nondeterministic values in read order, engine.WitnessCheck.Reproducer
// turns them into a test harness, and artifacts.BuildAndRun compiles the
// harness with the system compiler next to the original files (gcc -O0
// -fwrapv, -m32 for ILP32) in a temporary directory and runs it under
// the time limit (under qemu-i386 when the kernel cannot execute an i386
// program). Exit codes: 0 the failing assertion was reached (exit status
// artifacts.ReachedExitCode and artifacts.ReachedMarker on stderr), 1 it
// was not (or the witness describes no feasible path), 2 bad input or no
// working compiler.
func runReproduce(args []string, stdout, stderr io.Writer) int {
	in, timeout, code := loadWitness("reproduce", args, stderr)
	if in == nil {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reverify reproduce: "+format+"\n", a...)
		return 2
	}
	if !in.w.IsViolation() {
		return fail("the witness is a correctness witness; reproduce needs a violation witness")
	}
	res, err := validateWitness(in, *timeout)
	if err != nil {
		return fail("%v", err)
	}
	if !res.Confirmed {
		fmt.Fprintln(stdout, "not reached: the witness describes no feasible error path:", res.Reason)
		return 1
	}
	src, err := res.Reproducer()
	if err != nil {
		fmt.Fprintln(stdout, "not reached: no reproducer:", err)
		return 1
	}
	reached, out, err := artifacts.BuildAndRun(in.prog.DataModel, in.prog.Files, src, *timeout, in.build...)
	if err != nil {
		return fail("%v", err)
	}
	if reached {
		fmt.Fprintln(stdout, "reached: the reproducer reaches the failing assertion")
		return 0
	}
	fmt.Fprintf(stdout, "not reached: the reproducer ended without reaching the error:\n%s", out)
	return 1
}

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/report/reproducer"
)

// runReproduce implements `reverify reproduce --witness W FILE...`: the
// witness (a YAML violation witness) is replayed against the program
// (engine/witness.Validate), the feasible path it describes gives the
// nondeterministic values in read order, engine/witness.Reproducer turns
// them into a test harness, and the harness is compiled with the system
// compiler next to the original files (witness.BuildLine: gcc -O0
// -fwrapv, -m32 for ILP32) in a temporary directory and run under the
// time limit (reproducer.Run: under qemu-i386 when the kernel
// cannot execute an i386 program). Exit codes: 0 the failing assertion was reached (exit
// status witness.ReachedExitCode and witness.ReachedMarker on stderr), 1
// it was not (or the witness describes no feasible path), 2 bad input or
// no working compiler.
func runReproduce(args []string, stdout, stderr io.Writer) int {
	in, timeout, code := loadWitness("reproduce", args, stderr)
	if in == nil {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reverify reproduce: "+format+"\n", a...)
		return 2
	}
	if len(in.w.Violation) == 0 {
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
	md := in.w.Violation[0].Metadata
	v := &witness.Violation{Program: in.prog, Path: res.Path, Inputs: res.Inputs, Task: witness.Task{
		Files: in.prog.Files, Entry: in.entry, Specification: md.Task.Specification, DataModel: in.prog.DataModel,
	}}
	src, err := witness.Reproducer(v)
	if err != nil {
		fmt.Fprintln(stdout, "not reached: no reproducer:", err)
		return 1
	}
	reached, out, err := buildAndRun(in.prog.DataModel, in.prog.Files, src, *timeout)
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

// errNoCompiler says that gcc is not installed.
var errNoCompiler = errors.New("gcc not found in PATH")

// buildAndRun compiles the reproducer source with the original files in
// a temporary directory and runs it with the time limit. reached reports
// the reproducer's verdict; out is its stderr (for the message when not
// reached). Errors are failures to compile or start it.
func buildAndRun(dm cfa.DataModel, files []string, src string, timeout time.Duration) (reached bool, out string, err error) {
	if _, err := exec.LookPath("gcc"); err != nil {
		return false, "", errNoCompiler
	}
	dir, err := os.MkdirTemp("", "reverify-reproduce-")
	if err != nil {
		return false, "", err
	}
	defer os.RemoveAll(dir)
	repro := filepath.Join(dir, "reproducer.c")
	if err := os.WriteFile(repro, []byte(src), 0o644); err != nil {
		return false, "", err
	}
	abs := make([]string, len(files))
	for i, f := range files {
		if abs[i], err = filepath.Abs(f); err != nil {
			return false, "", err
		}
	}
	exe := filepath.Join(dir, "reproducer")
	argv := witness.BuildLine(dm, abs, repro, exe, witness.BuildFlags(src)...)
	if timeout <= 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	build := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var cerr bytes.Buffer
	build.Stderr = &cerr
	if err := build.Run(); err != nil {
		return false, "", fmt.Errorf("cannot compile the reproducer (%s): %v\n%s", strings.Join(argv, " "), err, cerr.String())
	}
	var rerr bytes.Buffer
	code, _, err := reproducer.Run(ctx, exe, nil, io.Discard, &rerr)
	switch {
	case err != nil:
		return false, "", fmt.Errorf("cannot run the reproducer: %v", err)
	case ctx.Err() != nil:
		return false, rerr.String() + "(time limit reached)\n", nil
	}
	return code == witness.ReachedExitCode && strings.Contains(rerr.String(), witness.ReachedMarker), rerr.String(), nil
}

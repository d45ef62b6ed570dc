package reproducer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"
)

// Emulator is the user-mode emulator that runs an ILP32 (i386) reproducer
// on a kernel that cannot execute 32-bit programs (Debian package
// qemu-user, installed by scripts/install.sh). reproduce.sh names the
// same program (engine/witness/reproduce.Emulator).
const Emulator = "qemu-i386"

// startDirect starts a command; tests replace it to play a kernel that
// refuses i386 executables.
var startDirect = (*exec.Cmd).Start

// Run runs the compiled reproducer exe (no arguments, stdin empty) until
// it exits or ctx ends, writing its stdout and stderr to the writers
// (nil discards). It executes exe directly; when the kernel refuses it
// with ENOEXEC ("exec format error": an i386 executable on a kernel
// without 32-bit support), it runs it under Emulator instead. env, if not
// empty, is added to the environment (NAME=value), e.g.
// engine/witness/reproduce.ProbeEnv+"=1".
//
// code is the exit status (-1: killed by a signal, or ctx ended);
// emulated reports the Emulator route. err is non-nil only when exe could
// not be started at all (ENOEXEC without Emulator in PATH says so).
func Run(ctx context.Context, exe string, env []string, stdout, stderr io.Writer) (code int, emulated bool, err error) {
	return RunInput(ctx, exe, env, nil, stdout, stderr)
}

// RunInput is Run with stdin on the reproducer's standard input (nil:
// empty), e.g. the bytes a counterexample reads with getchar
// (engine/witness/reproduce.Stdin).
func RunInput(ctx context.Context, exe string, env []string, stdin []byte, stdout, stderr io.Writer) (code int, emulated bool, err error) {
	run := func(argv ...string) (*exec.Cmd, error) {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdout, cmd.Stderr = stdout, stderr
		if stdin != nil {
			cmd.Stdin = bytes.NewReader(stdin)
		}
		if len(env) > 0 {
			cmd.Env = append(cmd.Environ(), env...)
		}
		if !emulated {
			return cmd, startDirect(cmd)
		}
		return cmd, cmd.Start()
	}
	cmd, err := run(exe)
	if errors.Is(err, syscall.ENOEXEC) {
		q, lerr := exec.LookPath(Emulator)
		if lerr != nil {
			return -1, false, fmt.Errorf("cannot execute %s (%v) and %s is not installed (Debian package qemu-user; scripts/install.sh installs it)", exe, err, Emulator)
		}
		emulated = true
		cmd, err = run(q, exe)
	}
	if err != nil {
		return -1, emulated, fmt.Errorf("cannot run %s: %v", exe, err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, emulated, nil
	case errors.As(err, &ee):
		return ee.ExitCode(), emulated, nil
	}
	return -1, emulated, err
}

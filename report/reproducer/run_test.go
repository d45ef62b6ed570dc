package reproducer

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// build compiles src with gcc (extra flags, e.g. -m32) and returns the
// executable; it skips the test when gcc cannot.
func build(t *testing.T, src string, flags ...string) string {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	dir := t.TempDir()
	c, exe := filepath.Join(dir, "p.c"), filepath.Join(dir, "p")
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", append(flags, "-o", exe, c)...).CombinedOutput(); err != nil {
		t.Skipf("gcc %s cannot build here: %v\n%s", strings.Join(flags, " "), err, out)
	}
	return exe
}

// prog exits with 7 after writing to both streams, or with 0 when the
// probe variable is set.
const prog = `#include <stdio.h>
#include <stdlib.h>
int main(void) {
	if (getenv("PROBE")) return 0;
	printf("out\n");
	fprintf(stderr, "reached\n");
	return 7;
}
`

// TestRun runs a native program: its exit status and output, the added
// environment, a signal (-1), a context deadline, and a missing file.
func TestRun(t *testing.T) {
	exe := build(t, prog)
	var out, errOut bytes.Buffer
	code, emulated, err := Run(context.Background(), exe, nil, &out, &errOut)
	if err != nil || emulated || code != 7 || out.String() != "out\n" || errOut.String() != "reached\n" {
		t.Errorf("run: code %d, emulated %v, err %v, stdout %q, stderr %q", code, emulated, err, out.String(), errOut.String())
	}
	if code, _, err := Run(context.Background(), exe, []string{"PROBE=1"}, nil, nil); err != nil || code != 0 {
		t.Errorf("probe: code %d, err %v", code, err)
	}
	loop := build(t, "int main(void) { for (;;) ; }\n")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if code, _, err := Run(ctx, loop, nil, nil, nil); code != -1 {
		t.Errorf("killed at the deadline: code %d, err %v", code, err)
	}
	if _, _, err := Run(context.Background(), filepath.Join(t.TempDir(), "none"), nil, nil, nil); err == nil || !strings.Contains(err.Error(), "cannot run") {
		t.Errorf("missing executable: err %v", err)
	}
}

// TestRunEmulated plays a kernel that refuses i386 executables (ENOEXEC
// on the direct start): an i386 program then runs under qemu-i386; without
// qemu-i386 in PATH the error says what to install.
func TestRunEmulated(t *testing.T) {
	if _, err := exec.LookPath(Emulator); err != nil {
		t.Skipf("%s not found (Debian package qemu-user): the emulated route cannot run here", Emulator)
	}
	exe := build(t, prog, "-m32")
	direct := 0
	startDirect = func(c *exec.Cmd) error {
		direct++
		return &os.PathError{Op: "fork/exec", Path: c.Path, Err: syscall.ENOEXEC}
	}
	defer func() { startDirect = (*exec.Cmd).Start }()

	var stderr bytes.Buffer
	code, emulated, err := Run(context.Background(), exe, nil, nil, &stderr)
	if err != nil || !emulated || direct != 1 || code != 7 || stderr.String() != "reached\n" {
		t.Errorf("emulated run: code %d, emulated %v, direct starts %d, err %v, stderr %q", code, emulated, direct, err, stderr.String())
	}
	code, emulated, err = Run(context.Background(), exe, []string{"PROBE=1"}, nil, nil)
	if err != nil || !emulated || code != 0 {
		t.Errorf("probe: code %d, emulated %v, err %v", code, emulated, err)
	}
	t.Setenv("PATH", "")
	if _, _, err = Run(context.Background(), exe, nil, nil, nil); err == nil || !strings.Contains(err.Error(), "qemu-user") {
		t.Errorf("without %s: error %v, want one naming qemu-user", Emulator, err)
	}
}

// TestRunInput: the bytes given reach the program's standard input, NUL
// included, and end there (EOF).
func TestRunInput(t *testing.T) {
	exe := build(t, `#include <stdio.h>
int main(void) {
	int a = getchar(), b = getchar(), c = getchar();
	return a == 'x' && b == 0 && c == EOF ? 5 : 1;
}
`)
	code, _, err := RunInput(context.Background(), exe, nil, []byte("x\x00"), nil, nil)
	if err != nil || code != 5 {
		t.Errorf("RunInput: exit %d, err %v; want 5", code, err)
	}
	if code, _, _ := Run(context.Background(), exe, nil, nil, nil); code != 1 {
		t.Errorf("Run (empty input): exit %d, want 1", code)
	}
}

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// TestPhaseLimits: reading the sources is held to the run's limits. A
// program with a large initialised array, whose parse alone needs about
// 2 GiB, ends with a one-line error and exit status 2 before the process
// passes the memory limit (--memory 200MiB, one job) by much (the
// unwatched parse needs ten times the limit), and before it passes the
// time limit in CPU time; a
// small program under the same limits is verified.
func TestPhaseLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	dir := t.TempDir()
	var b strings.Builder
	const n = 1 << 20
	b.WriteString("#include <assert.h>\nunsigned char tab[] = {")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,", (i*7)&255)
	}
	b.WriteString("};\nint main(void) { int i = tab[5]; assert(i == 35); return 0; }\n")
	big := filepath.Join(dir, "big.c")
	small := filepath.Join(dir, "small.c")
	if err := os.WriteFile(big, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(small, []byte("#include <assert.h>\nunsigned char tab[] = {0, 7, 14};\nint main(void) { assert(tab[1] == 7); return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	child := func(args ...string) (code int, stderr string, peakMiB int64) {
		cmd := exec.Command(os.Args[0], append([]string{"check"}, args...)...)
		cmd.Env = append(os.Environ(), benchChildEnv+"=1")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peakMiB = ru.Maxrss >> 10
		}
		return cmd.ProcessState.ExitCode(), errb.String(), peakMiB
	}

	code, stderr, peak := child(big, "--jobs", "1", "--memory", "200MiB", "--timeout", "60s")
	if code != 2 || !regexp.MustCompile(`^reverify: reading the sources of \S+big\.c needs more than the memory limit of 200MiB \(\d+(\.\d)?MiB in use\); no property was checked\n$`).MatchString(stderr) {
		t.Errorf("memory: exit %d, stderr %q", code, stderr)
	}
	// Unwatched, the parse alone grows to about 2 GiB; watched, the peak
	// is within 1.5 times the limit on an idle machine and reached 687 MiB
	// on a loaded one (the sampling goroutine waits for a core).
	if peak > 1024 {
		t.Errorf("memory: peak resident set %d MiB, limit 200 MiB (unwatched about 2 GiB)", peak)
	}

	code, stderr, _ = child(big, "--jobs", "1", "--memory", "8GiB", "--timeout", "300ms")
	if code != 2 || !regexp.MustCompile(`^reverify: reading the sources of \S+big\.c took longer than the time limit of 300ms CPU; no property was checked\n$`).MatchString(stderr) {
		t.Errorf("time: exit %d, stderr %q", code, stderr)
	}

	code, stderr, _ = child(small, "--jobs", "1", "--memory", "200MiB", "--timeout", "20s")
	if code != 0 {
		t.Errorf("small program: exit %d, stderr %q", code, stderr)
	}
}

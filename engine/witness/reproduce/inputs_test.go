package reproduce

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/report/reproducer"
)

// TestReproducerInputFunctions: a counterexample through the C
// library's input functions (cfa.InputCall: rand, random, time, clock)
// has a reproducer that defines them with the counterexample's values,
// time storing its value through its argument as well, so that the
// program compiled with gcc reaches the reported assertion (exit 77);
// other values do not. Without the harness's definitions the C
// library's functions would return other values.
func TestReproducerInputFunctions(t *testing.T) {
	const src = `#include <assert.h>
#include <stdlib.h>
#include <time.h>
int main(void) {
  srand(1);
  int r = rand();
  long q = random();
  time_t t0;
  time_t t = time(&t0);
  clock_t c = clock();
  if (t0 == 1700000000 && t == t0 && time(0) == -1)
    assert(!(r == 12345 && q == 2147483647L && c == 42));
  return 0;
}
`
	for _, dm := range []cfa.DataModel{cfa.LP64, cfa.ILP32} {
		t.Run(dm.String(), func(t *testing.T) {
			// in path order: the locals' indeterminate values at their
			// declarations and the calls' values
			v := smtViolation(t, dm, src, []uint64{0, 12345, 0, 2147483647, 0, 0, 1700000000, 0, 42, 1<<64 - 1})
			harness, err := Reproducer(v)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"int rand(void)", "long random(void)", "time_t time(time_t *rv_t)", "clock_t clock(void)", `{"rand", 0x3039ULL`} {
				if !strings.Contains(harness, want) {
					t.Errorf("harness lacks %q:\n%s", want, harness)
				}
			}
			needGCC(t, dm)
			if code, stderr := runSource(t, dm, src, harness); code != ReachedExitCode || !strings.Contains(stderr, ReachedMarker) {
				t.Fatalf("exit %d, stderr %q\n--- harness:\n%s", code, stderr, harness)
			}
			// clock's value 41 instead: the assertion holds
			wrong := strings.Replace(harness, `{"clock", 0x2aULL`, `{"clock", 0x29ULL`, 1)
			if wrong == harness {
				t.Fatalf("no value 42 of clock in the harness:\n%s", harness)
			}
			harness = wrong
			if code, stderr := runSource(t, dm, src, harness); code == ReachedExitCode || strings.Contains(stderr, ReachedMarker) {
				t.Errorf("clock 41: exit %d, stderr %q", code, stderr)
			}
		})
	}
}

// TestReproducerStdinBlocks: the bytes fgets and fread of stdin read
// (cfa.StdinCall, byte by byte) are the reproducer's standard input with
// getchar's, in read order; fed them, the program compiled with gcc
// reaches the reported assertion (exit 77), and the C library's fgets
// and fread consume them as the model does (fgets stops after the
// newline).
func TestReproducerStdinBlocks(t *testing.T) {
	const src = `#include <assert.h>
#include <stdio.h>
int main(void) {
  char buf[4];
  char d[2];
  if (fgets(buf, 4, stdin) && buf[0] == 'o' && fread(d, 1, 2, stdin) == 2 && d[1] == 'k' && getchar() == EOF)
    assert(0);
  return 0;
}
`
	// fgets: 'o', newline; fread: 'x', 'k'; getchar: EOF
	v := smtViolation(t, cfa.LP64, src, []uint64{'o', '\n', 'x', 'k', 1<<64 - 1})
	harness, err := Reproducer(v)
	if err != nil {
		t.Fatal(err)
	}
	data, ok := Stdin(harness)
	// the solver chooses the byte d[0]
	if !ok || len(data) != 4 || string(data[:2]) != "o\n" || data[3] != 'k' {
		t.Fatalf("Stdin = %q, %v; want \"o\\n?k\"\n%s", data, ok, harness)
	}
	needGCC(t, cfa.LP64)
	for _, tc := range []struct {
		in      string
		reached bool
	}{{string(data), true}, {"oxk", false}, {string(data) + "z", false}} {
		code, stderr := runStdin(t, src, harness, []byte(tc.in))
		if got := code == ReachedExitCode && strings.Contains(stderr, ReachedMarker); got != tc.reached {
			t.Errorf("input %q: exit %d, stderr %q; want reached %v", tc.in, code, stderr, tc.reached)
		}
	}
}

// runStdin is runSource with in on the reproducer's standard input.
func runStdin(t *testing.T, src, harness string, in []byte) (int, string) {
	t.Helper()
	dir := t.TempDir()
	prog, repro, exe := filepath.Join(dir, "u.c"), filepath.Join(dir, "reproducer.c"), filepath.Join(dir, "repro")
	os.WriteFile(prog, []byte(src), 0o644)
	os.WriteFile(repro, []byte(harness), 0o644)
	argv := BuildLine(cfa.LP64, []string{prog}, repro, exe, BuildFlags(harness)...)
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
	var stderr bytes.Buffer
	code, _, err := reproducer.RunInput(context.Background(), exe, nil, in, nil, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	return code, stderr.String()
}

// TestReproducerRead: a counterexample through read (cfa.ReadCall: the
// count, then the bytes, inputs of source "read") has a reproducer that
// defines read to return the counterexample's count and store its bytes,
// whatever the descriptor, so that the program compiled with gcc reaches
// the reported assertion (exit 77); with another byte it does not. The
// harness's own reads (addr2line's output) do not go through it.
func TestReproducerRead(t *testing.T) {
	const src = `#include <assert.h>
#include <unistd.h>
int main(void) {
  char buf[4] = {'z', 'z', 'z', 'z'};
  ssize_t r = read(7, buf, 3);
  ssize_t e = read(0, buf + 3, 1);
  if (r == 2 && buf[0] == 'o' && buf[1] == 'k' && buf[2] == 'z' && e == -1)
    assert(0);
  return 0;
}
`
	for _, dm := range []cfa.DataModel{cfa.LP64, cfa.ILP32} {
		t.Run(dm.String(), func(t *testing.T) {
			// in path order: r's indeterminate value at its
			// declaration, read's count, then its bytes, e's value at
			// its declaration, the second count
			v := smtViolation(t, dm, src, []uint64{0, 2, 'o', 'k', 0, 1<<64 - 1})
			harness, err := Reproducer(v)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"ssize_t read(int rv_fd, void *rv_buf, size_t rv_n)", `{"read", 0x2ULL`, `{"read", 0x6fULL`, `{"read", 0x6bULL`} {
				if !strings.Contains(harness, want) {
					t.Errorf("harness lacks %q:\n%s", want, harness)
				}
			}
			needGCC(t, dm)
			if code, stderr := runSource(t, dm, src, harness); code != ReachedExitCode || !strings.Contains(stderr, ReachedMarker) {
				t.Fatalf("exit %d, stderr %q\n--- harness:\n%s", code, stderr, harness)
			}
			// the byte 'k' as 'x': the assertion holds
			wrong := strings.Replace(harness, `{"read", 0x6bULL`, `{"read", 0x78ULL`, 1)
			if code, stderr := runSource(t, dm, src, wrong); code == ReachedExitCode || strings.Contains(stderr, ReachedMarker) {
				t.Errorf("byte 'x': exit %d, stderr %q", code, stderr)
			}
		})
	}
}

package engine_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/results"
)

// gccAssertHeader replaces testdata/sv.h for a run of a verdict program
// compiled by gcc against the C library: a failing assertion prints its
// line and the run goes on.
const gccAssertHeader = `#include <stdio.h>
static void rv_check(int c, int line) { if (!c) printf("%d\n", line); }
#define assert(c) rv_check((c) != 0, __LINE__)
`

// TestInputsAgainstGCC runs the verdict programs of the C library's
// input functions (cfa.InputCall, cfa.StdinByte), compiled by gcc,
// against the C library itself, with given standard input: no assertion
// whose verdict is TRUE fails in a real run (the models admit what the
// library returns), and the assertions the input decides fail as
// expected (mustFail). glibc's RAND_MAX is the model's (cfa.RandMax).
func TestInputsAgainstGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	dir := t.TempDir()
	rm := filepath.Join(dir, "randmax.c")
	os.WriteFile(rm, []byte("#include <stdlib.h>\n_Static_assert(RAND_MAX == "+strconv.Itoa(cfa.RandMax)+", \"RAND_MAX\");\nint main(void) { return 0; }\n"), 0o644)
	if out, err := exec.Command("gcc", "-c", "-o", filepath.Join(dir, "randmax.o"), rm).CombinedOutput(); err != nil {
		t.Fatalf("RAND_MAX is not %d here: %v\n%s", cfa.RandMax, err, out)
	}
	for _, tc := range []struct {
		file     string
		stdin    string
		mustFail []int
	}{
		// two values of rand after srand(7) differ
		{"input_rand_time.c", "", []int{22}},
		// the loop reads 'x' after four bytes
		{"stdin_getchar.c", "abcdx", []int{31}},
		{"stdin_getchar.c", "", nil},
		// fgets stops after the newline, fread reads the rest
		{"stdin_fgets.c", "ok\nab!", []int{26, 35}},
		{"stdin_fgets.c", "", nil},
		{"stdin_fgets.c", "\n", nil},
		{"stdin_fgets.c", "a\x00b\ncd", nil},
		{"stdin_fgets.c", "abcdefghij", nil},
		// EOF after bytes: fread and getchar find it again (sticky)
		{"stdin_fgets.c", "ab", nil},
		{"stdin_fgets.c", "ok\nab", []int{26}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata/verdicts", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			d := t.TempDir()
			os.WriteFile(filepath.Join(d, "sv.h"), []byte(gccAssertHeader), 0o644)
			os.Mkdir(filepath.Join(d, "v"), 0o755)
			prog, exe := filepath.Join(d, "v", tc.file), filepath.Join(d, "a.out")
			os.WriteFile(prog, src, 0o644)
			if out, err := exec.Command("gcc", "-O0", "-fwrapv", "-w", "-o", exe, prog).CombinedOutput(); err != nil {
				t.Fatalf("gcc: %v\n%s", err, out)
			}
			truth := knownVerdicts(string(src))
			for run := 0; run < 3; run++ {
				cmd := exec.Command(exe)
				cmd.Stdin = strings.NewReader(tc.stdin)
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("run: %v", err)
				}
				failed := map[int]bool{}
				for _, l := range strings.Fields(string(out)) {
					n, _ := strconv.Atoi(l)
					failed[n] = true
					if truth[n] == results.True {
						t.Errorf("line %d, verdict TRUE, fails in a run of gcc's program", n)
					}
				}
				for _, n := range tc.mustFail {
					if !failed[n] {
						t.Errorf("line %d holds in a run of gcc's program; the input makes it fail", n)
					}
				}
			}
		})
	}
}

package engine_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/reproduce"
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
// input functions (cfa.InputCall, cfa.StdinByte, cfa.ReadCall, getenv
// with the given environment: cfa.EnvName) and of the
// decimal conversions (cmodel.Strto) and sscanf (cfa.EmitSscanf), compiled by gcc,
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
		env      []string // the run's environment (nil: none)
	}{
		// two values of rand after srand(7) differ
		{"input_rand_time.c", "", []int{22}, nil},
		// the loop reads 'x' after four bytes
		{"stdin_getchar.c", "abcdx", []int{31}, nil},
		{"stdin_getchar.c", "", nil, nil},
		// fgets stops after the newline, fread reads the rest
		{"stdin_fgets.c", "ok\nab!", []int{26, 35}, nil},
		{"stdin_fgets.c", "", nil, nil},
		{"stdin_fgets.c", "\n", nil, nil},
		{"stdin_fgets.c", "a\x00b\ncd", nil, nil},
		{"stdin_fgets.c", "abcdefghij", nil, nil},
		// EOF after bytes: fread and getchar find it again (sticky)
		{"stdin_fgets.c", "ab", nil, nil},
		{"stdin_fgets.c", "ok\nab", []int{26}, nil},
		// read(0, ...) of a pipe: a short read of the two bytes
		// written, then end of file
		{"input_read.c", "ok", []int{31}, nil},
		// three bytes, then the loop reads the other three
		{"input_read.c", "xyzab!", []int{41}, nil},
		{"input_read.c", "", nil, nil},
		{"input_read.c", "abcdefgh", nil, nil},
		// two numbers, then the end of the input for the rest
		{"stdin_scanf.c", " -5 300", []int{21}, nil},
		{"stdin_scanf.c", "-5\n+300\n", []int{21}, nil},
		// a character no conversion accepts stays unread
		{"stdin_scanf.c", "x", nil, nil},
		{"stdin_scanf.c", "5 ?", nil, nil},
		{"stdin_scanf.c", "5 6 -", nil, nil},
		{"stdin_scanf.c", "", nil, nil},
		// the third call stores one value and meets the end, or two
		{"stdin_scanf.c", "1 2 3 200", []int{25}, nil},
		{"stdin_scanf.c", "1 2 3 7 beef", []int{26}, nil},
		{"stdin_scanf.c", "1 2 3 200 0xbeef", []int{26}, nil},
		{"stdin_scanf.c", "1 2 3 200 ?", nil, nil},
		// fscanf on stdin and scanf read the same input
		{"stdin_fscanf.c", "40 -2", []int{17}, nil},
		{"stdin_fscanf.c", "40\n\n-2x", []int{17}, nil},
		{"stdin_fscanf.c", "x 40 -2", nil, nil},
		{"stdin_fscanf.c", "40", nil, nil},
		// the decimal conversions (cmodel.Strto) of a line of input
		{"stdin_strtol.c", "42", []int{28}, nil},
		{"stdin_strtol.c", "-5x", []int{29}, nil},
		{"stdin_strtol.c", " 7\n", nil, nil},
		{"stdin_strtol.c", "999", nil, nil},
		{"stdin_strtol.c", "-99", nil, nil},
		{"stdin_strtol.c", "abc", nil, nil},
		{"stdin_strtol.c", "", nil, nil},
		// sscanf's decimal conversions (cfa.EmitSscanf) of a line
		{"stdin_sscanf.c", "42", []int{25}, nil},
		{"stdin_sscanf.c", "\n", []int{26}, nil},
		{"stdin_sscanf.c", "-7", nil, nil},
		{"stdin_sscanf.c", "x1", nil, nil},
		{"stdin_sscanf.c", "", nil, nil},
		// getenv (cfa.EnvName): putenv makes getenv return the
		// program's own buffer (line 29, UNKNOWN, was a wrong TRUE of
		// a model that kept getenv apart from the program's objects),
		// and setenv sets a name (line 33)
		{"input_getenv.c", "", []int{29, 33}, []string{}},
		{"input_getenv.c", "", []int{19, 24, 29, 33}, []string{"DEBUG=y", "HOME=abc"}},
		{"input_getenv.c", "", []int{29, 33}, []string{"DEBUG=yes", "HOME=abcd", "P=1"}},
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
				if tc.env != nil {
					cmd.Env = tc.env
				}
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

// reproducerTimeout is wall time with room for a loaded machine:
// predicate-cegar finds both paths of input_read.c in about 10 s alone,
// and CI runs the packages side by side on two cores.
const reproducerTimeout = time.Minute

// TestInputReproducers verifies the verdict programs of read (cfa.ReadCall),
// scanf (cfa.ScanfCall), and the decimal conversions and sscanf read from
// standard input (cmodel.Strto, cfa.EmitSscanf) under each analysis and runs the reproducer
// of every FALSE compiled by gcc: it defines read to return the
// counterexample's count and bytes in the order the model reads them
// (the count, then the bytes), and it gets the text that makes glibc's
// scanf return the counterexample's values on its standard input,
// whatever analysis found the path, so that the run ends at the
// reported assertion (exit 77).
func TestInputReproducers(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	for _, tc := range []struct {
		file    string
		configs []string
	}{
		{"input_read.c", []string{"value", "value-cegar", "symex-cegar", "predicate-cegar", "bmc"}},
		{"stdin_scanf.c", []string{"value", "predicate-cegar", "bmc"}},
		{"stdin_fscanf.c", []string{"value", "bmc"}},
		// the C library's own conversions run: the model's unit is
		// left out of the reproducer
		{"stdin_strtol.c", []string{"value"}},
		{"stdin_sscanf.c", []string{"value"}},
		// the harness defines getenv, the real environment for the
		// names the counterexample does not read
		{"input_getenv.c", []string{"value", "symex-cegar", "predicate-cegar"}},
		// an extern table of 4,096 bytes: the harness defines it with
		// the counterexample's bytes
		{"extern_table.c", []string{"value", "predicate-cegar", "bmc"}},
	} {
		for _, config := range tc.configs {
			t.Run(config+"/"+tc.file, func(t *testing.T) {
				if testing.Short() && (config == "symex-cegar" || config == "predicate-cegar") {
					t.Skip("the fast tier runs the analyses that take a second; the full tier runs them all")
				}
				file := filepath.Join("testdata/verdicts", tc.file)
				src, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				truth := knownVerdicts(string(src))
				prog, err := frontend.Translate(frontend.Options{}, file)
				if err != nil {
					t.Fatal(err)
				}
				// Only the properties known FALSE: their reproducers are
				// what this test runs (TestVerdicts checks the others).
				var props []*spec.Property
				for _, p := range spec.Properties(prog, "main") {
					if truth[p.Pos.Line] == results.False {
						props = append(props, p)
					}
				}
				res, err := engine.Verify(context.Background(), prog, props,
					engine.Config{MemoryLimit: testMemory, Name: config, Timeout: reproducerTimeout, Solver: z3.Factory, OneShot: z3.OneShotFactory})
				if err != nil {
					t.Fatal(err)
				}
				found := 0
				for _, r := range res {
					line := r.Property.Pos.Line
					if r.Verdict != results.False {
						continue
					}
					if truth[line] != results.False {
						t.Errorf("line %d: FALSE (%s), known %s", line, r.Reason, truth[line])
						continue
					}
					found++
					v := &witness.Violation{Program: prog, Path: r.Counterexample, Inputs: r.Inputs,
						Task: witness.Task{Files: []string{file}, Entry: "main", DataModel: prog.DataModel}}
					harness, err := reproduce.Reproducer(v)
					if err != nil {
						t.Errorf("line %d: %v", line, err)
						continue
					}
					dir := t.TempDir()
					repro, exe := filepath.Join(dir, "reproducer.c"), filepath.Join(dir, "repro")
					os.WriteFile(repro, []byte(harness), 0o644)
					argv := reproduce.BuildLine(prog.DataModel, []string{file}, repro, exe, reproduce.BuildFlags(harness)...)
					if out, err := exec.Command(gcc, argv[1:]...).CombinedOutput(); err != nil {
						t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
					}
					var stderr bytes.Buffer
					cmd := exec.Command(exe)
					cmd.Stderr = &stderr
					if data, ok := reproduce.Stdin(harness); ok {
						cmd.Stdin = bytes.NewReader(data)
					}
					err = cmd.Run()
					ee, ok := err.(*exec.ExitError)
					if !ok || ee.ExitCode() != reproduce.ReachedExitCode || !strings.Contains(stderr.String(), reproduce.ReachedMarker) {
						t.Errorf("line %d: reproducer run: %v, stderr %q\n--- harness:\n%s", line, err, stderr.String(), harness)
					}
				}
				want := 0
				for _, v := range truth {
					if v == results.False {
						want++
					}
				}
				if found != want {
					t.Errorf("%d FALSE verdicts, want %d", found, want)
				}
			})
		}
	}
}

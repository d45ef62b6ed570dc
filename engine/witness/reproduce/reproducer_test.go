package reproduce

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/interp"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/witnesstest"
	"github.com/reverify/reverify/results"
)

func TestBuildLine(t *testing.T) {
	// "<atexit>" is the front end's model of atexit (in Program.Files of
	// a program that calls it), no file to build.
	got := BuildLine(cfa.LP64, []string{"a.c", "b.c", "<atexit>"}, "r.c", "out")
	want := []string{"gcc", "-O0", "-fwrapv", "-finstrument-functions", "-o", "out", "a.c", "b.c", "r.c"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LP64: %q", got)
	}
	got = BuildLine(cfa.ILP32, []string{"a.c"}, "r.c", "out")
	want = []string{"gcc", "-O0", "-fwrapv", "-finstrument-functions", "-m32", "-o", "out", "a.c", "r.c"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ILP32: %q", got)
	}
}

var (
	m32Once sync.Once
	m32Err  error
)

// needGCC skips the test without gcc, or, for ILP32, when gcc -m32
// cannot build a program or the result cannot run (neither directly nor
// under qemu-i386): the probe builds and runs one.
func needGCC(t *testing.T, dm cfa.DataModel) {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found: reproducers cannot be compiled here")
	}
	if dm != cfa.ILP32 {
		return
	}
	m32Once.Do(func() {
		dir, err := os.MkdirTemp("", "m32")
		if err != nil {
			m32Err = err
			return
		}
		defer os.RemoveAll(dir)
		src, exe := filepath.Join(dir, "m.c"), filepath.Join(dir, "m")
		os.WriteFile(src, []byte("#include <stdio.h>\nint main(void) { return sizeof(long) == 4 ? 3 : 4; }\n"), 0o644)
		out, err := exec.Command("gcc", "-m32", "-o", exe, src).CombinedOutput()
		if err != nil {
			m32Err = fmt.Errorf("gcc -m32 does not work here (install gcc-multilib): %s", out)
			return
		}
		code, _, err := RunReproducer(context.Background(), exe, nil, nil, nil)
		switch {
		case err != nil:
			m32Err = fmt.Errorf("an i386 program does not run here: %v", err)
		case code != 3:
			m32Err = fmt.Errorf("an i386 program exits with %d, want 3", code)
		}
	})
	if m32Err != nil {
		t.Skip(m32Err)
	}
}

// runReproducer writes the program and the harness to a temporary
// directory, compiles them per BuildLine and runs the result: its exit
// status and stderr.
func runReproducer(t *testing.T, file string, dm cfa.DataModel, harness string) (int, string) {
	t.Helper()
	dir := t.TempDir()
	prog := filepath.Join(dir, file)
	if err := os.WriteFile(prog, []byte(readTestdata(t, file)), 0o644); err != nil {
		t.Fatal(err)
	}
	repro := filepath.Join(dir, "reproducer.c")
	if err := os.WriteFile(repro, []byte(harness), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "repro")
	argv := BuildLine(dm, []string{prog}, repro, exe, BuildFlags(harness)...)
	// -Werror on the harness's own warnings keeps it clean.
	if out, err := exec.Command(argv[0], append(argv[1:], "-Wall", "-Wno-main")...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s\n--- harness:\n%s", strings.Join(argv, " "), err, out, harness)
	} else if bytes.Contains(out, []byte("reproducer.c")) {
		t.Errorf("warnings in the harness:\n%s", out)
	}
	var stderr bytes.Buffer
	code, _, err := RunReproducer(context.Background(), exe, nil, nil, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	return code, stderr.String() // code -1: killed by a signal
}

func TestReproducer(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		dm         cfa.DataModel
		spec       string
		vals       []uint64 // a violating run
		wrong      []uint64 // the same path's inputs replaced: no violation
		wrongCode  int      // exit status of the wrong run (-1: a signal)
		wrongNote  string   // expected on stderr of the wrong run
	}{
		{name: "simple-lp64", file: "simple.c", dm: cfa.LP64, vals: []uint64{11}, wrong: []uint64{5}},
		{name: "simple-ilp32", file: "simple.c", dm: cfa.ILP32, vals: []uint64{11}, wrong: []uint64{10}},
		{name: "simple-negative", file: "simple.c", dm: cfa.ILP32, vals: []uint64{0x7fffffff}, wrong: []uint64{0x80000000}},
		{name: "loop-ilp32", file: "loop.c", dm: cfa.ILP32, vals: []uint64{3, 200, 0}, wrong: []uint64{2, 200, 0}},
		{name: "loop-lp64", file: "loop.c", dm: cfa.LP64, vals: []uint64{3, 200, 0}, wrong: []uint64{3, 200, 1}},
		{name: "legacy", file: "legacy.c", dm: cfa.LP64, spec: "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )",
			vals: []uint64{255, uint64(1<<64 - 7), 1, 1, 0}, wrong: []uint64{255, uint64(1<<64 - 8), 1, 1},
			// More nondet calls than recorded values.
			wrongNote: "called after the 4 recorded value(s); returning 0"},
		{name: "legacy-assume", file: "legacy.c", dm: cfa.ILP32, spec: "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )",
			vals: []uint64{255, uint64(1<<64 - 5), 0}, wrong: []uint64{100, uint64(1<<64 - 5), 0},
			wrongNote: "__VERIFIER_assume failed"},
		{name: "calls", file: "calls.c", dm: cfa.ILP32, vals: []uint64{1, 0xfb}, wrong: []uint64{2, 0xfb}},
		{name: "abort", file: "abort.c", dm: cfa.LP64, vals: []uint64{0}, wrong: []uint64{uint64(1<<64 - 1)}, wrongCode: -1},
		{name: "abort-ilp32", file: "abort.c", dm: cfa.ILP32, vals: []uint64{0}, wrong: []uint64{3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			needGCC(t, tc.dm)
			v := violationFor(t, tc.file, tc.dm, tc.spec, tc.vals, witnesstest.ExecOpts{})
			src, err := Reproducer(v)
			if err != nil {
				t.Fatal(err)
			}
			code, stderr := runReproducer(t, tc.file, tc.dm, src)
			if code != ReachedExitCode || !strings.Contains(stderr, ReachedMarker) {
				t.Fatalf("violating run: exit %d, stderr %q\n--- harness:\n%s", code, stderr, src)
			}

			w := *v
			w.Inputs = nil
			for i, x := range tc.wrong {
				in := v.Inputs[min(i, len(v.Inputs)-1)]
				if i >= len(v.Inputs) {
					in.Step = -1
				}
				in.Bits = x
				w.Inputs = append(w.Inputs, in)
			}
			src, err = Reproducer(&w)
			if err != nil {
				t.Fatal(err)
			}
			code, stderr = runReproducer(t, tc.file, tc.dm, src)
			if code == ReachedExitCode || strings.Contains(stderr, ReachedMarker) || code != tc.wrongCode {
				t.Errorf("wrong inputs: exit %d (want %d), stderr %q", code, tc.wrongCode, stderr)
			}
			if !strings.Contains(stderr, tc.wrongNote) {
				t.Errorf("wrong inputs: stderr %q, want %q", stderr, tc.wrongNote)
			}
		})
	}
}

func TestReproducerText(t *testing.T) {
	v := violationFor(t, "simple.c", cfa.LP64, "", []uint64{11}, witnesstest.ExecOpts{})
	src, err := Reproducer(v)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "simple.repro.c", []byte(src))
	for _, want := range []string{
		"int __VERIFIER_nondet_int(void)",
		`{"__VERIFIER_nondet_int", 0xbULL, "simple.c:7:`,
		`}, /* 0: 11 */`,
		"void __assert_fail(const char *assertion",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("harness lacks %q", want)
		}
	}
	// The program defines reach_error, so the harness must not.
	if strings.Contains(src, "void reach_error(") {
		t.Error("harness redefines reach_error")
	}
}

// TestReproducerUnsupported covers values a harness cannot supply.
func TestReproducerUnsupported(t *testing.T) {
	const uninit = `extern void reach_error(void);
int main(void) {
  int x;
  int y;
  y = 1;
  if (x > 5 && y) reach_error();
  return 0;
}
`
	const unused = `extern void reach_error(void);
int main(void) {
  int x;
  x = 6;
  if (x > 5) reach_error();
  return 0;
}
`
	const ext = `extern void reach_error(void);
extern int get(void);
int main(void) {
  int x = get();
  if (x > 5) reach_error();
  return 0;
}
`
	seven := uint64(7)
	for _, tc := range []struct {
		name, src string
		o         witnesstest.ExecOpts
		err       string // "" means: no error
	}{
		{"uninitialised", uninit, witnesstest.ExecOpts{Decls: &seven}, "uninitialised value of x at u.c:3:3"},
		{"overwritten", unused, witnesstest.ExecOpts{Decls: &seven}, ""},
		{"extern", ext, witnesstest.ExecOpts{Extern: &seven}, "result of extern get at u.c:4:7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := witnesstest.Translate(t, cfa.LP64, "u.c", tc.src)
			path, inputs, reached := witnesstest.Execute(t, p, "main", nil, tc.o)
			if !reached {
				t.Fatal("no violation")
			}
			v := &witness.Violation{Program: p, Path: path, Inputs: inputs, Task: witness.Task{Contents: map[string]string{"u.c": tc.src}}}
			src, err := Reproducer(v)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("error %v, want %q", err, tc.err)
			case tc.err == "" && !strings.Contains(src, "void reach_error(void)\n{\n\trv_error(\"reach_error()\""):
				t.Errorf("the harness must define the external reach_error:\n%s", src)
			}
			// The witnesses do not depend on reproducibility: the
			// uninitialised value still becomes an assumption.
			var y bytes.Buffer
			if err := witness.WriteViolationYAML(&y, v); err != nil {
				t.Fatal(err)
			}
			if tc.name == "uninitialised" && !strings.Contains(y.String(), "x == 7") {
				t.Errorf("YAML lacks the uninitialised value:\n%s", y.String())
			}
		})
	}
}

// smtViolation translates src (file u.c), runs it concretely with vals
// (then zeros) to the error, and returns the counterexample as the engine
// gives it: the path with every input of smt.CheckPath (decl, volatile,
// nondet, in path order, with their steps).
func smtViolation(t *testing.T, dm cfa.DataModel, src string, vals []uint64) *witness.Violation {
	t.Helper()
	p := witnesstest.Translate(t, dm, "u.c", src)
	tr, err := interp.Run(context.Background(), p, "main", append(vals, make([]uint64, 64)...), interp.Options{})
	if err != nil || tr.Stop != interp.ReachedError {
		t.Fatalf("run: %v (%s), %v", tr.Stop, tr.Reason, err)
	}
	r, err := smt.CheckPath(context.Background(), smt.NewBuilder(), z3.Factory, p, tr.Steps)
	if err != nil || r.Status != smt.Sat {
		t.Fatalf("CheckPath = %v %v (%s)", r.Status, err, r.Reason)
	}
	v := &witness.Violation{Program: p, Path: tr.Steps, Task: witness.Task{Files: []string{"u.c"}, Contents: map[string]string{"u.c": src}, DataModel: dm}}
	for _, in := range r.Inputs {
		v.Inputs = append(v.Inputs, results.NewInput(in.Source, in.Type, in.Value, in.Step, tr.Steps))
	}
	return v
}

// runSource is runReproducer for a program given as source text.
func runSource(t *testing.T, dm cfa.DataModel, src, harness string) (int, string) {
	t.Helper()
	dir := t.TempDir()
	prog, repro, exe := filepath.Join(dir, "u.c"), filepath.Join(dir, "reproducer.c"), filepath.Join(dir, "repro")
	lowered, _ := LowerQuantifiers(src) // as report/artifacts builds it
	os.WriteFile(prog, []byte(lowered), 0o644)
	os.WriteFile(repro, []byte(harness), 0o644)
	argv := BuildLine(dm, []string{prog}, repro, exe, BuildFlags(harness)...)
	if out, err := exec.Command(argv[0], append(argv[1:], "-Wall", "-Wno-main")...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s\n--- harness:\n%s", strings.Join(argv, " "), err, out, harness)
	} else if bytes.Contains(out, []byte("reproducer.c")) {
		t.Errorf("warnings in the harness:\n%s", out)
	}
	var stderr bytes.Buffer
	code, _, err := RunReproducer(context.Background(), exe, nil, nil, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	return code, stderr.String()
}

// TestReproducerAddressTaken: the indeterminate initial value of an
// address-taken local blocks a reproducer only when the counterexample
// reads it; overwritten first (directly or through a pointer), the
// reproducer is built and reaches the error.
func TestReproducerAddressTaken(t *testing.T) {
	const head = "#include <assert.h>\nextern int __VERIFIER_nondet_int(void);\nint main(void) {\n"
	for _, tc := range []struct {
		name, body string
		vals       []uint64
		err        string
	}{
		{"initialised", "  int x = 1;\n  int *q = &x;\n  *q = 5;\n  assert(x == 1);\n", nil, ""},
		{"through pointer", "  int x;\n  int *q = &x;\n  *q = __VERIFIER_nondet_int();\n  assert(x != 7);\n", []uint64{7, 7, 7}, ""},
		{"read", "  int x;\n  int *q = &x;\n  assert(*q != 0);\n", nil, "uninitialised value of x at u.c:4:3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := head + tc.body + "  return 0;\n}\n"
			v := smtViolation(t, cfa.LP64, src, tc.vals)
			harness, err := Reproducer(v)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			needGCC(t, cfa.LP64)
			if code, stderr := runSource(t, cfa.LP64, src, harness); code != ReachedExitCode || !strings.Contains(stderr, ReachedMarker) {
				t.Errorf("exit %d, stderr %q\n--- harness:\n%s", code, stderr, harness)
			}
		})
	}
}

// TestReproducerVolatile: the reproducer supplies the counterexample's
// value for each read of a volatile global (an accessor per variable, by
// BuildFlags' macros), and refuses, saying why, where an accessor could
// give a value to the wrong evaluation.
func TestReproducerVolatile(t *testing.T) {
	const head = "#include <assert.h>\n"
	for _, tc := range []struct {
		name, src string
		vals      []uint64
		err       string
	}{
		{"read", head + "volatile int v;\nint main(void) { if (v == 42) assert(0); return 0; }\n", []uint64{42}, ""},
		{"two variables", head + "volatile int v;\nvolatile unsigned char w;\nint main(void) {\n  int a = v;\n  int b = w;\n  if (a == 1 && v == 2 && b == 200) assert(0);\n  return 0;\n}\n",
			[]uint64{0, 1, 0, 200, 2}, ""},
		{"sequenced", head + "volatile int v;\nint main(void) { if (v == 1 && v == 2) assert(0); return 0; }\n", []uint64{1, 2}, ""},
		{"unsequenced", head + "volatile int v;\nint g(int x) { return x; }\nint main(void) { if (g(v) - g(v) == 1) assert(0); return 0; }\n", []uint64{3, 2},
			"read twice with different values in one expression"},
		// the front end evaluates || first, as branches, and the
		// enclosing + leaves its operands unsequenced: gcc may read the
		// v right of || first (found by the differential test)
		{"condition inside unsequenced", head + "volatile unsigned v;\nint x;\nint main(void) { unsigned g = (v ^ 1) + (x || (v & 1)); if (g == 3) assert(0); return 0; }\n", []uint64{0, 0, 2},
			"read twice with different values in one expression"},
		{"conditional", head + "volatile int v;\nint main(void) { int g = v ? v : 7; if (g == 5) assert(0); return 0; }\n", []uint64{0, 1, 5}, ""},
		{"write", head + "volatile int v;\nint main(void) { v = 1; if (v == 42) assert(0); return 0; }\n", []uint64{42},
			"read of volatile v at u.c:3:"},
		{"initialiser", head + "volatile int v = 3;\nint main(void) { if (v == 42) assert(0); return 0; }\n", []uint64{42},
			"its declaration at u.c:2:1 has an initialiser"},
		{"local", head + "int main(void) { volatile int l; if (l == 42) assert(0); return 0; }\n", []uint64{0, 42},
			"it is a local variable"},
		// Reads of volatile lvalues other than variables are
		// havocs of temporaries that no accessor can supply.
		{"member", head + "struct S { int a; volatile int b; } s;\nint main(void) { if (s.b == 42) assert(0); return 0; }\n", []uint64{42},
			"nondeterministic value (volatile) at u.c:3:"},
		{"through pointer", head + "volatile int r;\nint main(void) { volatile int *p = &r; if (*p == 42) assert(0); return 0; }\n", []uint64{0, 42},
			"nondeterministic value (volatile) at u.c:3:"},
		{"volatile struct", head + "struct P { int a; int b; };\nvolatile struct P vs;\nint main(void) { if (vs.b == 42) assert(0); return 0; }\n", []uint64{42},
			"nondeterministic value (volatile) at u.c:4:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := smtViolation(t, cfa.LP64, tc.src, tc.vals)
			harness, err := Reproducer(v)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			needGCC(t, cfa.LP64)
			if code, stderr := runSource(t, cfa.LP64, tc.src, harness); code != ReachedExitCode || !strings.Contains(stderr, ReachedMarker) {
				t.Fatalf("exit %d, stderr %q\n--- harness:\n%s", code, stderr, harness)
			}
			// The same path with another value of the last volatile read
			// does not reach the error: the values come from the harness.
			w := *v
			w.Inputs = append([]results.Input(nil), v.Inputs...)
			w.Inputs[len(w.Inputs)-1].Bits++
			harness, err = Reproducer(&w)
			if err != nil {
				t.Fatal(err)
			}
			if code, stderr := runSource(t, cfa.LP64, tc.src, harness); code != 0 || strings.Contains(stderr, ReachedMarker) {
				t.Errorf("changed value: exit %d, stderr %q", code, stderr)
			}
		})
	}
}

var (
	asanOnce sync.Once
	asanErr  error
)

// needASan skips the test when gcc cannot build with AddressSanitizer.
func needASan(t *testing.T) {
	t.Helper()
	asanOnce.Do(func() {
		dir, err := os.MkdirTemp("", "asan")
		if err != nil {
			asanErr = err
			return
		}
		defer os.RemoveAll(dir)
		src, exe := filepath.Join(dir, "a.c"), filepath.Join(dir, "a")
		if err := os.WriteFile(src, []byte("#include <sanitizer/asan_interface.h>\nint main(void) { return __asan_address_is_poisoned(&main) != 0; }\n"), 0o644); err != nil {
			asanErr = err
			return
		}
		if out, err := exec.Command("gcc", "-fsanitize=address", "-o", exe, src).CombinedOutput(); err != nil {
			asanErr = fmt.Errorf("%v: %s", err, out)
		}
	})
	if asanErr != nil {
		t.Skipf("gcc cannot build with AddressSanitizer here: %v", asanErr)
	}
}

package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/report/artifacts"
	"github.com/reverify/reverify/results"
)

// reproduceCase is a program of testdata/reproduce checked with `check
// --output` and its options.
type reproduceCase struct {
	file string
	args []string // check's options (reproduce gets --entry from them)
	// reached is the number of FALSE verdicts whose reproducer must end
	// in the reported assertion; refused names, for every other FALSE,
	// what results.json says about its missing reproducer.
	reached int
	refused string
}

// checkReproducers runs check on the case (LP64, and ILP32 with ilp32
// where an i386 program runs here) and, per FALSE verdict, its
// reproducer twice: reproduce.sh (exit 77, the marker and the program's
// file name in its output) and `reverify reproduce` from the YAML witness
// (exit 0). A FALSE without a reproducer must give the reason refused.
// The fast tier (go test -short) checks LP64 only.
func checkReproducers(t *testing.T, tc reproduceCase, ilp32 bool) {
	t.Helper()
	if ilp32 && testing.Short() {
		t.Skip("the fast tier builds ILP32 reproducers in TestReproduceCommand only; the full tier checks every case under both data models")
	}
	if !gccWorks(t) {
		t.Skip("gcc is missing: reproducers cannot be compiled here")
	}
	prog := filepath.Join("testdata", "reproduce", tc.file)
	args := append([]string{prog}, tc.args...)
	if ilp32 {
		if why := i386Runs(t); why != "" {
			t.Skip(why)
		}
		args = append(args, "--data-model", "ILP32")
	}
	var entry []string // reproduce's options: --entry, the macros and the malloc model
	for i, a := range tc.args {
		switch a {
		case "--entry", "-D":
			entry = append(entry, tc.args[i:i+2]...)
		case "--malloc-may-fail":
			entry = append(entry, a)
		}
	}
	_, rep := checkOutput(t, args...)
	reached, refused := 0, 0
	for _, p := range rep.Properties {
		if p.Verdict != results.False {
			continue
		}
		if p.Reproducer == "" {
			refused++
			if tc.refused == "" || !strings.Contains(p.Reason, "no reproducer: ") || !strings.Contains(p.Reason, tc.refused) {
				t.Errorf("%s: no reproducer: %s", p.ID, p.Reason)
			}
			continue
		}
		msg, err := exec.Command("sh", filepath.Join(filepath.Dir(p.Reproducer), "reproduce.sh")).CombinedOutput()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != artifacts.ReachedExitCode || !bytes.Contains(msg, []byte(artifacts.ReachedMarker)) || !bytes.Contains(msg, []byte(tc.file)) {
			t.Errorf("%s: reproduce.sh: %v, want exit %d at %s; output:\n%s", p.ID, err, artifacts.ReachedExitCode, tc.file, msg)
			continue
		}
		var stdout, stderr bytes.Buffer
		if code := run(append(append([]string{"reproduce", "--witness", p.Witness}, entry...), prog), &stdout, &stderr); code != 0 {
			t.Errorf("%s: reproduce exit %d: %s%s", p.ID, code, stdout.String(), stderr.String())
			continue
		}
		reached++
	}
	if reached != tc.reached || (tc.refused != "") != (refused > 0) {
		t.Errorf("%d FALSE verdicts reproduced and %d without a reproducer, want %d reproduced and refusals %v", reached, refused, tc.reached, tc.refused != "")
	}
}

// TestReproducerEntry: checked with --entry f, a function other than
// main, a FALSE verdict's reproducer calls f with the counterexample's
// values of its integer parameters (from a main of its own, also when the
// program has none or has a main that never fails); a pointer parameter
// f never uses is a null pointer. A static f cannot be called from the
// reproducer: results.json says so.
func TestReproducerEntry(t *testing.T) {
	for _, tc := range []reproduceCase{
		{file: "entry_params.c", args: []string{"--entry", "f"}, reached: 1},
		{file: "entry_nomain.c", args: []string{"--entry", "f"}, reached: 1},
		{file: "entry_static.c", args: []string{"--entry", "f"}, refused: "cannot call the entry function f: it is static"},
	} {
		for _, ilp32 := range []bool{false, true} {
			name := tc.file + map[bool]string{true: "/ilp32"}[ilp32]
			t.Run(name, func(t *testing.T) { checkReproducers(t, tc, ilp32) })
		}
	}
}

// TestReproducerDefines: a program read with -D macros is compiled with
// them by reproduce.sh and by `reverify reproduce` (its assertion exists
// only under them).
func TestReproducerDefines(t *testing.T) {
	tc := reproduceCase{file: "defines.c", args: []string{"-D", "STRICT", "-D", "LIMIT=5"}, reached: 1}
	checkReproducers(t, tc, false)
}

// TestReproducerMallocFails: a counterexample in which an allocation
// fails (--malloc-may-fail) is reproduced by making that call of malloc
// return NULL, the calls before and after it allocating.
func TestReproducerMallocFails(t *testing.T) {
	for _, ilp32 := range []bool{false, true} {
		tc := reproduceCase{file: "malloc_fail.c", args: []string{"--malloc-may-fail"}, reached: 1}
		t.Run(map[bool]string{false: "lp64", true: "ilp32"}[ilp32], func(t *testing.T) { checkReproducers(t, tc, ilp32) })
	}
}

// TestReproducerArgc: counterexamples that depend on main's argc (an
// input) are reproduced by running main with their argc, and an argv of
// as many strings (the program's name, then empty ones: a counterexample
// never reads them) and the real environment; a counterexample with more
// arguments than a reproducer passes has none, and results.json says so.
func TestReproducerArgc(t *testing.T) {
	for _, tc := range []reproduceCase{
		{file: "argc.c", reached: 1},
		{file: "argc_envp.c", reached: 1},
		{file: "argc_huge.c", refused: "cannot call main with argc = "},
	} {
		for _, ilp32 := range []bool{false, true} {
			name := tc.file + map[bool]string{true: "/ilp32"}[ilp32]
			t.Run(name, func(t *testing.T) { checkReproducers(t, tc, ilp32) })
		}
	}
}

// TestReproducerStrcpyBlock: a counterexample through strcpy into a
// block of symbolic size (checked by the SMT encoding, which unrolls the
// source's bytes into the block) is a FALSE whose reproducer, built by
// gcc, ends in the reported assertion.
func TestReproducerStrcpyBlock(t *testing.T) {
	tc := reproduceCase{file: "strcpy_block.c", reached: 1}
	for _, ilp32 := range []bool{false, true} {
		name := tc.file + map[bool]string{true: "/ilp32"}[ilp32]
		t.Run(name, func(t *testing.T) { checkReproducers(t, tc, ilp32) })
	}
}

// TestReproducerStdin: counterexamples that read standard input with
// getchar, getc(stdin) or fgetc(stdin), fgets or fread of stdin get its
// bytes on the reproducer's
// standard input (reproduce.sh pipes them in with printf; `reverify
// reproduce` feeds them), where the C library reads them; the input ends
// where the counterexample reads EOF. Counterexamples through rand,
// random, time, clock, read and getenv get the harness's definitions of
// them.
func TestReproducerStdin(t *testing.T) {
	for _, tc := range []reproduceCase{
		{file: "stdin_bytes.c", reached: 1},
		{file: "stdin_eof.c", reached: 1},
		{file: "stdin_fgets.c", reached: 1},
		{file: "input_rand.c", reached: 1},
		{file: "input_read.c", reached: 1},
		{file: "input_getenv.c", reached: 2},
	} {
		for _, ilp32 := range []bool{false, true} {
			name := tc.file + map[bool]string{true: "/ilp32"}[ilp32]
			t.Run(name, func(t *testing.T) { checkReproducers(t, tc, ilp32) })
		}
	}
}

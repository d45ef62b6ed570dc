package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/report/artifacts"
	"github.com/reverify/reverify/report/reproducer"
	"github.com/reverify/reverify/results"
)

// checkOutput runs `reverify check FILE --output DIR` and returns the
// report.
func checkOutput(t *testing.T, args ...string) (string, results.Report) {
	t.Helper()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"check", "--output", out}, args...), &stdout, &stderr); code > 1 {
		t.Fatalf("check: exit %d\n%s", code, stderr.String())
	}
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep results.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	return out, rep
}

// TestValidateCommand validates the witnesses `check --output` writes
// for TRUE and FALSE verdicts (exit 0), tampered ones (exit 1) and
// unusable input (exit 2).
func TestValidateCommand(t *testing.T) {
	const prog = "../../engine/testdata/verdicts/loops.c"
	_, rep := checkOutput(t, prog, "--config", "value")
	var trueW, falseW, graphml string
	for _, p := range rep.Properties {
		if p.Witness == "" || p.WitnessGraphML == "" {
			t.Errorf("%s (%s): witness paths missing in results.json: %q %q", p.ID, p.Verdict, p.Witness, p.WitnessGraphML)
			continue
		}
		graphml = p.WitnessGraphML
		switch p.Verdict {
		case results.True:
			trueW = p.Witness
		case results.False:
			falseW = p.Witness
		}
		var stdout, stderr bytes.Buffer
		if code := run([]string{"validate", "--witness", p.Witness, prog}, &stdout, &stderr); code != 0 {
			t.Errorf("%s (%s): validate exit %d: %s%s", p.ID, p.Verdict, code, stdout.String(), stderr.String())
		} else if !strings.HasPrefix(stdout.String(), "confirmed: ") {
			t.Errorf("%s: output %q", p.ID, stdout.String())
		}
	}
	if trueW == "" || falseW == "" {
		t.Fatalf("want witnesses of both verdicts, got %q and %q", trueW, falseW)
	}
	tamper := func(path, old, new string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), old) {
			t.Fatalf("%s lacks %q", path, old)
		}
		p := filepath.Join(t.TempDir(), "w.yml")
		if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		message string
	}{
		{"wrong invariant", []string{"--witness", tamper(trueW, "value: g == 0 && 0 <= i && i <= 10", "value: i < 0"), prog}, 1,
			"rejected: loop invariant at ../../engine/testdata/verdicts/loops.c:11:2 (main) does not hold when the loop is entered"},
		{"wrong branch", []string{"--witness", tamper(falseW, `value: "false"`, `value: "true"`), prog}, 1,
			"rejected: no feasible path follows the witness"},
		{"unsupported", []string{"--witness", tamper(trueW, "type: loop_invariant", "type: function_contract"), prog}, 2,
			`reverify validate: witness: unsupported invariant type "function_contract" (supported: loop_invariant, location_invariant)`},
		{"location invariant at a while loop", []string{"--witness", tamper(trueW, "type: loop_invariant", "type: location_invariant"), prog}, 2,
			`no loop without a while or for keyword has its head there`},
		{"other program", []string{"--witness", trueW, "../../engine/testdata/verdicts/nondet.c"}, 2, "is not a property of the program"},
		{"no witness", []string{prog}, 2, "--witness is required"},
		{"graphml", []string{"--witness", graphml, prog}, 2, "a GraphML (XML) witness; only YAML witnesses (format 2.0) are supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"validate"}, tc.args...), &stdout, &stderr)
			if code != tc.code || !strings.Contains(stdout.String()+stderr.String(), tc.message) {
				t.Errorf("exit %d, want %d with %q:\n%s%s", code, tc.code, tc.message, stdout.String(), stderr.String())
			}
		})
	}
}

// gccWorks reports whether gcc compiles a trivial program with extra.
func gccWorks(t *testing.T, extra ...string) bool {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		return false
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "t.c")
	if err := os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{}, extra...), "-o", filepath.Join(dir, "t"), src)
	return exec.Command("gcc", args...).Run() == nil
}

// i386Runs builds an i386 program with gcc -m32 and runs it (directly, or
// under qemu-i386 where the kernel refuses it, as reproducers run): ""
// when it works, else why not.
func i386Runs(t *testing.T) string {
	t.Helper()
	if !gccWorks(t, "-m32") {
		return "gcc -m32 fails (gcc-multilib missing): ILP32 reproducers cannot be compiled here"
	}
	dir := t.TempDir()
	src, exe := filepath.Join(dir, "t.c"), filepath.Join(dir, "t")
	if err := os.WriteFile(src, []byte("int main(void) { return sizeof(long) == 4 ? 3 : 4; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", "-m32", "-o", exe, src).CombinedOutput(); err != nil {
		return fmt.Sprintf("gcc -m32: %v: %s", err, out)
	}
	code, _, err := reproducer.Run(context.Background(), exe, nil, nil, nil)
	switch {
	case err != nil:
		return "an i386 program does not run here: " + err.Error()
	case code != 3:
		return fmt.Sprintf("an i386 program exits with %d, want 3", code)
	}
	return ""
}

// TestReproduceCommand builds and runs the reproducers of the FALSE
// verdicts of test programs from their YAML witnesses: each reaches the
// failing assertion (exit 0); a witness leading elsewhere does not. The
// fast tier (go test -short) runs the two cases marked short, between
// them value and symex, LP64 and ILP32, inputs and volatile reads.
func TestReproduceCommand(t *testing.T) {
	if !gccWorks(t) {
		t.Skip("gcc is missing: reproducers cannot be compiled here")
	}
	for _, tc := range []struct {
		file, config string
		ilp32, short bool
	}{
		{"loops.c", "value", false, false},
		{"nondet.c", "value", false, false},
		{"symex_relations.c", "symex", false, false},
		{"arith.c", "value", true, false},
		{"reproducer_inputs.c", "value", false, false},
		{"reproducer_inputs.c", "symex", false, true},
		{"reproducer_volatile.c", "value", false, false},
		{"reproducer_volatile.c", "value", true, true},
	} {
		name := tc.file
		if tc.config != "value" || tc.ilp32 {
			name += "/" + tc.config + map[bool]string{true: "-ilp32"}[tc.ilp32]
		}
		t.Run(name, func(t *testing.T) {
			if testing.Short() && !tc.short {
				t.Skip("the fast tier runs one case of each configuration, data model and input kind; the full tier runs every case")
			}
			prog := "../../engine/testdata/verdicts/" + tc.file
			args := []string{prog, "--config", tc.config}
			if tc.ilp32 {
				if why := i386Runs(t); why != "" {
					t.Skip(why)
				}
				args = append(args, "--data-model", "ILP32")
			}
			_, rep := checkOutput(t, args...)
			n := 0
			for _, p := range rep.Properties {
				if p.Verdict != results.False {
					continue
				}
				n++
				var stdout, stderr bytes.Buffer
				if code := run([]string{"reproduce", "--witness", p.Witness, prog}, &stdout, &stderr); code != 0 {
					t.Errorf("%s: reproduce exit %d: %s%s", p.ID, code, stdout.String(), stderr.String())
				}
				// reproduce.sh takes the same route (for ILP32: a probe,
				// then qemu-i386 where the kernel refuses i386).
				msg, err := exec.Command("sh", filepath.Join(filepath.Dir(p.Reproducer), "reproduce.sh")).CombinedOutput()
				if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != artifacts.ReachedExitCode {
					t.Errorf("%s: reproduce.sh: %v, want exit %d; output:\n%s", p.ID, err, artifacts.ReachedExitCode, msg)
				}
			}
			if n == 0 {
				t.Fatal("no FALSE verdict")
			}
		})
	}
	t.Run("not reached", func(t *testing.T) {
		// A correctness witness is not a counterexample.
		const prog = "../../engine/testdata/verdicts/loops.c"
		_, rep := checkOutput(t, prog, "--config", "value")
		var stdout, stderr bytes.Buffer
		if code := run([]string{"reproduce", "--witness", rep.Properties[0].Witness, prog}, &stdout, &stderr); code != 2 ||
			!strings.Contains(stderr.String(), "needs a violation witness") {
			t.Errorf("exit %d: %s%s", code, stdout.String(), stderr.String())
		}
	})
}

// TestWitnesslint checks the GraphML witnesses (violation and
// correctness) with the sv-witnesses linter (lint/witnesslinter.py of
// github.com/sosy-lab/sv-witnesses, which needs Python 3 with lxml),
// found through REVERIFY_WITNESSLINT. The linter checks GraphML only.
func TestWitnesslint(t *testing.T) {
	lint := os.Getenv("REVERIFY_WITNESSLINT")
	if lint == "" {
		t.Skip("REVERIFY_WITNESSLINT (the path of sv-witnesses' lint/witnesslinter.py) is not set")
	}
	python := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import lxml").Run() == nil {
			python = p
			break
		}
	}
	if python == "" {
		t.Skip("no python3 with lxml (Debian: python3-lxml)")
	}
	for _, f := range []string{"loops.c", "nondet.c", "cegar_running.c"} {
		prog := "../../engine/testdata/verdicts/" + f
		_, rep := checkOutput(t, prog, "--config", "value-cegar")
		for _, p := range rep.Properties {
			if p.WitnessGraphML == "" {
				continue
			}
			out, err := exec.Command(python, lint, "--svcomp", "--witness", p.WitnessGraphML, prog).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "witnesslint finished with exit code 0") {
				t.Errorf("%s %s (%s): witnesslint: %v\n%s", f, p.ID, p.Verdict, err, out)
			}
		}
	}
}

// TestAssertStyleWitnesses runs `reverify check --output` on programs
// failing by assert() from <assert.h>, by __assert_fail called directly,
// by SV-COMP's reach_error() and by an assert() inside a called
// function: the FALSE verdict's witness is confirmed by `validate`, its
// reproducer reaches the error through `reproduce` (without gcc: not
// run), and tampered copies (a flipped branching waypoint, the target
// moved to the assertion that holds) are rejected with exit code 1.
func TestAssertStyleWitnesses(t *testing.T) {
	gcc := gccWorks(t)
	for _, file := range []string{"assert_std.c", "assert_fail_direct.c", "reach_error.c", "assert_callee.c"} {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			prog := "../../engine/witness/validate/testdata/" + file
			_, rep := checkOutput(t, prog, "--config", "value")
			var fail, holds *results.PropertyReport
			for i, p := range rep.Properties {
				switch p.Verdict {
				case results.False:
					fail = &rep.Properties[i]
				case results.True:
					holds = &rep.Properties[i]
				}
			}
			if fail == nil || holds == nil || len(rep.Properties) != 2 {
				t.Fatalf("want one TRUE and one FALSE verdict: %+v", rep.Properties)
			}
			cmd := func(args ...string) (int, string) {
				var stdout, stderr bytes.Buffer
				code := run(args, &stdout, &stderr)
				return code, stdout.String() + stderr.String()
			}
			if code, out := cmd("validate", "--witness", fail.Witness, prog); code != 0 || !strings.HasPrefix(out, "confirmed: ") {
				t.Errorf("validate: exit %d: %s", code, out)
			}
			if gcc {
				if code, out := cmd("reproduce", "--witness", fail.Witness, prog); code != 0 || !strings.HasPrefix(out, "reached: ") {
					t.Errorf("reproduce: exit %d: %s", code, out)
				}
			}
			data, err := os.ReadFile(fail.Witness)
			if err != nil {
				t.Fatal(err)
			}
			good := string(data)
			at := func(line, col int) string {
				return fmt.Sprintf("type: target\n            action: follow\n            location:\n              file_name: %s\n              line: %d\n              column: %d\n", prog, line, col)
			}
			for _, tm := range []struct{ name, yml string }{
				{"wrong branch", strings.Replace(good, `value: "true"`, `value: "false"`, 1)},
				{"wrong target", strings.Replace(good, at(fail.Line, fail.Column), at(holds.Line, holds.Column), 1)},
			} {
				if tm.yml == good {
					t.Fatalf("%s: tampering changed nothing:\n%s", tm.name, good)
				}
				w := filepath.Join(t.TempDir(), "w.yml")
				if err := os.WriteFile(w, []byte(tm.yml), 0o644); err != nil {
					t.Fatal(err)
				}
				if code, out := cmd("validate", "--witness", w, prog); code != 1 || !strings.HasPrefix(out, "rejected: no feasible path follows the witness") {
					t.Errorf("%s: validate exit %d: %s", tm.name, code, out)
				}
				if gcc {
					if code, out := cmd("reproduce", "--witness", w, prog); code != 1 || !strings.HasPrefix(out, "not reached: ") {
						t.Errorf("%s: reproduce exit %d: %s", tm.name, code, out)
					}
				}
			}
		})
	}
}

// TestPredicateKInductionWitnesses checks that `check --output` writes,
// for the TRUE verdicts of predicate-cegar and k-induction, a witness.yml
// whose loop invariants relate the loop's variables (not "1") and that
// `reverify validate` confirms (the invariants come from the predicate
// abstraction at the loop heads and from k-induction's Houdini
// invariants; before, predicate-cegar wrote "0" and k-induction none).
func TestPredicateKInductionWitnesses(t *testing.T) {
	for _, tc := range []struct {
		file, config string
		want         []string // a loop invariant of the witness contains each
	}{
		{"predicate_scan.c", "predicate-cegar", []string{"k <= max"}},
		{"predicate_count.c", "predicate-cegar", []string{"j <= n"}},
		{"cegar_running.c", "predicate-cegar", []string{"y >= 0"}},
		{"kind_counting.c", "k-induction", []string{"(x + y) == n"}},
	} {
		t.Run(tc.config+"/"+tc.file, func(t *testing.T) {
			prog := "../../engine/testdata/verdicts/" + tc.file
			_, rep := checkOutput(t, prog, "--config", tc.config)
			n := 0
			for _, p := range rep.Properties {
				if p.Verdict != results.True {
					continue
				}
				n++
				data, err := os.ReadFile(p.Witness)
				if err != nil {
					t.Fatalf("%s: %v", p.ID, err)
				}
				for _, w := range tc.want {
					if !strings.Contains(string(data), w) {
						t.Errorf("%s: witness lacks %q:\n%s", p.ID, w, data)
					}
				}
				var stdout, stderr bytes.Buffer
				if code := run([]string{"validate", "--witness", p.Witness, prog}, &stdout, &stderr); code != 0 {
					t.Errorf("%s: validate exit %d: %s%s", p.ID, code, stdout.String(), stderr.String())
				}
				// the GraphML witness carries the same invariants
				gml, err := os.ReadFile(p.WitnessGraphML)
				if err != nil {
					t.Fatalf("%s: %v", p.ID, err)
				}
				for _, w := range tc.want {
					if w = strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(w); !strings.Contains(string(gml), `<data key="invariant">`) || !strings.Contains(string(gml), w) {
						t.Errorf("%s: GraphML witness lacks the invariant %q:\n%s", p.ID, w, gml)
					}
				}
			}
			if n == 0 {
				t.Fatalf("no TRUE verdict: %+v", rep.Properties)
			}
		})
	}
}

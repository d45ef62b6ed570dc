package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestContractReproducers checks the contract test set's clauses.c
// (library mode, CBMC's contract language) with --output and runs the
// reproducers of its FALSE verdicts with gcc: each failing ensures
// clause's reproducer replays the contract check and must exit 77; the
// same reproducer with a parameter value for which the clause holds
// must exit 0, so 77 comes only from the reported clause. The requires
// clause div_bad breaks (line 8) is asserted by a wrapper of div_floor in
// the unit test's copy of the file and must exit 77 too, and not with
// the wrapper asserting the holding conjunct a >= 0 instead (exit 0). The other
// contract FALSEs (assigns clauses) have no reproducer and say why.
func TestContractReproducers(t *testing.T) {
	if testing.Short() {
		t.Skip("verifies a contract test set and compiles its reproducers")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	file := filepath.Join("..", "..", "library", "testdata", "contracts", "clauses.c")
	out := t.TempDir()
	_, props := checkViolations(t, "check", "--cbmc", "--timeout", "60s", "--output", out, file)
	runRepro := func(repro string) (int, string) { return runReproducer(t, repro) }
	// the reason of each FALSE without a reproducer, by line
	refused := map[int]string{
		65:  "an assigns-clause violation is not observable in C",
		67:  "an assigns-clause violation is not observable in C",
		70:  "an assigns-clause violation is not observable in C",
		93:  "an assigns-clause violation is not observable in C",
		104: "an assigns-clause violation is not observable in C",
	}
	confirmed := 0
	for _, p := range props {
		if p.Verdict != "FALSE" {
			continue
		}
		if why, ok := refused[p.Line]; ok {
			if p.Reproducer != "" || !strings.Contains(p.Reason, "no reproducer: witness: "+why) {
				t.Errorf("line %d: reproducer %q, reason %q; want none, because %s", p.Line, p.Reproducer, p.Reason, why)
			}
			continue
		}
		if p.Line != 8 && p.Line != 35 && p.Line != 51 {
			t.Errorf("line %d: unexpected FALSE %s", p.Line, p.ID)
			continue
		}
		if p.Reproducer == "" {
			t.Errorf("line %d: FALSE without a reproducer: %s", p.Line, p.Reason)
			continue
		}
		code, res := runRepro(p.Reproducer)
		clause := "ensures clause of"
		if p.Line == 8 {
			clause = "requires clause of div_floor: b > 0"
		}
		if code != 77 || !strings.Contains(res, "reverify-reproducer: reached error") || !strings.Contains(res, clause) {
			t.Errorf("line %d: reproducer exits %d, want 77\n%s", p.Line, code, res)
			continue
		}
		confirmed++
		if p.Line == 8 {
			// the wrapper asserting div_floor's holding conjunct
			// a >= 0 instead: the run goes on (0 / b, b < 0) and
			// exits 0
			// the copy reproduce.sh compiles (below the output
			// directory)
			var copyPath string
			var src []byte
			filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
				if err == nil && d.Name() == "clauses.c" {
					if b, err := os.ReadFile(path); err == nil && bytes.Contains(b, []byte("__rv_real_div_floor")) {
						copyPath, src = path, b
					}
				}
				return nil
			})
			assert := `__CPROVER_assert(b > 0, "requires clause of div_floor: b > 0");`
			if !bytes.Contains(src, []byte(assert)) {
				t.Fatalf("line 8: no wrapper asserting b > 0 in the unit test's copy:\n%s", src)
			}
			held := bytes.Replace(src, []byte(assert), []byte(`__CPROVER_assert(a >= 0, "requires clause of div_floor: a >= 0");`), 1)
			if err := os.WriteFile(copyPath, held, 0o644); err != nil {
				t.Fatal(err)
			}
			if code, res := runRepro(p.Reproducer); code != 0 {
				t.Errorf("line 8 with the holding conjunct a >= 0 asserted: reproducer exits %d, want 0\n%s", code, res)
			}
			continue
		}
		if p.Line != 51 {
			continue
		}
		// sign's counterexample has x < 0; with x = 5 the failing
		// clause (x < 0 ==> result == 1) holds: the run must not
		// exit 77
		src, err := os.ReadFile(p.Reproducer)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(`(rv_l_x = )\(int\)0x[0-9a-f]+ULL;`)
		if !re.Match(src) {
			t.Fatalf("line 51: no value of x in the reproducer:\n%s", src)
		}
		held := re.ReplaceAll(src, []byte("${1}(int)5;"))
		if err := os.WriteFile(p.Reproducer, held, 0o644); err != nil {
			t.Fatal(err)
		}
		if code, res := runRepro(p.Reproducer); code != 0 || !strings.Contains(res, "left the counterexample") {
			t.Errorf("line 51 with x = 5 (the clause holds): reproducer exits %d, want 0\n%s", code, res)
		}
	}
	if confirmed != 3 {
		t.Errorf("%d contract reproducers exit 77, want 3 (lines 8, 35, 51)", confirmed)
	}
}

// TestContractReproducersOthers: of the contract test set's other
// files, poly_first's failing ensures clause (its fresh object's bytes
// from the solver) reproduces with exit 77; the loop contracts' FALSEs
// and an assertion whose counterexample uses a callee's contract have
// no reproducer and say why.
func TestContractReproducersOthers(t *testing.T) {
	if testing.Short() {
		t.Skip("verifies two contract test files and compiles a reproducer")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	dir := filepath.Join("..", "..", "library", "testdata", "contracts")
	want := map[string]string{ // base:line → "" (exit 77) or the reason
		"poly.h:27":  "",
		"poly.c:42":  "the counterexample uses the contract of",
		"loops.c:23": "a loop invariant's violation is not observable in C",
		"loops.c:25": "a decreases clause's violation is not observable in C",
		"loops.c:39": "a loop invariant's violation is not observable in C",
		"loops.c:65": "a loop invariant's violation is not observable in C",
		"loops.c:67": "a loop invariant's violation is not observable in C",
	}
	seen := 0
	for _, file := range []string{"poly.c", "loops.c"} {
		out := t.TempDir()
		var stdout, stderr bytes.Buffer
		args := []string{"check", "--cbmc", "--timeout", "10s", "-I", filepath.Join(dir, "include"), "--output", out, filepath.Join(dir, file)}
		if code := run(args, &stdout, &stderr); code != 1 {
			t.Fatalf("%s: check exits %d, want 1 (violations)\n%s\n%s", file, code, stdout.String(), stderr.String())
		}
		var report struct {
			Properties []struct {
				ID, Verdict, Reproducer, Reason, File string
				Line                                  int
			} `json:"properties"`
		}
		data, err := os.ReadFile(filepath.Join(out, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &report); err != nil {
			t.Fatal(err)
		}
		for _, p := range report.Properties {
			if p.Verdict != "FALSE" {
				continue
			}
			at := fmt.Sprintf("%s:%d", filepath.Base(p.File), p.Line)
			why, ok := want[at]
			if !ok {
				t.Errorf("%s: unexpected FALSE %s", at, p.ID)
				continue
			}
			seen++
			if why != "" {
				if p.Reproducer != "" || !strings.Contains(p.Reason, "no reproducer: witness: "+why) {
					t.Errorf("%s: reproducer %q, reason %q; want none, because %s", at, p.Reproducer, p.Reason, why)
				}
				continue
			}
			if p.Reproducer == "" {
				t.Errorf("%s: no reproducer: %s", at, p.Reason)
				continue
			}
			res, err := exec.Command("sh", filepath.Join(filepath.Dir(p.Reproducer), "reproduce.sh")).CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 77 || !strings.Contains(string(res), "ensures clause of poly_first") {
				t.Errorf("%s: reproducer: %v, want exit 77\n%s", at, err, res)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d FALSE verdicts seen", seen, len(want))
	}
}

// TestContractBodyReproducers: assertions that fail in the body of a
// function with a contract (verified through its contract check) and an
// ensures clause over __CPROVER_r_ok reproduce with exit 77; with the
// fresh object's first byte changed, the body's "five" assertion does not
// fail and the run exits 0.
func TestContractBodyReproducers(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles reproducers")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "--cbmc", "--timeout", "20s", "--output", out, filepath.Join("testdata", "contracts", "body.c")}, &stdout, &stderr); code != 1 {
		t.Fatalf("check exits %d, want 1\n%s\n%s", code, stdout.String(), stderr.String())
	}
	var report struct {
		Properties []struct {
			ID, Verdict, Reproducer, Reason string
			Line                            int
		} `json:"properties"`
	}
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &report); err != nil {
		t.Fatal(err)
	}
	exit := func(repro string) (int, string) {
		res, err := exec.Command("sh", filepath.Join(filepath.Dir(repro), "reproduce.sh")).CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(res)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(res)
	}
	want := map[int]string{9: `__CPROVER_assert("index in range")`, 11: `__CPROVER_assert("five")`, 18: "ensures clause of id"}
	for _, p := range report.Properties {
		w, ok := want[p.Line]
		if !ok || p.Verdict != "FALSE" {
			continue
		}
		delete(want, p.Line)
		if p.Reproducer == "" {
			t.Errorf("line %d: no reproducer: %s", p.Line, p.Reason)
			continue
		}
		if code, res := exit(p.Reproducer); code != 77 || !strings.Contains(res, w) {
			t.Errorf("line %d: reproducer exits %d, want 77 at %s\n%s", p.Line, code, w, res)
			continue
		}
		if p.Line != 11 {
			continue
		}
		src, err := os.ReadFile(p.Reproducer)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(`(rv_heap_\d+\[\d+\] = \{)0x5,`)
		if !re.Match(src) {
			t.Fatalf("line 11: the fresh object's first byte is not 5:\n%s", src)
		}
		if err := os.WriteFile(p.Reproducer, re.ReplaceAll(src, []byte("${1}0x6,")), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, res := exit(p.Reproducer); code != 0 {
			t.Errorf("line 11 with a[0] = 6: reproducer exits %d, want 0\n%s", code, res)
		}
	}
	for line := range want {
		t.Errorf("line %d: no FALSE", line)
	}
}

// TestContractOverlapReproducer: a call that passes two overlapping
// ranges of one array to is_fresh parameters (slices.c: shift2(&v[1],
// &v[0]), two ints each) breaks the requires clause; its reproducer
// compiles the unit with a wrapper of shift2 that tests the two address
// ranges, and exits 77 with the clause. The same reproducer with
// disjoint ranges (shift2(&v[2], &v[0])) exits 0: 77 comes only from
// the overlap.
func TestContractOverlapReproducer(t *testing.T) {
	if testing.Short() {
		t.Skip("verifies a contract test set and compiles its reproducer")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	file := filepath.Join("..", "..", "library", "testdata", "contracts_alias", "slices.c")
	out := t.TempDir()
	_, props := checkViolations(t, "check", "--cbmc", "--timeout", "60s", "--output", out, file)
	var repro string
	for _, p := range props {
		if p.Verdict != "FALSE" {
			continue
		}
		if p.ID != "__reverify_use_shift2:requiresclauseofshift2:dstandsrcdonotoverlap" || p.Reproducer == "" {
			t.Fatalf("FALSE %s with reproducer %q (%s); want only shift2's overlap, reproduced", p.ID, p.Reproducer, p.Reason)
		}
		repro = p.Reproducer
	}
	if repro == "" {
		t.Fatal("no FALSE")
	}
	runRepro := func() (int, string) { return runReproducer(t, repro) }
	if code, res := runRepro(); code != 77 || !strings.Contains(res, "requires clause of shift2: dst and src do not overlap") {
		t.Fatalf("reproducer exits %d, want 77 with the clause\n%s", code, res)
	}
	var copyPath string
	filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "slices.c" {
			if b, err := os.ReadFile(path); err == nil && bytes.Contains(b, []byte("__rv_real_shift2")) {
				copyPath = path
			}
		}
		return nil
	})
	src, err := os.ReadFile(copyPath)
	if err != nil || !bytes.Contains(src, []byte("shift2(&v[1], &v[0]);")) {
		t.Fatalf("no copy of slices.c with the overlapping call (%v)", err)
	}
	if err := os.WriteFile(copyPath, bytes.Replace(src, []byte("shift2(&v[1], &v[0]);"), []byte("shift2(&v[2], &v[0]);"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, res := runRepro(); code != 0 {
		t.Errorf("with disjoint ranges: reproducer exits %d, want 0\n%s", code, res)
	}
}

// reportProperty is what the reproducer tests read of a property of
// results.json.
type reportProperty struct {
	ID, Verdict, Reproducer, Reason, File string
	Line                                  int
}

// checkViolations runs reverify with args, a check with --output that
// must find violations (exit 1), and returns its standard output and
// the properties of the output directory's results.json (args holds
// "--output DIR").
func checkViolations(t *testing.T, args ...string) (string, []reportProperty) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 1 {
		t.Fatalf("check exits %d, want 1 (violations)\n%s\n%s", code, stdout.String(), stderr.String())
	}
	out := ""
	for i, a := range args {
		if a == "--output" && i+1 < len(args) {
			out = args[i+1]
		}
	}
	var report struct {
		Properties []reportProperty `json:"properties"`
	}
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &report); err != nil {
		t.Fatal(err)
	}
	return stdout.String(), report.Properties
}

// runReproducer runs the reproduce.sh beside the reproducer repro and
// returns its exit code and output.
func runReproducer(t *testing.T, repro string) (int, string) {
	t.Helper()
	res, err := exec.Command("sh", filepath.Join(filepath.Dir(repro), "reproduce.sh")).CombinedOutput()
	if err == nil {
		return 0, string(res)
	}
	ee, ok := err.(*exec.ExitError)
	if !ok {
		t.Fatalf("%s: %v\n%s", repro, err, res)
	}
	return ee.ExitCode(), string(res)
}

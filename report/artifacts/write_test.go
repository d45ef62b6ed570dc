package artifacts

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/results"
)

// prog has one assertion that fails for x == 42 (FALSE) and one that
// holds (TRUE).
const prog = `extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
int main(void) {
	int x = __VERIFIER_nondet_int();
	int y = 0;
	assert(y == 0);
	if (x == 42) {
		assert(x != 42);
	}
	return 0;
}
`

// verify translates prog in a temporary directory and verifies its
// properties with value-cegar, keeping the ARG.
func verify(t *testing.T) (Task, []*engine.Result, *results.Report) {
	t.Helper()
	return verifySource(t, prog)
}

// verifySource is verify for the program src.
func verifySource(t *testing.T, src string) (Task, []*engine.Result, *results.Report) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "p.c")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := engine.Load(engine.SourceOptions{DataModel: engine.LP64}, file)
	if err != nil {
		t.Fatal(err)
	}
	props := engine.Properties(p, "main")
	cfg := engine.Config{Name: "value-cegar", Entry: "main", Timeout: time.Minute, Solver: z3.Factory, KeepARG: true}
	rs, err := engine.Verify(context.Background(), p, props, cfg)
	if err != nil {
		t.Fatal(err)
	}
	task := Task{Program: p, Files: []string{file}, Entry: "main", Config: cfg.Name,
		Specification: "CHECK( init(main()), LTL(G ! call(reach_error())) )", Version: "test", Timeout: cfg.Timeout, Solver: z3.Factory}
	return task, rs, engine.NewReport("test", p, "main", cfg.Name, rs)
}

// TestWrite: a FALSE property gets its pixel tree, both violation
// witnesses, reproducer.c and an executable reproduce.sh whose paths are
// relative to its directory; a TRUE one its pixel tree and a GraphML
// correctness witness; the report names what was written. The
// reproducer, compiled and run (BuildAndRun, and reproduce.sh when gcc
// is installed), reaches the failing assertion.
func TestWrite(t *testing.T) {
	task, rs, report := verify(t)
	out := t.TempDir()
	if err := Write(out, task, rs, report); err != nil {
		t.Fatal(err)
	}
	verdicts := map[results.Verdict]int{}
	for i, r := range rs {
		pr := report.Properties[i]
		verdicts[r.Verdict]++
		dir := Dir(out, r)
		if pr.PixelTree != filepath.Join(dir, "pixeltree.png") {
			t.Errorf("%s: PixelTree %q", r.Property.ID, pr.PixelTree)
		}
		for _, f := range []string{"pixeltree.png", "pixeltree.svg", "pixeltree.txt", "pixeltree.mosaic.txt", "witness.graphml"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("%s (%s): %v", r.Property.ID, r.Verdict, err)
			}
		}
		if pr.WitnessGraphML != filepath.Join(dir, "witness.graphml") {
			t.Errorf("%s: WitnessGraphML %q", r.Property.ID, pr.WitnessGraphML)
		}
		if r.Verdict != results.False {
			if pr.Reproducer != "" {
				t.Errorf("%s (%s): Reproducer %q", r.Property.ID, r.Verdict, pr.Reproducer)
			}
			continue
		}
		if pr.Witness != filepath.Join(dir, "witness.yml") || pr.Reproducer != filepath.Join(dir, "reproducer.c") {
			t.Fatalf("%s: Witness %q, Reproducer %q", r.Property.ID, pr.Witness, pr.Reproducer)
		}
		script, err := os.ReadFile(filepath.Join(dir, "reproduce.sh"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(script), `"$here"/../`) || strings.Contains(string(script), out) {
			t.Errorf("reproduce.sh names the program's files by absolute paths:\n%s", script)
		}
		if fi, err := os.Stat(filepath.Join(dir, "reproduce.sh")); err != nil || fi.Mode()&0o100 == 0 {
			t.Errorf("reproduce.sh is not executable: %v", err)
		}
		src, err := os.ReadFile(pr.Reproducer)
		if err != nil {
			t.Fatal(err)
		}
		reached, msg, err := BuildAndRun(task.Program.DataModel, task.Files, string(src), time.Minute)
		if errors.Is(err, ErrNoCompiler) {
			continue
		}
		if err != nil || !reached {
			t.Errorf("BuildAndRun: reached %v, err %v; stderr:\n%s", reached, err, msg)
		}
		run, err := exec.Command("sh", filepath.Join(dir, "reproduce.sh")).CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ReachedExitCode || !strings.Contains(string(run), ReachedMarker) {
			t.Errorf("reproduce.sh: %v, want exit %d; output:\n%s", err, ReachedExitCode, run)
		}
	}
	if verdicts[results.False] != 1 || verdicts[results.True] != 1 {
		t.Errorf("verdicts %v, want one TRUE and one FALSE", verdicts)
	}
}

// TestBuildAndRunNotReached: a harness that ends normally is not
// reached, and a source that does not compile is an error naming the
// compiler's command line.
func TestBuildAndRunNotReached(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "lib.c")
	if err := os.WriteFile(file, []byte("int f(void) { return 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reached, _, err := BuildAndRun(engine.LP64, []string{file}, "int f(void);\nint main(void) { return f() - 1; }\n", time.Minute)
	if err != nil || reached {
		t.Errorf("reached %v, err %v; want not reached", reached, err)
	}
	_, _, err = BuildAndRun(engine.LP64, []string{file}, "int main(void) { return g(; }\n", time.Minute)
	if err == nil || !strings.Contains(err.Error(), "cannot compile the reproducer (gcc") {
		t.Errorf("err %v, want a compile error naming gcc", err)
	}
}

// TestWriteReportedAssertion: a reproducer ends with ReachedExitCode
// only when the reported assertion fails, not any assertion. Each
// program has two assertions that fail, for x == 3 and for x == 42; every
// FALSE verdict's reproduce.sh reaches its own. Then each verdict gets
// the other's input, as a wrong verdict's counterexample would lead the
// run to another assertion: its reproduce.sh must say that the failing
// assertion is not the reported one and not exit with ReachedExitCode.
// Both the C library's assert and SV-COMP's assert wrapper with an empty
// reach_error are covered.
func TestWriteReportedAssertion(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	const body = `extern int __VERIFIER_nondet_int(void);
int main(void) {
	int x = __VERIFIER_nondet_int();
	assert(x != 3);
	assert(x != 42);
	return 0;
}
`
	for name, head := range map[string]string{
		"assert.h": "#include <assert.h>\n",
		"wrapper":  "extern void abort(void);\nvoid reach_error(void) {}\nvoid __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }\n#define assert(c) __VERIFIER_assert(c)\n",
	} {
		t.Run(name, func(t *testing.T) {
			task, rs, report := verifySource(t, head+body)
			// each FALSE verdict's value of x (its nondet input)
			var falses []*engine.Result
			var xs []*results.Input
			for _, r := range rs {
				if r.Verdict != results.False {
					continue
				}
				falses = append(falses, r)
				for i := range r.Inputs {
					if r.Inputs[i].Source == "__VERIFIER_nondet_int" {
						xs = append(xs, &r.Inputs[i])
					}
				}
			}
			if len(falses) != 2 || len(xs) != 2 {
				t.Fatalf("%d FALSE verdicts with %d values of x, want 2 and 2", len(falses), len(xs))
			}
			run := func(r *engine.Result, out string) (int, string) {
				msg, err := exec.Command("sh", filepath.Join(Dir(out, r), "reproduce.sh")).CombinedOutput()
				if ee, ok := err.(*exec.ExitError); ok {
					return ee.ExitCode(), string(msg)
				} else if err != nil {
					t.Fatal(err)
				}
				return 0, string(msg)
			}
			out := t.TempDir()
			if err := Write(out, task, rs, report); err != nil {
				t.Fatal(err)
			}
			for _, r := range falses {
				if code, msg := run(r, out); code != ReachedExitCode || !strings.Contains(msg, ReachedMarker) {
					t.Errorf("%s: reproduce.sh exits %d, want %d:\n%s", r.Property.ID, code, ReachedExitCode, msg)
				}
			}
			xs[0].Bits, xs[1].Bits = xs[1].Bits, xs[0].Bits
			out = t.TempDir()
			if err := Write(out, task, rs, report); err != nil {
				t.Fatal(err)
			}
			for _, r := range falses {
				code, msg := run(r, out)
				if code == ReachedExitCode || strings.Contains(msg, ReachedMarker) || !strings.Contains(msg, "not the reported assertion ("+r.Property.ID+" at p.c:") {
					t.Errorf("%s with the other verdict's input: reproduce.sh exits %d:\n%s", r.Property.ID, code, msg)
				}
			}
		})
	}
}

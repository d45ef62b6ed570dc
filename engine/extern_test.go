package engine_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

var (
	// adversaryRE matches the comment block holding bodies for the
	// functions a verdict test program declares without one.
	adversaryRE = regexp.MustCompile(`(?s)/\* adversary:\n(.*?)\*/`)
	// casesRE matches `// adversary fails: 0 1 2` and `// adversary
	// holds: 3`: the values of CASE (the adversary's
	// __VERIFIER_nondet_int) under which the linked program must abort
	// (an assertion fails) or exit normally.
	casesRE = regexp.MustCompile(`(?m)^// adversary (fails|holds):((?:\s+[0-9]+)+)\s*$`)
)

// TestExternAdversaries shows that what reverify may not prove is really
// false: each program of testdata/verdicts with an adversary block is
// compiled with gcc together with the adversary's bodies for its
// functions without a body, and run once per case; a case listed under
// "fails" must end in abort() (SIGABRT from a failing assertion), one
// under "holds" must exit 0. The verdict test of the same file shows
// reverify answers UNKNOWN or FALSE (never TRUE) for the failing ones.
func TestExternAdversaries(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	files, _ := filepath.Glob("testdata/verdicts/*.c")
	n := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m := adversaryRE.FindSubmatch(src)
		if m == nil {
			continue
		}
		n++
		t.Run(filepath.Base(file), func(t *testing.T) {
			dir := t.TempDir()
			adv := filepath.Join(dir, "adversary.c")
			if err := os.WriteFile(adv, m[1], 0o644); err != nil {
				t.Fatal(err)
			}
			bin := filepath.Join(dir, "prog")
			abs, _ := filepath.Abs(file)
			out, err := exec.Command(gcc, "-w", "-O0", "-fwrapv", "-o", bin, abs, adv).CombinedOutput()
			if err != nil {
				t.Fatalf("gcc: %v\n%s", err, out)
			}
			cases := casesRE.FindAllStringSubmatch(string(src), -1)
			if len(cases) == 0 {
				t.Fatal("no `// adversary fails:` line")
			}
			for _, c := range cases {
				for _, k := range strings.Fields(c[2]) {
					cmd := exec.Command(bin)
					cmd.Env = append(os.Environ(), "CASE="+k)
					err := cmd.Run()
					aborted := false
					var ee *exec.ExitError
					if errors.As(err, &ee) {
						ws, ok := ee.Sys().(syscall.WaitStatus)
						aborted = ok && ws.Signaled() && ws.Signal() == syscall.SIGABRT
					}
					switch {
					case c[1] == "fails" && !aborted:
						t.Errorf("CASE=%s: want an assertion failure (SIGABRT), got %v", k, err)
					case c[1] == "holds" && err != nil:
						t.Errorf("CASE=%s: want exit 0, got %v", k, err)
					}
				}
			}
		})
	}
	if n < 2 {
		t.Fatalf("%d programs with an adversary, want at least 2", n)
	}
}

// TestAssumePure: the assumption is listed on every verdict of a program
// calling a function declared side-effect-free, and it is what makes the
// TRUE possible: without it the same property is UNKNOWN.
func TestAssumePure(t *testing.T) {
	const file = "testdata/verdicts/extern_pure.c"
	run := func(pure []string) []*engine.Result {
		prog, err := frontend.Translate(frontend.Options{}, file)
		if err != nil {
			t.Fatal(err)
		}
		props := spec.Properties(prog, "main")
		res, err := engine.Verify(context.Background(), prog, props, engine.Config{MemoryLimit: testMemory, Name: "value", Solver: z3.Factory, AssumePure: pure})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	verdicts := map[string]results.Verdict{}
	for _, r := range run([]string{"log_msg", "trace", "unused"}) {
		if got := strings.Join(r.Assumptions, ","); got != "pure log_msg,pure trace" {
			t.Errorf("%s: assumptions %q, want %q", r.Property.ID, got, "pure log_msg,pure trace")
		}
		verdicts[r.Property.ID] = r.Verdict
	}
	if verdicts["main:g==0&&x==5"] != results.True {
		t.Errorf("with the assumption: %v, want TRUE for main:g==0&&x==5", verdicts)
	}
	for _, r := range run(nil) {
		if len(r.Assumptions) > 0 {
			t.Errorf("%s: assumptions %q without any declared", r.Property.ID, r.Assumptions)
		}
		if r.Verdict == results.True {
			t.Errorf("%s: TRUE without the assumption (%s)", r.Property.ID, r.Reason)
		}
	}
}

// TestAdjoinedReason: the error paths of `b + 2 != a && a + 2 != b` and
// of `b + 2 == a` (pointer_across_objects.c, cases 1 and 4) depend on
// whether one local array lies just after the other; the replay lays
// objects apart, gcc side by side, so neither is confirmed, and the
// UNKNOWN says why.
func TestAdjoinedReason(t *testing.T) {
	rs := verifyFile(t, "testdata/verdicts/pointer_across_objects.c", engine.Config{Name: "value", Timeout: time.Minute, MemoryLimit: testMemory})
	found := 0
	for _, r := range rs {
		if l := r.Property.Pos.Line; l != 25 && l != 31 {
			continue
		}
		found++
		if r.Verdict != results.Unknown || !strings.Contains(r.Reason, "depends on whether the two lie side by side in memory") {
			t.Errorf("line %d: %s (%s); want UNKNOWN saying the result depends on the layout", r.Property.Pos.Line, r.Verdict, r.Reason)
		}
	}
	if found != 2 {
		t.Fatalf("%d properties at lines 25 and 31, want 2", found)
	}
}

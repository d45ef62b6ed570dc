package engine

import (
	"context"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/strategy"

	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

func verifyLimits(t *testing.T, file string, cfg Config) *Result {
	t.Helper()
	prog, err := frontend.Translate(frontend.Options{}, file)
	if err != nil {
		t.Fatal(err)
	}
	props := spec.Properties(prog, "main")
	if len(props) != 1 {
		t.Fatalf("%d properties, want 1", len(props))
	}
	cfg.Solver = z3.Factory
	res, err := Verify(context.Background(), prog, props, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res[0]
}

// TestMemoryLimit: a recursive program that grows without bound under
// value-cegar answers UNKNOWN "memory limit" well before its generous
// timeout, after it grew (many states: the limit is 128 MiB above what
// the test process already holds, so that the tests before it do not
// trigger it at once).
func TestMemoryLimit(t *testing.T) {
	debug.FreeOSMemory()
	limit := (strategy.ResidentSet() + 128<<20) &^ (1<<20 - 1)
	r := verifyLimits(t, "testdata/limits/fib.c", Config{Name: "value-cegar", Timeout: 2 * time.Minute, MemoryLimit: limit})
	if r.Verdict != results.Unknown || !strings.Contains(r.Reason, "memory limit "+HumanBytes(limit)+" exceeded") {
		t.Fatalf("%s (%s), want UNKNOWN memory limit %s", r.Verdict, r.Reason, HumanBytes(limit))
	}
	if r.States < 20000 {
		t.Errorf("stopped after %d states: the limit struck before the program grew", r.States)
	}
}

// TestTimeoutBound: every configuration stops a property at its
// deadline, in the analysis or in the SMT check of a long error path,
// UNKNOWN "timeout after 1s", within 10 % + 1 s of it. The limit and the
// bound are on the process's CPU time (Config.Clock, as --clock cpu), so
// that a loaded machine, which stretches wall time, does not fail the
// test; the cases run one at a time for the same reason.
func TestTimeoutBound(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three analyses for 1 s of CPU each")
	}
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	const limit = time.Second
	for _, tc := range []struct{ file, config string }{
		{"loop.c", "default"}, {"loop.c", "symex-cegar"}, {"longpath.c", "value-cegar"},
	} {
		t.Run(tc.config+"/"+tc.file, func(t *testing.T) {
			start := cpu()
			r := verifyLimits(t, "testdata/limits/"+tc.file, Config{Name: tc.config, Timeout: limit, Clock: cpu, Workers: 1})
			took := cpu() - start
			if r.Verdict != results.Unknown || !strings.Contains(r.Reason, "timeout after 1s") {
				t.Fatalf("%s (%s), want UNKNOWN timeout", r.Verdict, r.Reason)
			}
			if bound := limit + limit/10 + time.Second; took > bound {
				t.Errorf("took %v of CPU, more than %v: %s", took, bound, r.Reason)
			}
		})
	}
}

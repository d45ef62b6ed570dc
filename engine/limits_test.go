package engine

import (
	"context"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// TestMemoryWatchCancelsOldest: over the budget (limit × properties
// running) after a collection, the watchdog cancels the longest-running
// property with the cause errMemoryLimit, one at a time; under it,
// nothing.
func TestMemoryWatchCancelsOldest(t *testing.T) {
	var heap atomic.Uint64
	w := &memoryWatch{limit: 100, run: map[int]*tracked{}, sample: func(bool) uint64 { return heap.Load() }}
	old, endOld := w.track(context.Background())
	time.Sleep(time.Millisecond)
	young, endYoung := w.track(context.Background())
	defer endYoung()
	heap.Store(200) // budget 2 × 100
	w.check()
	if old.Err() != nil || young.Err() != nil {
		t.Fatal("cancelled within the budget")
	}
	heap.Store(201)
	w.check()
	if context.Cause(old) != errMemoryLimit || young.Err() != nil {
		t.Fatalf("old: %v, young: %v; want old cancelled for the memory limit", context.Cause(old), young.Err())
	}
	w.check() // old has not ended yet: wait for it
	if young.Err() != nil {
		t.Fatal("cancelled a second property before the first ended")
	}
	endOld()
	w.check() // budget 1 × 100
	if context.Cause(young) != errMemoryLimit {
		t.Fatalf("young: %v, want cancelled", context.Cause(young))
	}
}

// TestLimitReason: the analyses' "cancelled: context deadline exceeded"
// reads as the limit that struck, with the configuration running.
func TestLimitReason(t *testing.T) {
	expired, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	<-expired.Done()
	mem, stop := context.WithCancelCause(context.Background())
	stop(errMemoryLimit)
	for _, tc := range []struct {
		ctx       context.Context
		portfolio bool
		reason    string
		want      string
	}{
		{expired, false, "cancelled: context deadline exceeded", "timeout after 30s (value)"},
		{expired, true, "value: cancelled: context deadline exceeded; value-cegar: counterexample check: smt: encoding interrupted at step 7 of 9: context deadline exceeded",
			"value: timeout after 30s; value-cegar: counterexample check: smt: encoding interrupted at step 7 of 9: timeout after 30s"},
		{mem, false, "cancelled: context canceled", "memory limit 1.5GiB exceeded (value)"},
		{context.Background(), true, "value: cancelled: context deadline exceeded; value-cegar: state limit 10", "value: time share used up; value-cegar: state limit 10"},
		{expired, false, "state limit 10", "state limit 10"},
	} {
		res := &Result{Verdict: results.Unknown, Reason: tc.reason}
		limitReason(tc.ctx, context.Background(), Config{Name: "value", Timeout: 30 * time.Second, MemoryLimit: DefaultMemoryLimit}, tc.portfolio, res)
		if res.Reason != tc.want {
			t.Errorf("%q\n got %q\nwant %q", tc.reason, res.Reason, tc.want)
		}
		// the caller's context ended (a total time budget): unchanged
		res = &Result{Verdict: results.Unknown, Reason: tc.reason}
		limitReason(tc.ctx, expired, Config{Name: "value", Timeout: 30 * time.Second}, tc.portfolio, res)
		if res.Reason != tc.reason {
			t.Errorf("%q under an expired parent: got %q", tc.reason, res.Reason)
		}
	}
}

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
	limit := (residentSet() + 128<<20) &^ (1<<20 - 1)
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

package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/strategy"
	"github.com/reverify/reverify/results"
)

// TestSharedRunShare: under `default`, the run over all properties at
// once gets a quarter of each property's limit, never the whole limit;
// what it leaves open is decided by the per-property portfolio with the
// rest (testdata/mpv/starve.c: the shared value run cannot finish, each
// property alone is proved at once). The limit is on the process's CPU
// time, as --clock cpu measures it.
func TestSharedRunShare(t *testing.T) {
	rs := verifyUnderCPU(t, "testdata/mpv/starve.c", 5, 4*time.Second)
	for _, r := range rs {
		if r.Verdict != results.True {
			t.Errorf("%s: %s (%s), want TRUE", r.Property.ID, r.Verdict, r.Reason)
			continue
		}
		if r.Seconds > 4 {
			t.Errorf("%s: %.1f s on the clock, over the 4 s limit", r.Property.ID, r.Seconds)
		}
	}
}

// verifyUnderCPU verifies the properties of main in file (want of them)
// under `default` with one worker and a limit on the process's CPU time,
// as --clock cpu measures it. The memory watchdog measures the whole
// test process, where the tests before may have left Z3 memory behind:
// a limit above the default keeps such tests about time shares.
func verifyUnderCPU(t *testing.T, file string, want int, limit time.Duration) []*engine.Result {
	t.Helper()
	quiesce()
	prog, err := frontend.Translate(frontend.Options{}, file)
	if err != nil {
		t.Fatal(err)
	}
	props := spec.Properties(prog, "main")
	if len(props) != want {
		t.Fatalf("%d properties, want %d", len(props), want)
	}
	rs, err := engine.Verify(context.Background(), prog, props, engine.Config{Timeout: limit, Solver: z3.Factory, Workers: 1,
		Clock: strategy.ProcessCPU, MemoryLimit: 6 << 30})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// quiesce waits, for at most 10 s, until the test process spends less
// than a fifth of a core: the CPU clock of verifyUnderCPU counts the
// whole process, where an arm that an earlier test's portfolio cancelled
// may still be finishing a Z3 call, which would spend this test's
// limit.
func quiesce() {
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); {
		before := strategy.ProcessCPU()
		time.Sleep(100 * time.Millisecond)
		if strategy.ProcessCPU()-before < 20*time.Millisecond {
			return
		}
	}
}

//go:build unix

package pdg

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time this process used so far (user and system,
// all threads): unlike wall time it does not grow when the machine is
// busy with other work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Build is near-linear: building for 10× the locations takes less than
// 2.5× the CPU time per location, and about 10 000 locations take less
// than a second of CPU time (the best of three builds).
func TestBuildScales(t *testing.T) {
	// Speed belongs in benchmarks; this growth check runs only on request
	// (REVERIFY_TIMING=1), never in CI, where the machine is shared.
	if testing.Short() || os.Getenv("REVERIFY_TIMING") == "" {
		t.Skip("timing test: set REVERIFY_TIMING=1 to run it")
	}
	measure := func(funcs, runs int) (time.Duration, int) {
		p := structuredProgram(t, 2, funcs, 100, 50)
		best := time.Duration(1 << 62)
		for range runs {
			start := cpuTime()
			Build(p)
			best = min(best, cpuTime()-start)
		}
		return best, len(p.Locs)
	}
	small, ns := measure(100, 3)
	large, nl := measure(1000, 1)
	perSmall := float64(small) / float64(ns)
	perLarge := float64(large) / float64(nl)
	t.Logf("%d locations: %v CPU; %d locations: %v CPU (%.0f and %.0f ns per location)", ns, small, nl, large, perSmall, perLarge)
	if small > time.Second {
		t.Errorf("%d locations took %v of CPU time", ns, small)
	}
	if perLarge > 2.5*perSmall {
		t.Errorf("CPU time per location grew ×%.1f from %d to %d locations", perLarge/perSmall, ns, nl)
	}
}

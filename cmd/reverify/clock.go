package main

import (
	"runtime"
	"time"

	"github.com/reverify/reverify/engine"
)

// clockFunc returns the clock engine.Config.Clock measures time limits
// on: nil (wall time) for "wall", the process's CPU time (user + system,
// getrusage(2)) for "cpu" — what SV-COMP's limits and `reverify bench`
// measure, so that a limit means the same on a loaded machine.
func clockFunc(name string) func() time.Duration {
	if name != "cpu" {
		return nil
	}
	return engine.ProcessCPU
}

// workers is the number of properties the engine verifies at once: one
// at a time under the CPU clock, whose reading is the whole process's
// (a property's limit then covers the CPU time of all the arms of its
// portfolio, as SV-COMP's CPU limit counts every thread); jobs (0: every
// CPU) under the wall clock.
func workers(clock string, jobs int) int {
	if clock == "cpu" {
		return 1
	}
	return jobs
}

// setJobs makes Go run goroutines on at most jobs cores (0: leave
// GOMAXPROCS, the number of CPUs). Z3 checks run in cgo calls, which do
// not hold a Go core, so a portfolio can briefly use more.
func setJobs(jobs int) {
	if jobs > 0 {
		runtime.GOMAXPROCS(jobs)
	}
}

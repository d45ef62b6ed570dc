package main

import (
	"syscall"
	"time"
)

// clockFunc returns the clock engine.Config.Clock measures time limits
// on: nil (wall time) for "wall", the process's CPU time (user + system,
// getrusage(2)) for "cpu" — what SV-COMP's limits and `reverify bench`
// measure, so that a limit means the same on a loaded machine.
func clockFunc(name string) func() time.Duration {
	if name != "cpu" {
		return nil
	}
	return processCPU
}

// workers is the engine's parallelism for a clock: one property at a
// time under the CPU clock, whose reading is the whole process's.
func workers(clock string) int {
	if clock == "cpu" {
		return 1
	}
	return 0
}

// processCPU is the CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

//go:build !linux

package timeslice

import "time"

// threadClock: no per-thread CPU clock here (ThreadCPU falls back to
// wall time).
func threadClock() (func() time.Duration, bool) { return nil, false }

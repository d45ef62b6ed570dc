package timeslice

import (
	"syscall"
	"time"
	"unsafe"
)

// threadClock returns a reader of the calling OS thread's CPU time,
// readable from any thread of the process (clock_gettime on the
// thread's CPU clock: clockid (^tid << 3) | CPUCLOCK_PERTHREAD |
// CPUCLOCK_SCHED, as glibc's pthread_getcpuclockid makes it).
func threadClock() (func() time.Duration, bool) {
	id := uintptr(^syscall.Gettid()<<3 | 6)
	read := func() (time.Duration, bool) {
		var ts syscall.Timespec
		if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, id, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
			return 0, false
		}
		return time.Duration(ts.Nano()), true
	}
	if _, ok := read(); !ok {
		return nil, false
	}
	return func() time.Duration { t, _ := read(); return t }, true
}

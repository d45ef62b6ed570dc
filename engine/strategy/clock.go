package strategy

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/reverify/reverify/engine/timeslice"
)

// Clock is what a time limit is measured on: nil is wall time; cmd
// injects the process's CPU time for runs of one property at a time (so
// that a limit means the same on a loaded machine as on an idle one and
// covers every arm of a portfolio, as SV-COMP's CPU limit counts every
// thread).
type Clock func() time.Duration

// Now reads the clock: c, or wall time since an arbitrary origin.
func (c Clock) Now() time.Duration {
	if c != nil {
		return c()
	}
	return time.Since(clockOrigin)
}

// Since returns the time on c since start (a reading of c.Now).
func (c Clock) Since(start time.Duration) time.Duration { return c.Now() - start }

// IsCPU reports whether limits on c are CPU time (any injected clock).
func (c Clock) IsCPU() bool { return c != nil }

var clockOrigin = time.Now()

// Limits are the limits of one run: Timeout on Clock (0: none) and
// MemoryLimit in bytes, which Watch enforces (nil: none).
type Limits struct {
	Clock       Clock
	Timeout     time.Duration
	Watch       *MemoryWatch
	MemoryLimit uint64
}

// WithBudget returns a context that expires after d on the configured
// clock: context.WithTimeout for wall time; for a Clock (the
// process's CPU time), a watchdog that polls the clock every 10 ms and
// makes the context's Err report context.DeadlineExceeded, so that the
// reasons read "timeout" either way; timeslice.Remaining reads the time
// left on the clock.
func WithBudget(ctx context.Context, clock Clock, d time.Duration) (context.Context, context.CancelFunc) {
	if clock == nil {
		return context.WithTimeout(ctx, d)
	}
	end := clock() + d
	c := &budgetCtx{Context: timeslice.WithRemaining(ctx, func() time.Duration { return end - clock() }), done: make(chan struct{})}
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				c.expire(context.Canceled)
				return
			case <-ctx.Done():
				c.expire(ctx.Err())
				return
			case <-t.C:
				if clock() >= end {
					c.expire(context.DeadlineExceeded)
					return
				}
			}
		}
	}()
	var once sync.Once
	return c, func() { once.Do(func() { close(stop) }) }
}

// budgetCtx is a context whose expiry a watchdog decides.
type budgetCtx struct {
	context.Context
	once sync.Once
	mu   sync.Mutex
	err  error
	done chan struct{}
}

func (c *budgetCtx) expire(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		close(c.done)
	})
}

func (c *budgetCtx) Done() <-chan struct{} { return c.done }

func (c *budgetCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// ProcessCPU is the CPU time (user + system) of this process, of its
// children that ended (getrusage(2)), and of the running children that
// TrackChild registered (the solver processes of package solverproc,
// /proc/PID/stat), so that a CPU limit covers a check that runs in a
// child; 0 when getrusage(2) fails.
func ProcessCPU() time.Duration {
	var ru, ch syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ch)
	d := time.Duration(ru.Utime.Nano() + ru.Stime.Nano() + ch.Utime.Nano() + ch.Stime.Nano())
	running.Range(func(pid, _ any) bool {
		d += ChildCPU(pid.(int))
		return true
	})
	return d
}

// running holds the PIDs of the running children whose CPU time
// ProcessCPU counts.
var running sync.Map

// TrackChild makes ProcessCPU count the CPU time of the running child
// process pid until UntrackChild(pid), which the caller calls after it
// has waited for the child (getrusage(2) counts it from then on; a
// reaped child's /proc entry is gone, so it is never counted twice).
func TrackChild(pid int) { running.Store(pid, true) }

// UntrackChild ends TrackChild(pid).
func UntrackChild(pid int) { running.Delete(pid) }

// ChildCPU is the CPU time (utime + stime, /proc/PID/stat, in the
// kernel's USER_HZ of 100 ticks a second) of process pid, 0 when it is
// gone or where /proc is not.
func ChildCPU(pid int) time.Duration {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// the fields after the command name, which is in parentheses and
	// may contain blanks: state is the first, utime and stime the 12th
	// and 13th (fields 14 and 15 of proc(5))
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * (time.Second / 100)
}

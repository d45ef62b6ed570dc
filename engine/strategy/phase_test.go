package strategy

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestPhaseWatch: the watch reports a memory use that stays above the
// limit after a collection (not one a collection frees) or that the last
// collection found live, a phase that
// runs past its time limit, and nothing once stopped.
func TestPhaseWatch(t *testing.T) {
	wait := func(ch chan string) string {
		select {
		case m := <-ch:
			return m
		case <-time.After(5 * time.Second):
			return ""
		}
	}
	// garbage: above the limit until a collection frees it
	var collected atomic.Bool
	ch := make(chan string, 1)
	w := startPhaseWatch("reading the sources", nil, 0, 100<<20, func(afterGC bool) uint64 {
		if afterGC {
			collected.Store(true)
			return 50 << 20
		}
		return 200 << 20
	}, func() uint64 { return 0 }, func() uint64 { return 0 }, time.Millisecond, func(msg string) { ch <- msg })
	time.Sleep(20 * time.Millisecond)
	w.Stop()
	if !collected.Load() {
		t.Error("the watch never collected before judging")
	}
	select {
	case m := <-ch:
		t.Errorf("garbage a collection frees reported: %s", m)
	default:
	}
	// live memory above the limit
	w = startPhaseWatch("reading the sources", nil, 0, 100<<20, func(bool) uint64 { return 300 << 20 }, func() uint64 { return 0 }, func() uint64 { return 0 }, time.Millisecond, func(msg string) { ch <- msg })
	m := wait(ch)
	w.Stop()
	if want := "reading the sources needs more than the memory limit of 100MiB (300MiB in use)"; m != want {
		t.Errorf("memory: %q, want %q", m, want)
	}
	// the last collection found more live than the limit: no forced one
	w = startPhaseWatch("reading the sources", nil, 0, 100<<20, func(afterGC bool) uint64 {
		if afterGC {
			t.Error("collected although the live heap was known")
		}
		return 0
	}, func() uint64 { return 0 }, func() uint64 { return 150 << 20 }, time.Millisecond, func(msg string) { ch <- msg })
	m = wait(ch)
	w.Stop()
	if want := "reading the sources needs more than the memory limit of 100MiB (150MiB in use)"; m != want {
		t.Errorf("live: %q, want %q", m, want)
	}
	// a collection that takes long while the resident set grows past
	// seven eighths of the limit: reported without waiting for it
	release := make(chan struct{})
	w = startPhaseWatch("reading the sources", nil, 0, 160<<20, func(afterGC bool) uint64 {
		if afterGC {
			<-release
		}
		return 121 << 20
	}, func() uint64 { return 141 << 20 }, func() uint64 { return 0 }, time.Millisecond, func(msg string) { ch <- msg })
	m = wait(ch)
	close(release)
	w.Stop()
	if want := "reading the sources needs more than the memory limit of 160MiB (141MiB in use)"; m != want {
		t.Errorf("growth during a collection: %q, want %q", m, want)
	}
	// time
	w = startPhaseWatch("loading the revisions", nil, 30*time.Millisecond, 0, func(bool) uint64 { return 0 }, func() uint64 { return 0 }, func() uint64 { return 0 }, time.Millisecond, func(msg string) { ch <- msg })
	m = wait(ch)
	w.Stop()
	if !strings.HasPrefix(m, "loading the revisions took longer than the time limit of 30ms") {
		t.Errorf("time: %q", m)
	}
	// stopped before any limit
	w = startPhaseWatch("x", nil, time.Hour, 1<<40, func(bool) uint64 { return 0 }, func() uint64 { return 0 }, func() uint64 { return 0 }, time.Millisecond, func(msg string) { ch <- msg })
	w.Stop()
	w.Stop()
	select {
	case m := <-ch:
		t.Errorf("reported after a quiet phase: %s", m)
	default:
	}
}

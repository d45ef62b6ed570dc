package strategy

import (
	"fmt"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/reverify/reverify/results"
)

// PhaseWatch holds a phase of a run that no property's budget covers
// (reading and translating the sources, loading the revisions of a pull
// request) to the run's limits. Every 10 ms it samples the time since
// it started on clock and the process's memory as MemoryWatch does (the
// Go heap or the resident set, whichever is larger), with the
// collector's soft limit set to memory meanwhile. It calls exceeded
// once, with a sentence saying which limit and by how much, when the
// phase has run longer than limit, or when the memory is too close to
// memory (bytes) to go on (overLimit: above three quarters of it after a
// forced collection, or a resident set past seven eighths of it while
// the collection runs, since the phase goes on allocating until the
// process has exited) or the last collection found more than memory
// live (0: no limit of that kind). The phase's own code
// cannot be interrupted (the C parser takes no context), so exceeded
// must end it, typically by ending the process with a one-line error: a
// process the system kills for memory loses every result. The limits
// promise what each property's do (Config.MemoryLimit, Config.Timeout):
// no phase of the run passes them.
type PhaseWatch struct {
	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// StartPhaseWatch starts watching the phase named what ("reading the
// sources"); stop it with Stop when the phase ends.
func StartPhaseWatch(what string, clock Clock, limit time.Duration, memory uint64, exceeded func(msg string)) *PhaseWatch {
	sample := func(afterGC bool) uint64 { return heapInUse(afterGC, nil) }
	return startPhaseWatch(what, clock, limit, memory, sample, ResidentSet, liveHeap, 10*time.Millisecond, exceeded)
}

// liveHeap is the Go heap the last garbage collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

func startPhaseWatch(what string, clock Clock, limit time.Duration, memory uint64, sample func(afterGC bool) uint64, resident, live func() uint64, every time.Duration, exceeded func(msg string)) *PhaseWatch {
	w := &PhaseWatch{stop: make(chan struct{}), done: make(chan struct{})}
	start := clock.Now()
	if memory > 0 {
		softLimit(int64(memory)) // the collector works harder as the limit nears
	}
	go func() {
		defer close(w.done)
		if memory > 0 {
			defer softLimit(0)
		}
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-t.C:
			}
			if limit > 0 && clock.Since(start) > limit {
				exceeded(fmt.Sprintf("%s took longer than the time limit of %s", what, results.TimeLimit(limit, clock.IsCPU())))
				return
			}
			if memory == 0 {
				continue
			}
			if in := live(); in > memory {
				// the collections the soft limit brings on found more live
				exceeded(fmt.Sprintf("%s needs more than the memory limit of %s (%s in use)", what, HumanBytes(memory), HumanBytes(in)))
				return
			}
			if overLimit(sample, resident, memory-memory/4, memory-memory/8) {
				exceeded(fmt.Sprintf("%s needs more than the memory limit of %s (%s in use)", what, HumanBytes(memory), HumanBytes(max(sample(false), resident()))))
				return
			}
		}
	}()
	return w
}

// Stop ends the watch and waits for it; it returns at once when it
// already ended.
func (w *PhaseWatch) Stop() {
	if w == nil {
		return
	}
	w.once.Do(func() { close(w.stop) })
	<-w.done
}

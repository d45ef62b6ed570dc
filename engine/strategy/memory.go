package strategy

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultMemoryLimit is the memory limit per property when
// engine.Config.MemoryLimit is 0: 1.5 GiB, so that four properties verified in
// parallel (a 4-core GitHub runner) stay within a 7 GB runner.
const DefaultMemoryLimit = 3 << 29

// ErrMemoryLimit is the cancellation cause of a property that the
// memory watchdog stopped.
var ErrMemoryLimit = errors.New("memory limit")

// MemoryWatch is the memory watchdog of one engine.Verify call. Go cannot
// account memory to a goroutine, so it watches the process's memory
// (heapInUse: the Go heap or the resident set, whichever is larger, so
// that Z3's memory counts) every 50 ms against the limit times the number
// of properties running (the budget), and when the memory is too close
// to the budget to go on (overLimit: above it less a sixteenth after a
// forced garbage collection that returns freed memory to the system, or
// a resident set past the budget while that collection runs) it
// cancels the property that has run longest (the one most likely to
// hold the memory) with the cause ErrMemoryLimit, and waits for it to
// end before judging again. A property decided by a portfolio first
// loses its heaviest arm instead (onMemoryLimit), down to the last one.
// The property answers UNKNOWN "memory limit …", and the others go on: the
// process is never killed for memory by the system, which would lose
// every result. debug.SetMemoryLimit makes the garbage collector work
// harder as the budget nears (a soft backstop, restored at the end). The
// resident set includes the program's code and Z3's library (tens of
// MiB), counted once whatever the number of properties.
type MemoryWatch struct {
	limit uint64
	mu    sync.Mutex
	next  int
	run   map[int]*tracked
	// sample returns the heap in use; after is true when it should be
	// read again after a collection (tests replace it).
	sample func(afterGC bool) uint64
	// resident is the resident set (ResidentSet; tests replace it).
	resident func() uint64
	stop     chan struct{}
	done     chan struct{}
}

type tracked struct {
	start     time.Time
	cancel    context.CancelCauseFunc
	cancelled bool
	// shed, when set (a portfolio inside the property: onMemoryLimit),
	// stops one of the property's arms instead of the whole property and
	// returns a channel closed when that arm has ended, or nil when no
	// arm can be spared; shedding is that channel while the arm ends.
	shed     func() <-chan struct{}
	shedding <-chan struct{}
}

// StartMemoryWatch starts the watchdog for cfg (nil when it has no
// memory limit); stop it with Close. release, when not nil, returns the
// C heap's free pages to the system (z3.TrimHeap, injected through
// engine.Config.ReleaseNative); the watch calls it after its collections.
func StartMemoryWatch(limit uint64, workers int, release func()) *MemoryWatch {
	if limit == 0 {
		return nil
	}
	w := &MemoryWatch{limit: limit, run: map[int]*tracked{},
		sample:   func(afterGC bool) uint64 { return heapInUse(afterGC, release) },
		resident: ResidentSet,
		stop:     make(chan struct{}), done: make(chan struct{})}
	soft := int64(limit) * int64(max(workers, 1))
	if soft <= 0 || soft/int64(max(workers, 1)) != int64(limit) { // overflow
		soft = math.MaxInt64
	}
	softLimit(soft)
	go w.loop()
	return w
}

func (w *MemoryWatch) Close() {
	if w == nil {
		return
	}
	close(w.stop)
	<-w.done
	softLimit(0)
}

// The soft limit is the process's: concurrent Verify calls share it
// (the largest requested holds), and the last one restores the limit
// found before the first.
var soft struct {
	sync.Mutex
	n    int
	prev int64
	max  int64
}

// softLimit raises the shared soft memory limit to at least b, or with
// b = 0 ends one watch's request.
func softLimit(b int64) {
	soft.Lock()
	defer soft.Unlock()
	if b == 0 {
		if soft.n--; soft.n == 0 {
			debug.SetMemoryLimit(soft.prev)
		}
		return
	}
	if soft.n == 0 {
		soft.prev, soft.max = debug.SetMemoryLimit(-1), 0
	}
	soft.n++
	if b > soft.max {
		soft.max = b
		debug.SetMemoryLimit(b)
	}
}

// watchInterval is how often MemoryWatch samples the memory.
const watchInterval = 50 * time.Millisecond

func (w *MemoryWatch) loop() {
	defer close(w.done)
	t := time.NewTicker(watchInterval)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
			w.check()
		}
	}
}

// check cancels the longest-running property when the heap exceeds the
// budget of the properties running.
func (w *MemoryWatch) check() {
	w.mu.Lock()
	n := len(w.run)
	pending := false
	for _, t := range w.run {
		pending = pending || t.cancelled || t.isShedding()
	}
	w.mu.Unlock()
	if n == 0 || pending {
		return
	}
	budget := w.limit * uint64(n)
	// (the live heap of the last collection is no shortcut here: after a
	// cancelled property it stays high until the next collection and
	// would stop the next property at once)
	if !overLimit(w.sample, w.resident, budget-budget/limitMargin, budget) {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var oldest *tracked
	for _, t := range w.run {
		if oldest == nil || t.start.Before(oldest.start) {
			oldest = t
		}
	}
	if oldest == nil {
		return
	}
	if oldest.shed != nil {
		if ch := oldest.shed(); ch != nil {
			oldest.shedding = ch
			return
		}
	}
	oldest.cancelled = true
	oldest.cancel(ErrMemoryLimit)
}

// isShedding reports whether an arm the watch stopped is still ending
// (w.mu held).
func (t *tracked) isShedding() bool {
	if t.shedding == nil {
		return false
	}
	select {
	case <-t.shedding:
		t.shedding = nil
		return false
	default:
		return true
	}
}

// shedKey marks the innermost tracked property of a context (its
// *tracked and watch: onMemoryLimit).
type shedKey struct{}

type shedRef struct {
	w *MemoryWatch
	t *tracked
}

// onMemoryLimit makes shed the first answer of the memory watch that
// tracks ctx when the property is over its limit: a portfolio stops its
// heaviest arm and the others go on with the property's memory, so that
// one arm's reached set does not end every arm (shed returns nil when
// one arm is left: then the property is cancelled as before). The
// returned function ends the registration; without a watch it does
// nothing.
func onMemoryLimit(ctx context.Context, shed func() <-chan struct{}) func() {
	ref, ok := ctx.Value(shedKey{}).(shedRef)
	if !ok {
		return func() {}
	}
	ref.w.mu.Lock()
	defer ref.w.mu.Unlock()
	if ref.t.shed != nil { // an outer portfolio's arm: the outer one sheds
		return func() {}
	}
	ref.t.shed = shed
	return func() {
		ref.w.mu.Lock()
		ref.t.shed = nil
		ref.w.mu.Unlock()
	}
}

// Track returns ctx with a cancellation the watchdog may trigger, and
// the function that ends the tracking. A context this watch already
// tracks (a step, an arm or a round inside a tracked property) is
// returned as it is: the property is counted once in the budget, and its
// cancellation reaches every step inside it (context.Cause of theirs is
// ErrMemoryLimit). Counting each nested step would multiply the budget
// by the nesting depth, and a portfolio's arms would share the limits
// of as many properties as they are.
func (w *MemoryWatch) Track(ctx context.Context) (context.Context, func()) {
	if w == nil || ctx.Value(trackedBy{w}) != nil {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	ctx = context.WithValue(ctx, trackedBy{w}, true)
	t := &tracked{start: time.Now(), cancel: cancel}
	ctx = context.WithValue(ctx, shedKey{}, shedRef{w, t})
	w.mu.Lock()
	id := w.next
	w.next++
	w.run[id] = t
	w.mu.Unlock()
	return ctx, func() {
		w.mu.Lock()
		delete(w.run, id)
		w.mu.Unlock()
		cancel(nil)
	}
}

// trackedBy marks a context that the watch w tracks (MemoryWatch.Track).
type trackedBy struct{ w *MemoryWatch }

// overLimit reports whether the memory in use is too close to limit to
// go on: when sample(false) exceeds bound, and either the collections of
// sample(true) leave more than bound in use or the resident set
// (resident, sampled every 5 ms while they run; nil: not sampled) passes
// hard meanwhile. A forced collection of a large heap takes seconds when
// the analyses allocate beside it on one core (2.1 s at 200 MiB), long
// enough for them to take another 40 % of the limit; the margins below
// limit leave the watch the time to stop them before the process passes
// it. MemoryWatch judges a property with bound limit less a sixteenth
// (limitMargin) and hard the limit; PhaseWatch, whose phase cannot be
// interrupted and goes on allocating until the process has exited, with
// three quarters and seven eighths of it.
func overLimit(sample func(afterGC bool) uint64, resident func() uint64, bound, hard uint64) bool {
	if sample(false) <= bound {
		return false
	}
	done := make(chan uint64, 1)
	go func() { done <- sample(true) }()
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case in := <-done:
			return in > bound
		case <-t.C:
			if resident != nil && resident() > hard {
				return true
			}
		}
	}
}

// limitMargin: MemoryWatch's working bound is limit - limit/limitMargin.
const limitMargin = 16

// collectRounds is how many collections collect runs: go-z3 frees Z3's
// memory in finalizers, which run after the collection that found their
// objects unreachable, and a Z3 context only after the finalizers of
// its terms ran (they refer to it), so its memory is freed a collection
// later.
const collectRounds = 3

// collect frees what the process no longer uses: collectRounds
// collections, each followed by a pause in which the finalizers run,
// then the Go heap's free pages and, through release (nil: none), the C
// heap's go back to the system. It takes some milliseconds, and runs only when the
// memory in use exceeds the budget.
func collect(release func()) {
	for range collectRounds {
		runtime.GC()
		time.Sleep(2 * time.Millisecond)
	}
	debug.FreeOSMemory()
	if release != nil {
		release()
	}
}

// heapInUse reads the memory in use: the larger of the Go heap (the
// bytes of heap objects, live or not yet swept; after a collection, the
// live heap) and the process's resident set (Linux /proc/self/statm),
// which also holds Z3's memory. After a collection (collect) the freed
// memory is first returned to the system, so that the resident set no
// longer counts it.
func heapInUse(afterGC bool, release func()) uint64 {
	name := "/memory/classes/heap/objects:bytes"
	if afterGC {
		name = "/gc/heap/live:bytes"
		collect(release)
	}
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	var heap uint64
	if s[0].Value.Kind() == metrics.KindUint64 {
		heap = s[0].Value.Uint64()
	} else {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		heap = m.HeapAlloc
	}
	return max(heap, ResidentSet())
}

// ResidentSet is the process's resident set in bytes, 0 where
// /proc/self/statm is not readable.
func ResidentSet() uint64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}

// HumanBytes formats n as 1.5GiB, 512MiB or 100B.
func HumanBytes(n uint64) string {
	for _, u := range []struct {
		unit string
		size uint64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size {
			s := fmt.Sprintf("%.1f", float64(n)/float64(u.size))
			return strings.TrimSuffix(s, ".0") + u.unit
		}
	}
	return fmt.Sprintf("%dB", n)
}

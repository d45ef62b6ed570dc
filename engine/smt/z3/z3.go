package z3

import (
	"context"
	"errors"
	"fmt"
	"github.com/reverify/reverify/engine/timeslice"
	"math"
	"math/big"
	"sync"
	"time"

	"github.com/aclements/go-z3/z3"
	"github.com/reverify/reverify/engine/smt"
)

// Factory creates Z3 solvers with default options.
var Factory smt.Factory = New

// Options configure a solver.
type Options struct {
	// Timeout bounds each Check in wall-clock time (0: none besides the
	// context's deadline). Z3 answers unknown ("timeout") when it is hit.
	Timeout time.Duration
	// OneShot selects Z3's non-incremental solver (bit-blasting to SAT
	// with preprocessing), much faster on hard bit-vector problems but
	// with a set-up cost of milliseconds per check. A Push switches the
	// solver to incremental mode for good.
	OneShot bool
}

// OneShotFactory creates solvers with Options{OneShot: true}, for single
// hard checks such as smt.CheckPath.
var OneShotFactory smt.Factory = func(b *smt.Builder) smt.Solver {
	return NewWithOptions(b, Options{OneShot: true})
}

// New returns a Z3 solver for terms of b, with a Z3 context of its own (so
// solvers can run in parallel).
func New(b *smt.Builder) smt.Solver { return NewWithOptions(b, Options{}) }

// NewWithOptions returns a Z3 solver with options.
func NewWithOptions(b *smt.Builder, opts Options) smt.Solver {
	in := getInstance(opts.OneShot)
	return &solver{b: b, opts: opts, in: in, ctx: in.ctx, s: in.s, cache: map[*smt.Term]z3.Value{}, sorts: map[smt.Sort]z3.Sort{}}
}

// instance is a Z3 context with one solver. Creating one costs 10–45
// ms of CPU time, so closed solvers return theirs to an idle list
// (reset) for reuse while it has served fewer than maxUses solvers and
// declared fewer than maxNames variables: go-z3 interns every symbol
// name per context for the context's life, so its memory grows with
// the names of its uses.
type instance struct {
	ctx     *z3.Context
	s       *z3.Solver
	uses    int
	names   int // variables declared by all its uses (an upper bound on the names interned)
	oneShot bool
}

// The reuse bounds of an instance: maxNames names of a few dozen bytes
// each in go-z3's table are a few MB. The CEGAR arms open a solver per
// refinement and per counterexample check; a bound of 64 uses made
// SV-COMP's phases_2-2 create 13 contexts instead of 7 in `default`,
// with 90 MB more resident memory.
const (
	maxUses  = 4096
	maxNames = 1 << 17
)

// maxIdle is the most idle instances of each kind kept for reuse: the
// arms of a portfolio open and close solvers while up to seven are
// open, and each idle one keeps its context's 17 MB or more.
const maxIdle = 3

// idleList holds closed instances of one kind for reuse. Unlike a
// sync.Pool, which empties at every garbage collection, it keeps them
// until they are taken: a run of `default` used to create 8–15 contexts
// (0.3–0.5 s of CPU time) where up to 7 are open at once.
type idleList struct {
	mu  sync.Mutex
	ins []*instance
}

func (l *idleList) get() *instance {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.ins)
	if n == 0 {
		return nil
	}
	in := l.ins[n-1]
	l.ins[n-1] = nil
	l.ins = l.ins[:n-1]
	return in
}

// put keeps in unless the list is full; a dropped instance's context
// is freed by its finalizer.
func (l *idleList) put(in *instance) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ins) < maxIdle {
		l.ins = append(l.ins, in)
	}
}

// idle instances: incremental ones at 0, one-shot ones at 1
var idle [2]idleList

func idleOf(oneShot bool) *idleList {
	if oneShot {
		return &idle[1]
	}
	return &idle[0]
}

func getInstance(oneShot bool) *instance {
	if v := idleOf(oneShot).get(); v != nil {
		v.uses++
		return v
	}
	cfg := z3.NewContextConfig()
	cfg.SetBool("model", true)
	ctx := z3.NewContext(cfg)
	in := &instance{ctx: ctx, s: z3.NewSolver(ctx), oneShot: oneShot}
	if !oneShot {
		// One initial level puts Z3's combined solver in incremental
		// mode: checks then take microseconds instead of milliseconds of
		// tactic set-up each.
		in.s.Push()
	}
	return in
}

// putInstance returns in to the idle list; depth is the number of levels the
// user left open above the base level.
func putInstance(in *instance, depth int) {
	if in.uses >= maxUses || in.names >= maxNames {
		return
	}
	ok := func() (ok bool) {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		if in.oneShot {
			in.s.Reset()
			return depth == 0 // a Push made it incremental: drop it
		}
		// Popping to level 0 and pushing again clears the assertions
		// and keeps the incremental kernel (Reset would rebuild it, for
		// milliseconds).
		for i := 0; i <= depth; i++ {
			in.s.Pop()
		}
		in.s.Push()
		return true
	}()
	if ok {
		idleOf(in.oneShot).put(in)
	}
}

type solver struct {
	b     *smt.Builder
	opts  Options
	in    *instance
	ctx   *z3.Context
	s     *z3.Solver
	cache map[*smt.Term]z3.Value
	sorts map[smt.Sort]z3.Sort
	model *z3.Model
	depth int // open Push levels
	// normalize: assertions are simplified to sums of monomials first
	// (Normalize).
	normalize bool
	// unknown is set after a check answered unknown (interrupted, timed
	// out): Close then drops the Z3 context instead of pooling it.
	unknown bool
	// err is a sticky error from a failed translation or assertion (go-z3
	// panics on Z3 errors); Check reports it as Unknown.
	err error
	// broken is set when the solver's assertion stack can no longer be
	// trusted: a Push, Pop or Assert failed (a skipped Pop would leave
	// stale assertions behind, and a later check could answer Unsat
	// wrongly), or an interrupt reached the Z3 context, which may leave
	// its cancel flag set so that the next operation fails. Every later
	// check answers Unknown with it, and Close drops the context.
	broken error
	closed bool
}

func (s *solver) sort(so smt.Sort) z3.Sort {
	if z, ok := s.sorts[so]; ok {
		return z
	}
	var z z3.Sort
	switch {
	case so.IsArray():
		z = s.ctx.ArraySort(s.sort(smt.BVSort(so.Index)), s.sort(smt.BVSort(so.Width)))
	case so.IsBool():
		z = s.ctx.BoolSort()
	default:
		z = s.ctx.BVSort(so.Width)
	}
	s.sorts[so] = z
	return z
}

// tr translates t, iteratively over the DAG (post-order), caching per
// solver.
func (s *solver) tr(root *smt.Term) z3.Value {
	if v, ok := s.cache[root]; ok {
		return v
	}
	type item struct {
		t    *smt.Term
		done bool
	}
	stack := []item{{root, false}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if _, ok := s.cache[it.t]; ok {
			continue
		}
		if !it.done && len(it.t.Args) > 0 {
			stack = append(stack, item{it.t, true})
			for _, a := range it.t.Args {
				if _, ok := s.cache[a]; !ok {
					stack = append(stack, item{a, false})
				}
			}
			continue
		}
		s.cache[it.t] = s.tr1(it.t)
	}
	return s.cache[root]
}

func (s *solver) tr1(t *smt.Term) z3.Value {
	a := func(i int) z3.Value { return s.cache[t.Args[i]] }
	bo := func(i int) z3.Bool { return a(i).(z3.Bool) }
	bv := func(i int) z3.BV { return a(i).(z3.BV) }
	switch t.Op {
	case smt.True:
		return s.ctx.FromBool(true)
	case smt.False:
		return s.ctx.FromBool(false)
	case smt.BVConst:
		if t.Hi == 0 && t.Val <= math.MaxInt64 {
			return s.ctx.FromInt(int64(t.Val), s.sort(t.Sort))
		}
		v := new(big.Int).SetUint64(t.Hi)
		v.Lsh(v, 64)
		v.Or(v, new(big.Int).SetUint64(t.Val))
		return s.ctx.FromBigInt(v, s.sort(t.Sort))
	case smt.Var:
		s.in.names++ // after Close s.in is nil, and so is s.ctx: guard reports the use
		return s.ctx.Const(t.Name, s.sort(t.Sort))
	case smt.Not:
		return bo(0).Not()
	case smt.And:
		return bo(0).And(bo(1))
	case smt.Or:
		return bo(0).Or(bo(1))
	case smt.Implies:
		return bo(0).Implies(bo(1))
	case smt.Ite:
		return bo(0).IfThenElse(a(1), a(2))
	case smt.Eq:
		switch x := a(0).(type) {
		case z3.Bool:
			return x.Eq(bo(1))
		case z3.BV:
			return x.Eq(bv(1))
		case z3.Array:
			return x.Eq(a(1).(z3.Array))
		}
	case smt.Add:
		return bv(0).Add(bv(1))
	case smt.Sub:
		return bv(0).Sub(bv(1))
	case smt.Mul:
		return bv(0).Mul(bv(1))
	case smt.UDiv:
		return bv(0).UDiv(bv(1))
	case smt.SDiv:
		return bv(0).SDiv(bv(1))
	case smt.URem:
		return bv(0).URem(bv(1))
	case smt.SRem:
		return bv(0).SRem(bv(1))
	case smt.Shl:
		return bv(0).Lsh(bv(1))
	case smt.LShr:
		return bv(0).URsh(bv(1))
	case smt.AShr:
		return bv(0).SRsh(bv(1))
	case smt.BAnd:
		return bv(0).And(bv(1))
	case smt.BOr:
		return bv(0).Or(bv(1))
	case smt.BXor:
		return bv(0).Xor(bv(1))
	case smt.BNot:
		return bv(0).Not()
	case smt.Neg:
		return bv(0).Neg()
	case smt.Ult:
		return bv(0).ULT(bv(1))
	case smt.Ule:
		return bv(0).ULE(bv(1))
	case smt.Slt:
		return bv(0).SLT(bv(1))
	case smt.Sle:
		return bv(0).SLE(bv(1))
	case smt.ZeroExt:
		return bv(0).ZeroExtend(t.Sort.Width - t.Args[0].Sort.Width)
	case smt.SignExt:
		return bv(0).SignExtend(t.Sort.Width - t.Args[0].Sort.Width)
	case smt.Extract:
		return bv(0).Extract(t.HiBit, t.Lo)
	case smt.Concat:
		return bv(0).Concat(bv(1))
	case smt.Select:
		return a(0).(z3.Array).Select(a(1))
	case smt.Store:
		return a(0).(z3.Array).Store(a(1), a(2))
	case smt.ConstArray:
		return s.ctx.ConstArray(s.sort(smt.BVSort(t.Sort.Index)), a(0))
	}
	panic(fmt.Sprintf("smt/z3: cannot translate %s", t.Describe()))
}

// guard runs f, turning go-z3's panics (Z3 errors) into the sticky error.
func (s *solver) guard(what string, f func()) {
	stack := what == "push" || what == "pop" || what == "assert"
	if s.err != nil || s.broken != nil && stack {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			s.err = fmt.Errorf("smt/z3: %s: %v", what, r)
			if stack {
				s.broken = s.err
			}
		}
	}()
	f()
}

func (s *solver) Assert(t *smt.Term) {
	if !t.Sort.IsBool() {
		panic("smt/z3: Assert of a non-Bool term " + t.Describe())
	}
	s.guard("assert", func() {
		v := s.tr(t)
		if s.normalize {
			v = s.ctx.Simplify(v, z3.NewSimplifyConfig(s.ctx).SetBool("som", true))
		}
		s.s.Assert(v.(z3.Bool))
	})
}

// Normalize implements smt.Normalizer: later assertions are rewritten by
// Z3's simplifier with som (sum of monomials: products distributed over
// sums, monomials ordered and their coefficients summed) before they are
// asserted. The rewriting is an equivalence, so answers are unchanged;
// only their cost differs.
func (s *solver) Normalize() { s.normalize = true }

func (s *solver) Push() {
	s.depth++
	s.guard("push", s.s.Push)
}

func (s *solver) Pop() {
	if s.depth == 0 {
		panic("smt/z3: Pop without Push")
	}
	s.depth--
	s.guard("pop", s.s.Pop)
}

// canceled is Z3's reason for unknown when its resource limit, an
// interrupt or its timer stopped the check.
const canceled = "canceled"

// memoryOut is Z3's reason for unknown when an allocation failed.
const memoryOut = "out of memory"

// ErrUnknown is wrapped by every error explaining an Unknown answer from
// Z3 itself (as opposed to cancellation, which wraps the context's error).
var ErrUnknown = errors.New("z3 answered unknown")

func (s *solver) Check(ctx context.Context) (smt.Result, error) {
	timeslice.Yield(ctx) // a paused analysis starts no Z3 call (a running one cannot pause)
	return s.check(ctx, nil, 0)
}

// CheckWork is Check within work units of Z3's resource limit (its
// rlimit: a count of the solver's elementary steps, the same on an idle
// and on a loaded machine). A check that reaches it answers Unknown
// (ErrUnknown and smt.ErrWorkLimit) and, unlike an
// interrupted one, leaves the solver and its context usable: Z3 lowers
// the limit again when the check returns (smt.WorkLimiter).
func (s *solver) CheckWork(ctx context.Context, work uint64) (smt.Result, error) {
	timeslice.Yield(ctx)
	return s.check(ctx, nil, min(work, math.MaxUint32))
}

// check runs one Z3 check of the assertions plus extra (asserted in a
// temporary level), interrupting Z3 when ctx is done; work > 0 bounds it
// by Z3's resource limit (CheckWork).
func (s *solver) check(ctx context.Context, extra []z3.Bool, work uint64) (smt.Result, error) {
	s.model = nil
	if s.closed {
		return smt.Unknown, errors.New("smt/z3: solver used after Close")
	}
	if s.broken != nil {
		s.unknown = true
		return smt.Unknown, s.broken
	}
	if s.err != nil {
		return smt.Unknown, s.err
	}
	if err := ctx.Err(); err != nil {
		return smt.Unknown, fmt.Errorf("smt/z3: check not started: %w", err)
	}
	// The context's deadline is enforced by interrupting Z3, not by its
	// timeout parameter: Z3's timer and an interrupt firing together can
	// leave its context cancelled for good.
	timeout := s.opts.Timeout
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= 0 {
		return smt.Unknown, fmt.Errorf("smt/z3: check not started: %w", context.DeadlineExceeded)
	}
	ms := uint(math.MaxUint32)
	if timeout > 0 {
		ms = uint(timeout / time.Millisecond)
		if ms == 0 {
			ms = 1
		}
	}
	var (
		sat bool
		err error
	)
	s.guard("check", func() {
		s.ctx.Config().SetUint("timeout", ms)
		// The resource limit is the context's: set for this check only
		// and reset after it, so that no later call on the context
		// (another check, a simplification, the next user of a pooled
		// context) runs under it (0: none).
		s.ctx.Config().SetUint("rlimit", uint(work))
		if work > 0 {
			defer s.ctx.Config().SetUint("rlimit", 0)
		}
		if len(extra) > 0 {
			s.s.Push()
			defer s.s.Pop()
			for _, e := range extra {
				s.s.Assert(e)
			}
		}
		var interrupted bool
		if s.opts.OneShot {
			var abandoned bool
			var r bool
			var e error
			interrupted, abandoned = s.abandonable(ctx, func() { r, e = s.s.Check() })
			if abandoned {
				// Z3 is still in the check (the one-shot solver's
				// preprocessing does not always heed interrupts):
				// the instance belongs to that call now.
				s.unknown = true
				s.broken = fmt.Errorf("smt/z3: a one-shot check did not stop within %v of its interrupt and was abandoned (%w)", abandonGrace, ctx.Err())
				err = s.broken
				return
			}
			sat, err = r, e
		} else {
			interrupted = s.interruptible(ctx, func() { sat, err = s.s.Check() })
		}
		if err == nil && sat {
			s.model = s.s.Model()
		}
		if interrupted {
			// The answer stands (Z3 gave it), but the interrupt may
			// have outlived the check: nothing later is trusted.
			s.unknown = true
			s.broken = fmt.Errorf("smt/z3: solver interrupted (%w); open a new one", ctx.Err())
		}
	})
	if s.err != nil {
		err := s.err
		s.err = nil // a failed check does not poison the solver
		return smt.Unknown, err
	}
	if err != nil {
		var unk *z3.ErrSatUnknown
		reason := err.Error()
		if errors.As(err, &unk) {
			reason = unk.Reason
		}
		if cerr := ctx.Err(); cerr != nil {
			s.unknown = true
			return smt.Unknown, fmt.Errorf("smt/z3: interrupted (%s): %w", reason, cerr)
		}
		if work > 0 && s.opts.Timeout == 0 && s.broken == nil && unk != nil && unk.Reason == canceled {
			// The resource limit stopped it: no interrupt and no timer
			// touched the context (Z3 lowers the limit when the check
			// returns), which stays poolable (TestCheckWork).
			return smt.Unknown, fmt.Errorf("%w: %w (resource limit of %d units)", ErrUnknown, smt.ErrWorkLimit, work)
		}
		s.unknown = true
		if unk != nil && unk.Reason == memoryOut {
			return smt.Unknown, fmt.Errorf("%w: %w", ErrUnknown, smt.ErrMemory)
		}
		return smt.Unknown, fmt.Errorf("%w: %s", ErrUnknown, reason)
	}
	if sat {
		return smt.Sat, nil
	}
	return smt.Unsat, nil
}

// CheckAssuming checks with assumptions. go-z3 does not expose
// Z3_solver_check_assumptions, so cores are computed by deletion: after an
// Unsat answer, chunks of assumptions (halving in size) are dropped while
// the rest stays unsatisfiable. If ctx ends during minimisation the
// current (still unsatisfiable) superset is returned.
func (s *solver) CheckAssuming(ctx context.Context, assumptions []*smt.Term) (smt.Result, []*smt.Term, error) {
	timeslice.Yield(ctx)
	lits := make([]z3.Bool, len(assumptions))
	for i, a := range assumptions {
		if !a.Sort.IsBool() {
			panic("smt/z3: assumption of a non-Bool term " + a.Describe())
		}
		s.guard("assume", func() { lits[i] = s.tr(a).(z3.Bool) })
	}
	r, err := s.check(ctx, lits, 0)
	if r != smt.Unsat {
		return r, nil, err
	}
	core := make([]int, len(assumptions))
	for i := range core {
		core[i] = i
	}
	sub := func(idx []int) []z3.Bool {
		out := make([]z3.Bool, len(idx))
		for i, j := range idx {
			out[i] = lits[j]
		}
		return out
	}
	chunk := max(len(core)/2, 1)
	for len(core) > 0 {
		for start := 0; start < len(core); {
			end := min(start+chunk, len(core))
			trial := append(append([]int(nil), core[:start]...), core[end:]...)
			r, _ := s.check(ctx, sub(trial), 0)
			if ctx.Err() != nil {
				s.model = nil
				return smt.Unsat, pick(assumptions, core), nil
			}
			if r == smt.Unsat {
				core = trial // dropped; the next chunk now starts at start
				continue
			}
			start = end
		}
		if chunk == 1 {
			break
		}
		chunk = (chunk + 1) / 2
	}
	s.model = nil
	return smt.Unsat, pick(assumptions, core), nil
}

func pick(ts []*smt.Term, idx []int) []*smt.Term {
	out := make([]*smt.Term, len(idx))
	for i, j := range idx {
		out[i] = ts[j]
	}
	return out
}

func (s *solver) Model() smt.Model {
	if s.model == nil {
		return nil
	}
	return &model{s: s, m: s.model}
}

// Close resets the solver and returns its Z3 context to the idle list for reuse
// (models of the solver must not be used afterwards). go-z3 frees Z3
// memory in finalizers: translated terms are released at a later garbage
// collection, and so are contexts dropped from the idle list.
func (s *solver) Close() {
	if s.closed {
		return
	}
	s.closed = true
	if s.err == nil && s.broken == nil && !s.unknown {
		putInstance(s.in, s.depth)
	}
	s.in = nil
	s.cache = nil
	s.sorts = nil
	s.model = nil
	s.s = nil
	s.ctx = nil
}

type model struct {
	s *solver
	m *z3.Model
}

func (m *model) Eval(t *smt.Term) (lo, hi uint64) {
	var v z3.Value
	m.s.guard("eval", func() { v = m.m.Eval(m.s.tr(t), true) })
	if err := m.s.err; err != nil {
		m.s.err = nil
		panic(err)
	}
	switch v := v.(type) {
	case z3.Bool:
		if b, ok := v.AsBool(); ok && b {
			return 1, 0
		}
		return 0, 0
	case z3.BV:
		x, ok := v.AsBigUnsigned()
		if !ok {
			panic(fmt.Sprintf("smt/z3: model value of %s is not a literal: %s", t.Describe(), v))
		}
		lo = new(big.Int).And(x, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
		hi = new(big.Int).Rsh(x, 64).Uint64()
		return lo, hi
	}
	panic(fmt.Sprintf("smt/z3: cannot evaluate %s in a model", t.Describe()))
}

// abandonGrace is how long a one-shot check may run after its first
// interrupt before abandonable gives up waiting for it.
const abandonGrace = 2 * time.Second

// abandonable is interruptible for one-shot checks, which Z3 4.8 does
// not always stop when interrupted (some preprocessing steps never look
// at the cancel flag): f runs in a goroutine of its own, and when it has
// not returned abandonGrace after ctx ended, abandonable returns with
// abandoned set while f goes on; the caller must then not touch the
// solver's Z3 objects again (f holds them until it returns, so they are
// not finalised under it). A panic of f (a Z3 error) is re-raised in
// the caller unless f was abandoned. The limit of the property is kept;
// the CPU of the abandoned call is not, until Z3 returns.
func (s *solver) abandonable(ctx context.Context, f func()) (interrupted, abandoned bool) {
	fdone := make(chan struct{})
	var failure any
	go func() {
		defer close(fdone)
		defer func() { failure = recover() }()
		f()
	}()
	select {
	case <-fdone:
		if failure != nil {
			panic(failure)
		}
		return false, false
	case <-ctx.Done():
	}
	deadline := time.After(abandonGrace)
	wait := 10 * time.Millisecond
	for {
		s.ctx.Interrupt()
		select {
		case <-fdone:
			if failure != nil {
				panic(failure)
			}
			return true, false
		case <-deadline:
			return true, true
		case <-time.After(wait):
		}
		wait = min(2*wait, 500*time.Millisecond)
	}
}

// interruptible runs f (a Z3 call on s) and, while it runs, interrupts
// Z3 once ctx is done, again and again until f returns: an interrupt that
// arrives before Z3 starts working is lost, so retries are spaced out
// (10 ms doubling to 500 ms). No interrupt is sent after f has returned
// (finished is set under mu): a stray one would leave the Z3 context
// cancelled for later operations. It reports whether an interrupt was
// sent.
func (s *solver) interruptible(ctx context.Context, f func()) (interrupted bool) {
	var (
		mu       sync.Mutex
		finished bool
	)
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		wait := 10 * time.Millisecond
		for {
			mu.Lock()
			if !finished {
				s.ctx.Interrupt()
				interrupted = true
			}
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(wait):
			}
			wait = min(2*wait, 500*time.Millisecond)
		}
	}()
	f()
	mu.Lock()
	finished = true
	mu.Unlock()
	close(done)
	<-stopped
	return interrupted
}

// ModelText returns the value of t in m, a model of a solver of this
// package, as SMT-LIB text with model completion (an array as a store
// chain over a constant array, as get-value prints it), or "" when m
// is not such a model. A solver process sends its model so
// (package solverproc).
func ModelText(m smt.Model, t *smt.Term) string {
	mm, ok := m.(*model)
	if !ok {
		return ""
	}
	var out string
	mm.s.guard("eval", func() { out = mm.m.Eval(mm.s.tr(t), true).String() })
	return out
}

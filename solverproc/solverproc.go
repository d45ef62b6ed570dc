package solverproc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/smtlib"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/strategy"
	"github.com/reverify/reverify/engine/timeslice"
)

// ChildEnv, set in a process's environment, makes it a solver process;
// its value is the mode (modeCheck or modeHorn), a colon and the
// process's memory limit in bytes.
const ChildEnv = "REVERIFY_SOLVER_CHILD"

// The modes of a solver process.
const (
	modeCheck = "check" // a one-shot check (checkChild)
	modeHorn  = "horn"  // Horn clauses (z3.SolveHornScript)
)

// minChildMemory is the least data segment a solver process gets
// (bytes): the program and Z3 take about 120 MiB before the check.
const minChildMemory = 256 << 20

// spawned counts the solver processes started (for tests).
var spawned atomic.Int64

func init() {
	if v := os.Getenv(ChildEnv); v != "" {
		child(v)
	}
}

// DefaultThreshold is the size (distinct terms of the conjunction) from
// which a query goes to a solver process.
const DefaultThreshold = 2000

// OneShot returns an smt.Factory of one-shot solvers (Z3's
// non-incremental solver, engine/smt/z3.OneShotFactory) whose checks of
// at least threshold distinct terms run in a solver process, killed
// when the check's context is done, whose heap may grow to memory bytes
// less what this process holds (at least minChildMemory; memory 0:
// 4 GiB); smaller ones run in this process through inproc.
func OneShot(memory int64, threshold int, inproc smt.Factory) smt.Factory {
	return func(b *smt.Builder) smt.Solver {
		return &solver{b: b, memory: memory, threshold: threshold, inproc: inproc}
	}
}

// solver collects the assertions and decides them at Check.
type solver struct {
	b         *smt.Builder
	memory    int64
	threshold int
	inproc    smt.Factory
	asserted  []*smt.Term
	levels    []int // len(asserted) at each open Push
	model     smt.Model
	open      smt.Solver // the in-process solver of the last check, for its model
}

func (s *solver) Assert(t *smt.Term) {
	if !t.Sort.IsBool() {
		panic("solverproc: Assert of a non-Bool term " + t.Describe())
	}
	s.asserted = append(s.asserted, t)
}

func (s *solver) Push() { s.levels = append(s.levels, len(s.asserted)) }

func (s *solver) Pop() {
	if len(s.levels) == 0 {
		panic("solverproc: Pop without Push")
	}
	s.asserted = s.asserted[:s.levels[len(s.levels)-1]]
	s.levels = s.levels[:len(s.levels)-1]
}

func (s *solver) Check(ctx context.Context) (smt.Result, error) {
	return s.check(ctx, s.asserted)
}

// CheckAssuming checks with the assumptions as assertions; the core of
// an Unsat answer is all of them (not necessarily minimal, as
// smt.Solver allows).
func (s *solver) CheckAssuming(ctx context.Context, assumptions []*smt.Term) (smt.Result, []*smt.Term, error) {
	r, err := s.check(ctx, append(append([]*smt.Term(nil), s.asserted...), assumptions...))
	if r != smt.Unsat {
		return r, nil, err
	}
	return r, append([]*smt.Term(nil), assumptions...), nil
}

func (s *solver) Model() smt.Model { return s.model }

func (s *solver) Close() {
	s.release()
	s.asserted, s.levels = nil, nil
}

func (s *solver) release() {
	s.model = nil
	if s.open != nil {
		s.open.Close()
		s.open = nil
	}
}

func (s *solver) check(ctx context.Context, ts []*smt.Term) (smt.Result, error) {
	s.release()
	if err := ctx.Err(); err != nil {
		return smt.Unknown, err
	}
	if smt.DistinctTerms(ts) < s.threshold {
		in := s.inproc(s.b)
		for _, t := range ts {
			in.Assert(t)
		}
		r, err := in.Check(ctx)
		s.open = in
		if r == smt.Sat {
			s.model = in.Model()
		}
		return r, err
	}
	text, vars := smtlib.Script(ts)
	head, reason, values, err := run(ctx, childLimit(s.memory), text)
	if err != nil {
		return smt.Unknown, err
	}
	switch head {
	case "unsat":
		return smt.Unsat, nil
	case "unknown":
		return smt.Unknown, fmt.Errorf("%w: %s", z3.ErrUnknown, reason)
	case "sat":
		m, err := readModel(values, vars)
		if err != nil {
			return smt.Unknown, fmt.Errorf("solverproc: the model of a satisfiable query is unreadable: %v", err)
		}
		s.model = m
		return smt.Sat, nil
	}
	return smt.Unknown, fmt.Errorf("solverproc: the solver process answered %q", head)
}

// childLimit is the data segment of a solver process under the memory
// limit memory (0: 4 GiB): what this process does not hold of it, at
// least minChildMemory.
func childLimit(memory int64) int64 {
	if memory <= 0 {
		memory = 4 << 30
	}
	return max(memory-int64(strategy.ResidentSet()), minChildMemory)
}

// run decides the script in a solver process.
func run(ctx context.Context, limit int64, script string) (head, reason, values string, err error) {
	out, err := runChild(ctx, modeCheck, limit, script)
	if err != nil {
		return "", "", "", err
	}
	head, rest, ok := strings.Cut(out, "\n")
	if !ok {
		return "", "", "", fmt.Errorf("solverproc: no answer from the solver process")
	}
	reason, values, _ = strings.Cut(rest, "\n")
	switch head {
	case "error":
		return "", "", "", fmt.Errorf("solverproc: %s", reason)
	case "memout":
		return "", "", "", fmt.Errorf("solverproc: %w of %d MiB in its process", smt.ErrMemory, limit>>20)
	}
	return head, reason, values, nil
}

// runChild runs a solver process in mode on input, killed when ctx is
// done, whose data segment (its heap: RLIMIT_DATA) may grow to limit
// bytes (the address space is no measure: the Go runtime reserves
// gigabytes of it that it never touches), and returns its output.
func runChild(ctx context.Context, mode string, limit int64, input string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("solverproc: %w", err)
	}
	spawned.Add(1)
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("solverproc: %v", err)
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), ChildEnv+"="+mode+":"+strconv.FormatInt(limit, 10))
	cmd.Stdin = strings.NewReader(input)
	cmd.Stderr = io.Discard
	var stdout strings.Builder
	cmd.Stdout = &stdout
	cmd.SysProcAttr = dieWithParent()
	err = cmd.Start()
	if err == nil {
		// a CPU-time limit (engine.Config.Clock) counts the process
		// while it runs
		strategy.TrackChild(cmd.Process.Pid)
		stop := watch(ctx, cmd.Process)
		err = cmd.Wait()
		stop()
		strategy.UntrackChild(cmd.Process.Pid)
	}
	out := stdout.String()
	if cerr := ctx.Err(); cerr != nil {
		return "", fmt.Errorf("solverproc: %w", cerr)
	}
	if err != nil {
		// A process that fails near its limit failed for memory: Z3 and
		// the Go runtime end the process when an allocation fails
		// outside a check.
		if cmd.ProcessState == nil {
			return "", fmt.Errorf("solverproc: the solver process did not start (%v)", err)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss*1024 >= limit*3/4 {
			return "", fmt.Errorf("solverproc: %w of %d MiB in its process", smt.ErrMemory, limit>>20)
		}
		return "", fmt.Errorf("solverproc: the solver process failed (%v)", err)
	}
	return out, nil
}

// watch polls process p every 10 ms until stop: it ends ctx (which
// kills the process) once the process has executed the CPU time of
// ctx's timeslice.ChildCPU budget, and while the analysis that ctx
// belongs to has lost its slot to another arm of a portfolio
// (timeslice.Holds) it stops the process (SIGSTOP) and waits at the
// analysis's gate on its behalf, continuing the process (SIGCONT) when
// the analysis runs again. So a solver call that cannot reach a
// checkpoint takes turns like the analysis around it: its CPU time is
// charged to its own arm's share, not to the arms it would otherwise
// run beside (Spacer's Horn tries in `default`'s bmc arm). Without a
// budget or a scheduler it does nothing.
func watch(ctx context.Context, p *os.Process) (stop func()) {
	d, end, budget := timeslice.ChildCPU(ctx)
	sliced := timeslice.Sliced(ctx)
	if !budget && !sliced {
		return func() {}
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if budget && strategy.ChildCPU(p.Pid) >= d {
					end()
					return
				}
				if sliced && !timeslice.Holds(ctx) && p.Signal(syscall.SIGSTOP) == nil {
					timeslice.Yield(ctx)
					_ = p.Signal(syscall.SIGCONT)
				}
			}
		}
	}()
	return func() { close(quit); <-done }
}

// child serves the solver process of env (ChildEnv's value): it limits
// its data segment, reads its input, writes its answer and ends the
// process.
func child(env string) {
	mode, limit, _ := strings.Cut(env, ":")
	if n, err := strconv.ParseUint(limit, 10, 64); err == nil && n > 0 {
		_ = syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: n, Max: n})
	}
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(3)
	}
	switch mode {
	case modeHorn:
		hornChild(string(in))
	default:
		checkChild(string(in))
	}
	os.Exit(0)
}

// checkChild decides the query in (smtlib.Script's text) and writes the
// answer: a head line (sat, unsat, unknown, memout or error), a reason
// line and the model's values ((v0 value) (v1 value) …). The script is
// read back into terms (engine/smt/smtlib) and decided by the solver of
// this process's checks (engine/smt/z3.OneShotFactory), so that Z3 sees
// the formula it would see in the verifier: Z3's own SMT-LIB front end
// took minutes on queries that solver decides in milliseconds.
func checkChild(in string) {
	head, reason, values := checkText(in)
	fmt.Fprintf(os.Stdout, "%s\n%s\n%s", head, reason, values)
}

// checkText is checkChild's answer to the script in.
func checkText(in string) (head, reason, values string) {
	es, err := smtlib.ParseSExprs(in)
	if err != nil {
		return "error", err.Error(), ""
	}
	b := smt.NewBuilder()
	env := map[string]*smt.Term{}
	var vars, asserted []*smt.Term
	for _, e := range es {
		if !e.IsList() || len(e.List) < 2 {
			return "error", "a command is not a list", ""
		}
		switch cmd := e.List[0].Atom; {
		case cmd == "declare-fun" && len(e.List) == 4:
			srt, err := smtlib.ParseSort(e.List[3])
			if err != nil {
				return "error", err.Error(), ""
			}
			v := b.Var(e.List[1].Atom, srt)
			env[e.List[1].Atom] = v
			vars = append(vars, v)
		case cmd == "define-fun" && len(e.List) == 5:
			t, err := smtlib.ParseTerm(b, e.List[4], env)
			if err != nil {
				return "error", err.Error(), ""
			}
			env[e.List[1].Atom] = t
		case cmd == "assert":
			t, err := smtlib.ParseTerm(b, e.List[1], env)
			if err != nil {
				return "error", err.Error(), ""
			}
			asserted = append(asserted, t)
		default:
			return "error", "unknown command " + cmd, ""
		}
	}
	s := z3.OneShotFactory(b)
	defer s.Close()
	for _, t := range asserted {
		s.Assert(t)
	}
	r, err := s.Check(context.Background())
	switch {
	case r == smt.Unsat:
		return "unsat", "", ""
	case r == smt.Sat:
		var sb strings.Builder
		sb.WriteByte('(')
		for _, v := range vars {
			fmt.Fprintf(&sb, "(%s %s)\n", v.Name, z3.ModelText(s.Model(), v))
		}
		sb.WriteByte(')')
		return "sat", "", sb.String()
	case errors.Is(err, smt.ErrMemory):
		return "memout", "", ""
	}
	return "unknown", strings.ReplaceAll(fmt.Sprint(err), "\n", " "), ""
}

// model is a model read from a solver process's answer.
type model struct {
	scalars map[*smt.Term][2]uint64
	arrays  map[*smt.Term]smt.ArrayValue
}

// Eval implements smt.Model with model completion: a variable the query
// does not contain is 0 (an array: 0 everywhere), as Z3 completes.
func (m *model) Eval(t *smt.Term) (lo, hi uint64) {
	lo, hi, err := smt.EvalModel(t, func(v *smt.Term) (uint64, uint64, bool) {
		x := m.scalars[v]
		return x[0], x[1], true
	}, func(v *smt.Term) (smt.ArrayValue, bool) {
		return m.arrays[v], true
	})
	if err != nil {
		panic("solverproc: " + err.Error())
	}
	return lo, hi
}

// readModel reads the model's values ((v3 value) (v0 value) …, names
// of smtlib.Script) for vars; a variable without a value is unconstrained
// in the model, and Eval completes it.
func readModel(text string, vars []*smt.Term) (*model, error) {
	m := &model{scalars: map[*smt.Term][2]uint64{}, arrays: map[*smt.Term]smt.ArrayValue{}}
	es, err := smtlib.ParseSExprs(text)
	if err != nil {
		return nil, err
	}
	if len(es) != 1 || !es[0].IsList() {
		return nil, fmt.Errorf("not a list of values")
	}
	b := smt.NewBuilder()
	for _, pair := range es[0].List {
		if !pair.IsList() || len(pair.List) != 2 || pair.List[0].IsList() {
			return nil, fmt.Errorf("a value is not (name value)")
		}
		name := pair.List[0].Atom
		i, err := strconv.Atoi(strings.TrimPrefix(name, "v"))
		if !strings.HasPrefix(name, "v") || err != nil || i < 0 || i >= len(vars) {
			continue // a constant of Z3's own
		}
		v := vars[i]
		if v.Sort.IsArray() {
			a, err := arrayValue(b, pair.List[1])
			if err != nil {
				return nil, fmt.Errorf("%s: %v", name, err)
			}
			m.arrays[v] = a
			continue
		}
		x, err := scalar(b, pair.List[1])
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		m.scalars[v] = x
	}
	return m, nil
}

// scalar reads a Bool or bit-vector constant.
func scalar(b *smt.Builder, e *smtlib.SExpr) ([2]uint64, error) {
	t, err := smtlib.ParseTerm(b, e, nil)
	if err != nil {
		return [2]uint64{}, err
	}
	switch t.Op {
	case smt.True:
		return [2]uint64{1, 0}, nil
	case smt.False:
		return [2]uint64{}, nil
	case smt.BVConst:
		return [2]uint64{t.Val, t.Hi}, nil
	}
	return [2]uint64{}, fmt.Errorf("not a constant: %s", t.Describe())
}

// arrayValue reads an array value: ((as const S) v) and store chains
// over it, the form Z3 prints an array's model value in.
func arrayValue(b *smt.Builder, e *smtlib.SExpr) (smt.ArrayValue, error) {
	if !e.IsList() || len(e.List) == 0 {
		return smt.ArrayValue{}, fmt.Errorf("unreadable array value")
	}
	if h := e.List[0]; h.IsList() && len(h.List) == 3 && h.List[0].Atom == "as" && h.List[1].Atom == "const" && len(e.List) == 2 {
		d, err := scalar(b, e.List[1])
		return smt.ArrayValue{Default: d, Entries: map[[2]uint64][2]uint64{}}, err
	}
	if e.List[0].Atom == "store" && len(e.List) == 4 {
		a, err := arrayValue(b, e.List[1])
		if err != nil {
			return a, err
		}
		i, err := scalar(b, e.List[2])
		if err != nil {
			return a, err
		}
		x, err := scalar(b, e.List[3])
		if err != nil {
			return a, err
		}
		a.Entries[i] = x
		return a, nil
	}
	return smt.ArrayValue{}, fmt.Errorf("unreadable array value")
}

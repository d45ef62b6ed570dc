package solverproc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/smtlib"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/strategy"
	"github.com/reverify/reverify/engine/timeslice"
)

// query returns a satisfiable conjunction over an array, a shared
// subterm, a Bool and a 128-bit vector, and a conjunct that contradicts it.
func query(b *smt.Builder) (sat []*smt.Term, contradiction *smt.Term) {
	m := b.Var("mem", smt.ArraySort(64, 8))
	x := b.Var("x", smt.BVSort(32))
	p := b.Var("p", smt.BVSort(64))
	w := b.Var("w", smt.BVSort(128))
	next := b.Add(p, b.BV(1, 64))
	sat = []*smt.Term{
		b.Eq(b.Select(m, p), b.BV(7, 8)),
		b.Eq(b.Select(m, next), b.Add(b.Select(m, p), b.BV(2, 8))),
		b.Ult(b.BV(1000, 64), next),
		b.Eq(b.Mul(b.ZeroExt(x, 64), b.ZeroExt(x, 64)), b.BV(1522756, 64)), // x = 1234
		b.Var("flag", smt.BoolSort),
		b.Ult(b.BV128(0, 1<<40, 128), w),
	}
	return sat, b.Ult(x, b.BV(1000, 32))
}

// TestSolverProcess: with threshold 0 every check runs in a solver
// process; a satisfiable query's model satisfies every assertion (arrays,
// 128-bit values), an unsatisfiable one is Unsat, and Push/Pop scope the
// assertions as in Z3.
func TestSolverProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts solver processes")
	}
	b := smt.NewBuilder()
	sat, contra := query(b)
	s := OneShot(0, 0, z3.OneShotFactory)(b)
	defer s.Close()
	for _, c := range sat {
		s.Assert(c)
	}
	before := spawned.Load()
	r, err := s.Check(context.Background())
	if r != smt.Sat || err != nil {
		t.Fatalf("satisfiable query: %v, %v", r, err)
	}
	for _, c := range sat {
		if lo, _ := s.Model().Eval(c); lo != 1 {
			t.Errorf("the model falsifies %s", c)
		}
	}
	if lo, _ := s.Model().Eval(b.Var("x", smt.BVSort(32))); lo != 1234 {
		t.Errorf("x = %d in the model, want 1234", lo)
	}
	if lo, _ := s.Model().Eval(b.Var("absent", smt.BVSort(8))); lo != 0 {
		t.Errorf("a variable outside the query is %d, want 0 (model completion)", lo)
	}
	s.Push()
	s.Assert(contra)
	if r, err := s.Check(context.Background()); r != smt.Unsat || err != nil {
		t.Fatalf("with the contradiction: %v, %v", r, err)
	}
	s.Pop()
	if r, err := s.Check(context.Background()); r != smt.Sat || err != nil {
		t.Fatalf("after Pop: %v, %v", r, err)
	}
	if n := spawned.Load() - before; n != 3 {
		t.Errorf("%d solver processes for 3 checks at threshold 0", n)
	}
}

// TestSmallQueriesStay: a query below the threshold is checked in this
// process, with the same answers.
func TestSmallQueriesStay(t *testing.T) {
	b := smt.NewBuilder()
	sat, contra := query(b)
	s := OneShot(0, DefaultThreshold, z3.OneShotFactory)(b)
	defer s.Close()
	before := spawned.Load()
	for _, c := range sat {
		s.Assert(c)
	}
	if r, err := s.Check(context.Background()); r != smt.Sat || err != nil {
		t.Fatalf("satisfiable query: %v, %v", r, err)
	}
	if lo, _ := s.Model().Eval(b.Var("x", smt.BVSort(32))); lo != 1234 {
		t.Errorf("x = %d in the model, want 1234", lo)
	}
	if r, _, err := s.CheckAssuming(context.Background(), []*smt.Term{contra}); r != smt.Unsat || err != nil {
		t.Fatalf("with the contradiction assumed: %v, %v", r, err)
	}
	if n := spawned.Load() - before; n != 0 {
		t.Errorf("%d solver processes for small queries", n)
	}
}

// TestSolverProcessDeadline: a check that Z3 cannot finish ends at its
// deadline (the process is killed), as Unknown with the context's error.
func TestSolverProcessDeadline(t *testing.T) {
	s := childSolver(t, hardFactoring)
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := s.Check(ctx)
	if r != smt.Unknown || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("hard query at 300ms: %v, %v", r, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the check ended %v after it started, its deadline was 300ms", d)
	}
}

// TestSolverProcessMemory: a check whose solver process reaches its
// memory limit answers Unknown with smt.ErrMemory, and this process goes on.
func TestSolverProcessMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts solver processes")
	}
	b := smt.NewBuilder()
	// a chain of 128-bit multiplications: bit-blasting takes far more than the
	// limit
	v := b.Var("x", smt.BVSort(128))
	conj := []*smt.Term{b.Ult(b.BV(1, 128), v)}
	for i := 0; i < 60; i++ {
		y := b.FreshVar("y", smt.BVSort(128))
		conj = append(conj, b.Ult(b.BV(1, 128), y))
		v = b.Mul(v, y)
	}
	text, _ := smtlib.Script(append(conj, b.Eq(v, b.BV(4294967291*4294967279, 128))))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, _, _, err := run(ctx, 200<<20, text)
	if !errors.Is(err, smt.ErrMemory) {
		t.Fatalf("a check beyond 200 MiB: %v, want the memory limit", err)
	}
}

// hardFactoring is a query no solver decides in seconds: a 92-bit
// semiprime ((2^61-1)(2^31-1)) as the product of two 128-bit factors
// above 1 and below 2^64.
func hardFactoring(b *smt.Builder) []*smt.Term {
	hi, lo := bits.Mul64(1<<61-1, 1<<31-1)
	x, y := b.Var("x", smt.BVSort(128)), b.Var("y", smt.BVSort(128))
	one, lim := b.BV(1, 128), b.BV128(0, 1, 128)
	return []*smt.Term{
		b.Eq(b.Mul(x, y), b.BV128(lo, hi, 128)),
		b.Ult(one, x), b.Ult(one, y), b.Ult(x, lim), b.Ult(y, lim),
	}
}

// childSolver returns a solver whose every check runs in a solver process
// (threshold 0), with query's conjuncts asserted; it skips in the fast
// tier.
func childSolver(t *testing.T, query func(*smt.Builder) []*smt.Term) smt.Solver {
	t.Helper()
	if testing.Short() {
		t.Skip("starts solver processes")
	}
	b := smt.NewBuilder()
	s := OneShot(0, 0, z3.OneShotFactory)(b)
	for _, c := range query(b) {
		s.Assert(c)
	}
	return s
}

// TestSolverProcessCPU: while a check runs in a solver process, the CPU
// clock of CPU-time limits (strategy.ProcessCPU) counts the process's
// time, so that a limit stops it; this process only waits. On a loaded
// machine the solver process gets less than a core, so the clock is
// polled until it has advanced 700 ms (at most 20 s of wall time).
func TestSolverProcessCPU(t *testing.T) {
	s := childSolver(t, hardFactoring)
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Check(ctx)
	}()
	start, wall := strategy.ProcessCPU(), time.Now()
	var used time.Duration
	for used < 700*time.Millisecond && time.Since(wall) < 20*time.Second {
		select {
		case <-done:
			t.Fatalf("the check ended after %v of wall time, with the clock advanced %v: the query is too easy to measure the clock", time.Since(wall), used)
		case <-time.After(100 * time.Millisecond):
		}
		used = strategy.ProcessCPU() - start
	}
	cancel()
	<-done
	if used < 700*time.Millisecond {
		t.Errorf("the clock advanced %v in %v of a solver process's check", used, time.Since(wall))
	}
}

// TestChildCPUBudget: a solver process under a timeslice.WithChildCPU
// budget is killed once it has executed that CPU time, and not before,
// nor only at the wall-time backstop of 20 s.
func TestChildCPUBudget(t *testing.T) {
	s := childSolver(t, hardFactoring)
	defer s.Close()
	ctx, cancel := timeslice.WithChildCPU(context.Background(), 300*time.Millisecond, 20*time.Second)
	defer cancel()
	start, wall := strategy.ProcessCPU(), time.Now()
	r, err := s.Check(ctx)
	used := strategy.ProcessCPU() - start
	if r != smt.Unknown || ctx.Err() == nil {
		t.Fatalf("check = %v, %v with the context %v, want Unknown at the budget", r, err, ctx.Err())
	}
	if used < 250*time.Millisecond {
		t.Errorf("killed after %v of CPU time, before its budget of 300ms", used)
	}
	if w := time.Since(wall); w > 15*time.Second {
		t.Errorf("killed after %v of wall time", w)
	}
}

// pausedTurn is a timeslice.Turn that has lost its slot until resume
// is closed; waits counts the Waits made while it had.
type pausedTurn struct {
	resume chan struct{}
	waits  chan struct{}
}

func (p pausedTurn) Holds() bool {
	select {
	case <-p.resume:
		return true
	default:
		return false
	}
}

func (p pausedTurn) Wait(ctx context.Context) {
	if p.Holds() {
		return
	}
	select {
	case p.waits <- struct{}{}:
	default:
	}
	select {
	case <-p.resume:
	case <-ctx.Done():
	}
}

// TestPausedChild: while the analysis that starts a solver process has
// lost its slot, the process is stopped and executes no CPU time, its
// watcher waits at the analysis's gate, and the process continues when
// the slot comes back, then ends at its CPU budget (not at the
// wall-clock backstop, which would end it during the pause).
func TestPausedChild(t *testing.T) {
	s := childSolver(t, hardFactoring)
	defer s.Close()
	turn := pausedTurn{resume: make(chan struct{}), waits: make(chan struct{}, 1)}
	ctx, cancel := timeslice.WithChildCPU(context.Background(), 300*time.Millisecond, 200*time.Millisecond)
	defer cancel()
	ctx = timeslice.With(ctx, turn)
	done := make(chan smt.Result)
	wall := time.Now()
	go func() {
		r, _ := s.Check(ctx)
		done <- r
	}()
	select {
	case <-turn.waits:
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher did not wait at the gate of a paused analysis")
	}
	time.Sleep(50 * time.Millisecond) // the stop has taken effect
	before := strategy.ProcessCPU()
	time.Sleep(400 * time.Millisecond)
	if used := strategy.ProcessCPU() - before; used > 60*time.Millisecond {
		t.Errorf("the solver process executed %v while its analysis was paused", used)
	}
	close(turn.resume)
	start := strategy.ProcessCPU()
	var r smt.Result
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the check did not end after its turn came back")
	}
	if r != smt.Unknown || ctx.Err() == nil {
		t.Fatalf("check = %v with the context %v, want Unknown at the budget", r, ctx.Err())
	}
	if used := strategy.ProcessCPU() - start; used < 200*time.Millisecond {
		t.Errorf("the process executed %v after it continued, want most of its 300ms budget", used)
	}
	if w := time.Since(wall); w < 450*time.Millisecond {
		t.Errorf("the check ended after %v of wall time, within the pause", w)
	}
}

// helperEnv runs TestStoppedChildDiesWithParent's helper: a verifier
// whose solver process is stopped (its arm never gets a turn) and which
// prints that process's PID and waits to be killed.
const helperEnv = "REVERIFY_TEST_STOPPED_PARENT"

// TestStoppedChildDiesWithParent: when the verifier is killed (at its
// limit, by SIGKILL) while its solver process is stopped for want of a
// turn, the kernel kills the solver process too, rather than leaving it
// stopped with its memory.
func TestStoppedChildDiesWithParent(t *testing.T) {
	if os.Getenv(helperEnv) != "" {
		s := childSolver(t, hardFactoring)
		turn := pausedTurn{resume: make(chan struct{}), waits: make(chan struct{}, 1)}
		go s.Check(timeslice.With(context.Background(), turn))
		<-turn.waits
		time.Sleep(50 * time.Millisecond) // the stop has taken effect
		fmt.Println("PIDS", children())
		select {}
	}
	if testing.Short() {
		t.Skip("starts solver processes")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestStoppedChildDiesWithParent$")
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		t.Fatalf("the helper wrote no PID: %v", err)
	}
	var pids []int
	for _, f := range strings.Fields(strings.Trim(strings.TrimPrefix(line, "PIDS"), " []\n")) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("bad PID line %q", line)
		}
		pids = append(pids, pid)
	}
	if len(pids) != 1 {
		_ = cmd.Process.Kill()
		t.Fatalf("the helper has solver processes %v, want one", pids)
	}
	if st := procState(pids[0]); st != "T" && st != "t" {
		_ = cmd.Process.Kill()
		t.Fatalf("the solver process is in state %q, want stopped (T)", st)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if st := procState(pids[0]); st == "" || st == "Z" || st == "X" {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = syscall.Kill(pids[0], syscall.SIGKILL)
	t.Fatalf("the solver process %d outlived its killed parent (state %q)", pids[0], procState(pids[0]))
}

// children returns the PIDs of this process's child processes (each
// thread lists those it started).
func children() []int {
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	var pids []int
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, w := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(w); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// procState is the state letter of process pid (proc(5)), "" when it is
// gone.
func procState(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 || i+3 > len(data) {
		return ""
	}
	return string(data[i+2 : i+3])
}

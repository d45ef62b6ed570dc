package symbolic_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/analysis/symbolic"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

type timedSolver struct {
	smt.Solver
	t  *testing.T
	as []*smt.Term
}

func (s *timedSolver) Assert(x *smt.Term) { s.as = append(s.as, x); s.Solver.Assert(x) }
func (s *timedSolver) Pop()               { s.as = nil; s.Solver.Pop() }
func (s *timedSolver) Check(ctx context.Context) (smt.Result, error) {
	t0 := time.Now()
	r, err := s.Solver.Check(ctx)
	if d := time.Since(t0); d > 50*time.Millisecond {
		s.t.Logf("check %v: %v (%d assertions)", d, r, len(s.as))
		for _, a := range s.as {
			str := a.String()
			if len(str) > 400 {
				str = str[:400]
			}
			s.t.Logf("   %s", str)
		}
	}
	return r, err
}

func TestDebugFile(t *testing.T) {
	file := os.Getenv("SYMEX_FILE")
	if file == "" {
		t.Skip()
	}
	dm := cfa.LP64
	if os.Getenv("ILP32") != "" {
		dm = cfa.ILP32
	}
	prog, err := frontend.Translate(frontend.Config{DataModel: dm}, file)
	if err != nil {
		t.Fatal(err)
	}
	fac := func(b *smt.Builder) smt.Solver { return &timedSolver{Solver: z3.Factory(b), t: t} }
	c, sym := compose(t, prog, symbolic.Options{Solver: fac})
	alg := cpa.NewAlgorithm(c, cpa.Options{MaxStates: 100000})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st, n, err := alg.Run(ctx)
	t.Logf("status %v %v reason %s states %d stats %+v", st, err, alg.Reason(), alg.Stats().Reached, sym.Stats())
	if n != nil {
		t.Logf("target %s", n.State)
	}
}

// oneShot collects assertions and checks each time with a fresh one-shot solver.
type oneShot struct {
	b  *smt.Builder
	as []*smt.Term
	lv []int
	m  smt.Model
}

func (s *oneShot) Assert(x *smt.Term) { s.as = append(s.as, x) }
func (s *oneShot) Push()              { s.lv = append(s.lv, len(s.as)) }
func (s *oneShot) Pop()               { s.as = s.as[:s.lv[len(s.lv)-1]]; s.lv = s.lv[:len(s.lv)-1] }
func (s *oneShot) Check(ctx context.Context) (smt.Result, error) {
	z := z3.OneShotFactory(s.b)
	defer z.Close()
	for _, a := range s.as {
		z.Assert(a)
	}
	return z.Check(ctx)
}
func (s *oneShot) CheckAssuming(ctx context.Context, _ []*smt.Term) (smt.Result, []*smt.Term, error) {
	return smt.Unknown, nil, nil
}
func (s *oneShot) Model() smt.Model { return nil }
func (s *oneShot) Close()           {}

func TestDebugOneShot(t *testing.T) {
	file := os.Getenv("SYMEX_FILE")
	if file == "" {
		t.Skip()
	}
	prog, err := frontend.Translate(frontend.Config{}, file)
	if err != nil {
		t.Fatal(err)
	}
	fac := func(b *smt.Builder) smt.Solver { return &timedSolver{Solver: &oneShot{b: b}, t: t} }
	c, sym := compose(t, prog, symbolic.Options{Solver: fac})
	alg := cpa.NewAlgorithm(c, cpa.Options{MaxStates: 100000})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st, _, err := alg.Run(ctx)
	t.Logf("status %v %v reason %s states %d stats %+v", st, err, alg.Reason(), alg.Stats().Reached, sym.Stats())
}

package smt

import (
	"context"
	"errors"
	"fmt"

	"github.com/reverify/reverify/engine/cfa"
)

// InputValue is an input of a feasible path with its value (bits 0..63
// in Value, 64..127 in Hi).
type InputValue struct {
	Input
	Value uint64
	Hi    uint64
}

// PathResult is the outcome of CheckPath.
type PathResult struct {
	// Status: Sat (feasible: Inputs is a concrete execution without
	// undefined behaviour), Unsat (infeasible, whatever values undefined
	// operations produce) or Unknown (Reason says why).
	Status  Result
	Inputs  []InputValue
	Reason  string
	Formula *PathFormula
	// HeapInit holds, when Status is Sat, the model's initial bytes of
	// the blocks malloc and alloca allocate along the path, by ordinal
	// (HeapBlock): the values their uninitialised bytes hold in the
	// model, for engine/interp.ReplayHeap (at most maxHeapInit bytes of
	// a block, and of a path, 1<<16).
	HeapInit map[int][]byte
	// UB, when Status is Unknown because the path is feasible only with
	// undefined behaviour, is the undefined operation of the model.
	UB *UBCond
}

// maxHeapInit bounds the initial bytes PathResult.HeapInit gives of one
// block; a replay reading beyond them stops as without them.
const maxHeapInit = 4096

// Values returns the input values in order (low 64 bits), as
// engine/interp.Run and Replay take them.
func (r PathResult) Values() []uint64 {
	out := make([]uint64, len(r.Inputs))
	for i, in := range r.Inputs {
		out[i] = in.Value
	}
	return out
}

// CheckPath decides the feasibility of path. It first looks for an
// execution without undefined behaviour (Sat, with the inputs); failing
// that, it checks the formula alone: Unsat means infeasible, Sat means the
// path is feasible only through undefined behaviour, which is Unknown.
// The error is non-nil only when the path cannot be encoded (an
// *EncodeError; Status is then Unknown and Reason its message).
func CheckPath(ctx context.Context, b *Builder, f Factory, p *cfa.Program, path []cfa.Step) (PathResult, error) {
	return CheckPathOpts(ctx, b, f, p, path, EncodeOptions{})
}

// CheckPathOpts is CheckPath with a variant of the semantics (opts).
func CheckPathOpts(ctx context.Context, b *Builder, f Factory, p *cfa.Program, path []cfa.Step, opts EncodeOptions) (PathResult, error) {
	pf, err := EncodePathContext(ctx, b, p, path, opts)
	if err != nil {
		return PathResult{Status: Unknown, Reason: err.Error()}, err
	}
	res := PathResult{Formula: pf}
	if err := ctx.Err(); err != nil {
		return PathResult{Status: Unknown, Reason: "smt: check not started: " + err.Error()}, nil
	}
	conj, ubs := pf.Inline(b)
	noUB := b.True()
	for _, u := range ubs {
		noUB = b.And(noUB, b.Not(u))
	}
	// One solver per question, without Push, so that one-shot solvers
	// stay in their faster non-incremental mode.
	fill := func(m Model) {
		res.Inputs = make([]InputValue, len(pf.Inputs))
		for i, in := range pf.Inputs {
			lo, hi := m.Eval(in.Term)
			res.Inputs[i] = InputValue{Input: in, Value: lo, Hi: hi}
		}
		res.HeapInit = heapInit(b, pf, m)
	}
	for _, max := range []uint64{8, cfa.EnvBytes} {
		if len(pf.EnvLengths) == 0 {
			break
		}
		// environment values the replay can give, short ones first
		// (envCall); Unsat here proves nothing, the check below decides
		short := b.True()
		for _, n := range pf.EnvLengths {
			short = b.And(short, b.Ule(n, b.BV(max, n.Sort.Width)))
		}
		if r, _ := solveOnce(ctx, b, f, append(append(conj, noUB), short), fill); r == Sat {
			res.Status = Sat
			return res, nil
		}
	}
	r, err := solveOnce(ctx, b, f, append(conj, noUB), fill)
	switch r {
	case Sat:
		res.Status = Sat
		return res, nil
	case Unknown:
		res.Status, res.Reason = Unknown, reason(err)
		return res, nil
	}
	if noUB.Op == True {
		res.Status = Unsat
		return res, nil
	}
	r, err = solveOnce(ctx, b, f, conj, func(m Model) {
		res.Reason = "the path is feasible only with undefined behaviour"
		for i, u := range pf.UB {
			if v, _ := m.Eval(ubs[i]); v == 1 {
				res.Reason = fmt.Sprintf("the path is feasible only with undefined behaviour: %s at step %d (%s)", u.Kind, u.Step, u.Pos)
				res.UB = &pf.UB[i]
				break
			}
		}
	})
	switch r {
	case Unsat:
		res.Status = Unsat
	case Sat:
		res.Status = Unknown
	default:
		res.Status, res.Reason = Unknown, reason(err)
	}
	return res, nil
}

// solveOnce checks the conjunction of ts with a new solver and, on Sat,
// calls use with the model before closing the solver.
func solveOnce(ctx context.Context, b *Builder, f Factory, ts []*Term, use func(Model)) (Result, error) {
	s := f(b)
	defer s.Close()
	ac, _ := s.(AssertContexter)
	for _, t := range ts {
		if ac != nil {
			ac.AssertContext(ctx, t)
		} else {
			s.Assert(t)
		}
	}
	r, err := s.Check(ctx)
	if r == Sat {
		use(s.Model())
	}
	return r, err
}

func reason(err error) string {
	if err == nil {
		return "solver answered unknown"
	}
	var ee *EncodeError
	if errors.As(err, &ee) {
		return ee.Error()
	}
	return err.Error()
}

// HeapInit evaluates the initial bytes of the path's heap blocks in a
// model m of pf (PathFormula.Inline's terms) as PathResult.HeapInit
// gives them (by allocation ordinal; at most maxHeapInit bytes of a
// block, 1<<16 in all), for engine/interp's replays.
func (pf *PathFormula) HeapInit(b *Builder, m Model) map[int][]byte { return heapInit(b, pf, m) }

// heapInit evaluates the initial bytes of the path's heap blocks in m
// (PathResult.HeapInit): a block's size as the model has it (substituted
// through the path's definitions), capped at maxHeapInit bytes, and at
// 1<<16 bytes in all.
func heapInit(b *Builder, pf *PathFormula, m Model) map[int][]byte {
	if len(pf.Heap) == 0 {
		return nil
	}
	memo := pf.inlineMemo(b)
	out := map[int][]byte{}
	budget := 1 << 16
	for _, h := range pf.Heap {
		n, hi := m.Eval(b.rebuild(h.Size, memo))
		if hi != 0 || n > maxHeapInit {
			n = maxHeapInit
		}
		if int(n) > budget {
			n = uint64(budget)
		}
		budget -= int(n)
		bs := make([]byte, n)
		w := h.Init.Sort.Index
		for i := range bs {
			v, _ := m.Eval(b.Select(h.Init, b.BV(uint64(i), w)))
			bs[i] = byte(v)
		}
		out[h.Ordinal] = bs
	}
	return out
}

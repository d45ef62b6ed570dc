package engine

import (
	"context"
	"fmt"
	"github.com/reverify/reverify/results"
	"slices"
	"strings"

	"github.com/reverify/reverify/engine/analysis/callstack"
	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/interp"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
)

// maxMemoryCandidates bounds the violation candidates one memory-safety
// run checks before it gives up with UNKNOWN.
const maxMemoryCandidates = 32

// verifyMemory decides a memory-safety property (spec.Property.Memory)
// with the explicit-value analysis at full precision in memory mode
// (value.MemChecks: objects with sizes and validity, seed 001, sections
// 3.9–3.10), whatever the configuration: location × callstack × value,
// merge-sep, until a fixed point.
//
// TRUE needs a fixed point where every check was decided valid: any
// undecided check ("memory: cannot prove …"), unsupported construct or
// function without a model (which may free, read or write what it is
// given) makes it UNKNOWN. A target state (the first violation on its
// path) is FALSE only when confirmed twice: the path up to the
// violating step is feasible under the bit-precise SMT encoding and
// replays concretely (cegar.CheckPath), and the concrete interpreter
// fed with the model's inputs hits the same violation at the last step
// (interp.ReplayMemory). An infeasible candidate is excluded and the
// search goes on; an unconfirmed one forbids TRUE.
func verifyMemory(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, res *Result) {
	res.Config = "memsafety-value"
	checks := &value.MemChecks{Entry: cfg.Entry}
	for _, m := range prop.Memory {
		switch m {
		case value.ValidDeref:
			checks.Deref = true
		case value.ValidFree:
			checks.Free = true
		case value.ValidMemtrack:
			checks.Memtrack = true
		case value.ValidMemcleanup:
			checks.Memcleanup = true
		default:
			res.Verdict, res.Reason = results.Unknown, fmt.Sprintf("unknown memory property %q", m)
			return
		}
	}
	loc, err := location.New(prog, cfg.Entry)
	if err != nil {
		res.Verdict, res.Reason = results.Unknown, err.Error()
		return
	}
	comp, err := cpa.NewComposite(loc, callstack.New(cfg.MaxDepth), value.New(prog, value.Options{Memory: checks}))
	if err != nil {
		res.Verdict, res.Reason = results.Unknown, err.Error()
		return
	}
	alg := cpa.NewAlgorithm(comp, cpa.Options{MaxStates: cfg.MaxStates})
	sem := smt.EncodeOptions{AssumeNoSignedOverflow: cfg.SignedOverflow == AssumeNoOverflow}
	var unconfirmed []string
	excluded := 0
	defer func() {
		res.States = alg.ARG().Len()
		if cfg.KeepARG {
			res.ARG = alg.ARG()
		}
	}()
	for {
		status, node, err := alg.Run(ctx)
		if err != nil {
			res.Verdict, res.Reason = results.Unknown, err.Error()
			return
		}
		switch status {
		case cpa.Target:
			v := memState(node)
			sub, detail, _ := v.MemoryViolation()
			why := confirmMemory(ctx, prog, cfg, sem, node, sub, res)
			if why == "" {
				res.Verdict = results.False
				res.Violated = sub
				res.Reason = fmt.Sprintf("%s: %s; confirmed by SMT and concrete replay", sub, detail)
				return
			}
			if msg := fmt.Sprintf("%s candidate (%s) not confirmed: %s", sub, detail, why); len(unconfirmed) < 3 && !slices.Contains(unconfirmed, msg) {
				unconfirmed = append(unconfirmed, msg)
			}
			excluded++
			if excluded >= maxMemoryCandidates {
				res.Verdict, res.Reason = results.Unknown, strings.Join(unconfirmed, "; ")
				return
			}
			alg.ExcludeTarget(node)
		case cpa.Safe, cpa.Unsafe:
			var block []string
			for _, r := range alg.Explanations() {
				if !strings.HasPrefix(r, value.MemViolationPrefix) {
					block = append(block, r)
				}
			}
			block = append(unconfirmed, block...)
			if len(block) > 0 {
				if len(block) > 5 {
					block = append(block[:5], fmt.Sprintf("and %d more", len(block)-5))
				}
				res.Verdict, res.Reason = results.Unknown, strings.Join(block, "; ")
				return
			}
			res.Verdict, res.Reason = results.True, "reached set is a fixed point in which every memory check holds"
			return
		default:
			res.Verdict, res.Reason = results.Unknown, alg.Reason()
			if len(unconfirmed) > 0 {
				res.Reason += "; " + strings.Join(unconfirmed, "; ")
			}
			return
		}
	}
}

// memState returns the value state of a composite node.
func memState(n *cpa.Node) *value.State {
	for _, s := range n.State.Comps {
		if v, ok := s.(*value.State); ok {
			return v
		}
	}
	return nil
}

// confirmMemory confirms the violation sub of the target node (see
// verifyMemory) and fills the counterexample of res; it returns "" when
// confirmed, else why not.
func confirmMemory(ctx context.Context, prog *cfa.Program, cfg Config, sem smt.EncodeOptions, node *cpa.Node, sub string, res *Result) string {
	path := node.Path()
	if len(path) == 0 {
		return "empty path"
	}
	if _, blockFalse := splitExplanations(explain(node)); len(blockFalse) > 0 {
		return "the path depends on " + strings.Join(blockFalse, ", ")
	}
	for _, r := range explain(node) {
		if strings.HasPrefix(r, "unsupported") || strings.HasPrefix(r, "callback") {
			return "the path passes " + r
		}
	}
	prefix := path[:len(path)-1]
	check := cegar.CheckPathOpts(ctx, prog, prefix, cfg.Solver, sem)
	if check.Status != cegar.Feasible {
		if check.Status == cegar.Infeasible {
			return "the path to the violation is infeasible"
		}
		return check.Reason
	}
	values := make([]uint64, len(check.Inputs))
	for i, in := range check.Inputs {
		values[i] = in.Value
	}
	detail, err := interp.ReplayMemory(ctx, prog, cfg.Entry, path, values, sub)
	if err != nil {
		return err.Error()
	}
	res.Counterexample, res.Inputs = path, inputs(path, check.Inputs)
	if e := path[len(path)-1].Edge; e != nil {
		res.ViolationPos = e.Pos.Start
	}
	_ = detail
	return ""
}

package memsafety

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/reverify/reverify/engine/strategy"

	"github.com/reverify/reverify/results"

	"github.com/reverify/reverify/engine/analysis/callstack"
	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/analysis/symbolic"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/interp"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
)

// maxValueMemoryStates bounds the value analysis's run of a memory
// group when symbolic execution may follow (memorySequence): a loop
// bounded only by an unknown value (a harness's `i < n`) unrolls without
// end in the explicit analysis, while the path constraints of symbolic
// execution bound it.
const maxValueMemoryStates = 20_000

// maxMemoryCandidates bounds the violation candidates one memory-safety
// run checks before it gives up with UNKNOWN.
const maxMemoryCandidates = 32

// Options are the settings of a memory-safety decision, the engine's
// configuration as this package reads it.
type Options struct {
	// Entry is the entry function ("main").
	Entry string
	// MaxStates bounds the reached set of each run (cpa.Options;
	// 0: no bound); the value analysis's first run is capped at
	// maxValueMemoryStates below it.
	MaxStates int
	// MaxDepth bounds the call stack (callstack.New).
	MaxDepth int
	// NoListAbstraction switches off the list abstraction
	// (value.Options.NoListAbstraction) and the sequence's first step.
	NoListAbstraction bool
	// Solver creates the SMT solvers of the confirmations; required.
	Solver smt.Factory
	// AssumeNoSignedOverflow is the signed-overflow semantics of the
	// confirmations' encoding (smt.EncodeOptions).
	AssumeNoSignedOverflow bool
	// KeepARG keeps each result's final ARG.
	KeepARG bool
	// Limits are the limits of one group.
	strategy.Limits
}

// memSite is an access site and the subproperty checked there.
type memSite struct {
	e   *cfa.Edge
	sub string
}

// Step decides the memory-safety properties among props (those
// with Memory set: per-site properties of spec.MemorySites and
// whole-program ones such as spec.MemoryProperty's) of the entry
// cfg.Entry (memoryGroup), each group under the limits of one property
// (cfg.Timeout, the memory limit), as one step of a plan.
func Step(prog *cfa.Program, props []*spec.Property, cfg Options) strategy.Group {
	return strategy.GroupFunc("", func(ctx context.Context, idx []int, emit func(int, *strategy.Result)) {
		sub := make([]*spec.Property, len(idx))
		for k, i := range idx {
			sub[k] = props[i]
		}
		memoryGroup(ctx, prog, sub, cfg, func(k int, r *strategy.Result) { emit(idx[k], r) })
	})
}

// memoryGroup decides the memory-safety properties props together: the
// per-site ones in one memorySequence, each whole-program one in its
// own; emit receives each result as soon as it is decided.
func memoryGroup(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Options, emit func(int, *strategy.Result)) {
	if why := prog.Func(cfg.Entry).UnmodelledParam(); why != "" {
		for i, p := range props {
			r := &strategy.Result{Property: p, Config: ConfigValue}
			r.SetUnknown(&results.Cause{Kind: results.CauseUnsupported}, why)
			if !p.Reachable {
				r.Verdict, r.Cause, r.Reason = results.NotChecked, &results.Cause{Kind: results.CauseNotReachable}, fmt.Sprintf("no call path from %s reaches %s", cfg.Entry, p.Func)
			}
			emit(i, r)
		}
		return
	}
	// The per-site properties share one run; each whole-program
	// property has a run of its own, as a property alone: a leak
	// (valid-memtrack, valid-memcleanup) is no undefined behaviour, so
	// a run checking it must not end the paths of the other checks there.
	var sites []int
	for i, p := range props {
		if p.Sites != nil {
			sites = append(sites, i)
		}
	}
	groups := [][]int{sites}
	for i, p := range props {
		if p.Sites == nil {
			groups = append(groups, []int{i})
		}
	}
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		sub := make([]*spec.Property, len(g))
		all := make([]int, len(g))
		for j, i := range g {
			sub[j], all[j] = props[i], j
		}
		memorySequence(prog, sub, cfg).Run(ctx, all, func(j int, r *strategy.Result) {
			r.Property = sub[j]
			if r.Config == "" {
				r.Config = ConfigValue
			}
			emit(g[j], r)
		})
	}
}

// memorySequence is how the memory-safety properties props of one
// group are decided together, as a sequence of runs over the
// properties each leaves open, under the limit of one property
// (strategy.GroupSequence):
//
//  0. the value analysis with list abstraction (analysis/smg,
//     smg_mem.go), with the state cap and a quarter of the time (unless
//     Options.NoListAbstraction): it decides loops over lists of
//     unbounded length, but loses the bound of a bounded list, where a
//     counter beside it then never converges. Its UNKNOWNs all go on,
//     and their reasons are left out;
//  1. the value analysis without abstraction, with the state cap and a
//     quarter of the time (half without step 0): what it leaves
//     undecided or did not reach (retrySymbolic), or could finish
//     without the cap (retryValue), goes on;
//  2. symbolic execution over the same memory model (symbolic sizes and
//     offsets, analysis/symbolic/symval/bounds.go), with a quarter
//     of the time when step 3 may follow, else what is left;
//  3. the value analysis without the cap, for the properties whose
//     checks step 1 had all decided (a long loop with known bounds),
//     with what is left.
func memorySequence(prog *cfa.Program, props []*spec.Property, cfg Options) strategy.Group {
	retry := make([]retryKind, len(props)) // step 1's word on what may decide each
	capped := cfg
	if cfg.MaxStates <= 0 || cfg.MaxStates > maxValueMemoryStates { // 0: no bound
		capped.MaxStates = maxValueMemoryStates
	}
	plain := cfg // the later steps: without list abstraction
	plain.NoListAbstraction = true
	cappedPlain := capped
	cappedPlain.NoListAbstraction = true
	// step runs memoryRun over the properties it is given; record keeps
	// the run's word on what may decide those it leaves UNKNOWN. A
	// result's Seconds is the time since the first step started.
	clock := cfg.Clock
	start := time.Duration(-1)
	step := func(name string, rcfg Options, sym, record bool) strategy.Group {
		return strategy.GroupFunc(name, func(ctx context.Context, idx []int, out func(int, *strategy.Result)) {
			if start < 0 {
				start = clock.Now()
			}
			emit := func(j int, r *strategy.Result) {
				r.Seconds = clock.Since(start).Seconds()
				out(j, r)
			}
			ps := make([]*spec.Property, len(idx))
			for k, j := range idx {
				ps[k] = props[j]
			}
			sent := make([]bool, len(idx))
			rs, rt := memoryRun(ctx, prog, ps, rcfg, sym, func(k int, r *strategy.Result) {
				sent[k] = true
				emit(idx[k], r)
			})
			for k, j := range idx {
				if sent[k] || rs[k].Verdict == "" {
					continue
				}
				if record {
					retry[j] = rt[k]
				}
				emit(j, rs[k])
			}
		})
	}
	uncapped := capped.MaxStates != cfg.MaxStates
	var steps []strategy.GroupStep
	valueShare := 0.5
	if !cfg.NoListAbstraction {
		steps = append(steps, strategy.GroupStep{G: step("value analysis with list abstraction", capped, false, false), Share: 0.25, Silent: true})
		valueShare = 0.25
	}
	steps = append(steps,
		strategy.GroupStep{G: step("value analysis", cappedPlain, false, true), Share: valueShare},
		strategy.GroupStep{G: step("symbolic execution", plain, true, false), Share: 0.25, IfFollowed: true,
			Take: func(j int, _ *strategy.Result) bool { return retry[j] != retryNone }},
		strategy.GroupStep{G: step("value analysis without the state cap", plain, false, false),
			Take: func(j int, _ *strategy.Result) bool { return uncapped && retry[j] == retryValue }},
	)
	return strategy.GroupSequence("memory safety", clock, cfg.Timeout, cfg.Watch, cfg.MemoryLimit, steps...)
}

// retryKind says which run may decide a property that a memoryRun left
// UNKNOWN.
type retryKind int8

const (
	retryNone     retryKind = iota
	retrySymbolic           // symbolic execution (undecided checks, or a run out of time)
	retryValue              // the value analysis without the state cap (all checks decided so far)
)

// ConfigValue and ConfigSymex are the Configs of memory-safety results
// decided by the value analysis and by symbolic execution.
const (
	ConfigValue = "memsafety-value"
	ConfigSymex = "memsafety-symex"
)

// memoryRun decides the memory-safety properties props with one run of
// the explicit-value analysis at full precision in memory mode
// (value.MemChecks: objects with sizes and validity, seed 001, sections
// 3.9–3.10), whatever the configuration: location × callstack × value,
// merge-sep, until a fixed point. The checks are those of the union of
// the properties' subproperties. A per-site property (Sites not nil)
// covers the checks of its subproperty at its edges; a whole-program
// property covers the checks of its subproperties everywhere.
//
// A target state is the first violation on its path (the behaviour after
// it is undefined, so its path ends there): it is FALSE for the open
// properties covering its site only when confirmed twice: the path up to
// the violating step is feasible under the bit-precise SMT encoding and
// replays concretely (cexcheck.CheckPath), and the concrete interpreter fed
// with the model's inputs hits the same violation at the last step
// (interp.ReplayMemory). An infeasible candidate is excluded and the
// search goes on; an unconfirmed one forbids TRUE for the properties
// covering it. The run goes on after a FALSE until every property is
// decided or the reached set is a fixed point.
//
// TRUE needs a fixed point: a whole-program property needs every check
// of its subproperties decided valid (any "memory: cannot prove …"
// forbids it); a per-site property needs every check at its sites
// decided valid (value.MemChecks.Undecided attributes the undecided
// checks to sites). Any other reason that forbids TRUE (an unsupported
// construct, an unmodelled function, a callback) forbids it for every
// property: what such a construct does to memory is not
// over-approximated per site. A violation or undecided check at an
// (edge, subproperty) that spec.MemorySites does not list makes every
// open per-site property UNKNOWN ("outside the enumerated sites"): a
// site the enumeration misses can never be reported TRUE by omission.
//
// Results are in the order of props with Config "memsafety-value";
// States (and ARG with Options.KeepARG) are the run's when each property
// was decided. emit, when not nil, receives each result as it is decided.
func memoryRun(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Options, sym bool, emit func(int, *strategy.Result)) (rs []*strategy.Result, retry []retryKind) {
	rs = make([]*strategy.Result, len(props))
	retry = make([]retryKind, len(props))
	unconfirmed := make([]bool, len(props))
	config := ConfigValue
	if sym {
		config = ConfigSymex
	}
	for i, p := range props {
		rs[i] = &strategy.Result{Property: p, Config: config}
	}
	open := 0
	var alg *cpa.Algorithm
	decide := func(i int, v results.Verdict, reason string) {
		r := rs[i]
		r.Verdict, r.Reason = v, reason
		if retry[i] != retryNone {
			open--
			return // left to another run: not final
		}
		if alg != nil {
			r.States = alg.ARG().Len()
			if cfg.KeepARG {
				r.ARG = alg.ARG()
			}
		}
		open--
		if emit != nil {
			emit(i, r)
		}
	}
	checks := &value.MemChecks{Entry: cfg.Entry}
	bySite := map[memSite][]int{}
	whole := map[string][]int{}
	var siteSubs []string
	for i, p := range props {
		open++
		if !p.Reachable {
			decide(i, results.NotChecked, fmt.Sprintf("no call path from %s reaches %s", cfg.Entry, p.Func))
			continue
		}
		for _, m := range p.Memory {
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
				decide(i, results.Unknown, fmt.Sprintf("unknown memory property %q", m))
				continue
			}
			if p.Sites == nil {
				whole[m] = append(whole[m], i)
				continue
			}
			if !slices.Contains(siteSubs, m) {
				siteSubs = append(siteSubs, m)
			}
			for _, e := range p.Sites {
				bySite[memSite{e, m}] = append(bySite[memSite{e, m}], i)
			}
		}
	}
	if open == 0 {
		return rs, retry
	}
	// enumerated are the sites spec.MemorySites lists (the guard).
	enumerated := map[memSite]bool{}
	if len(siteSubs) > 0 {
		for _, p := range spec.MemorySites(prog, cfg.Entry, siteSubs) {
			for _, e := range p.Sites {
				enumerated[memSite{e, p.Memory[0]}] = true
			}
		}
	}
	var outside []string // checks outside the enumerated sites
	// covering returns the open properties covering a check of sub at e.
	covering := func(e *cfa.Edge, sub string) []int {
		var out []int
		for _, i := range whole[sub] {
			if rs[i].Verdict == "" {
				out = append(out, i)
			}
		}
		if slices.Contains(siteSubs, sub) {
			if !enumerated[memSite{e, sub}] && len(outside) < 3 {
				outside = append(outside, fmt.Sprintf("%s check at %s outside the enumerated sites", sub, e.Pos.Start))
			}
			for _, i := range bySite[memSite{e, sub}] {
				if rs[i].Verdict == "" {
					out = append(out, i)
				}
			}
		}
		return out
	}
	blocked := make([][]string, len(props)) // per property: why not TRUE
	block := func(i int, why string) {
		if len(blocked[i]) < 3 && !slices.Contains(blocked[i], why) {
			blocked[i] = append(blocked[i], why)
		}
	}
	checks.Undecided = func(sub string, e *cfa.Edge, why string) {
		for _, i := range covering(e, sub) {
			if props[i].Sites != nil {
				block(i, cpa.Explanation{Kind: cpa.MemUndecided, Name: sub, At: e.Pos.Start.String(), Text: why}.String())
			}
		}
	}
	loc, err := location.New(prog, cfg.Entry)
	if err != nil {
		finishMemory(rs, decide, results.Unknown, err.Error())
		return rs, retry
	}
	// List abstraction with memory metadata (analysis/smg, smg_mem.go)
	// unless switched off.
	vopts := value.Options{Memory: checks, NoListAbstraction: cfg.NoListAbstraction}
	var data cpa.CPA = value.New(prog, vopts)
	if sym {
		data, err = symbolic.New(prog, symbolic.Options{Solver: cfg.Solver, Value: vopts})
		if err != nil {
			finishMemory(rs, decide, results.Unknown, err.Error())
			return rs, retry
		}
	}
	comp, err := cpa.NewComposite(loc, callstack.New(cfg.MaxDepth), data)
	if err != nil {
		finishMemory(rs, decide, results.Unknown, err.Error())
		return rs, retry
	}
	alg = cpa.NewAlgorithm(comp, cpa.Options{MaxStates: cfg.MaxStates})
	// classify splits the run's explanations into those that forbid
	// TRUE for every property and the undecided memory checks.
	classify := func() (global []string, memUnknown []cpa.Explanation) {
		for _, r := range alg.Explanations() {
			switch r.Kind {
			case cpa.MemViolation:
			case cpa.MemUndecided:
				memUnknown = append(memUnknown, r)
			default:
				global = append(global, r.String())
			}
		}
		if len(outside) > 0 {
			global = append(global, "internal: "+strings.Join(outside, ", "))
		}
		return global, memUnknown
	}
	// Pointer arithmetic leaving its object is no memory-safety
	// violation (SV-COMP counts the access through the pointer): the
	// confirmation's encoding and replay let the offset go below 0
	// (smt.EncodeOptions.WrapPointerArith); a pointer made of an
	// integer (a nondeterministic one) addresses no object when the
	// integer is below 4096 (ZeroPagePointers).
	sem := smt.EncodeOptions{AssumeNoSignedOverflow: cfg.AssumeNoSignedOverflow, WrapPointerArith: true, ZeroPagePointers: true}
	excluded := make([]int, len(props))
	total := 0
	// probe asks whether an access or free the run left undecided can
	// be invalid (probeUndecided) and decides FALSE the open
	// properties covering one that can.
	probe := func() {
		if sym {
			return // symbolic execution's candidates are its targets
		}
		var subs []string
		for _, sub := range []string{value.ValidDeref, value.ValidFree} {
			if checksOf(checks, sub) {
				subs = append(subs, sub)
			}
		}
		probeUndecided(ctx, prog, cfg, sem, alg.ARG(), subs, func(n *cpa.Node, sub, why string, cex *strategy.Result) bool {
			path := cex.Counterexample
			hit := covering(path[len(path)-1].Edge, sub)
			for _, i := range hit {
				r := rs[i]
				r.Violated, r.Counterexample, r.Inputs, r.ViolationPos = sub, cex.Counterexample, cex.Inputs, cex.ViolationPos
				r.Memory = &results.MemoryViolation{Problem: results.OtherViolation, Detail: why}
				decide(i, results.False, fmt.Sprintf("%s: %s, and an execution of the path makes it invalid; confirmed by SMT and concrete replay", sub, why))
			}
			return open > 0
		})
	}
	for open > 0 {
		status, node, err := alg.Run(ctx)
		if err != nil {
			finishMemory(rs, decide, results.Unknown, err.Error())
			return rs, retry
		}
		switch status {
		case cpa.Target:
			subs, details, facts := memState(node).MemoryViolations()
			path := node.Path()
			var e *cfa.Edge
			if len(path) > 0 {
				e = path[len(path)-1].Edge
			}
			removed := false
			for k, sub := range subs {
				hit := covering(e, sub)
				if len(hit) == 0 {
					continue // only properties already decided (or none) cover it
				}
				var cex strategy.Result
				why := confirmMemory(ctx, prog, cfg, sem, node, sub, &cex)
				if why == "" {
					for _, i := range hit {
						r := rs[i]
						r.Violated, r.Counterexample, r.Inputs, r.ViolationPos = sub, cex.Counterexample, cex.Inputs, cex.ViolationPos
						r.Memory = facts[k]
						decide(i, results.False, fmt.Sprintf("%s: %s; confirmed by SMT and concrete replay", sub, details[k]))
					}
					continue
				}
				total++
				for _, i := range hit {
					unconfirmed[i] = true
				}
				msg := fmt.Sprintf("%s candidate (%s) not confirmed: %s", sub, details[k], why)
				for _, i := range hit {
					block(i, msg)
					excluded[i]++
					if excluded[i] >= maxMemoryCandidates {
						decide(i, results.Unknown, strings.Join(blocked[i], "; "))
					}
				}
				if total >= 4*maxMemoryCandidates {
					finishMemory(rs, decide, results.Unknown, msg+fmt.Sprintf("; %d candidates not confirmed", total))
					return rs, retry
				}
				if !removed {
					alg.ExcludeTarget(node)
					removed = true
				}
			}
			if !removed {
				alg.Remove(node)
			}
		case cpa.Safe, cpa.Unsafe:
			probe()
			global, memUnknown := classify()
			for i, r := range rs {
				if r.Verdict != "" {
					continue
				}
				why := append(append([]string(nil), blocked[i]...), global...)
				if props[i].Sites == nil {
					// A whole-program property: every undecided check of
					// the states kept (as before per-site properties).
					why = append([]string(nil), blocked[i]...)
					for _, u := range memUnknown {
						if slices.Contains(props[i].Memory, u.Name) {
							why = append(why, u.String())
						}
					}
					why = append(why, global...)
				}
				if len(why) > 0 && !sym && len(global) == 0 && !unconfirmed[i] {
					retry[i] = retrySymbolic // undecided checks only: symbolic execution may decide them
				}
				if len(why) > 0 {
					if len(why) > 5 {
						why = append(why[:5], fmt.Sprintf("and %d more", len(why)-5))
					}
					decide(i, results.Unknown, strings.Join(why, "; "))
					continue
				}
				reason := "reached set is a fixed point in which every memory check holds"
				if props[i].Sites != nil {
					reason = "reached set is a fixed point in which every check at this site holds"
				}
				decide(i, results.True, reason)
			}
			return rs, retry
		default:
			probe()
			reason := alg.Reason()
			global, memUnknown := classify()
			for i, r := range rs {
				if r.Verdict == "" {
					why := reason
					if len(blocked[i]) > 0 {
						why += "; " + strings.Join(blocked[i], "; ")
					}
					undecided := len(blocked[i]) > 0
					for _, u := range memUnknown {
						undecided = undecided || props[i].Sites == nil && slices.Contains(props[i].Memory, u.Name)
					}
					switch {
					case sym || len(global) > 0 || unconfirmed[i]:
					case alg.StateLimited() && !undecided:
						// Every check so far decided: the value
						// analysis may finish with more states.
						retry[i] = retryValue
					default:
						// The value analysis ran out: symbolic
						// execution, whose path constraints may bound
						// the loop, gets the rest of the time.
						retry[i] = retrySymbolic
					}
					decide(i, results.Unknown, why)
				}
			}
			return rs, retry
		}
	}
	return rs, retry
}

// finishMemory gives every open result of rs verdict v with reason.
func finishMemory(rs []*strategy.Result, decide func(int, results.Verdict, string), v results.Verdict, reason string) {
	for i, r := range rs {
		if r.Verdict == "" {
			decide(i, v, reason)
		}
	}
}

// memState returns the value state of a composite node.
func memState(n *cpa.Node) *value.State {
	for _, s := range n.State.Comps {
		switch v := s.(type) {
		case *value.State:
			return v
		case *symbolic.State:
			return v.Memory()
		}
	}
	return nil
}

// confirmMemory confirms the violation sub of the target node (see
// memoryRun) and fills the counterexample of res; it returns "" when
// confirmed, else why not.
func confirmMemory(ctx context.Context, prog *cfa.Program, cfg Options, sem smt.EncodeOptions, node *cpa.Node, sub string, res *strategy.Result) string {
	path := node.Path()
	if len(path) == 0 {
		return "empty path"
	}
	if _, blockFalse := cpa.SplitExplanations(node.Explain()); len(blockFalse) > 0 {
		return "the path depends on " + cpa.JoinExplanations(blockFalse, ", ")
	}
	for _, r := range node.Explain() {
		if r.Kind == cpa.Unsupported || r.Kind == cpa.Callback {
			return "the path passes " + r.String()
		}
	}
	prefix := path[:len(path)-1]
	check := cexcheck.CheckPathOpts(ctx, prog, prefix, cfg.Solver, sem)
	if check.Status != cexcheck.Feasible {
		if check.Status == cexcheck.Infeasible {
			return "the path to the violation is infeasible"
		}
		return check.Reason
	}
	ins := check.Inputs
	replay := func(ins []smt.InputValue, heap map[int][]byte) error {
		values := make([]uint64, len(ins))
		for i, in := range ins {
			values[i] = in.Value
		}
		_, err := interp.ReplayMemoryHeap(ctx, prog, cfg.Entry, path, values, heap, sub)
		return err
	}
	if err := replay(ins, check.HeapInit); err != nil {
		// The prefix's model need not violate the access (a bound that
		// only the violating step's condition fixes, as in symbolic
		// execution's split): ask the encoding of the whole path for an
		// invalid access at the last step.
		alt, heap, why := memoryModel(ctx, prog, path, cfg, sem)
		if alt == nil {
			return err.Error() + "; " + why
		}
		if err2 := replay(alt, heap); err2 != nil {
			return err.Error() + "; with a model of an invalid access at the last step: " + err2.Error()
		}
		ins = alt
	}
	res.Counterexample, res.Inputs = path, cexcheck.Inputs(path, ins)
	if e := path[len(path)-1].Edge; e != nil {
		res.ViolationPos = e.Pos.Start
	}
	return ""
}

// memoryModel returns the inputs of an execution of path on which the
// bit-precise SMT encoding (smt.EncodePathContext) makes an invalid
// memory access at the last step and no undefined behaviour before it,
// and the initial bytes of the blocks allocated along it
// (smt.PathFormula.HeapInit), or nil and why not.
func memoryModel(ctx context.Context, prog *cfa.Program, path []cfa.Step, cfg Options, sem smt.EncodeOptions) ([]smt.InputValue, map[int][]byte, string) {
	b := smt.NewBuilder()
	pf, err := smt.EncodePathContext(ctx, b, prog, path, sem)
	if err != nil {
		return nil, nil, err.Error()
	}
	conj, ubs := pf.Inline(b)
	last := len(path) - 1
	hit := b.False()
	for i, u := range pf.UB {
		switch {
		case u.Step == last && u.Kind == "invalid memory access":
			hit = b.Or(hit, ubs[i])
		case u.Step < last:
			conj = append(conj, b.Not(ubs[i]))
		}
	}
	if hit == b.False() {
		return nil, nil, "the encoding has no invalid access at the last step"
	}
	s := cfg.Solver(b)
	defer s.Close()
	for _, t := range append(conj, hit) {
		s.Assert(t)
	}
	r, err := s.Check(ctx)
	switch {
	case r == smt.Unsat:
		return nil, nil, "no execution of the path makes the access invalid"
	case r != smt.Sat:
		if err != nil {
			return nil, nil, err.Error()
		}
		return nil, nil, "solver answered unknown"
	}
	m := s.Model()
	out := make([]smt.InputValue, len(pf.Inputs))
	for i, in := range pf.Inputs {
		lo, hi := m.Eval(in.Term)
		out[i] = smt.InputValue{Input: in, Value: lo, Hi: hi}
	}
	return out, pf.HeapInit(b, m), ""
}

// checksOf reports whether c checks the memory property sub.
func checksOf(c *value.MemChecks, sub string) bool {
	switch sub {
	case value.ValidDeref:
		return c.Deref
	case value.ValidFree:
		return c.Free
	}
	return false
}

// probed reports whether an undecided check's explanation is one
// probeUndecided tries: its Data (value.Undecided) says the analysis
// lost a pointer's value, a block's validity, or accesses an integer
// address. Unknown offsets and sizes are symbolic execution's, which
// splits them exactly.
func probed(e cpa.Explanation) bool {
	_, ok := e.Data.(value.Undecided)
	return ok
}

// maxProbes bounds the undecided checks one run of probeUndecided tries.
const maxProbes = 16

// probeUndecided looks in arg, the ARG of a run of the value analysis in
// memory mode, for the accesses and frees of the subproperties subs that
// the analysis could not decide: nodes whose state has a "memory: cannot
// prove SUB at POS: WHY" reason its first parent's state lacks (the
// check of the step into the node; a pointer read from a block before
// any write, whose contents C leaves indeterminate and SV-COMP reads as
// nondeterministic values, is one; probed selects them). Each
// such step, at most maxProbes
// distinct reasons in the order of the nodes (breadth-first as the
// analysis made them), is a candidate: confirmMemory asks the
// bit-precise encoding for an execution of the path that makes the
// last step's access invalid and replays it concretely, with the
// model's initial heap bytes. found receives each confirmed one (the
// node, the subproperty, why the analysis left it undecided, the
// counterexample) and returns whether to go on. Paths cut by the run's
// limits only leave candidates out: probing never gives TRUE.
func probeUndecided(ctx context.Context, prog *cfa.Program, cfg Options, sem smt.EncodeOptions, arg *cpa.ARG, subs []string, found func(n *cpa.Node, sub, why string, cex *strategy.Result) bool) {
	if arg == nil || len(subs) == 0 {
		return
	}
	tried := map[cpa.Explanation]bool{}
	for _, n := range arg.Nodes {
		if len(tried) >= maxProbes || ctx.Err() != nil {
			return
		}
		if n == nil || len(n.Parents) == 0 || n.Removed() {
			continue
		}
		st, pst := memState(n), memState(n.Parents[0].Parent)
		if st == nil || pst == nil {
			continue
		}
		before := pst.Explain()
		for _, r := range st.Explain() {
			if r.Kind != cpa.MemUndecided || tried[r] || slices.Contains(before, r) {
				continue
			}
			sub := r.Name
			if !slices.Contains(subs, sub) || !probed(r) {
				continue
			}
			if len(tried) >= maxProbes {
				return
			}
			tried[r] = true
			var cex strategy.Result
			if confirmMemory(ctx, prog, cfg, sem, n, sub, &cex) != "" {
				continue
			}
			if !found(n, sub, r.Text, &cex) {
				return
			}
		}
	}
}

package artifacts

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/contract"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/results"
)

// requiresSources returns t with the sources of a FALSE of a requires
// clause at a call (the property is in the contract of f as a function,
// cfa.ContractUsePrefix; library mode) changed so that the calls of f in
// the compiled copies check the failing conjunct: the file that defines
// f with its contract gets f renamed and a wrapper that asserts the
// conjunct at the clause's line (contract.WrapRequires); the
// reproducer's __CPROVER_assert judges it as the reported assertion.
// Other results: t unchanged.
func (t Task) requiresSources(r *engine.Result) (Task, error) {
	fn, ok := strings.CutPrefix(r.Property.Func, cfa.ContractUsePrefix)
	if !ok {
		return t, nil
	}
	names := make([]string, 0, len(t.Sources))
	for name := range t.Sources {
		names = append(names, name)
	}
	sort.Strings(names)
	var why []string
	for _, name := range names {
		text := t.Sources[name]
		if !strings.Contains(text, fn) {
			continue
		}
		wrapped, err := contract.WrapRequires(name, text, fn, r.Property.Expr)
		if err != nil {
			why = append(why, err.Error())
			continue
		}
		srcs := make(map[string]string, len(t.Sources))
		for k, v := range t.Sources {
			srcs[k] = v
		}
		srcs[name] = wrapped
		t.Sources = srcs
		return t, nil
	}
	if len(why) == 0 {
		why = append(why, "no source file defines it")
	}
	return t, fmt.Errorf("cannot check the requires clause of %s at its calls: %s", fn, strings.Join(why, "; "))
}

// contractHeapTimeout bounds the solver call of withHeap.
const contractHeapTimeout = 10 * time.Second

// withHeap returns the violation whose reproducer replays a contract
// check (the entry is a check, cfa.ContractCheckPrefix): the path checked
// again with the solver, its inputs and the initial bytes of the blocks
// it allocates (the requires clauses' fresh objects) taken from that one
// model (witness.Violation.HeapInit), which the results do not record.
// The path is the same, so any model of it is a counterexample; the
// reproducer tests every condition of the check again anyway. Other
// violations, no solver, or a path the check does not find feasible: v.
func (t Task) withHeap(r *engine.Result, v *witness.Violation) *witness.Violation {
	if t.Solver == nil || !strings.HasPrefix(r.Entry, cfa.ContractCheckPrefix) {
		return v
	}
	ctx, cancel := context.WithTimeout(context.Background(), contractHeapTimeout)
	defer cancel()
	chk := cexcheck.CheckPath(ctx, v.Program, v.Path, t.Solver)
	if chk.Status != cexcheck.Feasible || len(chk.HeapInit) == 0 {
		return v
	}
	w := *v
	w.Inputs = make([]results.Input, len(chk.Inputs))
	for i, in := range chk.Inputs {
		w.Inputs[i] = results.NewInput(in.Source, in.Type, in.Value, in.Step, v.Path)
	}
	w.HeapInit = chk.HeapInit
	return &w
}

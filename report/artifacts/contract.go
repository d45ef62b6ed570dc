package artifacts

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/contract"
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

package reduce

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
)

// DeadBranchPass removes the branches that cannot be taken (seed 002,
// "dead-branch elimination"): of two Assume edges whose condition is a
// constant (after ConstPass), the one that holds becomes a no-op and the
// other is removed; code reachable only through it becomes unreachable
// and CompactPass drops it.
var DeadBranchPass = Pass{Name: "deadbranch", Run: func(p *cfa.Program, _ *Target) {
	for _, f := range functions(p) {
		for _, l := range f.Locs {
			if len(l.Out) != 2 {
				continue
			}
			var dead, live *cfa.Edge
			for _, e := range l.Out {
				a, ok := e.Op.(*cfa.Assume)
				if !ok {
					continue
				}
				c, ok := a.Cond.(*cfa.Const)
				if !ok || !csem.Supported(c.T) {
					continue
				}
				if csem.Truth(cfa.Truncate(c.V, c.T.Width())) == a.Truth {
					live = e
				} else {
					dead = e
				}
			}
			if dead == nil || live == nil {
				continue
			}
			unlink(dead)
			replace(live, &cfa.Noop{Label: "folded: " + live.Op.String()})
		}
	}
}}

package engine

import (
	"sync"
	"weak"

	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/results"
)

// shapeCache gives the final results of one Verify call their ARG's
// shape (Config.KeepShape) as it is when the result is final: the
// exploration that decided the property. A multi-property run goes on
// after it decided some properties; those decided at the same point
// (all the TRUEs of its fixed point) share one shape. The ARGs are held
// weakly: an ARG no result keeps is freed.
type shapeCache struct {
	mu sync.Mutex
	m  map[weak.Pointer[cpa.ARG]]*cpa.Shape // the last shape of each ARG
}

// keep replaces r's ARG by its shape and, for a FALSE, the IDs of the
// nodes on its counterexample's path.
func (c *shapeCache) keep(r *Result) {
	g := r.ARG
	if g == nil {
		return
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[weak.Pointer[cpa.ARG]]*cpa.Shape{}
	}
	key := weak.Make(g)
	s := c.m[key]
	if s == nil || s.Len() != g.Len() { // the run went on since
		s = cpa.ShapeOf(g)
		c.m[key] = s
	}
	c.mu.Unlock()
	r.Shape = s
	if r.Verdict == results.False {
		r.ShapePath = cpa.TargetPath(g, r.Counterexample)
	}
	r.ARG = nil
}

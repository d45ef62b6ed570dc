package pdg

import (
	"testing"
	"time"
)

func TestDbgTime(t *testing.T) {
	for _, n := range []int{10, 30, 100} {
		start := time.Now()
		p := structuredProgram(t, 2, n, 100, 50)
		gen := time.Since(start)
		start = time.Now()
		g := Build(p)
		t.Logf("funcs %d locs %d gen %v build %v stats %+v", n, len(p.Locs), gen, time.Since(start), g.Stats())
	}
}

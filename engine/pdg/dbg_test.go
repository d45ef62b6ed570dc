package pdg

import (
	"syscall"
	"testing"
	"time"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestDbgTime(t *testing.T) {
	for _, n := range []int{100, 1000} {
		p := structuredProgram(t, 2, n, 100, 50)
		c0 := cpuNow()
		b := newBuilder(p)
		g := b.g
		var marks []time.Duration
		mark := func() { marks = append(marks, cpuNow()-c0) }
		b.a = newPTA(b.p)
		b.a.generate()
		b.a.solve()
		g.addrTaken = b.a.addrTaken
		g.derefPtr = b.a.derefPtr
		b.callGraph()
		mark()
		b.accesses()
		g.objs = b.a.objs
		g.pts = b.a.pts
		mark()
		b.modRef()
		b.collapse()
		g.objs = b.a.objs
		g.pts = b.a.pts
		b.mayStop()
		mark()
		b.nodes()
		mark()
		for _, fi := range b.funcs {
			b.controlDeps(fi)
		}
		mark()
		for _, fi := range b.funcs {
			b.flowDeps(fi)
		}
		mark()
		b.interprocedural()
		b.csr()
		mark()
		b.summaries()
		mark()
		g.stats.Nodes = len(g.nodes)
		maxI, maxF := 0, ""
		for _, fi := range b.funcs { if len(fi.formIn) > maxI { maxI, maxF = len(fi.formIn), fi.f.Name } }
		t.Logf("stats %+v maxI %d %s", g.stats, maxI, maxF)
		t.Logf("locs %d cpu: pta %v acc %v modref %v nodes %v cd %v ssa %v csr %v sum %v", len(p.Locs), marks[0], marks[1]-marks[0], marks[2]-marks[1], marks[3]-marks[2], marks[4]-marks[3], marks[5]-marks[4], marks[6]-marks[5], marks[7]-marks[6])
	}
}

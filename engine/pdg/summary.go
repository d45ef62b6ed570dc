package pdg

import (
	"math/bits"
	"slices"

	"github.com/reverify/reverify/engine/graph"
)

// Summary dependences (Horwitz, Reps and Binkley 1990): actual-out o of a
// call site depends on actual-in i when the callee's formal-out o
// transitively depends on its formal-in i inside the callee (through flow,
// control and, at its own call sites, summary dependences). They are not
// stored as edges — a dense callee would need |formal-outs|·|formal-ins|
// edges at every call site — but as one relation per function: rel, a bit
// matrix with a row per formal-out and a column per formal-in. Slicing
// reads a call site's summary dependences from its callees' rows.
//
// The relations are computed bottom-up over the call graph's SCCs (for
// recursion, repeated until no relation grows, as in the worklist
// algorithm of Reps, Horwitz, Sagiv and Rosay 1994). For one function F,
// every node n that a formal-out reaches gets the set R(n) of F's
// formal-ins it depends on, a bit set, by a worklist iteration to the least
// fixpoint of R(n) = {n if a formal-in} ∪ ⋃ R(d) over n's dependences d
// (for an actual-out, the actual-ins its callees' relations name). Cost per
// function: O((V + E + Σ_sites |rel|) · k/64) per pass for V nodes, E
// dependences and k formal-ins, with few passes on real control flow.

// targetMap relates a call site's actual nodes to one callee's formals.
type targetMap struct {
	fn int
	ai []int32 // per callee formal-in index: the actual-in node
	ao []int32 // per actual-out position at the site: the callee's formal-out index, -1
}

// siteMaps fills every site's targetMaps.
func (b *builder) siteMaps() {
	for _, si := range b.g.sites {
		si.tmaps = make([]targetMap, 0, len(si.targets))
		for _, t := range si.targets {
			fi := b.funcs[t]
			tm := targetMap{fn: t, ai: make([]int32, len(fi.formIn)), ao: make([]int32, len(si.actOut))}
			for i, sn := range fi.formIn {
				tm.ai[i] = findSlot(si.actIn, sn.slot)
			}
			for p, sn := range si.actOut {
				tm.ao[p] = int32(findSlotIndex(fi.formOut, sn.slot))
			}
			si.tmaps = append(si.tmaps, tm)
		}
	}
}

// summaryDeps appends the summary dependences of actual-out node n (at
// call site si, position p among its actual-outs).
func (g *SDG) summaryDeps(si *siteInfo, p int, out []int) []int {
	for _, tm := range si.tmaps {
		j := tm.ao[p]
		if j < 0 {
			continue
		}
		fi := g.funcs[tm.fn]
		w := fi.relWords
		row := fi.rel[int(j)*w : (int(j)+1)*w]
		for x, word := range row {
			for word != 0 {
				i := x*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if a := tm.ai[i]; a >= 0 {
					out = append(out, int(a))
				}
			}
		}
	}
	return out
}

// aoSite returns the call site and the position of actual-out node n.
func (g *SDG) aoSite(n int) (*siteInfo, int) {
	si := g.sites[g.siteOf[g.nodes[n].edge]]
	return si, n - int(si.actOut[0].node)
}

// summaries computes every function's relation.
func (b *builder) summaries() {
	b.siteMaps()
	inComp := make([]int, len(b.funcs))
	for ci, c := range b.comps {
		for _, f := range c {
			inComp[f] = ci
		}
	}
	queued := make([]bool, len(b.funcs))
	// Within an SCC, start with callees: by DFS post-order of the call
	// graph.
	post := make([]int, len(b.funcs))
	for i, f := range graph.PostOrder(b.cg, allNodes(len(b.funcs))...) {
		post[f] = i
	}
	for ci, c := range b.comps {
		// A worklist of the SCC's functions: a function is recomputed when
		// the relation of a callee in the SCC grew.
		work := slices.Clone(c)
		slices.SortFunc(work, func(x, y int) int { return post[x] - post[y] })
		for _, h := range c {
			queued[h] = true
		}
		for len(work) > 0 {
			h := work[0]
			work = work[1:]
			queued[h] = false
			fi := b.funcs[h]
			if len(fi.formOut) == 0 || len(fi.formIn) == 0 {
				continue
			}
			rel := b.formalDeps(fi)
			if slices.Equal(rel, fi.rel) {
				continue
			}
			fi.rel = rel
			for _, s := range fi.callers {
				if caller := b.g.sites[s].fn; inComp[caller] == ci && !queued[caller] {
					queued[caller] = true
					work = append(work, caller)
				}
			}
		}
	}
	for _, fi := range b.funcs {
		n := 0
		for _, w := range fi.rel {
			n += bits.OnesCount64(w)
		}
		b.g.stats.SummaryDeps += n * len(fi.callers)
	}
}

// intra reports whether dependences of kind k stay inside a function.
func intra(k DepKind) bool { return k == DepFlow || k == DepControl || k == DepSummary }

// formalDeps returns fi's relation: for each formal-out (row, relWords
// words), the formal-ins it depends on within fi.
func (b *builder) formalDeps(fi *funcInfo) []uint64 {
	g := b.g
	if len(b.localOf) < len(g.nodes) {
		b.localOf = make([]int32, len(g.nodes))
		for i := range b.localOf {
			b.localOf[i] = -1
		}
	}
	localOf := b.localOf
	k := len(fi.formIn)
	words := (k + 63) / 64
	fi.relWords = words
	fin0 := int(fi.formIn[0].node)

	// The nodes formal-outs reach, in DFS post-order (dependences first).
	sc := &b.fdScratch
	nodes := sc.nodes[:0]
	stack := sc.stack[:0]
	visit := func(n int32) {
		if localOf[n] == -1 {
			localOf[n] = -2 // on the stack
			stack = append(stack, frame{n, 0})
		}
	}
	// deps returns the i-th dependence of n for the traversal (intra
	// dependences, then for an actual-out every actual-in of its site),
	// or -1 past the end.
	deps := func(n int32, i int) (int32, bool) {
		s, e := int(g.depStart[n]), int(g.depStart[n+1])
		if i < e-s {
			if !intra(g.depKind[s+i]) {
				return -1, true
			}
			return int32(g.depTo[s+i]), true
		}
		if g.nodes[n].kind == NodeActualOut {
			si, _ := g.aoSite(int(n))
			if j := i - (e - s); j < len(si.actIn) {
				return si.actIn[j].node, true
			}
		}
		return -1, false
	}
	for _, sn := range fi.formOut {
		visit(sn.node)
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			d, ok := deps(top.n, top.next)
			if ok {
				top.next++
				if d >= 0 {
					visit(d)
				}
				continue
			}
			localOf[top.n] = int32(len(nodes))
			nodes = append(nodes, top.n)
			stack = stack[:len(stack)-1]
		}
	}
	defer func() {
		for _, n := range nodes {
			localOf[n] = -1
		}
		sc.nodes, sc.stack = nodes, stack
	}()

	// Users (reverse dependences) for the worklist; an actual-in notifies
	// every actual-out of its site.
	start := grow(&sc.start, len(nodes)+1)
	count := func(each func(from, to int32)) {
		for i, n := range nodes {
			for j := g.depStart[n]; j < g.depStart[n+1]; j++ {
				if intra(g.depKind[j]) {
					if d := localOf[g.depTo[j]]; d >= 0 {
						each(d, int32(i))
					}
				}
			}
			if g.nodes[n].kind == NodeActualIn {
				si := g.sites[g.siteOf[g.nodes[n].edge]]
				for _, sn := range si.actOut {
					if u := localOf[sn.node]; u >= 0 {
						each(int32(i), u)
					}
				}
			}
		}
	}
	count(func(d, _ int32) { start[d+1]++ })
	for i := range nodes {
		start[i+1] += start[i]
	}
	users := grow(&sc.users, int(start[len(nodes)]))
	fill := grow(&sc.fill, len(nodes))
	copy(fill, start[:len(nodes)])
	count(func(d, u int32) { users[fill[d]] = u; fill[d]++ })

	R := grow(&sc.R, len(nodes)*words)
	row := func(i int32) []uint64 { return R[int(i)*words : (int(i)+1)*words] }
	queued := grow(&sc.queued, len(nodes))
	queue := grow(&sc.queue, len(nodes))
	defer func() { sc.queue = queue[:0] }()
	for i := range nodes {
		queue[i] = int32(i)
		queued[i] = true
	}
	or := func(dst, src []uint64) bool {
		grew := false
		for x := range dst {
			if v := dst[x] | src[x]; v != dst[x] {
				dst[x] = v
				grew = true
			}
		}
		return grew
	}
	for head := 0; head < len(queue); head++ {
		i := queue[head]
		queued[i] = false
		n := nodes[i]
		r := row(i)
		grew := false
		if c := g.nodes[n]; c.kind == NodeFormalIn && int(c.fn) == fi.idx {
			bit := int(n) - fin0
			if r[bit/64]&(1<<(bit%64)) == 0 {
				r[bit/64] |= 1 << (bit % 64)
				grew = true
			}
		}
		for j := g.depStart[n]; j < g.depStart[n+1]; j++ {
			if intra(g.depKind[j]) {
				if d := localOf[g.depTo[j]]; d >= 0 && or(r, row(d)) {
					grew = true
				}
			}
		}
		if g.nodes[n].kind == NodeActualOut {
			si, p := g.aoSite(int(n))
			for _, tm := range si.tmaps {
				jf := tm.ao[p]
				callee := b.funcs[tm.fn]
				if jf < 0 || callee.rel == nil {
					continue
				}
				w := callee.relWords
				for x, word := range callee.rel[int(jf)*w : (int(jf)+1)*w] {
					for word != 0 {
						ii := x*64 + bits.TrailingZeros64(word)
						word &= word - 1
						if a := tm.ai[ii]; a >= 0 {
							if d := localOf[a]; d >= 0 && or(r, row(d)) {
								grew = true
							}
						}
					}
				}
			}
		}
		if grew {
			for _, u := range users[start[i]:start[i+1]] {
				if !queued[u] {
					queued[u] = true
					queue = append(queue, u)
				}
			}
		}
	}
	rel := make([]uint64, len(fi.formOut)*words)
	for j, sn := range fi.formOut {
		copy(rel[j*words:(j+1)*words], row(localOf[sn.node]))
	}
	return rel
}

func findSlotIndex(s []slotNode, sl Slot) int {
	i, ok := slices.BinarySearchFunc(s, sl, func(a slotNode, b Slot) int {
		switch {
		case a.slot == b:
			return 0
		case a.slot.less(b):
			return -1
		}
		return 1
	})
	if !ok {
		return -1
	}
	return i
}

func allNodes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// frame is a DFS stack entry of formalDeps.
type frame struct {
	n    int32
	next int
}

// fdScratch holds formalDeps' buffers between calls.
type fdScratch struct {
	nodes        []int32
	stack        []frame
	start, users []int32
	fill, queue  []int32
	R            []uint64
	queued       []bool
}

// grow returns (*buf)[:n] zeroed, reallocating when too small.
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n, n+n/4)
	}
	s := (*buf)[:n]
	clear(s)
	return s
}

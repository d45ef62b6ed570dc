package cpa

import (
	"github.com/reverify/reverify/engine/timeslice"

	"context"
	"fmt"
	"sort"
	"time"

	"github.com/reverify/reverify/engine/cfa"
)

// MergeMode selects the composite merge operator.
type MergeMode uint8

// Merge modes (seed 003, section 3.4).
const (
	// MergeSep never merges: the ARG is a tree (model checking).
	MergeSep MergeMode = iota
	// MergeJoin joins a successor into every reached state of its
	// partition whose non-joinable components agree (data-flow analysis).
	MergeJoin
)

func (m MergeMode) String() string {
	if m == MergeJoin {
		return "join"
	}
	return "sep"
}

// Options configure an Algorithm. The zero value is BFS, merge-sep, no
// state limit.
type Options struct {
	Order Order
	Merge MergeMode
	// MaxStates bounds the reached set (0: unlimited). The check runs
	// before each expansion, so the reached set may exceed the bound by
	// the successors of one state.
	MaxStates int
}

// Status is the outcome of one Run.
type Status uint8

// Run outcomes.
const (
	// Safe: the waitlist is exhausted and the reached set holds no target
	// state: the reached set is a fixed point proving the property under
	// the current abstraction (subject to Explanations).
	Safe Status = iota
	// Target: Run returned a target state; the reached set and waitlist
	// are kept, so the caller can check the path, Remove the target and
	// Run again.
	Target
	// Incomplete: the run stopped early (cancellation, the state limit)
	// or a path was truncated; Reason says why. Run may be called again.
	Incomplete
	// Unsafe: the waitlist is exhausted but target states the caller did
	// not Remove remain in the reached set.
	Unsafe
)

var statusNames = [...]string{"safe", "target", "incomplete", "unsafe"}

func (s Status) String() string { return statusNames[s] }

// Stats are the algorithm's counters, accumulated over all Runs.
type Stats struct {
	Expanded  int // states popped from the waitlist and expanded
	Transfers int // composite successors computed
	Reached   int // states added to the reached set (merge results included)
	Covered   int // successors covered by stop
	Merged    int // reached states replaced by merge
	Targets   int // target states found
	// Time spent in the transfer relation (with strengthening and
	// precision adjustment), in merge and in stop.
	TransferTime, MergeTime, StopTime time.Duration
}

// partition is one block of the reached set: the reached nodes whose
// states share a partition key (location and call stack).
type partition struct {
	nodes []*Node
	// The stop index, built once the partition outgrows indexThreshold
	// (when the composite has Featured states): each node is filed under
	// the feature with the currently smallest bucket, or in plain if it
	// has none, together with its signature. Buckets are cleaned lazily:
	// entries no longer in this partition are skipped.
	indexed bool
	plain   []entry
	buckets map[uint64][]entry
}

// entry is a node of the stop index with its signature; a bucket is a
// slice of them, so that the signature test of a stop query scans
// contiguous memory and dereferences only the nodes that pass it.
type entry struct {
	sig  signature
	node *Node
}

// indexThreshold is the partition size from which stop uses the index.
const indexThreshold = 16

// signature is a pair of 256-bit Bloom filters of a state's features:
// words 0-3 over its key features, words 4-7 over its bulk features
// (those with the BulkFeature bit). If every feature of r is a feature of
// s, then each of r's filters is a subset of s's, so a reached node whose
// signature has a bit the new state's lacks cannot cover it. One AND-NOT
// per word replaces most calls of the stop operator on partitions whose
// states share their features (locks: hundreds of states that differ in
// one flag). Keeping the key features apart keeps this when a state has
// thousands of bulk features (constant tables, arrays a loop fills),
// which would set every bit of one filter over all of them.
type signature [8]uint64

func signatureOf(feats []uint64) signature {
	var g signature
	for _, f := range feats {
		b := (f * 0x9e3779b97f4a7c15) >> 56
		g[(f>>63)*4+(b>>6)] |= 1 << (b & 63)
	}
	return g
}

// signatureFilter switches the signature test off for the baseline of
// BenchmarkFlags (export_test.go).
var signatureFilter = true

// mayCover reports whether a node with signature r may cover a state
// with signature s.
func (r *signature) mayCover(s *signature) bool {
	if r[0]&^s[0]|r[1]&^s[1]|r[2]&^s[2]|r[3]&^s[3] != 0 {
		return false
	}
	return r[4]&^s[4]|r[5]&^s[5]|r[6]&^s[6]|r[7]&^s[7] == 0
}

func (p *partition) index(n *Node, feats []uint64) {
	e := entry{signatureOf(feats), n}
	n.bucketed = true
	if len(feats) == 0 {
		p.plain = append(p.plain, e)
		return
	}
	best, size := feats[0], -1
	for _, f := range feats {
		if k := len(p.buckets[f]); size < 0 || k < size {
			best, size = f, k
			if k == 0 {
				break
			}
		}
	}
	p.buckets[best] = append(p.buckets[best], e)
}

// rebuild indexes every node of p afresh.
func (p *partition) rebuild(c *Composite) {
	p.indexed = true
	p.plain = nil
	p.buckets = map[uint64][]entry{}
	for _, r := range p.nodes {
		p.index(r, c.features(nil, r.State))
	}
}

// candidates calls f on the nodes of p that may cover a state with the
// given features, until f returns true.
func (p *partition) candidates(feats []uint64, f func(*Node) bool) {
	if !p.indexed {
		for _, r := range p.nodes {
			if f(r) {
				return
			}
		}
		return
	}
	q := signatureOf(feats)
	if !signatureFilter {
		for i := range q {
			q[i] = ^uint64(0)
		}
	}
	scan := func(b []entry) bool {
		for i := range b {
			if !b[i].sig.mayCover(&q) {
				continue
			}
			if r := b[i].node; r.inReached && r.part == p && f(r) {
				return true
			}
		}
		return false
	}
	if scan(p.plain) {
		return
	}
	for _, x := range feats {
		if scan(p.buckets[x]) {
			return
		}
	}
}

// Algorithm is the CPA algorithm (seed 003, Algorithm CPA; seed 001,
// Algorithm 1) over a composite CPA, with an ARG. It is not safe for
// concurrent use; create one per verification task.
type Algorithm struct {
	c     *Composite
	opts  Options
	arg   ARG
	parts map[partKey]*partition
	wait  waitlist
	nwait int // live nodes in the waitlist
	seq   uint64
	stats Stats

	pending      []*Node // targets found but not yet returned
	truncated    map[string]bool
	explained    map[Explanation]bool
	reason       string
	stateLimited bool
	buf          []Successor
	fbuf         []uint64
	scratch      scratch
}

// NewAlgorithm returns the algorithm over c with the initial state and
// precision of c in the reached set and the waitlist.
func NewAlgorithm(c *Composite, opts Options) *Algorithm {
	a := &Algorithm{c: c, opts: opts, parts: map[partKey]*partition{}, truncated: map[string]bool{}, explained: map[Explanation]bool{}}
	switch opts.Order {
	case DFS:
		a.wait = &lifo{}
	case RPO:
		a.wait = &rpoList{rpo: map[*cfa.Function][]int{}, depth: a.depth}
	default:
		a.wait = &fifo{}
	}
	s, p := c.Initial()
	root := a.arg.add(s.(*CompositeState), p.(*CompositePrecision))
	a.addReached(root)
	if root.target {
		a.pending = append(a.pending, root)
		a.stats.Targets++
	} else if r := root.State.TruncatedReason(); r != "" {
		a.truncated[r] = true
	} else {
		a.push(root)
	}
	return a
}

func (a *Algorithm) depth(n *Node) int {
	if a.c.stack < 0 {
		return 0
	}
	return n.State.Comps[a.c.stack].(ReturnSiter).Depth()
}

// ARG returns the abstract reachability graph built so far.
func (a *Algorithm) ARG() *ARG { return &a.arg }

// Stats returns the counters accumulated so far.
func (a *Algorithm) Stats() Stats { return a.stats }

// Composite returns the composite CPA.
func (a *Algorithm) Composite() *Composite { return a.c }

// Reason returns why the last Run ended Incomplete ("" otherwise), e.g.
// "state limit 10000", "recursion depth 64 exceeded" or "cancelled:
// context deadline exceeded". Several truncation reasons are joined with
// "; " in sorted order.
func (a *Algorithm) Reason() string { return a.reason }

// StateLimited reports whether the last Run ended Incomplete at the
// state limit (Options.MaxStates).
func (a *Algorithm) StateLimited() bool { return a.stateLimited }

// Explanations returns the sorted explanations (Explainer) of all states
// added to the reached set so far: what a Safe result is subject to.
func (a *Algorithm) Explanations() []Explanation {
	out := make([]Explanation, 0, len(a.explained))
	for e := range a.explained {
		out = append(out, e)
	}
	return SortExplanations(out)
}

// Waiting returns the number of states on the waitlist.
func (a *Algorithm) Waiting() int { return a.nwait }

// Reached returns the nodes currently in the reached set, by ID.
func (a *Algorithm) Reached() []*Node {
	var out []*Node
	for _, n := range a.arg.Nodes {
		if n.inReached {
			out = append(out, n)
		}
	}
	return out
}

// Run continues the CPA algorithm from the current reached set and
// waitlist until it finds a target state (Target, with the node), the
// waitlist is exhausted (Safe or Unsafe), ctx is cancelled, the state
// limit is hit or a path was truncated (Incomplete, see Reason). A
// cancelled expansion puts its state back on the waitlist, so Run can
// resume. The error reports failures of a transfer relation other than
// cancellation; the run is then Incomplete. Components implementing
// ContextUser receive ctx first.
func (a *Algorithm) Run(ctx context.Context) (Status, *Node, error) {
	a.reason, a.stateLimited = "", false
	a.c.UseContext(ctx)
	if t := a.nextPending(); t != nil {
		return Target, t, nil
	}
	cp := timeslice.NewCheckpoint(ctx)
	for {
		cp.Yield(ctx)
		if err := ctx.Err(); err != nil {
			a.reason = "cancelled: " + err.Error()
			return Incomplete, nil, nil
		}
		if a.opts.MaxStates > 0 && a.stats.Reached >= a.opts.MaxStates && a.nwait > 0 {
			a.reason = fmt.Sprintf("state limit %d", a.opts.MaxStates)
			a.stateLimited = true
			return Incomplete, nil, nil
		}
		n := a.pop()
		if n == nil {
			break
		}
		if err := a.expand(n); err != nil {
			a.push(n)
			if ctx.Err() != nil {
				a.reason = "cancelled: " + ctx.Err().Error()
				return Incomplete, nil, nil
			}
			a.reason = "error: " + err.Error()
			return Incomplete, nil, err
		}
		if t := a.nextPending(); t != nil {
			return Target, t, nil
		}
	}
	if len(a.truncated) > 0 {
		rs := sortedKeys(a.truncated)
		a.reason = rs[0]
		for _, r := range rs[1:] {
			a.reason += "; " + r
		}
		return Incomplete, nil, nil
	}
	for _, n := range a.arg.Nodes {
		if n.inReached && n.target {
			return Unsafe, nil, nil
		}
	}
	return Safe, nil, nil
}

func (a *Algorithm) nextPending() *Node {
	for len(a.pending) > 0 {
		t := a.pending[0]
		a.pending = a.pending[1:]
		if !t.removed {
			return t
		}
	}
	return nil
}

// expand computes the successors of n and runs merge and stop on each
// (seed 003, Algorithm CPA, lines 4–16). On error nothing was changed.
func (a *Algorithm) expand(n *Node) error {
	t0 := time.Now()
	succs, err := a.c.successors(&a.scratch, a.buf[:0], n.State, n.Prec)
	a.buf = succs[:0]
	if err != nil {
		a.stats.TransferTime += time.Since(t0)
		return err
	}
	a.stats.Expanded++
	for i := range succs {
		succs[i].State, succs[i].prec = a.c.Adjust(succs[i].State, n.Prec)
	}
	t1 := time.Now()
	a.stats.TransferTime += t1.Sub(t0)
	// Merge is timed per merge loop; the rest of the successor loop
	// (stop, reached-set and ARG bookkeeping) counts as stop time.
	var merging time.Duration
	defer func() { a.stats.StopTime += time.Since(t1) - merging }()
	a.arg.reserve(n, len(succs))
	for _, x := range succs {
		a.stats.Transfers++
		s, p := x.State, x.prec
		child := a.arg.add(s, p)
		a.arg.link(n, child, x.Step)
		if child.target {
			a.stats.Targets++
			a.addReached(child)
			a.pending = append(a.pending, child)
			continue
		}
		if r := s.TruncatedReason(); r != "" {
			a.truncated[r] = true
			a.addReached(child)
			continue
		}
		part := a.parts[a.c.partitionKey(s)]
		var mergedInto *Node
		if a.opts.Merge != MergeSep && part != nil {
			tm := time.Now()
			for j := 0; j < len(part.nodes); j++ {
				r := part.nodes[j]
				if r.target {
					continue
				}
				m := a.c.merge(a.opts.Merge, s, r.State, p)
				if m == r.State {
					continue
				}
				nn := a.arg.add(m, p)
				for _, e := range r.Parents {
					a.arg.link(e.Parent, nn, e.Step)
				}
				a.arg.link(n, nn, x.Step)
				r.MergedInto = nn
				mergedInto = nn
				a.stats.Merged++
				// nn replaces r in the partition slot and on the waitlist.
				r.inReached = false
				nn.inReached, nn.part, nn.pidx = true, part, j
				part.nodes[j] = nn
				if part.indexed {
					part.index(nn, a.c.features(nil, nn.State))
				}
				a.stats.Reached++
				if r.inWait {
					r.inWait = false
					a.nwait--
				}
				a.push(nn)
			}
			d := time.Since(tm)
			a.stats.MergeTime += d
			merging += d
		}
		var cover *Node
		var feats []uint64
		if part != nil && part.indexed {
			feats = a.c.features(a.fbuf[:0], s)
			a.fbuf = feats[:0]
		}
		if part != nil {
			part.candidates(feats, func(r *Node) bool {
				if !r.target && !r.incomplete && a.c.covers(s, r.State, p) {
					cover = r
					return true
				}
				return false
			})
		}
		if cover != nil {
			if cover == mergedInto {
				child.MergedInto = cover
			} else {
				child.CoveredBy = cover
				a.stats.Covered++
			}
			continue
		}
		a.addReachedFeats(child, feats, feats != nil)
		a.push(child)
	}
	return nil
}

func (a *Algorithm) addReached(n *Node) { a.addReachedFeats(n, nil, false) }

// addReachedFeats adds n to the reached set; feats are its features when
// known is set.
func (a *Algorithm) addReachedFeats(n *Node, feats []uint64, known bool) {
	k := a.c.partitionKey(n.State)
	part := a.parts[k]
	if part == nil {
		part = &partition{}
		a.parts[k] = part
	}
	n.part, n.pidx, n.inReached = part, len(part.nodes), true
	part.nodes = append(part.nodes, n)
	switch {
	case part.indexed && n.bucketed:
		part.rebuild(a.c) // n may still be linked in an old bucket
	case part.indexed:
		if !known {
			feats = a.c.features(a.fbuf[:0], n.State)
			a.fbuf = feats[:0]
		}
		part.index(n, feats)
	case a.c.featured && len(part.nodes) > indexThreshold:
		part.rebuild(a.c)
	}
	a.stats.Reached++
	for _, r := range n.State.Explain() {
		a.explained[r] = true
	}
}

func (a *Algorithm) removeReached(n *Node) {
	if !n.inReached {
		return
	}
	p := n.part
	last := p.nodes[len(p.nodes)-1]
	p.nodes[n.pidx] = last
	last.pidx = n.pidx
	p.nodes = p.nodes[:len(p.nodes)-1]
	n.inReached, n.part, n.pidx = false, nil, -1
}

func (a *Algorithm) push(n *Node) {
	if n.inWait {
		return
	}
	a.seq++
	n.seq = a.seq
	n.inWait = true
	a.nwait++
	a.wait.push(n)
}

func (a *Algorithm) pop() *Node {
	for {
		n := a.wait.pop()
		if n == nil {
			return nil
		}
		if n.inWait {
			n.inWait = false
			a.nwait--
			return n
		}
	}
}

// Remove removes nodes from the reached set and the waitlist (a spurious
// target, or states a refinement discards) and marks them removed. Nodes
// that were covered by a removed node lose their cover and return to the
// reached set and the waitlist, so no state space is lost.
func (a *Algorithm) Remove(nodes ...*Node) {
	gone := map[*Node]bool{}
	for _, n := range nodes {
		a.removeReached(n)
		if n.inWait {
			n.inWait = false
			a.nwait--
		}
		n.removed = true
		gone[n] = true
	}
	for _, n := range a.arg.Nodes {
		if n.CoveredBy != nil && gone[n.CoveredBy] && !n.removed {
			n.CoveredBy = nil
			a.addReached(n)
			a.push(n)
		}
	}
}

// ExcludeTarget removes the target node n whose error path was found
// infeasible, keeping the reached set sound: the nodes on n's path (its
// ancestors) no longer represent all of their successors, so they are
// marked incomplete and never cover another state again, and every node
// they covered so far is uncovered and returns to the waitlist (a covered
// state's own path to the error may be feasible where n's is not).
func (a *Algorithm) ExcludeTarget(n *Node) {
	onPath := map[*Node]bool{}
	for _, p := range n.PathNodes() {
		onPath[p] = true
		p.incomplete = true
	}
	a.Remove(n)
	for _, m := range a.arg.Nodes {
		if m.CoveredBy != nil && onPath[m.CoveredBy] && !m.removed {
			m.CoveredBy = nil
			a.addReached(m)
			a.push(m)
		}
	}
}

// RemoveSubtree removes n and every node reachable from it through
// children (see Remove) and returns them in ID order.
func (a *Algorithm) RemoveSubtree(n *Node) []*Node {
	seen := map[*Node]bool{n: true}
	stack := []*Node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, id := range a.arg.succs[x.ID] {
			if c := a.arg.Nodes[id]; !seen[c] {
				seen[c] = true
				stack = append(stack, c)
			}
		}
	}
	out := make([]*Node, 0, len(seen))
	for x := range seen {
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	a.Remove(out...)
	return out
}

// Reopen puts the reached node n back on the waitlist with precision p
// (nil keeps its precision), so that it is expanded again: the way a
// refinement restarts exploration below a cut point.
func (a *Algorithm) Reopen(n *Node, p *CompositePrecision) {
	if p != nil {
		n.Prec = p
	}
	if n.removed {
		n.removed = false
	}
	if !n.inReached {
		a.addReached(n)
	}
	a.push(n)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

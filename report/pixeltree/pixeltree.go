package pixeltree

import (
	"fmt"
	"math"

	"github.com/reverify/reverify/engine/graph"
)

// Kind classifies a state for drawing. The zero value is [Ordinary].
type Kind uint8

// The kinds of states, in declaration order. When several states share one
// pixel or character (a scaled-down picture), the cell shows the most
// important kind: Target > Highlighted > Covered > Merged > Unexpanded >
// Ordinary.
const (
	// Ordinary is an explored state with nothing special about it (black).
	Ordinary Kind = iota
	// Covered is an abstract successor for which the stop operator held:
	// it is covered by the reached set and was not expanded (green).
	Covered
	// Target is a target (error) state (red).
	Target
	// Merged is a state that was merged into and replaced by another
	// state (yellow).
	Merged
	// Highlighted is a state on a highlighted path, e.g. the
	// counterexample (blue); see [Highlight].
	Highlighted
	// Unexpanded is a state still in the waitlist when the analysis
	// stopped (orange).
	Unexpanded

	numKinds = iota
)

var kindNames = [numKinds]string{"ordinary", "covered", "target", "merged", "highlighted", "unexpanded"}

// String returns the lower-case name of k, e.g. "covered", or "Kind(9)"
// for a value outside the defined range.
func (k Kind) String() string {
	if int(k) < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// rank orders kinds by importance (higher wins a shared cell). Undefined
// kind values count as Ordinary.
var rank = func() (r [256]uint8) {
	for k, v := range map[Kind]uint8{Ordinary: 0, Unexpanded: 1, Merged: 2, Covered: 3, Highlighted: 4, Target: 5} {
		r[k] = v
	}
	return r
}()

// byRank is the inverse of rank.
var byRank = [numKinds]Kind{Ordinary, Unexpanded, Merged, Covered, Highlighted, Target}

// Tree is a single-entry graph to draw: an ARG, but equally a CFA, a
// dependence graph or any [graph.Graph] with a designated root. Succs(n)
// are the children of n. Edges to already drawn nodes (DAG joins, loops)
// are allowed: every node is drawn once, at its BFS depth.
type Tree interface {
	graph.Graph
	// Kind returns the kind of node n. Values outside the defined kinds
	// are drawn as Ordinary.
	Kind(n int) Kind
}

type funcTree struct {
	n     int
	succs func(int) []int
	kind  func(int) Kind
}

func (t funcTree) Len() int { return t.n }

func (t funcTree) Succs(n int) []int {
	if t.succs == nil {
		return nil
	}
	return t.succs(n)
}

func (t funcTree) Kind(n int) Kind {
	if t.kind == nil {
		return Ordinary
	}
	return t.kind(n)
}

// FromFunc returns the Tree with nodes 0..n-1, children succs(v) and kinds
// kind(v). A nil succs means no edges; a nil kind makes every node
// Ordinary. To draw an existing [graph.Graph] g:
//
//	pixeltree.FromFunc(g.Len(), g.Succs, kindOf)
func FromFunc(n int, succs func(int) []int, kind func(int) Kind) Tree {
	if n < 0 {
		panic(fmt.Sprintf("pixeltree: FromFunc(%d): negative size", n))
	}
	return funcTree{n: n, succs: succs, kind: kind}
}

type highlighted struct {
	Tree
	on []bool
}

func (h highlighted) Kind(n int) Kind {
	k := h.Tree.Kind(n)
	if h.on[n] && k != Target {
		return Highlighted
	}
	return k
}

// Highlight returns t with the nodes of path (e.g. a counterexample, as
// node ids) drawn as [Highlighted], except [Target] nodes, which stay
// Target. O(t.Len()) time and space once, then O(1) per Kind call.
func Highlight(t Tree, path []int) Tree {
	on := make([]bool, t.Len())
	for _, v := range path {
		on[v] = true
	}
	return highlighted{t, on}
}

// Defaults applied by [Layout] to zero [Options] fields.
const (
	DefaultUnit      = 2    // pixels per state
	DefaultMaxWidth  = 4096 // pixels
	DefaultMaxHeight = 4096 // pixels
)

// Options control [Layout] and the PNG and SVG renderings.
type Options struct {
	// Root is the entry node; the BFS starts here.
	Root int
	// MaxDepth cuts the picture: only states at BFS depth 0..MaxDepth are
	// drawn and [Picture.Cut] reports whether deeper states exist. Zero
	// or negative means no cut.
	MaxDepth int
	// Unit is the side in pixels of the square drawn for one state (PNG
	// and SVG). Zero or negative means DefaultUnit.
	Unit int
	// MaxWidth caps the PNG and SVG width in pixels. A picture whose
	// widest row needs more is scaled down: one Unit-wide column then
	// stands for several adjacent states and shows the most important
	// kind among them. Zero means DefaultMaxWidth, negative no cap.
	MaxWidth int
	// MaxHeight caps the PNG and SVG height in pixels in the same way:
	// consecutive rows are merged when there are too many. Zero means
	// DefaultMaxHeight, negative no cap.
	MaxHeight int
}

func (o Options) normalized() Options {
	if o.MaxDepth < 0 {
		o.MaxDepth = 0
	}
	if o.Unit <= 0 {
		o.Unit = DefaultUnit
	}
	if o.MaxWidth == 0 {
		o.MaxWidth = DefaultMaxWidth
	}
	if o.MaxHeight == 0 {
		o.MaxHeight = DefaultMaxHeight
	}
	return o
}

// Picture is the breadth-first layout of a Tree, before any scaling.
// Rows[d] lists the kinds of the states at BFS depth d, in BFS visiting
// order; when drawn, every row is centred on the widest one. The renderers
// ([Picture.PNG], [Picture.SVG], [Picture.Text]) read only Rows, Cut and
// Options, so a Picture can also be built or edited by hand.
type Picture struct {
	// Rows[d] holds one Kind per state at depth d. All rows share one
	// backing array (capacities are clipped).
	Rows [][]Kind
	// Cut is true when Options.MaxDepth dropped deeper states.
	Cut bool
	// States is the number of states drawn (the sum of the row lengths).
	States int
	// Width is the length of the longest row, in states.
	Width int
	// Options are the normalized options the picture was laid out with;
	// Unit, MaxWidth and MaxHeight may be changed before rendering.
	Options Options

	counts [numKinds]int
}

// Count returns the number of drawn states of kind k (as computed by
// [Layout]; undefined kind values are counted as Ordinary).
func (p *Picture) Count(k Kind) int {
	if int(k) >= numKinds {
		return 0
	}
	return p.counts[k]
}

// Layout lays t out breadth-first from opts.Root: row d holds the states
// at BFS depth d (shortest distance from the root), each in the order the
// BFS visits it, successors in Succs order — exactly the order and depths
// of [graph.BFS]. A node reachable along several paths is drawn once, at
// its BFS depth; nodes unreachable from the root are not drawn. With
// opts.MaxDepth > 0 the search stops after depth MaxDepth and Cut tells
// whether anything lay beyond.
//
// An empty tree (Len() == 0) gives an empty picture; otherwise Layout
// panics if the root or a successor is out of range. Time O(V+E) over the
// drawn part, one Kind call per drawn state; space: a bit per node plus
// five bytes per drawn state.
func Layout(t Tree, opts Options) *Picture {
	opts = opts.normalized()
	p := &Picture{Options: opts}
	n := t.Len()
	if n == 0 {
		return p
	}
	if uint(opts.Root) >= uint(n) {
		panic(fmt.Sprintf("pixeltree: Layout: root %d out of range [0,%d)", opts.Root, n))
	}
	if n > math.MaxInt32 {
		panic("pixeltree: Layout: more than 2^31-1 nodes")
	}
	seen := make([]uint64, (n+63)/64)
	// order is the BFS queue and, at the end, the visiting order; its
	// capacity is reserved up front (untouched pages cost nothing).
	order := make([]int32, 1, n)
	order[0] = int32(opts.Root)
	seen[opts.Root>>6] |= 1 << (opts.Root & 63)
	rowStart := []int{0}
	start := 0
	for depth := 0; ; depth++ {
		end := len(order)
		if opts.MaxDepth > 0 && depth == opts.MaxDepth {
			p.Cut = hasNew(t, order[start:end], seen, n)
			break
		}
		for _, v := range order[start:end] {
			for _, w := range t.Succs(int(v)) {
				if uint(w) >= uint(n) {
					panic(fmt.Sprintf("pixeltree: Layout: successor %d of node %d out of range [0,%d)", w, v, n))
				}
				if bit := uint64(1) << (w & 63); seen[w>>6]&bit == 0 {
					seen[w>>6] |= bit
					order = append(order, int32(w))
				}
			}
		}
		if len(order) == end {
			break
		}
		rowStart = append(rowStart, end)
		start = end
	}
	rowStart = append(rowStart, len(order))

	kinds := make([]Kind, len(order))
	for i, v := range order {
		k := t.Kind(int(v))
		if int(k) >= numKinds {
			k = Ordinary
		}
		kinds[i] = k
		p.counts[k]++
	}
	p.Rows = make([][]Kind, len(rowStart)-1)
	for d := range p.Rows {
		p.Rows[d] = kinds[rowStart[d]:rowStart[d+1]:rowStart[d+1]]
		p.Width = max(p.Width, len(p.Rows[d]))
	}
	p.States = len(kinds)
	return p
}

// hasNew reports whether some node of row has a successor not yet seen.
func hasNew(t Tree, row []int32, seen []uint64, n int) bool {
	for _, v := range row {
		for _, w := range t.Succs(int(v)) {
			if uint(w) < uint(n) && seen[w>>6]&(1<<(w&63)) == 0 {
				return true
			}
		}
	}
	return false
}

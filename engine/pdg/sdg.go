package pdg

import (
	"fmt"
	"slices"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/graph"
)

// NodeKind classifies the nodes of the system dependence graph.
type NodeKind uint8

// The kinds of SDG nodes. Every CFA edge is a node (NodeEdge, with ID equal
// to the edge's ID); the other kinds connect functions (Horwitz, Reps and
// Binkley's entry, formal and actual nodes) or join definitions (the phi and
// weak nodes of the SSA-based reaching definitions, which are no CFA edges
// and never part of a slice's edge set).
const (
	NodeEdge      NodeKind = iota // a CFA edge
	NodeEntry                     // a function's entry
	NodeFormalIn                  // a value entering a function (parameter, object)
	NodeFormalOut                 // a value leaving a function (return value, object, termination)
	NodeActualIn                  // a value passed at a call site
	NodeActualOut                 // a value received at a call site
	NodePhi                       // the definitions of an object meeting at a location
	NodeWeak                      // a may-definition joined with the definitions before it
)

var nodeKindNames = [...]string{"edge", "entry", "formal-in", "formal-out", "actual-in", "actual-out", "phi", "weak"}

func (k NodeKind) String() string { return nodeKindNames[k] }

// DepKind classifies the dependences (the SDG's edges). A dependence n → d
// means node n depends on node d; slicing walks dependences from the
// criterion.
type DepKind uint8

// The kinds of dependences.
const (
	DepFlow     DepKind = iota // n uses a value d defines
	DepControl                 // whether n executes depends on the branch (or call, or entry) d
	DepCall                    // a callee's entry depends on a call site
	DepParamIn                 // a formal-in on an actual-in (a root's formal-in on Init's formal-out)
	DepParamOut                // an actual-out on the callee's formal-out
	DepSummary                 // an actual-out on an actual-in of the same call site (through the callee)
)

var depKindNames = [...]string{"flow", "control", "call", "param-in", "param-out", "summary"}

func (k DepKind) String() string { return depKindNames[k] }

// NodeID identifies an SDG node: 0..NumNodes()-1. The node of CFA edge e is
// NodeID(e.ID).
type NodeID int

// Node describes an SDG node.
type Node struct {
	Kind NodeKind
	Func *cfa.Function
	// Edge is the CFA edge of a NodeEdge, the call edge of actual nodes,
	// and the defining edge of a NodeWeak when the definition is an edge.
	Edge *cfa.Edge
	// Loc is the join location of a NodePhi.
	Loc *cfa.Location
	// Slot is what formal and actual nodes pass; for NodePhi and NodeWeak
	// its Index is the joined object (Kind SlotObject).
	Slot Slot
}

// node is the compact form of a Node.
type node struct {
	kind NodeKind
	sk   SlotKind
	fn   int32 // function index (0 = Init)
	edge int32 // edge ID or -1
	loc  int32 // location ID or -1
	slot int32
}

// Dep is one dependence of a node.
type Dep struct {
	On   NodeID
	Kind DepKind
}

// SDG is the system dependence graph of a program: one program dependence
// graph per function (flow and control dependences between CFA edges),
// connected at call sites by parameter and summary dependences (Horwitz,
// Reps and Binkley 1990). It is immutable after Build and safe for
// concurrent use.
type SDG struct {
	Prog *cfa.Program

	nodes    []node
	depStart []int32
	depTo    []int
	depKind  []DepKind

	funcs   []*funcInfo // 0 = Init, then Prog.Funcs in order
	funcIdx map[*cfa.Function]int
	sites   []*siteInfo
	siteOf  []int32 // per edge ID: index into sites, -1

	objs      []*Object
	addrTaken []bool
	pts       [][]int32
	derefPtr  map[*cfa.Deref]int32

	stats Stats
}

// Stats counts what Build produced.
type Stats struct {
	Locations, Edges, Functions       int
	Nodes, Deps, SummaryDeps, Objects int
	Phis, Formals, Actuals            int
}

// funcInfo is the per-function part of the SDG.
type funcInfo struct {
	f         *cfa.Function
	idx       int
	entry     int32
	formIn    []slotNode // sorted by slot
	formOut   []slotNode
	sites     []int32 // call sites in f
	callers   []int32 // call sites that may call f (directly, indirectly or back)
	mod, ref  []int32 // objects (sorted) f may write and read, callees included
	recursive bool
	mayStop   bool             // a call of f may not return
	aug       *graph.Adjacency // the augmented CFA (node len(f.Locs) is the virtual end)
	pdom      *graph.DomTree
	pdf       [][]int // post-dominance frontier per location of aug
	loopRep   []bool  // locations given an augmentation edge as non-terminating loops
	// rel is the summary relation: row j (relWords words) holds the
	// formal-ins formal-out j depends on (see summary.go).
	rel      []uint64
	relWords int
	// collapsed (sorted) are the interface objects passed in the slot
	// SlotRest; restIn/restOut say whether the formal-in/out exist.
	collapsed       []int32
	restIn, restOut bool
	// tracked (sorted) are the objects f may access that it keeps apart
	// (not collapsed): what a callee's SlotRest may mean in f.
	tracked []int32
}

type slotNode struct {
	slot Slot
	node int32
}

// siteInfo is the SDG part of a call site.
type siteInfo struct {
	cs      *callSite
	fn      int   // the caller's function index
	targets []int // function indices of bodies and callbacks
	actIn   []slotNode
	actOut  []slotNode
	// mayStop: some callee with a body may not return (then actOut holds a
	// SlotReturns node); extStop: an external callee may not return.
	mayStop, extStop bool
	tmaps            []targetMap // per target: how actuals map to formals
}

func findSlot(s []slotNode, sl Slot) int32 {
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
	return s[i].node
}

// NumNodes returns the number of SDG nodes.
func (g *SDG) NumNodes() int { return len(g.nodes) }

// Len implements graph.Graph: nodes are NodeIDs, successors are the nodes
// a node depends on (so reachability is backward slicing without calling
// context).
func (g *SDG) Len() int { return len(g.nodes) }

// Succs implements graph.Graph: the nodes n depends on (see Deps). The
// slice must not be modified; for actual-outs it is freshly allocated.
func (g *SDG) Succs(n int) []int {
	s := g.depTo[g.depStart[n]:g.depStart[n+1]:g.depStart[n+1]]
	if g.nodes[n].kind == NodeActualOut {
		si, p := g.aoSite(n)
		return g.summaryDeps(si, p, slices.Clone(s))
	}
	return s
}

// Deps returns the dependences of n: the stored ones, then for an
// actual-out its summary dependences.
func (g *SDG) Deps(n NodeID) []Dep {
	s, e := g.depStart[n], g.depStart[n+1]
	ds := make([]Dep, 0, e-s)
	for i := s; i < e; i++ {
		ds = append(ds, Dep{NodeID(g.depTo[i]), g.depKind[i]})
	}
	if g.nodes[n].kind == NodeActualOut {
		si, p := g.aoSite(int(n))
		for _, d := range g.summaryDeps(si, p, nil) {
			ds = append(ds, Dep{NodeID(d), DepSummary})
		}
	}
	return ds
}

// EdgeNode returns the node of CFA edge e.
func (g *SDG) EdgeNode(e *cfa.Edge) NodeID { return NodeID(e.ID) }

// Node describes node n.
func (g *SDG) Node(n NodeID) Node {
	c := g.nodes[n]
	nd := Node{Kind: c.kind, Func: g.funcs[c.fn].f, Slot: Slot{c.sk, int(c.slot)}}
	if c.edge >= 0 {
		nd.Edge = g.Prog.Edges[c.edge]
	}
	if c.loc >= 0 {
		nd.Loc = g.Prog.Locs[c.loc]
	}
	return nd
}

// Object returns the abstract object with the given ID (Slot.Index of an
// object slot).
func (g *SDG) Object(id int) *Object { return g.objs[id] }

// Stats returns the sizes of the graph.
func (g *SDG) Stats() Stats { return g.stats }

// PointsTo returns the objects the value of pointer expression x (an
// expression of p) may point to, as far as the analysis recorded it: for
// variables their points-to set, for other expressions the set of the
// pointer a Deref of x reads. It returns nil for unknown expressions.
func (g *SDG) PointsTo(x cfa.Expr) []*Object {
	var set []int32
	switch x := x.(type) {
	case *cfa.VarRef:
		set = g.pts[x.Var.ID]
	case *cfa.Deref:
		if p, ok := g.derefPtr[x]; ok && p >= 0 {
			set = g.pts[p]
		}
	}
	out := make([]*Object, len(set))
	for i, o := range set {
		out[i] = g.objs[o]
	}
	return out
}

// funcOf returns the info of f, or nil when f is not part of the program.
func (g *SDG) funcOf(f *cfa.Function) *funcInfo {
	i, ok := g.funcIdx[f]
	if !ok {
		return nil
	}
	return g.funcs[i]
}

// Build computes the system dependence graph of p. p must be finished and
// pass Program.Check. Functions without callers (and main) are treated as
// entries that run after Init. Build runs in near-linear time in the size
// of p for programs with a bounded number of objects passed between
// functions (see the package documentation for the exact costs).
func Build(p *cfa.Program) *SDG {
	b := newBuilder(p)
	b.run()
	return b.g
}

// NodeString describes node n for debugging: "edge L3->L4 x = 1", "entry
// f", "formal-in f g", "actual-out L3->L4 f(x) return", "phi L5 x".
func (g *SDG) NodeString(n NodeID) string {
	loc := defaultLoc
	c := g.nodes[n]
	fi := g.funcs[c.fn]
	switch c.kind {
	case NodeEdge:
		return "edge " + edgeName(g.Prog.Edges[c.edge], loc)
	case NodeEntry:
		return "entry " + fi.f.Name
	case NodePhi:
		return fmt.Sprintf("phi %s %s", loc(g.Prog.Locs[c.loc]), g.objs[c.slot])
	case NodeWeak:
		if c.edge >= 0 {
			return fmt.Sprintf("weak %s %s", edgeName(g.Prog.Edges[c.edge], loc), g.objs[c.slot])
		}
		return fmt.Sprintf("weak %s", g.objs[c.slot])
	case NodeFormalIn, NodeFormalOut:
		return fmt.Sprintf("%s %s %s", c.kind, fi.f.Name, g.slotName(fi.f, Slot{c.sk, int(c.slot)}))
	case NodeActualIn, NodeActualOut:
		return fmt.Sprintf("%s %s %s", c.kind, edgeName(g.Prog.Edges[c.edge], loc), g.slotName(nil, Slot{c.sk, int(c.slot)}))
	}
	return "?"
}

func (g *SDG) slotName(f *cfa.Function, s Slot) string {
	switch s.Kind {
	case SlotParam:
		if f != nil && s.Index < len(f.Params) {
			return f.Params[s.Index].Name
		}
		return fmt.Sprintf("param%d", s.Index)
	case SlotReturn:
		return "return"
	case SlotReturns:
		return "returns"
	case SlotRest:
		return "rest"
	}
	return g.objs[s.Index].String()
}

func edgeName(e *cfa.Edge, loc func(*cfa.Location) string) string {
	return fmt.Sprintf("%s->%s %s", loc(e.From), loc(e.To), e.Op)
}

func defaultLoc(l *cfa.Location) string { return l.String() }

// UnresolvedWrite reports whether e (an edge of p, the program g was
// built from) writes through a pointer whose points-to set is empty or
// holds unknown memory: the lvalue of an assignment, Havoc or call
// result, or (calls without a body or through a pointer) a pointer
// argument whose variable may point to unknown memory. Such an edge may
// write anything, so a slice keeps it whatever its criterion: the
// slicing CPA's always-relevant edges and engine/reduce's slice pass use
// this one rule.
func (g *SDG) UnresolvedWrite(p *cfa.Program, e *cfa.Edge) bool {
	var lv cfa.Expr
	switch op := e.Op.(type) {
	case *cfa.Assign:
		lv = op.LHS
	case *cfa.Havoc:
		lv = op.LHS
	case *cfa.Call:
		lv = op.Result
		if op.FnPtr != nil || p.Func(op.Fn) == nil {
			for _, a := range op.Args {
				if r, ok := a.(*cfa.VarRef); ok && r.Var.T.Kind == cfa.Pointer && hasUnknownObject(g.PointsTo(r)) {
					return true
				}
			}
		}
	default:
		return false
	}
	for lv != nil {
		switch x := lv.(type) {
		case *cfa.Member:
			lv = x.X
		case *cfa.Index:
			lv = x.X
		case *cfa.Deref:
			objs := g.PointsTo(x)
			return len(objs) == 0 || hasUnknownObject(objs)
		default:
			return false
		}
	}
	return false
}

func hasUnknownObject(objs []*Object) bool {
	for _, o := range objs {
		if o.Kind == ObjUnknown {
			return true
		}
	}
	return false
}

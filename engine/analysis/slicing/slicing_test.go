package slicing_test

import (
	"slices"
	"testing"

	"github.com/reverify/reverify/engine/analysis/slicing"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/pdg"
)

// handCFA is a CFA built by hand:
//
//	main:  e0  x = nondet          g:  e14 gv = 3
//	       e1  y = 1                   e15 return
//	       e2/e3 [x > 0] / [!(x > 0)]
//	       e4  x = x - 1 (back to the branch)
//	       e5  n = nondet
//	       e6  p = (int *)n          p may point anywhere
//	       e7  *p = 5                unresolved write
//	       e8  q = &y
//	       e9  *q = 2                resolved: writes y
//	       e10 g()
//	       e11/e12 [y < 0] / [!(y < 0)]
//	       e13 reach_error()
type handCFA struct {
	prog *cfa.Program
	e    []*cfa.Edge
	g    *cfa.Function
}

func buildHand(t *testing.T) *handCFA {
	t.Helper()
	p := cfa.NewProgram(cfa.LP64)
	ptr := cfa.PointerTo(cfa.IntT, 64)
	void := &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType}
	gv := p.NewVar(nil, "gv", cfa.IntT)
	gd := p.NewLocation(p.Init)
	p.AddEdge(p.Init.Entry, gd, &cfa.Decl{Var: gv}, cfa.Range{}, "int gv;")
	p.AddEdge(gd, p.Init.Exit, &cfa.Noop{}, cfa.Range{}, "")
	m := p.NewFunction("main", &cfa.Type{Kind: cfa.Func, Result: cfa.IntT})
	g := p.NewFunction("g", void)
	x := p.NewVar(m, "x", cfa.IntT)
	y := p.NewVar(m, "y", cfa.IntT)
	y.AddrTaken = true
	n := p.NewVar(m, "n", cfa.LLType)
	pv := p.NewVar(m, "p", ptr)
	qv := p.NewVar(m, "q", ptr)
	ref := func(v *cfa.Var) cfa.Expr { return &cfa.VarRef{Var: v} }
	c := func(v uint64) cfa.Expr { return &cfa.Const{T: cfa.IntT, V: v} }
	bin := func(op cfa.BinaryOp, a, b cfa.Expr) cfa.Expr { return &cfa.Binary{Op: op, X: a, Y: b, T: cfa.IntT} }
	L := make([]*cfa.Location, 12)
	L[0] = m.Entry
	for i := 1; i < len(L); i++ {
		L[i] = p.NewLocation(m)
	}
	h := &handCFA{prog: p, g: g}
	add := func(from, to *cfa.Location, op cfa.Op) {
		h.e = append(h.e, p.AddEdge(from, to, op, cfa.Range{}, op.String()))
	}
	add(L[0], L[1], &cfa.Havoc{LHS: ref(x), Source: "__VERIFIER_nondet_int"})         // e0
	add(L[1], L[2], &cfa.Assign{LHS: ref(y), RHS: c(1)})                              // e1
	add(L[2], L[3], &cfa.Assume{Cond: bin(cfa.Gt, ref(x), c(0)), Truth: true})        // e2
	add(L[2], L[4], &cfa.Assume{Cond: bin(cfa.Gt, ref(x), c(0)), Truth: false})       // e3
	add(L[3], L[2], &cfa.Assign{LHS: ref(x), RHS: bin(cfa.Sub, ref(x), c(1))})        // e4
	add(L[4], L[5], &cfa.Havoc{LHS: ref(n), Source: "__VERIFIER_nondet_long"})        // e5
	add(L[5], L[6], &cfa.Assign{LHS: ref(pv), RHS: &cfa.Cast{X: ref(n), T: ptr}})     // e6
	add(L[6], L[7], &cfa.Assign{LHS: &cfa.Deref{X: ref(pv), T: cfa.IntT}, RHS: c(5)}) // e7
	add(L[7], L[8], &cfa.Assign{LHS: ref(qv), RHS: &cfa.AddrOf{X: ref(y), T: ptr}})   // e8
	add(L[8], L[9], &cfa.Assign{LHS: &cfa.Deref{X: ref(qv), T: cfa.IntT}, RHS: c(2)}) // e9
	add(L[9], L[10], &cfa.Call{Fn: "g"})                                              // e10
	add(L[10], L[11], &cfa.Assume{Cond: bin(cfa.Lt, ref(y), c(0)), Truth: true})      // e11
	add(L[10], m.Exit, &cfa.Assume{Cond: bin(cfa.Lt, ref(y), c(0)), Truth: false})    // e12
	add(L[11], m.Exit, &cfa.Call{Fn: "reach_error"})                                  // e13
	g1 := p.NewLocation(g)
	add(g.Entry, g1, &cfa.Assign{LHS: ref(gv), RHS: c(3)}) // e14
	add(g1, g.Exit, &cfa.Return{})                         // e15
	p.Externals["reach_error"] = void
	p.Finish()
	return h
}

func (h *handCFA) ids(es []*cfa.Edge) []int {
	var out []int
	for _, e := range es {
		out = append(out, e.ID-h.e[0].ID)
	}
	return out
}

// TestNoops checks, on the hand-built CFA, exactly which edges the
// slicing CPA turns into no-ops under a given slice: every edge outside
// it, except the unresolved write *p = 5 and its backward slice (n =
// nondet, p = (int *)n), which are relevant under every precision; the
// resolved write *q = 2 is a no-op when outside the slice.
func TestNoops(t *testing.T) {
	h := buildHand(t)
	sc := slicing.New(h.prog, pdg.Build(h.prog), value.New(h.prog, value.Options{}), slicing.Options{})
	if got := h.ids(sc.Unresolved()); !slices.Equal(got, []int{7}) {
		t.Fatalf("unresolved writes %v, want [7]", got)
	}
	_, p0 := sc.Initial()
	empty := p0.(*slicing.Precision)
	if empty.Len() != 0 {
		t.Fatalf("initial slice has %d edges", empty.Len())
	}
	for _, tt := range []struct {
		name  string
		slice []int
		noops []int
	}{
		{"empty", nil, []int{0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 13, 14, 15}},
		{"y < 0", []int{1, 11, 12}, []int{0, 2, 3, 4, 8, 9, 10, 13, 14, 15}},
		{"loop and write through q", []int{0, 2, 3, 4, 8, 9}, []int{1, 10, 11, 12, 13, 14, 15}},
	} {
		var edges []*cfa.Edge
		for _, i := range tt.slice {
			edges = append(edges, h.e[i])
		}
		prec, added := empty.With(edges)
		if added != len(tt.slice) || prec.Len() != len(tt.slice) {
			t.Errorf("%s: added %d, len %d", tt.name, added, prec.Len())
		}
		var noops []int
		st, _ := sc.Initial()
		for i, e := range h.e {
			step := cfa.Step{Edge: e}
			if _, ok := e.Op.(*cfa.Call); ok && e.Op.(*cfa.Call).Fn == "g" {
				step = cfa.Step{Edge: e, Kind: cfa.Enter, Callee: h.g}
			}
			ws, _ := sc.WrappedStep(st.(*slicing.State), step, prec)
			if _, ok := ws.Edge.Op.(*cfa.Noop); ok {
				noops = append(noops, i)
				if ws.Kind != cfa.Intra || ws.Edge.From != e.From || ws.Next() != step.Next() {
					t.Errorf("%s: no-op of e%d goes %s -> %s (%v), want the original step's locations", tt.name, i, ws.Edge.From, ws.Next(), ws.Kind)
				}
			} else if ws != step {
				t.Errorf("%s: e%d handed over as %+v", tt.name, i, ws)
			}
		}
		if !slices.Equal(noops, tt.noops) {
			t.Errorf("%s: no-ops %v, want %v", tt.name, noops, tt.noops)
		}
	}
}

// TestMutedCall checks that a call whose Call edge is outside the slice
// is removed with its body: the Enter, the callee's edges (even those
// in the slice) and the Leave are no-ops for the wrapped analysis, which
// keeps no frame, while the steps still lead where the location CPA
// goes; with the Call edge in the slice, the steps are the original ones.
func TestMutedCall(t *testing.T) {
	h := buildHand(t)
	val := value.New(h.prog, value.Options{})
	sc := slicing.New(h.prog, pdg.Build(h.prog), val, slicing.Options{})
	_, p0 := sc.Initial()
	call, assign, ret := h.e[10], h.e[14], h.e[15]
	steps := []cfa.Step{{Edge: call, Kind: cfa.Enter, Callee: h.g}, {Edge: assign}, {Edge: ret}, {Edge: call, Kind: cfa.Leave, Callee: h.g}}
	for _, tt := range []struct {
		name   string
		slice  []*cfa.Edge
		muted  []int
		noops  []bool
		gvKnow bool
	}{
		{"call outside the slice", []*cfa.Edge{assign, ret}, []int{1, 1, 1, 0}, []bool{true, true, true, true}, false},
		{"call in the slice", []*cfa.Edge{call, assign, ret}, []int{0, 0, 0, 0}, []bool{false, false, false, false}, true},
	} {
		prec, _ := p0.(*slicing.Precision).With(tt.slice)
		s0, _ := sc.Initial()
		st := s0.(*slicing.State)
		for i, step := range steps {
			ws, muted := sc.WrappedStep(st, step, prec)
			_, noop := ws.Edge.Op.(*cfa.Noop)
			if muted != tt.muted[i] || noop != tt.noops[i] || ws.Next() != step.Next() {
				t.Errorf("%s: step %d: muted %d, noop %v, next %s; want %d, %v, %s", tt.name, i, muted, noop, ws.Next(), tt.muted[i], tt.noops[i], step.Next())
			}
			succ, err := sc.Successors(nil, st, step, prec)
			if err != nil || len(succ) != 1 {
				t.Fatalf("%s: step %d: %d successors, %v", tt.name, i, len(succ), err)
			}
			st = succ[0].(*slicing.State)
			if st.Muted != tt.muted[i] {
				t.Errorf("%s: step %d: state muted %d", tt.name, i, st.Muted)
			}
		}
		if got := st.W.(*value.State).String(); (got != "{}") != tt.gvKnow {
			t.Errorf("%s: value state after the call %s", tt.name, got)
		}
	}
}

// TestOrder checks the stop order: states inside different numbers of
// muted calls never cover each other; otherwise the wrapped order
// decides.
func TestOrder(t *testing.T) {
	h := buildHand(t)
	sc := slicing.New(h.prog, pdg.Build(h.prog), value.New(h.prog, value.Options{}), slicing.Options{})
	s0, p0 := sc.Initial()
	a := s0.(*slicing.State)
	succ, _ := sc.Successors(nil, a, cfa.Step{Edge: h.e[10], Kind: cfa.Enter, Callee: h.g}, p0)
	b := succ[0].(*slicing.State)
	if b.Muted != 1 || sc.LessOrEqual(a, b) || sc.LessOrEqual(b, a) {
		t.Errorf("muted %d: a ⊑ b %v, b ⊑ a %v", b.Muted, sc.LessOrEqual(a, b), sc.LessOrEqual(b, a))
	}
	prec, _ := p0.(*slicing.Precision).With([]*cfa.Edge{h.e[1]})
	succ, _ = sc.Successors(nil, a, cfa.Step{Edge: h.e[1]}, prec)
	c := succ[0].(*slicing.State)
	if !sc.LessOrEqual(c, a) || sc.LessOrEqual(a, c) {
		t.Errorf("y = 1 in the slice: c ⊑ a %v, a ⊑ c %v (c = %v)", sc.LessOrEqual(c, a), sc.LessOrEqual(a, c), c)
	}
	var _ cpa.CPA = sc
}

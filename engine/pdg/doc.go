// Package pdg builds the system dependence graph (SDG) of a cfa.Program and
// computes static backward slices and slice hashes from it.
//
// A slice answers "which CFA edges can influence whether this assertion
// fails?": the edges on which the criterion transitively depends through
// flow dependences (a value defined here is used there) and control
// dependences (whether it executes is decided there). Analyses keep the
// relevant edges and treat all others as no-ops (seed
// 000_f76fde50ed4a4828.txt, section 2.4, Algorithm 1); diffslice re-verifies
// an assertion only when its slice hash changed.
//
//	g := pdg.Build(prog)                          // once per program
//	s := g.Slice(prop.ErrorEdges)                 // or g.SliceVia(prop.Via, prop.ErrorEdges)
//	s.Contains(e); s.Edges(); s.Funcs(); s.Lines() // per file, sorted
//	h := s.Hash(dataModel, entry, spec, version)  // hex SHA-256
//
// # The graph
//
// Every CFA edge is a node (NodeID(e.ID)). Per function there is an entry
// node, formal-in nodes (parameters and the objects the function or its
// callees may read or write) and formal-out nodes (the return value, the
// objects it may write, and "returns" when a call may not return); per call
// site actual-in and actual-out nodes matching the callees' formals
// (Horwitz, Reps and Binkley, "Interprocedural Slicing Using Dependence
// Graphs", TOPLAS 12(1), 1990). Dependences (DepKind) point from a node to
// what it depends on:
//
//   - flow: reaching definitions over CFA edges, computed sparsely in SSA
//     fashion (phi nodes at iterated dominance frontiers, renaming over the
//     dominator tree: Cytron, Ferrante, Rosen, Wegman and Zadeck, TOPLAS
//     13(4), 1991). Definitions are Decl, Assign, Havoc, Call results and
//     Return (the RetVar), parameters at the entry, and actual-outs at call
//     sites; uses are every read in every expression, lvalue address
//     computations included (the index of a[i] = …, the pointer of *p = …).
//   - control: Ferrante, Ottenstein and Warren ("The Program Dependence
//     Graph and Its Use in Optimization", TOPLAS 9(3), 1987), as
//     post-dominance frontiers on an augmented CFA (below). An edge leaving
//     location l depends on the edges leaving each branch location in
//     PDF(l) (both Assume edges of the branch), and on the function's entry
//     when l post-dominates the entry (Ferrante's START → entry, START →
//     end); the entry depends on the call sites (DepCall). Figure 9's tree
//     and figure 20's dependences are golden tests.
//   - call, parameter-in, parameter-out: between call sites and callees;
//     the formal-ins of entry functions (those without callers, and main)
//     depend on the formal-outs of Program.Init.
//   - summary: an actual-out depends on the actual-ins its callee's
//     formal-out transitively depends on. Summaries are stored as one bit
//     matrix per function (formal-outs × formal-ins), computed bottom-up
//     over the call graph's SCCs with a worklist for recursion (Reps,
//     Horwitz, Sagiv and Rosay, FSE 1994), and read by slicing; Deps and
//     Succs report them as edges.
//
// Post-dominance is computed per function on an augmented CFA whose
// virtual end (node len(f.Locs) in PostDom's tree) is reached from the
// exit, from every location without out-edges (Terminal locations after
// abort, exit or a failed __VERIFIER_assume), from every call site of a
// callee that may not return, and from one location (the lowest-indexed
// loop head) of every bottom SCC of locations that cannot reach the exit
// (non-terminating loops). A callee may not return when its body reaches a
// Terminal location or such a loop, or calls a function that may not
// return (abort, exit, __VERIFIER_assume, reach_error, … see externs.go).
// A call that may not return is a branch: the code after it depends on the
// call's actual-out "returns", which depends on the callee's decisions to
// return. So `assume_abort_if_not(x < 10); assert(x < 20);` has the
// assume's call, its argument and the callee's branch in the assertion's
// slice, and weakening the assumption changes the slice hash. Loops that
// may exit (while (x >= 10) {}) are not branches for the code after them:
// like the standard PDG, the graph is insensitive to whether they
// terminate.
//
// The algorithms use engine/graph: dominators and post-dominators by
// Cooper, Harvey and Kennedy's iterative algorithm ("A Simple, Fast
// Dominance Algorithm", 2001), frontiers, SCCs. Seed 000's Algorithm 3
// (the O(n²) dominator fixpoint with a reverse-post-order waitlist) is
// implemented in the tests as a cross-check on figure 19 and random CFAs.
//
// # Memory
//
// Pointers are resolved by a flow- and context-insensitive, field-
// insensitive inclusion-based points-to analysis (Andersen 1994) over
// abstract objects (Object): variables, one heap object per allocation
// site, string literals, functions, memory of external functions per call
// site, and Unknown (integers cast to pointers, nondeterministic pointers).
// The call graph, function pointers included, comes from the same
// analysis. A write through a pointer, to an array element or to a field
// is a may-definition (weak: it does not kill); a direct assignment to a
// variable kills, except for address-taken locals of recursive functions.
// A write through an unresolved pointer may write every address-taken
// object; a read through one may read any. Functions without a body follow
// a table of library models (functions in cfa.Program.AssumePure write
// nothing); unknown ones (cfa.ExternUnmodelled) share one node of escaped
// memory — every global, everything passed to any of them, what that
// points to, memory of their own — which each may read and write, store
// into itself and return, and whose functions each may call back; when a
// program calls one, every global is memory.
// Unsupported edges may write any variable. Globals (and objects reachable
// through pointers) pass between functions as formal and actual nodes
// (GMOD/GREF: transitive over callees, restricted to objects a caller can
// reach from globals, its parameters or its return value). An interface of
// more than restLimit (128) objects passes the excess in one slot,
// SlotRest, for precision traded against size (see collapse.go).
//
// # Slicing
//
// Slice runs Horwitz, Reps and Binkley's two phases: first everything the
// criteria depend on without descending into callees (ascending to callers
// along call and parameter-in dependences), then from everything found
// without ascending (descending along parameter-out dependences), summary
// dependences standing for the callees in both. The result is the set of
// CFA-edge nodes reached (phi, weak and formal/actual nodes are
// bookkeeping). A criterion edge counts as reached with the values it uses
// (seed 000's ⟨g, uses(op)⟩): a call of a function with a body includes
// its arguments. Target-path slicing (seed 000, section 3.3, figure 21)
// passes every Assume edge of a path as a criterion. SliceVia restricts
// the first phase's ascent out of an assertion wrapper to the one call
// that is the property (spec.Property.Via); backward slicing as in seed
// 002_0b385698e7d47eb0.txt.
//
// For the running example of seed 000 (figures 1, 4b and 8) in C, the
// slice of the error call keeps x's definitions and loop, y = 1 and the
// branch, and drops w and the second loop:
//
//	 6    int x = __VERIFIER_nondet_int(); // in the slice
//	 7    int y = 1;                       // in the slice
//	 8    int w = __VERIFIER_nondet_int();
//	 9    while (x > 0)                    // in the slice
//	10      x--;                           // in the slice
//	11    w = w * 2;
//	12    if (x < 0 && y < 0)              // in the slice
//	13      reach_error();                 // in the slice
//	14    else
//	15      while (y < w)
//	16        y++;
//
// Slice.WriteText prints it as
//
//	func main
//	  L2->L3 x = nondet(__VERIFIER_nondet_int)  @6
//	  L4->L5 y = 1  @7
//	  L7->L8+ [x > 0]  @9
//	  L7->L9- [!(x > 0)]  @9
//	  L8->L7 x = x - 1  @10
//	  L10->L11+ [x < 0]  @12
//	  L10->L14- [!(x < 0)]  @12
//	  L11->L12+ [y < 0]  @12
//	  L11->L14- [!(y < 0)]  @12
//	  L12->L13 reach_error()  @13
//
// and Lines as map[t.c:[6 7 9 10 12 13]]. WriteC prints it as compilable
// C: line 11 becomes an empty statement, the condition on line 15
// __VERIFIER_nondet_int(), line 16 an empty statement.
//
// # Slice hash
//
// Slice.Hash is the SHA-256 of Slice.Normalized: the relevant edges of each
// function (by name) in reverse post-order, each as its typed operation
// (every sub-expression with its type by kind and width, local variables
// renamed canonically, temporaries by order of appearance) and its source
// text without comments and white space, the control structure as classes
// of locations joined by irrelevant edges, struct layouts, and the
// caller's extra strings. Line numbers do not enter: edits outside the
// slice keep the hash, and swapping two relevant statements or changing a
// typedef's width changes it.
//
// # Invariants and costs
//
// An SDG is immutable after Build and safe for concurrent use; Slices are
// independent values. Build runs in time near-linear in the program for a
// bounded number of globals: the points-to analysis is worst-case cubic
// but near-linear on real code; per function, dominators, frontiers and
// SSA are near-linear; summaries cost O((V+E+Σ|rel|)·k/64) per function
// with k ≤ restLimit formal-ins. On the generated benchmark (50 globals,
// pointers, heap, function pointers, recursion) Build takes about 37 µs of
// CPU time per location at both 10 000 and 100 000 locations; one slice
// of the 100 000-location program about 0.4 s. Text forms (WriteText,
// WritePostDom, WriteControlDeps, Slice.WriteText, Normalized) are stable
// and used by golden tests; WriteDOT draws the graph in the style of seed
// 000's figures 10 and 11.
package pdg

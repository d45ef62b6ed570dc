// Package slicing is the slicing CPA of seed 000_f76fde50ed4a4828.txt,
// section 3.2: a wrapper around any analysis (a cpa.CPA, for example
// engine/analysis/symbolic or engine/analysis/value) that hands every CFA
// edge outside the current program slice to the wrapped transfer relation
// as a no-op, (l, op, l') becoming (l, noop, l'). Its precision is the
// slice, a set of relevant CFA edges, together with the wrapped
// analysis's precision; the slice starts empty and grows by slicing
// refinement (engine/cegar, SlicingRefiner, section 3.3).
//
// # Domain, merge, stop, precision adjustment
//
// As in the seed, the abstract domain, merge, stop and precision
// adjustment are the wrapped analysis's. A State holds the wrapped state
// plus two pieces of bookkeeping that the seed's CFA-level formulation
// does not need (see Calls and Explanations); a ⊑ b requires them equal
// (respectively included) and the wrapped states ordered.
//
// # What "noop" means
//
//   - An Assume edge outside the slice adds no constraint: both branches
//     of a branch outside the slice are explored.
//   - An assignment, Havoc, Decl, Return or call to a function without a
//     body outside the slice has no effect: the written variable keeps
//     its abstract value. This is sound because the slice is closed under
//     dependences (engine/pdg: flow dependences through reaching
//     definitions with points-to, control dependences on an augmented CFA
//     where calls that may not return are branches): an edge in the slice
//     reads a variable only where every definition that may reach it is
//     in the slice too, so a value that an out-of-slice write made stale
//     is never read by an edge that is executed. Every precision is a
//     union of such closed slices (plus the always-relevant edges below,
//     also a closed slice), hence closed.
//   - A call of a function with a body whose Call edge is outside the
//     slice is removed with everything it executes, as in the slice
//     program of Horwitz, Reps and Binkley that engine/pdg computes (a
//     callee's edges can be in the slice through another call site in the
//     second slicing phase, which does not ascend to this one). The
//     location and call-stack CPAs still enter and leave the callee, so
//     the call stack stays consistent; the wrapped analysis sees the
//     Enter, every step inside and the Leave as no-ops (synthetic Noop
//     edges from the call site to the callee's entry, along the callee's
//     edges, and from its exit to the return site) and keeps no frame for
//     it. State.Muted counts those calls on the stack.
//
// # Always relevant
//
// Out-of-slice edges become no-ops only as far as the points-to analysis
// is sound. An edge that writes through a pointer the points-to analysis
// cannot resolve (its points-to set is empty or contains the unknown
// object; for calls without a body, a pointer argument whose variable
// may point to unknown memory) is relevant under every precision, with
// its own backward slice (otherwise it could write through a stale
// pointer precisely). Unsupported edges are always handed to the wrapped
// analysis, which records them (cpa.Explainer) so that no TRUE rests on
// them. Relevant reports both.
//
// # Explanations
//
// A call of a function without a body that the wrapped analysis does not
// model makes its state explain an unmodelled call of f
// (cpa.Unmodelled), which turns a FALSE
// through it into UNKNOWN (engine). When such a call is outside the
// slice, the wrapped transfer of the original edge is computed as well,
// only to collect the reasons it adds; they are kept in the State.
//
// # Example
//
// On seed 000's running example with the empty slice, every edge is a
// no-op: the error call is reachable and its path (through x > 0 false,
// x < 0 true, y < 0 true) is infeasible on the full program; target-path
// slicing adds the slice of the path's assume edges, which holds x's and
// y's definitions and the first loop but not w or the second loop, whose
// edges stay no-ops, so the second loop covers itself after one
// iteration.
package slicing

// Package scope computes the property scope of a decided property: which
// functions and which share of the program's CFA locations the analysis
// needed to decide it.
//
// It follows seed 004_cf6cf6ed7e985aa5.txt (Dahlberg, "Assessing the Scope
// of Safety Properties"), chapter 3: the scope of a property p is the set
// Ω of abstract states of the ARG that are required to prove p, and the
// scope slice is the set of CFA edges entering a state of Ω. The seed's
// property-scope CPA observes a predicate analysis during the run and puts
// a state into Ω for two reasons:
//
//   - autom: the specification automaton matches at the state (the
//     property's own site is always in its scope);
//   - pred: the edge entering the state reads or writes a variable of the
//     abstraction formula ψ of the next abstraction state
//     (usesAnyVariable(g, ψ), seed section 3.1.4, Algorithm 2).
//
// reverify computes the same two reasons after the run from the final ARG
// (cpa.ARG) and the precision stored with every ARG node, for every
// analysis that keeps an ARG (value, symbolic execution, predicate
// abstraction, each with or without the slicing CPA), so no CPA component
// is added to the composite. The closest definition our ARG supports is:
//
//   - Reason Property (the seed's autom): the node is a target state, or
//     its location is the source of one of the property's error edges
//     (spec.Property.ErrorEdges) or the source of an assume edge into
//     one (the assertion's test), i.e. the assertion site was reached.
//     For a proof the automaton never matches, so this is the one place
//     where the seed's reason is widened: the test of the assertion is
//     always in its own scope.
//   - Reason Precision (the seed's pred): the step entering the node
//     writes or tests a variable that the node's precision keeps: for the value
//     analysis and symbolic execution the variables value.Precision.Tracks
//     at the step's source or target location (heap objects when it tracks
//     them and the step dereferences); for predicate abstraction the
//     variables of the precision's predicates (the predicates are the atoms
//     of every abstraction formula ψ, so this is the seed's test made flow
//     insensitive; while the precision has no predicate at all, every
//     variable, since the proof then rests on the exact block formulas);
//     under the slicing CPA only steps whose edge is in the
//     slice (others are no-ops for the analysis). A step writes the
//     variables of its lvalues (assignment, nondeterministic assignment,
//     call result), the declared variable, the callee's parameters on
//     entry and its return variable on return, and memory when it stores
//     through a pointer or passes one to a function without a body; it
//     tests the variables of an assume's condition. A step that only
//     reads kept variables into variables the precision drops changes
//     nothing the analysis keeps, so it is not in Ω (the seed's
//     usesAnyVariable counts reads as well; our precisions say exactly
//     what is kept, so the narrower test is possible). A full precision
//     keeps every variable, so with value or symex every explored step
//     that writes or tests a variable qualifies.
//
// One restriction goes beyond the seed: a step outside the property's
// static backward slice (engine/pdg) cannot influence the property, so it
// never puts a state into Ω even when the precision keeps what it writes
// (the seed's usesAnyVariable is a forward-slice test of the abstraction's
// variables, which lets such steps in). This matters for full precisions
// (the `value` arm of `default` keeps everything): without it their scope
// is the whole exploration. Scope.KeptFunctions and KeptLocations give the
// seed's unrestricted Ω for comparison.
//
// Removed ARG nodes (cut off by refinement) are not part of the final
// state space and do not count. Everything else the ARG explored is
// reported as explored (functions and locations), so the scope can be
// compared with the exploration and with the static slice (engine/pdg).
//
// As seed section 3.1.6 says, the scope of a violated property is
// incomplete: the search stops at the first feasible counterexample
// (Scope.Partial).
//
// The property scope call graph (seed section 4.1.1) has one node per
// explored function with its property scope importance (the share of its
// ARG states in scope) and its number of calls in the ARG, and one edge per
// caller/callee pair that the ARG calls; report/scopegraph draws it.
//
// The scope is a description of the proof, not a sound dependence
// analysis: a function outside the scope but inside the backward slice can
// still change the verdict when it changes (the analysis may never have
// reached it because a refinement pruned the path, or its variables were
// irrelevant only under its current body). diffslice therefore keeps
// deciding re-verification by the slice (doc/commands.md, "Property scopes").
package scope

package cpa

import "github.com/reverify/reverify/engine/cfa"

// State is an abstract state of one CPA. States are immutable once built:
// transfer relations return new states (sharing structure) and never
// modify their input, so the reached set and the ARG may keep them.
type State any

// Precision is the precision of one CPA (for example the set of variables
// a value analysis tracks). Like states, precisions are immutable.
type Precision any

// TransferRelation computes the abstract successors of s for one
// interprocedural step under precision p (seed 003, section 3.4: e ⇝ e')
// and appends them to dst (append style, so the composite can reuse its
// buffers: dst may be a reused slice; implementations must not retain
// it). No successor appended means the step is infeasible for this analysis (for
// example an Assume whose condition evaluates to false), which kills the
// step in a composite. The error is reserved for failures (a cancelled
// solver); it is never used for infeasibility.
type TransferRelation interface {
	Successors(dst []State, s State, step cfa.Step, p Precision) ([]State, error)
}

// Domain is the partial order of an abstract domain: LessOrEqual(a, b)
// holds when a ⊑ b, that is every concrete state a represents is also
// represented by b. It defines the default stop operator stop-sep.
type Domain interface {
	LessOrEqual(a, b State) bool
}

// CPA is one configurable program analysis (seed 003, section 3.4;
// seed 000, section 2.3): an abstract domain, a transfer relation and an
// initial state with its precision. Merge defaults to merge-sep and stop
// to stop-sep; the optional interfaces Joiner, Merger, Stopper,
// PrecisionAdjuster and Strengthener refine that and are found by type
// assertion.
type CPA interface {
	// Name is a short identifier ("location", "callstack", "value").
	Name() string
	// Initial returns the initial abstract state and precision.
	Initial() (State, Precision)
	TransferRelation
	Domain
}

// Joiner is implemented by domains with a join (least upper bound), which
// merge-join uses. Join returns ok = false when a and b cannot be joined
// (merge then keeps them separate).
type Joiner interface {
	Join(a, b State) (j State, ok bool)
}

// Merger overrides the merge operator chosen in Options for one CPA:
// Merge(e, reached, p) returns the state that replaces reached (reached
// itself when nothing changes; seed 003: merge-sep returns e” unchanged).
type Merger interface {
	Merge(e, reached State, p Precision) State
}

// Stopper overrides stop-sep for one CPA: Stop reports whether e is
// covered by the given reached states of its partition.
type Stopper interface {
	Stop(e State, reached []State, p Precision) bool
}

// PrecisionAdjuster is the optional precision adjustment operator prec
// (seed 003, Algorithm CPA+): it is applied to every successor after the
// transfer and strengthening, before merge and stop, and may abstract the
// state (drop untracked variables) or change its precision.
type PrecisionAdjuster interface {
	AdjustPrecision(s State, p Precision) (State, Precision)
}

// Strengthener is the optional strengthening operator ↓ of composite CPAs
// (seed 003, section 3.6): after all components have computed their
// successors for a step, each Strengthener may refine its component using
// the other components' successor states. ok = false kills the successor.
type Strengthener interface {
	Strengthen(s State, others []State, step cfa.Step, p Precision) (State, bool)
}

// Targetable is implemented by states that can violate the property: a
// composite state is a target when any component state is.
type Targetable interface {
	IsTarget() bool
}

// Explainer is implemented by states that carry explanations why a
// verdict derived from a path through them cannot be trusted, for
// example an unsupported construct (inline assembly at f.c:3:5) or an
// unmodelled call of f. The engine turns a FALSE whose target state
// explains an unmodelled call into UNKNOWN, and a Safe reached set that
// explains an unsupported construct into UNKNOWN, by kind (Explanation).
// The result is sorted (SortExplanations) and must not be modified.
type Explainer interface {
	Explain() []Explanation
}

// InvariantReporter is implemented by states that report what they know
// as C conditions over the program variables that visible accepts:
// cfa expressions of type int (1 or 0) whose conjunction the state
// implies. Leaving facts out only weakens what is reported. The engine
// turns the reports of the states at a loop head of a proof's reached
// set into that loop's invariant (engine.LoopInvariant, for correctness
// witnesses; seed 001, section 3.6: the reached set as a proof).
type InvariantReporter interface {
	Invariant(visible func(*cfa.Var) bool) []cfa.Expr
}

// Truncated is implemented by states beyond which the analysis cannot
// follow the program (a call stack deeper than its limit). A truncated
// state has no successors; the algorithm records TruncatedReason and a run
// that would otherwise complete ends Incomplete with it, so no path is
// dropped silently. An empty reason means the state is not truncated.
type Truncated interface {
	TruncatedReason() string
}

// Stepper is implemented by the one component (the location CPA) whose
// states determine the candidate steps of a composite state: the CFA
// out-edges of its location as Intra or Enter steps, and Leave at a
// function's exit. comps are the states of all components of the
// composite state (self among them); the step to Leave to is asked from a
// component state implementing ReturnSiter. The steps are appended to dst
// (which may be a reused buffer).
type Stepper interface {
	Steps(dst []cfa.Step, self State, comps []State) []cfa.Step
}

// Locator is implemented by states that know their program location.
type Locator interface {
	Location() *cfa.Location
}

// ReturnSiter is implemented by call-stack states: ReturnSite is the Call
// edge that entered the current function, or nil in the outermost one.
// Depth is the number of frames above the outermost function.
type ReturnSiter interface {
	ReturnSite() *cfa.Edge
	Depth() int
}

// Partitioned is implemented by component states that partition the
// reached set: merge and stop only compare states whose partition keys are
// all equal. Keys are comparable values (the location ID, an interned call
// stack).
type Partitioned interface {
	PartitionKey() any
}

// Featured is an optional capability of component states that makes stop
// fast on large partitions. Features appends 64-bit hashes of the state's
// facts (for a value analysis: one per known cell and value) such that
// a ⊑ b implies every feature of b is a feature of a. The reached set
// indexes each state under one of its features and asks only the states
// indexed under a feature of the new state (or under none), instead of the
// whole partition. The index only prunes candidates that cannot cover:
// coverage is still decided by the stop operator.
//
// A feature with the BulkFeature bit set is a bulk fact (for a value
// analysis: a cell of an array, a struct or the heap); one without it is
// a key fact (a scalar variable's cell). The reached set's signature
// keeps the two kinds in separate Bloom filters, so that thousands of
// bulk facts, which fill theirs, do not hide the key facts that tell
// states apart.
type Featured interface {
	Features(buf []uint64) []uint64
}

// BulkFeature marks a feature as a bulk fact (see Featured).
const BulkFeature = 1 << 63

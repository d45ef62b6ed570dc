package cpa

import (
	"sort"
	"strings"
)

// ExplanationKind says what an Explanation forbids.
type ExplanationKind uint8

// The kinds of explanations.
const (
	// Unsupported: the path passed a construct the analysis does not
	// model (Text, at At); the reached set is no proof (no TRUE).
	Unsupported ExplanationKind = iota
	// Unmodelled: the path called Name, a function without a body whose
	// effects the analysis over-approximates; a path through it is no
	// counterexample (no FALSE).
	Unmodelled
	// Callback: Name, a function without a body, may call back functions
	// of the program (Text) that the analysis does not run (no TRUE).
	Callback
	// Cut: the analysis cut the path (the call stack's depth
	// limit, Text); no TRUE.
	Cut
	// MemViolation: the state violates memory property Name (Text, at
	// At): a memory-safety target.
	MemViolation
	// MemUndecided: the memory check of property Name at At could not be
	// decided (Text says why).
	MemUndecided
)

// Explanation is why a verdict derived from a path through a state
// cannot be trusted as it stands (Explainer): typed, so that the engine
// decides on kinds and names, never on text. String renders it for
// people.
type Explanation struct {
	Kind ExplanationKind
	// Name is the function (Unmodelled, Callback) or the memory
	// property ("valid-deref", …; MemViolation, MemUndecided).
	Name string
	// At is the position, file:line:col ("edge N" without one; "" for
	// Unmodelled, Callback and Cut).
	At string
	// Text is the rest in words: the construct (Unsupported), the
	// functions that may be called back (Callback), the cause
	// (Cut, MemUndecided), the violation (MemViolation).
	Text string
	// Data is the analysis's typed detail, a comparable value (for
	// MemViolation, a results.MemoryViolation), or nil.
	Data any
}

// BlocksTrue reports whether the explanation forbids a TRUE verdict of
// a reached set that contains it.
func (e Explanation) BlocksTrue() bool {
	switch e.Kind {
	case Unsupported, Callback, Cut:
		return true
	}
	return false
}

// String renders the explanation: "unsupported: inline assembly at
// f.c:3:5", "unmodelled f", "callback: unmodelled f may call back g
// (not modelled)", the truncation, "memory violation: valid-free: … at
// f.c:9:3", "memory: cannot prove valid-deref at f.c:4:7: …".
func (e Explanation) String() string {
	switch e.Kind {
	case Unsupported:
		return "unsupported: " + e.Text + " at " + e.At
	case Unmodelled:
		return "unmodelled " + e.Name
	case Callback:
		return "callback: unmodelled " + e.Name + " may call back " + e.Text + " (not modelled)"
	case MemViolation:
		return "memory violation: " + e.Name + ": " + e.Text + " at " + e.At
	case MemUndecided:
		return "memory: cannot prove " + e.Name + " at " + e.At + ": " + e.Text
	}
	return e.Text
}

// less orders explanations as their texts sort.
func less(a, b Explanation) bool { return a.String() < b.String() }

// SortExplanations sorts es by their texts and removes duplicates, in
// place; it returns the shortened slice.
func SortExplanations(es []Explanation) []Explanation {
	if len(es) < 2 {
		return es
	}
	sort.Slice(es, func(i, j int) bool { return less(es[i], es[j]) })
	out := es[:1]
	for _, x := range es[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

// SubsetExplanations reports whether every explanation of a is in b,
// both sorted (SortExplanations).
func SubsetExplanations(a, b []Explanation) bool {
	if len(a) > len(b) {
		return false
	}
	if len(a) == 0 || len(a) == len(b) && &a[0] == &b[0] {
		return true // states share their lists: the stop check's usual case
	}
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] != x && less(b[j], x) {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
	}
	return true
}

// UnionExplanations returns the sorted union of the sorted a and b: a
// or b itself when the other adds nothing (explanation lists are shared
// between states and never modified).
func UnionExplanations(a, b []Explanation) []Explanation {
	if SubsetExplanations(b, a) {
		return a
	}
	if SubsetExplanations(a, b) {
		return b
	}
	return SortExplanations(append(append([]Explanation(nil), a...), b...))
}

// AddExplanation returns the sorted list es with e added (es itself when
// it holds e).
func AddExplanation(es []Explanation, e Explanation) []Explanation {
	return UnionExplanations(es, []Explanation{e})
}

// JoinExplanations renders es for people, joined by sep.
func JoinExplanations(es []Explanation, sep string) string {
	return strings.Join(Texts(es), sep)
}

// SplitExplanations separates the explanations that only forbid FALSE
// (Unmodelled: functions havocked soundly, but a path through them may
// not be real) from all others, which forbid TRUE (unsupported
// constructs, whose effect is not over-approximated; cut paths;
// callbacks; and, conservatively, any kind a reachability run does not
// expect), each in the order of es.
func SplitExplanations(es []Explanation) (blockTrue, blockFalse []Explanation) {
	for _, e := range es {
		if e.Kind == Unmodelled {
			blockFalse = append(blockFalse, e)
		} else {
			blockTrue = append(blockTrue, e)
		}
	}
	return blockTrue, blockFalse
}

// Texts renders explanations for people, in order.
func Texts(es []Explanation) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.String()
	}
	return out
}

// UnmodelledNames are the functions of the Unmodelled explanations of
// es, sorted.
func UnmodelledNames(es []Explanation) []string {
	var names []string
	for _, e := range es {
		if e.Kind == Unmodelled {
			names = append(names, e.Name)
		}
	}
	sort.Strings(names)
	return names
}

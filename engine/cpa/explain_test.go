package cpa

import (
	"reflect"
	"testing"
)

// TestExplanationSets: the sorted-set operations the analyses' states
// use for their explanations, ordered by text, and the texts.
func TestExplanationSets(t *testing.T) {
	f := Explanation{Kind: Unmodelled, Name: "f"}
	g := Explanation{Kind: Unmodelled, Name: "g"}
	asm := Explanation{Kind: Unsupported, Text: "inline assembly", At: "t.c:3:1"}
	a := SortExplanations([]Explanation{g, asm, f, g})
	if want := []Explanation{f, g, asm}; !reflect.DeepEqual(a, want) {
		t.Fatalf("sorted %v, want %v", a, want)
	}
	if !SubsetExplanations(a, a) || !SubsetExplanations(nil, a) || !SubsetExplanations(a[:1], a) || SubsetExplanations(a, a[:2]) {
		t.Error("subset")
	}
	if b := []Explanation{f, asm}; SubsetExplanations(a[:2], b) || !SubsetExplanations(b, a) {
		t.Error("subset of other lists")
	}
	if u := UnionExplanations([]Explanation{f}, []Explanation{asm}); !reflect.DeepEqual(u, []Explanation{f, asm}) {
		t.Errorf("union %v", u)
	}
	if u := AddExplanation(a, g); &u[0] != &a[0] {
		t.Error("adding a held explanation copied the list")
	}
	for e, want := range map[Explanation]string{
		f:   "unmodelled f",
		asm: "unsupported: inline assembly at t.c:3:1",
		{Kind: Callback, Name: "f", Text: "g, h"}:                                           "callback: unmodelled f may call back g, h (not modelled)",
		{Kind: MemUndecided, Name: "valid-deref", At: "t.c:4:2", Text: "unknown pointer p"}: "memory: cannot prove valid-deref at t.c:4:2: unknown pointer p",
	} {
		if got := e.String(); got != want {
			t.Errorf("%v: %q, want %q", e, got, want)
		}
	}
}

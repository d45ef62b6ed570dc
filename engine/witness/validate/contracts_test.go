package validate_test

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/cfatest"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/validate"
)

// TestLoopContracts: each loop kind gets its invariant as a clause
// opening its body (a while loop, a for loop, and CIL's while (1) whose
// body starts with a label, named at its first statement), on the same
// line; a do … while loop, an invariant that says nothing ("(1)") and
// one that could leave the clause get none.
func TestLoopContracts(t *testing.T) {
	const src = `int main(void) {
	int i = 0, j = 0, k = 0;
	while (i < 10) {
		i++;
	}
	for (j = 0; j < 5; j++) { k += j; }
	while (1) {
		cil_continue: /* CIL Label */ ;
		if (k > 100) { goto cil_break; }
		k++;
	}
	cil_break: ;
	do {
		i--;
	} while (i > 0);
	return 0;
}
`
	file := cfatest.SourceFile(t, "loops.c", src)
	prog, err := frontend.Translate(frontend.Options{}, file)
	if err != nil {
		t.Fatal(err)
	}
	inv := func(typ string, line, col int, value string) witness.YAMLInvariantItem {
		var it witness.YAMLInvariantItem
		it.Invariant.Type = typ
		it.Invariant.Location = witness.YAMLLocation{FileName: file, Line: line, Column: col, Function: "main"}
		it.Invariant.Value = value
		it.Invariant.Format = "c_expression"
		return it
	}
	w := &witness.Witness{Correctness: []witness.YAMLCorrectnessEntry{{Content: []witness.YAMLInvariantItem{
		inv(witness.LoopInvariantType, 3, 2, "i <= 10"),
		inv(witness.LoopInvariantType, 3, 2, "0 <= i"),
		inv(witness.LoopInvariantType, 6, 2, "j <= 5"),
		inv(witness.LoopInvariantType, 6, 2, "(1)"),
		inv(witness.LocationInvariantType, 9, 3, "k <= 101"),
		inv(witness.LocationInvariantType, 14, 3, "i >= 0"),
		inv(witness.LoopInvariantType, 3, 2, "1)) x; int y; __typeof__((1"),
	}}}}
	out, loops, unplaced, err := validate.LoopContracts(prog, w, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(out[file], "\n")
	want := strings.Split(src, "\n")
	want[2] = "\twhile (i < 10) { __typeof__((i <= 10)) __reverify_loop_invariant_witness1; __typeof__((0 <= i)) __reverify_loop_invariant_witness2;"
	want[5] = "\tfor (j = 0; j < 5; j++) { __typeof__((j <= 5)) __reverify_loop_invariant_witness3; k += j; }"
	want[6] = "\twhile (1) { __typeof__((k <= 101)) __reverify_loop_invariant_witness4;"
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), out[file])
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %q\nwant %q", i+1, got[i], want[i])
		}
	}
	if loops != 3 || unplaced != 2 {
		t.Errorf("%d loops with a clause and %d invariants without, want 3 and 2 (the do … while loop's, the unsafe one)", loops, unplaced)
	}
	// the rewritten program reads, with the clauses as loop contracts
	p2, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: file, Content: out[file]}})
	if err != nil {
		t.Fatalf("the sources with the clauses do not read: %v", err)
	}
	lines := map[int]bool{}
	for _, e := range p2.Edges {
		if op, ok := e.Op.(*cfa.Havoc); ok && op.Source == "loop contract" {
			lines[e.Pos.Start.Line] = true
		}
	}
	if !lines[3] || !lines[6] || !lines[7] || len(lines) != 3 {
		t.Errorf("loop contracts havoc frames at lines %v, want 3, 6 and 7", lines)
	}
}

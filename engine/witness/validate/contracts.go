package validate

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/contract"
	"github.com/reverify/reverify/engine/witness"
)

// LoopContracts writes a correctness witness's loop invariants into the
// program's sources as loop contracts, for validation by verification
// (D. Beyer and M. Spiessl, "MetaVal: Witness Validation via
// Verification", CAV 2020): each invariant becomes a loop invariant
// clause of the while or for loop it names, in the form
// engine/contract's Rewrite gives clauses (a declaration
// `__typeof__((inv)) __reverify_loop_invariant_…;` opening the loop's
// body; witness.LoopSite.BodyOpen), which the front end translates as
// CBMC's --apply-loop-contracts does: the invariant asserted on entry,
// the loop's frame havocked, the invariant assumed, one iteration
// checked to preserve it, and the loop left from a state it describes.
// A program with these contracts whose properties, the contracts'
// obligations included, all hold is correct whatever the invariants
// say: an invariant at the wrong loop, or too weak, only fails an
// obligation. The loop's frame keeps what the loop does not write, so
// this check knows more than the cut points of validateCorrectness,
// which start a segment in a callee's loop with its callers' locals
// unconstrained.
//
// An invariant that says nothing (a nonzero integer constant, "true")
// gets no clause: abstracting its loop would only lose what the loop
// computes, which a verifier may unroll.
//
// Shapes: the witness's files (name → text) with the clauses inserted,
// only those that changed; the number of loops that got a clause; the
// number of invariants (other than those that say nothing) that got
// none: those at loops without a braced body after a while or for
// keyword (do … while, goto loops), and those with characters that
// could leave the clause (comments, braces, semicolons, literals,
// preprocessor lines). Such an invariant is not checked by the
// contracts, so a caller must not confirm a witness that has one. The
// error is a *witness.BadWitnessError for an invariant type or format
// the validator does not read.
func LoopContracts(prog *cfa.Program, w *witness.Witness, opts Options) (texts map[string]string, loops, unplaced int, err error) {
	src := witness.NewSources(opts.Contents)
	heads, sites := loopHeads(prog, src)
	type at struct {
		file string
		off  int
	}
	clauses := map[at][]string{}
	for _, e := range w.Correctness {
		for _, it := range e.Content {
			inv := it.Invariant
			if inv.Type != witness.LoopInvariantType && inv.Type != witness.LocationInvariantType {
				return nil, 0, 0, bad("witness: unsupported invariant type %q (supported: loop_invariant, location_invariant)", inv.Type)
			}
			if inv.Format != "" && inv.Format != "c_expression" {
				return nil, 0, 0, bad("witness: unsupported invariant format %q (supported: c_expression)", inv.Format)
			}
			if trivial(inv.Value) {
				continue
			}
			placed := false
			for _, l := range matchHeads(prog, heads, inv.Location) {
				s := sites[l]
				if s.Type() != inv.Type {
					continue
				}
				file, off, ok := s.BodyOpen()
				if !ok || !clauseSafe(inv.Value) {
					continue
				}
				placed = true
				k := at{file, off}
				v := strings.TrimSpace(inv.Value)
				if !slices.Contains(clauses[k], v) {
					clauses[k] = append(clauses[k], v)
				}
			}
			if !placed {
				unplaced++
			}
		}
	}
	byFile := map[string][]at{}
	for k := range clauses {
		byFile[k.file] = append(byFile[k.file], k)
	}
	texts = map[string]string{}
	n := 0
	for file, ks := range byFile {
		text, ok := src.Text(file)
		if !ok {
			continue
		}
		sort.Slice(ks, func(i, j int) bool { return ks[i].off < ks[j].off })
		var b strings.Builder
		prev := 0
		for _, k := range ks {
			b.Write(text[prev : k.off+1])
			for _, v := range clauses[k] {
				n++
				// one line: the positions after it on this line move,
				// no line does
				fmt.Fprintf(&b, " __typeof__((%s)) %sinvariant_witness%d;", v, contract.LoopPrefix, n)
			}
			prev = k.off + 1
		}
		b.Write(text[prev:])
		texts[file] = b.String()
	}
	return texts, len(clauses), unplaced, nil
}

// clauseSafe reports whether an invariant's text can stand inside the
// parentheses of a clause declaration without ending it: no comment,
// brace, semicolon, string or character literal, line break,
// preprocessor line or line continuation, and balanced parentheses and
// brackets.
func clauseSafe(v string) bool {
	if strings.TrimSpace(v) == "" || strings.ContainsAny(v, ";{}#\"'\\\n\r") || strings.Contains(v, "/*") || strings.Contains(v, "//") {
		return false
	}
	var stack []byte
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '(', '[':
			stack = append(stack, c)
		case ')', ']':
			want := byte('(')
			if c == ']' {
				want = '['
			}
			if len(stack) == 0 || stack[len(stack)-1] != want {
				return false
			}
			stack = stack[:len(stack)-1]
		}
	}
	return len(stack) == 0
}

// trivial reports whether an invariant's text is a nonzero integer
// constant or "true", perhaps in parentheses.
func trivial(v string) bool {
	v = strings.TrimSpace(v)
	for len(v) >= 2 && v[0] == '(' && v[len(v)-1] == ')' {
		v = strings.TrimSpace(v[1 : len(v)-1])
	}
	if v == "true" {
		return true
	}
	n, err := strconv.ParseInt(strings.TrimRight(v, "uUlL"), 0, 64)
	return err == nil && n != 0
}

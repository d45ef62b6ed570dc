package validate_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/validate"
	"github.com/reverify/reverify/results"
)

// TestProofWitnessesPerAnalysis writes the correctness witness of a TRUE
// verdict of each analysis that proves properties and validates it:
// value, predicate-cegar and symex (reached-set invariants), k-induction
// (its proved invariants and depth), bmc by unwinding assertions (the
// invariant "1" with a depth that makes the base case cover every
// execution) and bmc by k-induction (the invariant "1", 2-inductive).
// The bmc witnesses are also checked to need their depth: without it
// (Floyd's 1-induction) the validator rejects them. A goto loop and a
// do … while loop carry location_invariant items (no while or for
// keyword), bmc's Horn engine's parity invariant (a bit extraction)
// is written as a C mask, and a search's invariant names the sentinel
// element it stops at.
func TestProofWitnessesPerAnalysis(t *testing.T) {
	for _, tc := range []struct {
		file, config string
		needsK       bool   // the witness is rejected without its depth
		horn         bool   // bmc with its Horn engine
		typ          string // every invariant's type, when set
	}{
		{"testdata/invariants.c", "value", false, false, witness.LoopInvariantType},
		{"../../testdata/verdicts/predicate_count.c", "predicate-cegar", false, false, ""},
		{"testdata/invariants.c", "symex", false, false, ""},
		{"../../testdata/verdicts/kind_counting.c", "k-induction", false, false, ""},
		{"testdata/bits.c", "bmc", true, false, ""},
		{"testdata/fill.c", "bmc", true, false, ""},
		{"testdata/goto.c", "bmc", false, true, witness.LocationInvariantType},
		{"testdata/dowhile.c", "value", false, false, witness.LocationInvariantType},
		{"testdata/parity_horn.c", "bmc", false, true, witness.LoopInvariantType},
		{"testdata/sentinel.c", "value", false, false, witness.LoopInvariantType},
	} {
		t.Run(tc.config+"/"+tc.file, func(t *testing.T) {
			t.Parallel()
			cfg := engine.Config{Name: tc.config}
			if tc.horn {
				cfg.Horn = z3.InProcess{}
			}
			prog, props, res := verifyConfig(t, tc.file, cfg)
			n := 0
			for _, r := range res {
				if r.Verdict != results.True {
					continue
				}
				n++
				c := correctness(prog, r, task(tc.file, tc.config))
				var y bytes.Buffer
				if err := witness.WriteCorrectnessYAML(&y, c); err != nil {
					t.Fatal(err)
				}
				v, err := validateYAML(t, prog, props, y.Bytes())
				if err != nil || !v.Confirmed {
					t.Fatalf("%s: own witness not confirmed: %v %s\n%s", r.Property.ID, err, v.Reason, y.String())
				}
				t.Logf("%s: %s", r.Property.ID, v.Reason)
				if tc.typ != "" {
					e, err := witness.CorrectnessYAML(c)
					if err != nil || len(e.Content) == 0 {
						t.Fatalf("%s: no invariant written: %v", r.Property.ID, err)
					}
					for _, it := range e.Content {
						if it.Invariant.Type != tc.typ {
							t.Errorf("%s: invariant %q at line %d is a %s, want %s", r.Property.ID, it.Invariant.Value, it.Invariant.Location.Line, it.Invariant.Type, tc.typ)
						}
					}
				}
				if !tc.needsK {
					continue
				}
				if r.InductionDepth < 2 || !strings.Contains(y.String(), "k-induction: ") {
					t.Fatalf("%s: depth %d, witness without it:\n%s", r.Property.ID, r.InductionDepth, y.String())
				}
				c.K = 0
				y.Reset()
				if err := witness.WriteCorrectnessYAML(&y, c); err != nil {
					t.Fatal(err)
				}
				if v, err := validateYAML(t, prog, props, y.Bytes()); err != nil || v.Confirmed {
					t.Errorf("%s: witness without its depth: confirmed=%v %v %s", r.Property.ID, v.Confirmed, err, v.Reason)
				}
			}
			if n == 0 {
				for _, r := range res {
					t.Logf("%s: %s %s", r.Property.ID, r.Verdict, r.Reason)
				}
				t.Fatal("no TRUE verdict")
			}
		})
	}
}

// TestForgedWitnessesRejected forges correctness witnesses for a
// program whose property fails (after ten iterations): wrong
// invariants, the invariant "1" and invariants that exclude the error,
// each under induction depths from 1 to far beyond the loop. The
// validator must reject every one: a base case that stops before the
// error leaves a step case that reaches it, and a depth that covers the
// loop finds it in the base case.
func TestForgedWitnessesRejected(t *testing.T) {
	const file = "testdata/late.c"
	prog, err := frontend.Translate(frontend.Options{}, file)
	if err != nil {
		t.Fatal(err)
	}
	props := spec.Properties(prog, "main")
	forge := func(inv string, k int) []byte {
		d := ""
		if k > 0 {
			d = "\n      description: 'k-induction: " + strconv.Itoa(k) + "'"
		}
		return []byte(`- entry_type: invariant_set
  metadata:
    format_version: "2.0"
    uuid: ` + fixedUUID + `
    creation_time: "2024-05-01T12:00:00Z"
    producer:
      name: forger` + d + `
    task:
      input_files: [` + file + `]
      specification: G ! call(reach_error())
      data_model: LP64
      language: C
  content:
    - invariant:
        type: loop_invariant
        location: {file_name: late.c, line: 7, column: 2, function: main}
        value: "` + inv + `"
        format: c_expression
`)
	}
	for _, inv := range []string{"1", "c <= 9", "c != 10", "c < 10 || c > 10", "c <= 5", "0 <= c && c <= 10"} {
		for _, k := range []int{0, 1, 2, 3, 5, 9, 10, 11, 12, 40} {
			v, err := validateYAML(t, prog, props, forge(inv, k))
			if err != nil {
				t.Fatalf("%q k=%d: %v", inv, k, err)
			}
			if v.Confirmed {
				t.Errorf("forged witness %q with k=%d confirmed: %s", inv, k, v.Reason)
			}
		}
	}
	// A depth that is not a positive integer is bad input.
	for _, d := range []string{"0", "-1", "x", "99999999999"} {
		y := bytes.Replace(forge("1", 2), []byte("k-induction: 2"), []byte("k-induction: "+d), 1)
		_, err := validateYAML(t, prog, props, y)
		var b *witness.BadWitnessError
		if !errors.As(err, &b) {
			t.Errorf("k-induction: %s: want a witness.BadWitnessError, got %v", d, err)
		}
	}
}

// TestNonlinearInvariants validates hand-written witnesses of a loop
// with a polynomial invariant over 64-bit integers (SV-COMP's ps2-ll),
// which bit-blasting alone does not decide in minutes: the correct
// invariant is confirmed (normalised to sums of monomials, the segment's
// formula is an invariant and its negation), wrong ones are rejected,
// and the correct invariant is rejected on a variant of the program
// whose error it does not exclude. With the check inside the loop,
// the invariant "1" is 2-inductive.
func TestNonlinearInvariants(t *testing.T) {
	witnessFor := func(file, inv string) []byte {
		line, desc := "7", ""
		if strings.HasSuffix(file, "_loop.c") {
			line, desc = "8", ", description: 'k-induction: 2'"
		}
		return []byte(`- entry_type: invariant_set
  metadata:
    format_version: "2.0"
    uuid: ` + fixedUUID + `
    creation_time: "2024-05-01T12:00:00Z"
    producer: {name: hand` + desc + `}
    task:
      input_files: [` + file + `]
      specification: G ! call(reach_error())
      data_model: LP64
      language: C
  content:
    - invariant:
        type: loop_invariant
        location: {file_name: ` + filepath.Base(file) + `, line: ` + line + `, column: 2, function: main}
        value: "` + inv + `"
        format: c_expression
`)
	}
	for _, tc := range []struct {
		file, inv string
		confirmed bool
	}{
		{"testdata/square.c", "y * y - 2 * x + y == 0", true},
		{"testdata/square.c", "y * y - 2 * x - y == 0", false}, // holds initially, not inductive
		{"testdata/square.c", "y * y == x", false},
		{"testdata/square.c", "1", false},
		{"testdata/square_false.c", "y * y - 2 * x + y == 0", false},
		{"testdata/square_false.c", "y * y - 2 * x + y == 0 && x != 6", false},
		// the check in the loop makes "1" 2-inductive; its branches are
		// decided normalised too
		{"testdata/square_loop.c", "1", true},
		{"testdata/square_loop.c", "x <= 5", false},
	} {
		prog, err := frontend.Translate(frontend.Options{}, tc.file)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		w, err := witness.ReadWitness(bytes.NewReader(witnessFor(tc.file, tc.inv)))
		if err != nil {
			t.Fatal(err)
		}
		v, err := validate.Validate(ctx, prog, w, validate.Options{Solver: z3.Factory, Properties: spec.Properties(prog, "main")})
		cancel()
		if err != nil || v.Confirmed != tc.confirmed {
			t.Errorf("%s %q: confirmed=%v (want %v) %v: %s", tc.file, tc.inv, v.Confirmed, tc.confirmed, err, v.Reason)
		}
	}
}

// TestBoundedBaseCase: value-cegar proves a program that builds
// and traverses a list of five nodes; its invariants are not checkable
// from a cut point (pointer dereferences), so Select writes a depth with
// which the validator's base case covers every execution, and the
// witness is confirmed. On the variant whose final check fails, forged
// witnesses with any depth are rejected.
func TestBoundedBaseCase(t *testing.T) {
	const file = "testdata/list5.c"
	prog, props, res := verify(t, file, "value-cegar")
	if len(res) != 2 || res[0].Verdict != results.True || res[1].Verdict != results.True {
		t.Fatalf("want two TRUE verdicts, got %+v", res)
	}
	for _, r := range res {
		c := correctness(prog, r, task(file, "value-cegar"))
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		s, err := validate.Select(ctx, c, validate.Options{Solver: z3.Factory, Properties: props})
		cancel()
		if err != nil || !s.Confirmed || c.K < 2 {
			t.Fatalf("%s: Select: confirmed=%v K=%d %v %s", r.Property.ID, s.Confirmed, c.K, err, s.Reason)
		}
		var y bytes.Buffer
		if err := witness.WriteCorrectnessYAML(&y, c); err != nil {
			t.Fatal(err)
		}
		v, err := validateYAML(t, prog, props, y.Bytes())
		if err != nil || !v.Confirmed {
			t.Fatalf("%s: own witness not confirmed: %v %s\n%s", r.Property.ID, err, v.Reason, y.String())
		}
	}
	const bad = "testdata/list5_false.c"
	bprog, err := frontend.Translate(frontend.Options{}, bad)
	if err != nil {
		t.Fatal(err)
	}
	bprops := spec.Properties(bprog, "main")
	for _, k := range []string{"2", "3", "7", "8", "1000"} {
		y := []byte(`- entry_type: invariant_set
  metadata:
    format_version: "2.0"
    uuid: ` + fixedUUID + `
    creation_time: "2024-05-01T12:00:00Z"
    producer: {name: forger, description: "k-induction: ` + k + `"}
    task:
      input_files: [` + bad + `]
      specification: G ! call(reach_error())
      data_model: LP64
      language: C
  content:
    - invariant:
        type: loop_invariant
        location: {file_name: list5_false.c, line: 15, column: 2, function: main}
        value: "0 <= len && len <= 5"
        format: c_expression
`)
		v, err := validateYAML(t, bprog, bprops, y)
		if err != nil {
			t.Fatalf("k=%s: %v", k, err)
		}
		if v.Confirmed {
			t.Errorf("forged witness with k=%s confirmed: %s", k, v.Reason)
		}
	}
}

// TestSameUpToFresh: the incremental prefix check accepts a re-encoded
// conjunct whose fresh variables (of undefined behaviour, of a pointer
// comparison across objects) are renumbered (and whose operands the
// builder reordered for it), and refuses renamings that are not
// one-to-one, change a fresh variable's prefix or rename anything else.
func TestSameUpToFresh(t *testing.T) {
	b := smt.NewBuilder()
	w := smt.BVSort(32)
	x, y, c := b.Var("x", w), b.Var("y", w), b.Var("c", smt.BoolSort)
	u0, u1, u2 := b.FreshVar("undef", w), b.FreshVar("undef", w), b.FreshVar("undef", w)
	a0, a1 := b.FreshVar("adjacent objects", smt.BoolSort), b.FreshVar("adjacent objects", smt.BoolSort)
	d0 := b.FreshVar("addr", w)
	for _, tc := range []struct {
		a, b *smt.Term
		want bool
	}{
		{b.Eq(b.Ite(c, u0, y), x), b.Eq(x, b.Ite(c, u1, y)), true},
		{b.And(b.Eq(x, u0), b.Eq(y, u0)), b.And(b.Eq(x, u1), b.Eq(y, u2)), false}, // one variable, two names
		{b.And(b.Eq(x, u0), b.Eq(y, u1)), b.And(b.Eq(x, u2), b.Eq(y, u2)), false}, // two variables, one name
		{b.Eq(x, u0), b.Eq(y, u1), false},
		{b.Eq(x, b.Add(u0, y)), b.Eq(x, b.Add(y, u2)), true},
		{b.Or(b.Eq(x, y), b.And(c, a0)), b.Or(b.Eq(x, y), b.And(c, a1)), true},
		{b.Eq(x, u0), b.Eq(x, d0), false}, // another prefix
		{b.Eq(x, b.Var("x@1", w)), b.Eq(x, b.Var("x@2", w)), false},
	} {
		if got := validate.SameUpToFresh(tc.a, tc.b); got != tc.want {
			t.Errorf("SameUpToFresh(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestBoundedBaseCaseAfterHoudini: the value analysis proves
// add_bytes.c with an SMT check of the one error path its reached set
// leaves (the sum depends on the input), so the reached-set invariant
// does not imply the property; the loop is bounded. When Houdini uses
// all the time it is given (as over the candidates of a reached set of
// many states, SV-COMP's byte_add_1-1), Select still confirms the
// witness within its deadline by a base case that covers every
// execution, with the invariant "1".
func TestBoundedBaseCaseAfterHoudini(t *testing.T) {
	const file = "testdata/add_bytes.c"
	prog, props, res := verify(t, file, "value")
	if len(res) != 1 || res[0].Verdict != results.True {
		t.Fatalf("want one TRUE verdict, got %+v", res)
	}
	defer validate.StallHoudini()()
	c := correctness(prog, res[0], task(file, "value"))
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	s, err := validate.Select(ctx, c, validate.Options{Solver: z3.Factory, Properties: props})
	cancel()
	if err != nil || !s.Confirmed || c.K < 2 {
		t.Fatalf("Select: confirmed=%v K=%d %v %s", s.Confirmed, c.K, err, s.Reason)
	}
	var y bytes.Buffer
	if err := witness.WriteCorrectnessYAML(&y, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(y.String(), "value: \"1\"") {
		t.Errorf("want the invariant 1 written:\n%s", y.String())
	}
	v, err := validateYAML(t, prog, props, y.Bytes())
	if err != nil || !v.Confirmed {
		t.Fatalf("own witness not confirmed: %v %s\n%s", err, v.Reason, y.String())
	}
}

// TestBaseCaseShareUnboundedLoop: on a list built while an input says
// so, no base case covers every execution, and the reached-set
// invariants read the heap, which segments from an invariant cannot:
// Select's last try gets its share of the time (baseCaseShare), not the
// whole deadline, so it returns in a few seconds of a 24-second one,
// unconfirmed.
func TestBaseCaseShareUnboundedLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("a 24-second deadline")
	}
	const file = "../../testdata/verdicts/lists_pairs.c"
	prog, props, res := verify(t, file, "value")
	if len(res) == 0 || res[0].Verdict != results.True {
		t.Fatalf("want TRUE verdicts, got %+v", res)
	}
	c := correctness(prog, res[0], task(file, "value"))
	ctx, cancel := context.WithTimeout(context.Background(), 24*time.Second)
	defer cancel()
	start := time.Now()
	s, err := validate.Select(ctx, c, validate.Options{Solver: z3.Factory, Properties: props})
	took := time.Since(start)
	if err != nil || s.Confirmed {
		t.Fatalf("Select: confirmed=%v %v %s", s.Confirmed, err, s.Reason)
	}
	if took > 12*time.Second {
		t.Errorf("Select took %v of a 24 s deadline: the base case over an unbounded loop took more than its share", took)
	}
}

package validate_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/validate"
	"github.com/reverify/reverify/results"
)

// handWitness is an invariant_set with one loop invariant at line:col
// of file (under the SV-COMP specification, so every reach_error call
// counts).
func handWitness(file string, line, col int, fn, value string) []byte {
	return []byte(fmt.Sprintf(`- entry_type: invariant_set
  metadata:
    format_version: "2.0"
    uuid: %s
    creation_time: "2024-05-01T12:00:00Z"
    producer:
      name: hand
      version: "1"
    task:
      input_files:
        - %s
      specification: G ! call(reach_error())
      data_model: LP64
      language: C
  content:
    - invariant:
        type: loop_invariant
        location:
          file_name: %s
          line: %d
          column: %d
          function: %s
        value: %q
        format: c_expression
`, fixedUUID, file, file, line, col, fn, value))
}

// TestValidateLoopConstructs checks the validator on loops in a callee,
// main(int argc, char **argv), while (1), a pointer read after the loop head and a
// counter whose invariant is a range: good
// invariants are confirmed, non-inductive or too weak ones rejected with
// the reason, unsupported constructs rejected naming file:line.
func TestValidateLoopConstructs(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		line, col  int
		fn, inv    string
		confirmed  bool
		reason     string // part of the reason
	}{
		{"callee", "callee.c", 5, 3, "count", "i <= n && n == 10", true, "1 loop invariants are inductive"},
		{"callee not inductive", "callee.c", 5, 3, "count", "i < n && n == 10", false, "is not inductive"},
		{"callee too weak", "callee.c", 5, 3, "count", "i <= n", false, "do not imply"},
		{"argv", "argv.c", 5, 3, "main", "0 <= i && i <= 1000", true, "inductive"},
		{"argv not inductive", "argv.c", 5, 3, "main", "0 <= i && i < 1000", false, "is not inductive"},
		{"argv read", "argv_used.c", 5, 3, "main", "0 <= i && i <= 10", false, "parameter argv of main (type char * *) is used at testdata/loops/argv_used.c:8:7"},
		{"deref", "deref.c", 7, 3, "main", "0 <= i && i <= 10", false, "a pointer dereference at testdata/loops/deref.c:10:7 is not supported"},
		{"while (1)", "while1.c", 5, 3, "main", "0 <= i && i <= 10", true, "inductive"},
		{"while (1) too weak", "while1.c", 5, 3, "main", "0 <= i", false, "do not imply"},
		{"range", "counter.c", 6, 3, "main", "0 <= i && i <= 1000", true, "inductive"},
		{"range not inductive", "counter.c", 6, 3, "main", "0 <= i && i <= 999", false, "is not inductive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := "testdata/loops/" + tc.file
			prog, err := frontend.Translate(frontend.Options{}, file)
			if err != nil {
				t.Fatal(err)
			}
			props := spec.Properties(prog, "main")
			v, err := validateYAML(t, prog, props, handWitness(file, tc.line, tc.col, tc.fn, tc.inv))
			wantValidation(t, v, err, tc.confirmed, tc.reason)
		})
	}
}

// TestSelectInvariants checks validate.Select on TRUE verdicts: the
// invariants written are compact (no disjunction over the loop's
// states: a range for the counter and for a while (1) loop, a loop in a
// callee keeps its parameter's bound, a parity loop needs implications) and the validator confirms the written witness.
func TestSelectInvariants(t *testing.T) {
	for _, tc := range []struct {
		file, config string
		want         []string // the invariants written, in order
	}{
		{"counter.c", "value", []string{"i <= 1000 && 0 <= s && s <= 1 && i >= s"}},
		{"callee.c", "value", []string{"n == 10 && 0 <= i && i <= n"}},
		{"while1.c", "value", []string{"0 <= i && i <= 10"}},
		// An implication between a branch condition and the assertion.
		{"parity.c", "symex", []string{"x <= 10 && (x <= 9 || (y % 2) == 0) && ((y % 2) != 0 || (x % 2) == (y % 2))"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			file := "testdata/loops/" + tc.file
			prog, props, res := verify(t, file, tc.config)
			if len(res) != 1 || res[0].Verdict != results.True {
				t.Fatalf("want one TRUE verdict, got %v", res)
			}
			c := correctness(prog, res[0], task(file, tc.config))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			sel, err := validate.Select(ctx, c, validate.Options{Solver: z3.Factory, Properties: props})
			if err != nil || !sel.Confirmed {
				t.Fatalf("Select: %v %s", err, sel.Reason)
			}
			e, err := witness.CorrectnessYAML(c)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range e.Content {
				got = append(got, it.Invariant.Value)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("invariants %q, want %q", got, tc.want)
			}
			var y bytes.Buffer
			if err := witness.WriteCorrectnessYAML(&y, c); err != nil {
				t.Fatal(err)
			}
			if v, err := validateYAML(t, prog, props, y.Bytes()); err != nil || !v.Confirmed {
				t.Errorf("written witness not confirmed: %v %s", err, v.Reason)
			}
		})
	}
}

// TestNoErrorCall: a program that calls no error function satisfies
// unreach-call in every execution, as the verifier decides it ("no
// error call"): its empty invariant set is confirmed although it has a
// goto loop no invariant can cut; a call through a pointer, which may
// be the error function, is no such program.
func TestNoErrorCall(t *testing.T) {
	const yml = `- entry_type: invariant_set
  metadata:
    format_version: "2.0"
    uuid: 0f8e1d2c-3b4a-4596-8877-665544332211
    creation_time: "2024-05-01T12:00:00Z"
    producer: {name: test, version: "1"}
    task:
      input_files: [t.c]
      input_file_hashes: {t.c: 0000}
      specification: G ! call(reach_error())
      data_model: LP64
      language: C
  content: []
`
	for _, tc := range []struct {
		name, src string
		confirmed bool
	}{
		{"goto loop, no error call", `int main(void) { int a = 0; again: a++; if (a < 6) goto again; if (a != 6) { ERROR: goto ERROR; } return 0; }`, true},
		{"call through a pointer", `extern void reach_error(void); void ok(void) {}
int main(void) { void (*f)(void) = ok; int a = 0; again: a++; if (a < 6) goto again; if (a != 6) f = reach_error; f(); return 0; }`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: tc.src}})
			if err != nil {
				t.Fatal(err)
			}
			w, err := witness.ReadWitness(strings.NewReader(yml))
			if err != nil {
				t.Fatal(err)
			}
			v, err := validate.Validate(context.Background(), prog, w, validate.Options{Solver: z3.Factory, Properties: spec.Properties(prog, "main")})
			if err != nil && tc.confirmed {
				t.Fatal(err)
			}
			if v.Confirmed != tc.confirmed {
				t.Errorf("confirmed %v (%s, %v), want %v", v.Confirmed, v.Reason, err, tc.confirmed)
			}
		})
	}
}

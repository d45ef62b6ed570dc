package results_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reverify/reverify/results"
)

func ip(i int) *int { return &i }

// protoReport is the counterexample of a reported example: a prefix
// through init(), a loop reading six inputs, a call of sum() that reads
// nothing, and the changed callee clamp_len() whose result fails the
// assertion in parse().
func protoReport() *results.PropertyReport {
	st := func(file string, line int, op string) results.StepJSON {
		return results.StepJSON{File: file, Line: line, Op: op, Text: op}
	}
	p := &results.PropertyReport{ID: "parse:h->len<=MAX_PAYLOAD", File: "src/proto.c", Line: 20, Verdict: results.False,
		Expression: "h->len <= MAX_PAYLOAD"}
	p.Steps = append(p.Steps,
		results.StepJSON{Op: "skip"}, // no position: left out
		st("src/proto.c", 25, "enter init"), st("src/proto.c", 10, "h->len = 0U"), st("src/proto.c", 12, "return"),
		st("src/proto.c", 25, "return from init"),
		st("src/proto.c", 26, "enter parse"), st("src/proto.c", 16, "i = 0"))
	for k := 0; k < 6; k++ {
		p.Steps = append(p.Steps, st("src/proto.c", 16, "[i < 6]"))
		p.Inputs = append(p.Inputs, results.InputJSON{Source: "__VERIFIER_nondet_int", Type: "int", Value: int64(k), Line: 17, Step: ip(len(p.Steps))})
		p.Steps = append(p.Steps, st("src/proto.c", 17, "v[i] = nondet(__VERIFIER_nondet_int)"), st("src/proto.c", 16, "i = i + 1"))
	}
	p.Steps = append(p.Steps, st("src/proto.c", 16, "[!(i < 6)]"),
		st("src/proto.c", 18, "enter sum"), st("src/util.c", 4, "s = 0"), st("src/util.c", 7, "return s"), st("src/proto.c", 18, "return from sum"))
	p.Inputs = append(p.Inputs, results.InputJSON{Source: "decl s", Type: "int", Line: 4, Step: ip(len(p.Steps) - 3)},
		results.InputJSON{Source: "__VERIFIER_nondet_uint", Type: "unsigned int", Value: 449, Line: 19, Step: ip(len(p.Steps))})
	p.Steps = append(p.Steps, st("src/proto.c", 19, "__t1 = nondet(__VERIFIER_nondet_uint)"),
		st("src/proto.c", 19, "enter clamp_len"), st("src/util.c", 11, "[n > 192U]"), st("src/util.c", 12, "return 193U"),
		st("src/proto.c", 19, "return from clamp_len"), st("src/proto.c", 20, "[!(h->len <= 192U)]"))
	return p
}

func TestReadableTrace(t *testing.T) {
	p := protoReport()
	changed := func(file string, line int) bool { return file == "src/util.c" && (line == 11 || line == 12) }
	var got []string
	for _, r := range results.ReadableTrace(p, "", changed) {
		s := p.Steps[r.Step]
		line := fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Op)
		if r.Fold != "" {
			line = fmt.Sprintf("%s:%d (%s)", s.File, s.Line, r.Fold)
		}
		for _, k := range r.Inputs {
			line += fmt.Sprintf(" <%s=%d>", p.Inputs[k].Source, p.Inputs[k].Value)
		}
		if r.Changed {
			line += " *"
		}
		got = append(got, line)
	}
	want := []string{
		"src/proto.c:25 (call enter init: 4 steps)",
		"src/proto.c:26 enter parse",
		"src/proto.c:16 i = 0",
		"src/proto.c:16 [i < 6]",
		"src/proto.c:17 v[i] = nondet(__VERIFIER_nondet_int) <__VERIFIER_nondet_int=0>",
		"src/proto.c:16 i = i + 1",
		"src/proto.c:16 (4 more iterations (12 steps)) <__VERIFIER_nondet_int=1> <__VERIFIER_nondet_int=2> <__VERIFIER_nondet_int=3> <__VERIFIER_nondet_int=4>",
		"src/proto.c:16 [i < 6]",
		"src/proto.c:17 v[i] = nondet(__VERIFIER_nondet_int) <__VERIFIER_nondet_int=5>",
		"src/proto.c:16 i = i + 1",
		"src/proto.c:16 [!(i < 6)]",
		"src/proto.c:18 (call enter sum: 4 steps)",
		"src/proto.c:19 __t1 = nondet(__VERIFIER_nondet_uint) <__VERIFIER_nondet_uint=449>",
		"src/proto.c:19 enter clamp_len",
		"src/util.c:11 [n > 192U] *",
		"src/util.c:12 return 193U *",
		"src/proto.c:19 return from clamp_len",
		"src/proto.c:20 [!(h->len <= 192U)]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

package witness

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/witness/witnesstest"
	"github.com/reverify/reverify/results"
)

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	witnesstest.Golden(t, filepath.Join("testdata", name), got)
}

var fixedTime = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

const fixedUUID = "0f8e1d2c-3b4a-4596-8877-665544332211"

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// violationFor translates testdata/file, runs it with vals and returns the
// violation (failing if the run does not reach the error).
func violationFor(t *testing.T, file string, dm cfa.DataModel, specification string, vals []uint64, o witnesstest.ExecOpts) *Violation {
	t.Helper()
	src := readTestdata(t, file)
	p := witnesstest.Translate(t, dm, file, src)
	path, inputs, reached := witnesstest.Execute(t, p, "main", vals, o)
	if !reached {
		t.Fatalf("%s with %v does not reach the error", file, vals)
	}
	return &Violation{Program: p, Path: path, Inputs: inputs, Task: Task{
		Files:         []string{file},
		Contents:      map[string]string{file: src},
		Entry:         "main",
		Specification: specification,
		DataModel:     dm,
		Producer:      "reverify",
		Version:       "0.0.0-test",
		Configuration: "value",
		UUID:          fixedUUID,
		Created:       fixedTime,
	}}
}

type witnessCase struct {
	name, file    string
	dm            cfa.DataModel
	specification string
	vals          []uint64
	want          []string // the waypoints, as YAMLWaypoint.String
}

var witnessCases = []witnessCase{
	{
		name: "simple", file: "simple.c", dm: cfa.LP64,
		specification: "G ! call(reach_error())",
		vals:          []uint64{11},
		want: []string{
			"assumption x == 11 @simple.c:8:3 main",
			"branching true @simple.c:8:3 main",
			"target @simple.c:9:5 main",
		},
	},
	{
		name: "loop", file: "loop.c", dm: cfa.ILP32,
		specification: "CHECK( init(main()), LTL(G ! call(reach_error())) )",
		vals:          []uint64{3, 200, 0},
		want: []string{
			"assumption n == 3 @loop.c:17:3 main",
			"assumption u == 200 @loop.c:19:3 main",
			"branching true @loop.c:20:3 main",
			"function_enter @loop.c:21:14 main",
			"branching true @loop.c:20:3 main",
			"function_enter @loop.c:21:14 main",
			"branching true @loop.c:20:3 main",
			"function_enter @loop.c:21:14 main",
			"branching false @loop.c:20:3 main",
			`function_return \result == 0 @loop.c:23:44 main`,
			"branching false @loop.c:23:3 main",
			"function_enter @loop.c:26:27 main",
			"branching true @loop.c:7:3 __VERIFIER_assert",
			"target @loop.c:8:13 __VERIFIER_assert",
		},
	},
	{
		name: "legacy", file: "legacy.c", dm: cfa.LP64,
		specification: "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )",
		vals:          []uint64{255, uint64(1<<64 - 7), 1, 1, 0},
		want: []string{
			"assumption c == 255 @legacy.c:9:3 main",
			"assumption l == -7 @legacy.c:12:3 main",
			`function_return \result == 1 @legacy.c:12:33 main`,
			"branching true @legacy.c:12:3 main",
			`function_return \result == 1 @legacy.c:12:33 main`,
			"branching true @legacy.c:12:3 main",
			`function_return \result == 0 @legacy.c:12:33 main`,
			"branching false @legacy.c:12:3 main",
			"branching true @legacy.c:15:3 main",
			"target @legacy.c:15:28 main",
		},
	},
	{
		// A value read in a callee, do-while and switch (no branching
		// waypoints), ?: in value position inside a condition.
		name: "calls", file: "calls.c", dm: cfa.LP64,
		vals: []uint64{1, 0xfb},
		want: []string{
			"function_enter @calls.c:13:15 main",
			"assumption v == 1 @calls.c:9:3 get",
			"assumption c == -5 @calls.c:15:3 main",
			"branching true @calls.c:23:3 main",
			"target @calls.c:24:5 main",
		},
	},
}

func TestWitnesses(t *testing.T) {
	for _, tc := range witnessCases {
		t.Run(tc.name, func(t *testing.T) {
			v := violationFor(t, tc.file, tc.dm, tc.specification, tc.vals, witnesstest.ExecOpts{})

			var y bytes.Buffer
			if err := WriteViolationYAML(&y, v); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name+".yml", y.Bytes())

			// The YAML parses back (generically and into the types) and
			// holds exactly the expected waypoints.
			var generic any
			if err := yaml.Unmarshal(y.Bytes(), &generic); err != nil {
				t.Fatalf("YAML does not parse: %v", err)
			}
			es, err := ReadYAML(bytes.NewReader(y.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if len(es) != 1 || es[0].EntryType != "violation_sequence" {
				t.Fatalf("entries: %+v", es)
			}
			checkMetadata(t, es[0], v)
			var got []string
			for i, seg := range es[0].Content {
				if len(seg.Segment) != 1 || seg.Segment[0].Waypoint.Action != Follow {
					t.Errorf("segment %d: want one follow waypoint, got %+v", i, seg.Segment)
				}
				for _, w := range seg.Segment {
					got = append(got, w.Waypoint.String())
					checkWaypoint(t, w.Waypoint)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("waypoints:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}

			var g bytes.Buffer
			if err := WriteViolationGraphML(&g, v); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name+".graphml", g.Bytes())
			checkGraphML(t, g.Bytes())
		})
	}
}

// checkMetadata checks the required metadata against the violation.
func checkMetadata(t *testing.T, e YAMLEntry, v *Violation) {
	t.Helper()
	m := e.Metadata
	if m.FormatVersion != "2.0" || m.UUID != fixedUUID || m.CreationTime != "2024-05-01T12:00:00Z" {
		t.Errorf("metadata: %+v", m)
	}
	if m.Producer.Name != "reverify" || m.Producer.Version != "0.0.0-test" || m.Producer.Configuration != "value" {
		t.Errorf("producer: %+v", m.Producer)
	}
	task := m.Task
	if task.Language != "C" || task.DataModel != v.Task.DataModel.String() || task.Specification != SpecFormula(v.Task.Specification) {
		t.Errorf("task: %+v", task)
	}
	if len(task.InputFiles) != 1 || len(task.InputFileHashes[task.InputFiles[0]]) != 64 {
		t.Errorf("input files: %v %v", task.InputFiles, task.InputFileHashes)
	}
}

// checkWaypoint checks the per-type rules of the format: constraints are
// forbidden for function_enter and target, required otherwise, with the
// right format.
func checkWaypoint(t *testing.T, w YAMLWaypoint) {
	t.Helper()
	if w.Location.FileName == "" || w.Location.Line < 1 {
		t.Errorf("%s: bad location", w)
	}
	switch w.Type {
	case FunctionEnter, Target:
		if w.Constraint != nil {
			t.Errorf("%s: constraint not allowed", w)
		}
	case Assumption:
		if w.Constraint == nil || w.Constraint.Format != "c_expression" {
			t.Errorf("%s: want a c_expression", w)
		}
	case FunctionReturn:
		if w.Constraint == nil || w.Constraint.Format != "acsl_expression" || !strings.HasPrefix(w.Constraint.Value, `\result `) {
			t.Errorf("%s: want an acsl_expression on \\result", w)
		}
	case Branching:
		if w.Constraint == nil || w.Constraint.Format != "" || w.Constraint.Value != "true" && w.Constraint.Value != "false" {
			t.Errorf("%s: want true or false", w)
		}
	default:
		t.Errorf("%s: unknown type", w)
	}
}

// checkGraphML checks the GraphML is well-formed XML with one entry and one
// violation node and a chain of edges between them.
func checkGraphML(t *testing.T, b []byte) {
	t.Helper()
	s := string(b)
	if strings.Count(s, `<data key="entry">true</data>`) != 1 || strings.Count(s, `<data key="violation">true</data>`) != 1 {
		t.Errorf("want one entry and one violation node")
	}
	for _, k := range []string{"witness-type", "sourcecodelang", "producer", "specification", "programfile", "programhash", "architecture", "creationtime"} {
		if !strings.Contains(s, `<data key="`+k+`">`) {
			t.Errorf("graph data %s missing", k)
		}
	}
	if err := xmlWellFormed(b); err != nil {
		t.Errorf("GraphML: %v", err)
	}
}

// TestHandBuilt builds `x = nondet_int(); if (x > 10) reach_error();` by
// hand, with source positions into a given text.
func TestHandBuilt(t *testing.T) {
	const src = "int main() {\n  int x;\n  x = __VERIFIER_nondet_int();\n  if (x > 10) reach_error();\n  return 0;\n}\n"
	p := cfa.NewProgram(cfa.LP64)
	p.Files = []string{"hand.c"}
	p.Externals["__VERIFIER_nondet_int"] = &cfa.Type{Kind: cfa.Func, Result: cfa.IntT}
	p.Externals["reach_error"] = &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType}
	main := p.NewFunction("main", &cfa.Type{Kind: cfa.Func, Result: cfa.IntT})
	x := p.NewVar(main, "x", cfa.IntT)
	x.Pos = cfa.Pos{File: "hand.c", Line: 2, Col: 7}
	main.RetVar = p.NewVar(main, "__retval", cfa.IntT)
	main.RetVar.Temp, main.RetVar.Orig = true, ""
	rng := func(l, c1, c2 int) cfa.Range {
		return cfa.Range{Start: cfa.Pos{File: "hand.c", Line: l, Col: c1}, End: cfa.Pos{File: "hand.c", Line: l, Col: c2}}
	}
	l1, l2, l3, l4, l5 := p.NewLocation(main), p.NewLocation(main), p.NewLocation(main), p.NewLocation(main), p.NewLocation(main)
	p.AddEdge(p.Init.Entry, p.Init.Exit, &cfa.Noop{}, cfa.Range{}, "")
	decl := p.AddEdge(main.Entry, l1, &cfa.Decl{Var: x}, rng(2, 3, 7), "int x")
	havoc := p.AddEdge(l1, l2, &cfa.Havoc{LHS: &cfa.VarRef{Var: x}, Source: "__VERIFIER_nondet_int"}, rng(3, 3, 29), "x = __VERIFIER_nondet_int()")
	cond := &cfa.Binary{Op: cfa.Gt, X: &cfa.VarRef{Var: x}, Y: cfa.NewConst(cfa.IntT, 10), T: cfa.IntT}
	yes := p.AddEdge(l2, l3, &cfa.Assume{Cond: cond, Truth: true}, rng(4, 7, 12), "x > 10")
	p.AddEdge(l2, l4, &cfa.Assume{Cond: cond, Truth: false}, rng(4, 7, 12), "x > 10")
	call := p.AddEdge(l3, l5, &cfa.Call{Fn: "reach_error", Pos: cfa.Pos{File: "hand.c", Line: 4, Col: 15}}, rng(4, 15, 27), "reach_error()")
	l5.Terminal = true
	p.AddEdge(l4, main.Exit, &cfa.Return{X: cfa.NewConst(cfa.IntT, 0)}, rng(5, 3, 11), "return 0;")
	p.Finish()
	if err := p.Check(); err != nil {
		t.Fatalf("hand-built CFA: %v", err)
	}
	path := []cfa.Step{
		{Kind: cfa.Intra, Edge: p.Init.Entry.Out[0]},
		{Kind: cfa.Enter, Callee: main},
		{Kind: cfa.Intra, Edge: decl},
		{Kind: cfa.Intra, Edge: havoc},
		{Kind: cfa.Intra, Edge: yes},
		{Kind: cfa.Intra, Edge: call},
	}
	v := &Violation{Program: p, Path: path, Inputs: []results.Input{{Source: "__VERIFIER_nondet_int", Type: cfa.IntT, Bits: 11, Step: 3}},
		Task: Task{Contents: map[string]string{"hand.c": src}, UUID: fixedUUID, Created: fixedTime, Version: "0.0.0-test"}}
	e, err := ViolationYAML(v)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range e.Content {
		got = append(got, s.Segment[0].Waypoint.String())
	}
	want := []string{
		"assumption x == 11 @hand.c:4:3 main",
		"branching true @hand.c:4:3 main",
		"target @hand.c:4:15 main",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("waypoints:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if e.Metadata.Task.Specification != "G ! call(reach_error())" || e.Metadata.Task.DataModel != "LP64" || e.Metadata.Producer.Name != "reverify" {
		t.Errorf("metadata: %+v", e.Metadata)
	}
	var y, g bytes.Buffer
	if err := WriteViolationYAML(&y, v); err != nil {
		t.Fatal(err)
	}
	golden(t, "hand.yml", y.Bytes())
	if err := WriteViolationGraphML(&g, v); err != nil {
		t.Fatal(err)
	}
	golden(t, "hand.graphml", g.Bytes())

	// Without the source text, the witness keeps what positions alone
	// give: the value at the call, and the target.
	v.Task.Contents = nil
	v.Task.Hashes = map[string]string{"hand.c": strings.Repeat("0", 64)}
	e, err = ViolationYAML(v)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(e.Content); n != 1 || e.Content[0].Segment[0].Waypoint.Type != Target {
		t.Errorf("without source: %d segments: %+v", n, e.Content)
	}
	// Without hashes either, the YAML cannot be written.
	v.Task.Hashes = nil
	if err := WriteViolationYAML(&y, v); err == nil {
		t.Error("want an error without file contents or hashes")
	}
}

// TestDocExample keeps the example in doc.go equal to the golden file.
func TestDocExample(t *testing.T) {
	doc := readFile(t, "doc.go")
	var b strings.Builder
	in := false
	for _, l := range strings.Split(doc, "\n") {
		switch {
		case l == "//\t# testdata/simple.yml":
			in = true
		case in && strings.HasPrefix(l, "//\t"):
			b.WriteString(strings.TrimPrefix(l, "//\t") + "\n")
		case in:
			in = false
		}
	}
	if b.String() != readTestdata(t, "simple.yml") {
		t.Errorf("the example in doc.go differs from testdata/simple.yml:\n%s", b.String())
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestNoTarget(t *testing.T) {
	v := violationFor(t, "simple.c", cfa.LP64, "", []uint64{11}, witnesstest.ExecOpts{})
	v.Path = v.Path[:len(v.Path)-1]
	if err := WriteViolationYAML(&bytes.Buffer{}, v); err == nil || !strings.Contains(err.Error(), "error function") {
		t.Errorf("want an error for a path without error call, got %v", err)
	}
}

func TestSpecification(t *testing.T) {
	for _, tc := range []struct{ in, formula, check string }{
		{"", "G ! call(reach_error())", "CHECK( init(main()), LTL(G ! call(reach_error())) )"},
		{"G ! call(reach_error())", "G ! call(reach_error())", "CHECK( init(main()), LTL(G ! call(reach_error())) )"},
		{"CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )\n", "G ! call(__VERIFIER_error())", "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )"},
	} {
		if got := SpecFormula(tc.in); got != tc.formula {
			t.Errorf("SpecFormula(%q) = %q, want %q", tc.in, got, tc.formula)
		}
		if got := specCheck(tc.in, ""); got != tc.check {
			t.Errorf("specCheck(%q) = %q, want %q", tc.in, got, tc.check)
		}
	}
}

func TestValues(t *testing.T) {
	for _, tc := range []struct {
		t       *cfa.Type
		v       uint64
		c, acsl string
	}{
		{cfa.IntT, 11, "11", "11"},
		{cfa.IntT, 0xfffffffb, "-5", "-5"},
		{cfa.IntT, 0x80000000, "-2147483648", "-2147483648"},
		{cfa.UIntType, 0xffffffff, "4294967295U", "4294967295"},
		{cfa.UIntType, 7, "7", "7"},
		{cfa.LLType, 1 << 63, "(-9223372036854775807LL - 1)", "-9223372036854775808"},
		{cfa.ULLType, 1<<64 - 1, "18446744073709551615U", "18446744073709551615"},
		{cfa.CharType, 0xff, "-1", "-1"},
		{cfa.UCharType, 0xff, "255", "255"},
		{cfa.BoolType, 1, "1", "1"},
	} {
		if got := CValue(tc.t, tc.v); got != tc.c {
			t.Errorf("CValue(%s, %#x) = %s, want %s", tc.t, tc.v, got, tc.c)
		}
		if got := acslValue(tc.t, tc.v); got != tc.acsl {
			t.Errorf("acslValue(%s, %#x) = %s, want %s", tc.t, tc.v, got, tc.acsl)
		}
	}
}

// xmlWellFormed decodes b completely.
func xmlWellFormed(b []byte) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

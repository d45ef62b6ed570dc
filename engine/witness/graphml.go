package witness

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// graphmlKeys declares the data keys used, as sv-witnesses'
// README-GraphML.md names them (id, attr.name, for, attr.type, default).
// graphmlKey is a GraphML data key declaration.
type graphmlKey struct{ id, name, domain, typ, def string }

var graphmlKeys = []graphmlKey{
	{"witness-type", "witness-type", "graph", "string", ""},
	{"sourcecodelang", "sourcecodelang", "graph", "string", ""},
	{"producer", "producer", "graph", "string", ""},
	{"specification", "specification", "graph", "string", ""},
	{"programfile", "programfile", "graph", "string", ""},
	{"programhash", "programhash", "graph", "string", ""},
	{"architecture", "architecture", "graph", "string", ""},
	{"creationtime", "creationtime", "graph", "string", ""},
	{"entry", "isEntryNode", "node", "boolean", "false"},
	{"violation", "isViolationNode", "node", "boolean", "false"},
	{"startline", "startline", "edge", "int", ""},
	{"endline", "endline", "edge", "int", ""},
	{"originfile", "originFileName", "edge", "string", ""},
	{"control", "control", "edge", "string", ""},
	{"assumption", "assumption", "edge", "string", ""},
	{"assumption.scope", "assumption.scope", "edge", "string", ""},
	{"assumption.resultfunction", "assumption.resultfunction", "edge", "string", ""},
	{"enterFunction", "enterFunction", "edge", "string", ""},
	{"returnFromFunction", "returnFromFunction", "edge", "string", ""},
}

// gmlEdge is one transition of the witness automaton: its data in key
// order.
type gmlEdge [][2]string

// WriteViolationGraphML writes v as a GraphML 1.0 violation witness
// (sv-witnesses README-GraphML.md): a chain of transitions from the entry
// node to the violation node, one per informative step of the path:
//
//   - a nondeterministic input: startline and the state-space guard
//     "\result == v;" with assumption.resultfunction naming the function
//     called (the test-vector form of the sv-witnesses test-harness
//     examples); an uninitialised local: "x == v;" with assumption.scope;
//   - a condition of an if, while, for or switch: startline and control
//     condition-true/condition-false (the value of that condition, as the
//     front end splits && and || into separate conditions);
//   - entering and leaving a function with a body: enterFunction and
//     returnFromFunction;
//   - the error call: startline (and enterFunction when the error
//     function has a body), into the violation node.
//
// Conditions in value position (a && b stored as a value, ?: outside a
// controlling expression, __VERIFIER_assume) get no transition: a
// validator whose CFA has no matching edge would otherwise be stuck.
func WriteViolationGraphML(w io.Writer, v *Violation) error {
	c, err := newCtx(v, true)
	if err != nil {
		return err
	}
	prog := c.order[0]
	producer, arch := graphmlProducerArch(v.Task, c.producer)

	var b strings.Builder
	graphmlHeader(&b, graphmlKeys)
	for _, d := range [][2]string{
		{"witness-type", "violation_witness"},
		{"sourcecodelang", "C"},
		{"producer", producer},
		{"specification", c.checkLine()},
		{"programfile", prog},
		{"programhash", c.hashes[prog]},
		{"architecture", arch},
		{"creationtime", c.created()},
	} {
		fmt.Fprintf(&b, "  <data key=%q>%s</data>\n", d[0], esc(d[1]))
	}
	edges := c.graphmlEdges(prog)
	b.WriteString("  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n  </node>\n")
	for i := 1; i < len(edges); i++ {
		fmt.Fprintf(&b, "  <node id=\"N%d\"/>\n", i)
	}
	fmt.Fprintf(&b, "  <node id=\"N%d\">\n   <data key=\"violation\">true</data>\n  </node>\n", len(edges))
	for i, e := range edges {
		fmt.Fprintf(&b, "  <edge source=\"N%d\" target=\"N%d\">\n", i, i+1)
		for _, d := range e {
			fmt.Fprintf(&b, "   <data key=%q>%s</data>\n", d[0], esc(d[1]))
		}
		b.WriteString("  </edge>\n")
	}
	b.WriteString(" </graph>\n</graphml>\n")
	_, err = io.WriteString(w, b.String())
	return err
}

func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// graphmlEdges returns the transitions of the witness automaton.
func (c *ctx) graphmlEdges(prog string) []gmlEdge {
	var edges []gmlEdge
	lines := func(e *cfa.Edge) gmlEdge {
		var d gmlEdge
		if e.Pos.Start.Line > 0 {
			d = append(d, [2]string{"startline", fmt.Sprint(e.Pos.Start.Line)})
			if e.Pos.End.Line > 0 {
				d = append(d, [2]string{"endline", fmt.Sprint(e.Pos.End.Line)})
			}
			if f := e.Pos.Start.File; f != "" && f != prog {
				d = append(d, [2]string{"originfile", f})
			}
		}
		return d
	}
	for i := 0; i < c.target; i++ {
		s := c.v.Path[i]
		if s.Edge == nil {
			continue
		}
		switch s.Kind {
		case cfa.Intra:
			if vs, ok := c.site(i); ok {
				if vs.Kind == SiteOther || !constantOK(vs.T, vs.In.Bits) {
					continue
				}
				d := lines(s.Edge)
				switch {
				case vs.Fn != "":
					d = append(d, [2]string{"assumption", `\result == ` + CValue(vs.T, vs.In.Bits) + ";"},
						[2]string{"assumption.scope", c.funcs[i]},
						[2]string{"assumption.resultfunction", vs.Fn})
				default:
					x, ok := plainVar(vs.LHS)
					if !ok {
						continue
					}
					d = append(d, [2]string{"assumption", x.Orig + " == " + CValue(vs.T, vs.In.Bits) + ";"},
						[2]string{"assumption.scope", c.funcs[i]})
				}
				edges = append(edges, d)
				continue
			}
			if a, ok := s.Edge.Op.(*cfa.Assume); ok {
				if _, ok := c.branchOf(i); !ok && c.file(s.Edge.Pos.Start.File) != nil {
					continue
				}
				ctl := "condition-false"
				if a.Truth {
					ctl = "condition-true"
				}
				edges = append(edges, append(lines(s.Edge), [2]string{"control", ctl}))
			}
		case cfa.Enter:
			call, _ := s.Edge.Op.(*cfa.Call)
			if call == nil || s.Callee == nil {
				continue
			}
			edges = append(edges, append(lines(s.Edge), [2]string{"enterFunction", s.Callee.Name}))
		case cfa.Leave:
			if s.Callee == nil {
				continue
			}
			edges = append(edges, gmlEdge{{"returnFromFunction", s.Callee.Name}})
		}
	}
	t := c.v.Path[c.target]
	d := lines(t.Edge)
	if t.Kind == cfa.Enter && t.Callee != nil {
		d = append(d, [2]string{"enterFunction", t.Callee.Name})
	}
	return append(edges, d)
}

// graphmlHeader writes the XML declaration, the graphml element, the key
// declarations and the opening graph element.
func graphmlHeader(b *strings.Builder, keys []graphmlKey) {
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n")
	b.WriteString("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n")
	for _, k := range keys {
		fmt.Fprintf(b, " <key attr.name=%q attr.type=%q for=%q id=%q", k.name, k.typ, k.domain, k.id)
		if k.def == "" {
			b.WriteString("/>\n")
		} else {
			fmt.Fprintf(b, ">\n  <default>%s</default>\n </key>\n", k.def)
		}
	}
	b.WriteString(" <graph edgedefault=\"directed\">\n")
}

// graphmlProducerArch returns the producer text ("name version /
// configuration") and the architecture key ("32bit" for ILP32, else
// "64bit") of a GraphML witness for task.
func graphmlProducerArch(task Task, producer func() (string, string)) (string, string) {
	name, version := producer()
	p := name + " " + version
	if task.Configuration != "" {
		p += " / " + task.Configuration
	}
	if task.DataModel == cfa.ILP32 {
		return p, "32bit"
	}
	return p, "64bit"
}

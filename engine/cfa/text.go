package cfa

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// WriteText writes the stable text form of p: globals, then Init and every
// function in definition order, each edge on one line as
//
//	L3 -> L4  x = x + 1  @5:5
//
// with locations numbered within the function and positions as line:col
// (the file is named once per function). Loop heads carry a "*".
func (p *Program) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, v := range p.Globals {
		fmt.Fprintf(&b, "global %s %s\n", v.T, v.Name)
	}
	if len(p.Externals) > 0 {
		names := make([]string, 0, len(p.Externals))
		for n := range p.Externals {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(&b, "extern %s\n", strings.Join(names, ", "))
	}
	if len(p.Init.Locs) > 2 || len(p.Init.Entry.Out) > 0 {
		writeFunction(&b, p.Init)
	}
	for _, f := range p.Funcs {
		writeFunction(&b, f)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Text returns the stable text form of p (see WriteText).
func (p *Program) Text() string {
	var b strings.Builder
	p.WriteText(&b)
	return b.String()
}

func writeFunction(b *strings.Builder, f *Function) {
	params := make([]string, len(f.Params))
	for i, v := range f.Params {
		params[i] = v.T.String() + " " + v.Name
	}
	res := "void"
	if f.T != nil && f.T.Result != nil {
		res = f.T.Result.String()
	}
	file := f.Pos.Start.File
	fmt.Fprintf(b, "\nfunc %s(%s) %s", f.Name, strings.Join(params, ", "), res)
	if file != "" {
		fmt.Fprintf(b, "  // %s", file)
	}
	fmt.Fprintf(b, "\n  entry %s exit %s\n", f.Entry, f.Exit)
	for _, l := range f.Locs {
		for _, e := range l.Out {
			mark := ""
			if e.To.LoopHead {
				mark = "*"
			}
			fmt.Fprintf(b, "  %s -> %s%s  %s", e.From, e.To, mark, e.Op)
			if e.Pos.Start.Line > 0 {
				fmt.Fprintf(b, "  @%d:%d", e.Pos.Start.Line, e.Pos.Start.Col)
			}
			b.WriteByte('\n')
		}
		if l.Terminal {
			fmt.Fprintf(b, "  %s terminal\n", l)
		}
	}
}

// WriteDOT writes f as a Graphviz digraph: locations as nodes (loop heads
// doubled, the entry and exit labelled), edges labelled with their
// operations.
func (f *Function) WriteDOT(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %q {\n  node [shape=circle fontsize=10];\n", f.Name)
	for _, l := range f.Locs {
		attrs := fmt.Sprintf("label=%q", l.String())
		switch {
		case l == f.Entry:
			attrs += " shape=doublecircle xlabel=\"entry\""
		case l == f.Exit:
			attrs += " shape=doublecircle xlabel=\"exit\""
		case l.LoopHead:
			attrs += " peripheries=2"
		case l.Terminal:
			attrs += " shape=box"
		}
		fmt.Fprintf(&b, "  n%d [%s];\n", l.Index, attrs)
	}
	for _, l := range f.Locs {
		for _, e := range l.Out {
			fmt.Fprintf(&b, "  n%d -> n%d [label=%q];\n", e.From.Index, e.To.Index, e.Op.String())
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteDOT writes every function of p as a sequence of DOT digraphs, one
// per function, in definition order.
func (p *Program) WriteDOT(w io.Writer) error {
	for _, f := range p.Funcs {
		if err := f.WriteDOT(w); err != nil {
			return err
		}
	}
	return nil
}

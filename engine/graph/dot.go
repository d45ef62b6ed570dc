package graph

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// WriteDOT writes g in Graphviz DOT syntax as a digraph called name
// (omitted when empty). Nodes are written first, in order 0..Len()-1, as
// n0, n1, ...; then every edge, grouped by source node in node order and
// in Succs order within a node (duplicate edges are written as many
// times). The output is therefore deterministic. Lines are tab-indented:
//
//	digraph "name" {
//		n0 [label="entry"];
//		n1;
//		n0 -> n1 [label="x > 0"];
//	}
//
// nodeAttrs(n) and edgeAttrs(from, to) return the attribute list written
// inside the brackets, e.g. `label="x", shape=box`; an empty string (or a
// nil function) writes no brackets. Attribute strings are written
// verbatim; use [QuoteDOT] to quote arbitrary label text. Output is
// buffered; the first write error is returned. O(V+E).
func WriteDOT(w io.Writer, g Graph, name string, nodeAttrs func(n int) string, edgeAttrs func(from, to int) string) error {
	bw := bufio.NewWriter(w)
	var buf []byte
	buf = append(buf, "digraph "...)
	if name != "" {
		buf = append(buf, QuoteDOT(name)...)
		buf = append(buf, ' ')
	}
	buf = append(buf, "{\n"...)
	bw.Write(buf)
	n := g.Len()
	for v := range n {
		buf = append(buf[:0], "\tn"...)
		buf = strconv.AppendInt(buf, int64(v), 10)
		if nodeAttrs != nil {
			buf = appendAttrs(buf, nodeAttrs(v))
		}
		buf = append(buf, ";\n"...)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	for v := range n {
		for _, u := range g.Succs(v) {
			buf = append(buf[:0], "\tn"...)
			buf = strconv.AppendInt(buf, int64(v), 10)
			buf = append(buf, " -> n"...)
			buf = strconv.AppendInt(buf, int64(u), 10)
			if edgeAttrs != nil {
				buf = appendAttrs(buf, edgeAttrs(v, u))
			}
			buf = append(buf, ";\n"...)
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

func appendAttrs(buf []byte, attrs string) []byte {
	if attrs == "" {
		return buf
	}
	buf = append(buf, " ["...)
	buf = append(buf, attrs...)
	return append(buf, ']')
}

// QuoteDOT returns s as a double-quoted DOT string: backslashes and double
// quotes are escaped and newlines become \n, so the text is shown
// literally (Graphviz escape sequences such as \l are not interpreted).
// For example QuoteDOT(`a "b"`) is `"a \"b\""`. O(len(s)).
func QuoteDOT(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

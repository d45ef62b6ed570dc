package graph

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestWriteDOT(t *testing.T) {
	g := edges(3, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 2}, [2]int{2, 0}, [2]int{1, 2})
	labels := []string{"entry", `x > 0 "then"`, ""}
	tests := []struct {
		name      string
		graphName string
		node      func(int) string
		edge      func(int, int) string
		want      string
	}{
		{
			name:      "attrs",
			graphName: `cfa "main"`,
			node: func(n int) string {
				if labels[n] == "" {
					return ""
				}
				return "label=" + QuoteDOT(labels[n]) + ", shape=box"
			},
			edge: func(from, to int) string {
				if to < from {
					return "style=dashed"
				}
				return ""
			},
			want: `digraph "cfa \"main\"" {
	n0 [label="entry", shape=box];
	n1 [label="x > 0 \"then\"", shape=box];
	n2;
	n0 -> n1;
	n0 -> n2;
	n1 -> n2;
	n1 -> n2;
	n2 -> n0 [style=dashed];
}
`,
		},
		{
			name: "nil funcs, no name",
			want: `digraph {
	n0;
	n1;
	n2;
	n0 -> n1;
	n0 -> n2;
	n1 -> n2;
	n1 -> n2;
	n2 -> n0;
}
`,
		},
		{
			name:      "edge labels",
			graphName: "g",
			edge:      func(from, to int) string { return fmt.Sprintf("label=\"%d-%d\"", from, to) },
			want: `digraph "g" {
	n0;
	n1;
	n2;
	n0 -> n1 [label="0-1"];
	n0 -> n2 [label="0-2"];
	n1 -> n2 [label="1-2"];
	n1 -> n2 [label="1-2"];
	n2 -> n0 [label="2-0"];
}
`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteDOT(&b, g, tc.graphName, tc.node, tc.edge); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("WriteDOT =\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}

func TestQuoteDOT(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"abc", `"abc"`},
		{`a "b"`, `"a \"b\""`},
		{`C:\dir\`, `"C:\\dir\\"`},
		{"x = 1;\ny = 2;", `"x = 1;\ny = 2;"`},
		{"crlf\r\n", `"crlf\n"`},
	} {
		if got := QuoteDOT(tc.in); got != tc.want {
			t.Errorf("QuoteDOT(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestWriteDOTError(t *testing.T) {
	g := NewAdjacency(10000)
	for v := 1; v < g.Len(); v++ {
		g.AddEdge(v-1, v)
	}
	if err := WriteDOT(&failWriter{n: 5000}, g, "big", nil, nil); err == nil || err.Error() != "disk full" {
		t.Fatalf("WriteDOT error = %v, want disk full", err)
	}
	if err := WriteDOT(&failWriter{n: 3}, NewAdjacency(0), "", nil, nil); err == nil {
		t.Fatalf("WriteDOT on tiny writer: no error")
	}
}

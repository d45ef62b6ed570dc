package witness

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// atomAt returns the offsets of the n-th (from 0) occurrence of atom in
// src.
func atomAt(t *testing.T, src, atom string, n int) (int, int) {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(src[off+1:], atom)
		if j < 0 {
			t.Fatalf("%q not in %q", atom, src)
		}
		off += 1 + j
	}
	return off, off + len(atom)
}

func TestBranchOutcome(t *testing.T) {
	type eval struct {
		atom string
		n    int // occurrence
		v    bool
	}
	for _, tc := range []struct {
		src     string
		kw      string
		evals   []eval // in order; only the last must be decisive
		outcome bool
	}{
		{"if (x > 10) f();", "if", []eval{{"x > 10", 0, true}}, true},
		{"if (x > 10) f();", "if", []eval{{"x > 10", 0, false}}, false},
		{"if (!(x > 10)) f();", "if", []eval{{"x > 10", 0, true}}, false},
		{"if (!x) f();", "if", []eval{{"x", 0, false}}, true},
		{"while (a && b) f();", "while", []eval{{"a", 0, true}, {"b", 0, false}}, false},
		{"while (a && b) f();", "while", []eval{{"a", 0, false}}, false},
		{"if (a || (b)) f();", "if", []eval{{"a", 0, false}, {"b", 0, true}}, true},
		{"if (!(x > 10 && y < 3) || x == 2) f();", "if", []eval{{"x > 10", 0, true}, {"y < 3", 0, true}, {"x == 2", 0, false}}, false},
		{"if (!(x > 10 && y < 3) || x == 2) f();", "if", []eval{{"x > 10", 0, false}}, true},
		{"if (!(x > 10 && y < 3) || x == 2) f();", "if", []eval{{"x > 10", 0, true}, {"y < 3", 0, false}}, true},
		{"if (c ? a : b) f();", "if", []eval{{"c", 0, false}, {"b", 0, true}}, true},
		{"if (c ? 1 : b) f();", "if", []eval{{"c", 0, true}}, true},
		{"if (a && 0) f();", "if", []eval{{"a", 0, true}}, false},
		{"if (g(a && b)) f();", "if", []eval{{"g(a && b)", 0, true}}, true},
		{"if ((y = a && b)) f();", "if", []eval{{"y = a && b", 0, false}}, false},
		{"if (x = 0, y) f();", "if", []eval{{"y", 0, true}}, true},
		{"for (i = 0; i < n && !done; i++) f();", "for", []eval{{"i < n", 0, true}, {"done", 0, false}}, true},
		{"switch (x) { case 1: break; }", "switch", []eval{{"x", 0, true}}, true},
		{"if (!(int)x) f();", "if", []eval{{"(int)x", 0, true}}, false},
		{"if (!x == y) f();", "if", []eval{{"!x == y", 0, true}}, true},
	} {
		f := newSrcFile("t.c", []byte(tc.src))
		for k, e := range tc.evals {
			lo, hi := atomAt(t, tc.src, e.atom, e.n)
			b := f.enclosingBranch(lo)
			if b == nil || b.keyword != tc.kw || b.kwOff != 0 {
				t.Errorf("%s: %q: branch %+v, want %s at 0", tc.src, e.atom, b, tc.kw)
				continue
			}
			a := b.tree.find(f.trimSpan(lo, hi))
			if a == nil {
				t.Errorf("%s: atom %q not found", tc.src, e.atom)
				continue
			}
			v, decisive := outcome(a, e.v)
			last := k == len(tc.evals)-1
			if decisive != last {
				t.Errorf("%s: after %q=%v decisive=%v, want %v", tc.src, e.atom, e.v, decisive, last)
			}
			if last && v != tc.outcome {
				t.Errorf("%s: outcome %v, want %v", tc.src, v, tc.outcome)
			}
		}
	}
}

func TestNoBranch(t *testing.T) {
	for _, tc := range []struct{ src, atom string }{
		{"x = a && b;", "b"},
		{"g(a && b);", "a"},
		{"if (g(a && b)) f();", "a"},
		{"__VERIFIER_assume(x > 0);", "x > 0"},
		{"y = c ? a : b;", "c"},
		{"for (i = a && b; i < n; i++) ;", "b"},
		{"for (i = 0; i < n; i += a && b) ;", "b"},
		{"{ x = 1; } y = (a || b);", "a"},
		{"return (a && b);", "a"},
		{"x = a[i && j];", "j"},
	} {
		f := newSrcFile("t.c", []byte(tc.src))
		lo, _ := atomAt(t, tc.src, tc.atom, 0)
		if b := f.enclosingBranch(lo); b != nil {
			t.Errorf("%s: %q belongs to no branching statement, got %s", tc.src, tc.atom, b.keyword)
		}
	}
	f := newSrcFile("t.c", []byte("do { x++; } while (x < 3);"))
	lo, _ := atomAt(t, string(f.text), "x < 3", 0)
	if b := f.enclosingBranch(lo); b == nil || !b.doWhile {
		t.Errorf("do-while not recognised: %+v", b)
	}
}

func TestNextStatement(t *testing.T) {
	for _, tc := range []struct {
		src, after, next string // next "" means: none
	}{
		{"x = f();\n  y = 1;", "f()", "y = 1;"},
		{"int x = f(); /* c */ if (x) g();", "f()", "if (x) g();"},
		{"x = f() + 1;", "f()", ""},
		{"{ x = f(); }", "f()", ""},
		{"if (c) x = f(); else y();", "f()", ""},
		{"do x = f(); while (x);", "f()", ""},
		{"x = f(); while (x) g();", "f()", "while (x) g();"},
		{"switch (c) { case 1: x = f(); case 2: ; }", "f()", ""},
		{"x = f();", "f()", ""},
	} {
		f := newSrcFile("t.c", []byte(tc.src))
		_, hi := atomAt(t, tc.src, tc.after, 0)
		off, ok := f.nextStatement(hi)
		switch {
		case tc.next == "" && ok:
			t.Errorf("%s: want no next statement, got %q", tc.src, tc.src[off:])
		case tc.next != "" && (!ok || !strings.HasPrefix(tc.src[off:], tc.next)):
			t.Errorf("%s: want next statement %q, got %v", tc.src, tc.next, ok)
		}
	}
}

func TestCallCloseParen(t *testing.T) {
	src := "x = g(f(a), (b)) ;"
	f := newSrcFile("t.c", []byte(src))
	lo, hi := 0, strings.LastIndex(src, ")")+1
	if off, ok := f.callCloseParen(lo, hi, "g"); !ok || off != hi-1 {
		t.Errorf("g: %d %v", off, ok)
	}
	if _, ok := f.callCloseParen(lo, hi, "f"); ok {
		t.Errorf("f's parenthesis does not end the range")
	}
	if p := f.pos(hi - 1); p != (cfa.Pos{File: "t.c", Line: 1, Col: hi}) {
		t.Errorf("pos: %v", p)
	}
}

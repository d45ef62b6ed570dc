package csyntax

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

func TestLexExpr(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`\result <= 5 && x != 0x1Fu`, `i:\result p:<= n:5 p:&& i:x p:!= n:0x1Fu`},
		{`a<<2>=b|| !c`, `i:a p:<< n:2 p:>= i:b p:|| p:! i:c`},
		{`a < = b`, `i:a p:< p:= i:b`}, // separated: rejected below
		{`(x)/*c*/-1`, `p:( i:x p:) p:- n:1`},
	} {
		toks, err := lexExpr(c.in)
		var got []string
		for _, tk := range toks {
			got = append(got, string(tk.kind)+":"+tk.s)
		}
		if c.in == `a < = b` {
			if err == nil {
				t.Errorf("lexExpr(%q) = %v, want an error for the lone =", c.in, got)
			}
			continue
		}
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("lexExpr(%q) = %q, %v; want %q", c.in, strings.Join(got, " "), err, c.want)
		}
	}
	for _, bad := range []string{"a = 1", "a <<= 1", "a.b", `"s"`, `x \`} {
		if _, err := lexExpr(bad); err == nil || !strings.Contains(err.Error(), "unsupported character") {
			t.Errorf("lexExpr(%q): error %v, want unsupported character", bad, err)
		}
	}
}

func TestParseExpr(t *testing.T) {
	x := &cfa.Var{ID: 0, Name: "x", T: cfa.IntT}
	names := map[string]*cfa.Var{"x": x}
	e, err := ParseExpr("x <= 5 && x != -1", names, nil, cfa.LP64)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.String(), "(x <= 5) && (x != (-1))"; got != want {
		t.Errorf("ParseExpr = %q, want %q", got, want)
	}
	if _, err := ParseExpr("y > 0", names, nil, cfa.LP64); err == nil {
		t.Error("ParseExpr accepted an unknown identifier")
	}
}

// TestParseElement: an element of an integer array at a literal index
// within its length; other indices and element types are errors.
func TestParseElement(t *testing.T) {
	a := &cfa.Var{ID: 0, Name: "a", Orig: "a", T: cfa.ArrayOf(cfa.CharType, 16)}
	p := &cfa.Var{ID: 1, Name: "p", Orig: "p", T: cfa.ArrayOf(cfa.PointerTo(cfa.CharType, 64), 2)}
	i := &cfa.Var{ID: 2, Name: "i", Orig: "i", T: cfa.IntT}
	names := map[string]*cfa.Var{"a": a, "p": p, "i": i}
	e, err := ParseExpr("a[15] == 0 && a[0x3] < i", names, nil, cfa.LP64)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.String(), "(((int)a[15]) == 0) && (((int)a[3]) < i)"; got != want {
		t.Errorf("ParseExpr = %q, want %q", got, want)
	}
	for in, want := range map[string]string{
		"a[16] == 0": "outside its 16 elements",
		"a[i] == 0":  "other than an integer literal",
		"a[1 == 0":   "missing ]",
		"p[0] == 0":  "element of p",
		"a == 0":     "variable a of type",
		"i[0] == 0":  "unexpected",
	} {
		if _, err := ParseExpr(in, names, nil, cfa.LP64); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseExpr(%q): error %v, want %q", in, err, want)
		}
	}
}

// FuzzParseExpr: ParseExpr never panics, whatever the text.
func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{`\result == 5`, "x <= 5 && x != -1", "(unsigned char)x >> 3", "!(x % 2)", "0x7fffffffffffffffULL", "a[3] == x", "a[99]"} {
		f.Add(s)
	}
	x := &cfa.Var{ID: 0, Name: "x", T: cfa.IntT}
	a := &cfa.Var{ID: 1, Name: "a", Orig: "a", T: cfa.ArrayOf(cfa.IntT, 4)}
	names := map[string]*cfa.Var{"x": x, "a": a}
	f.Fuzz(func(t *testing.T, s string) {
		ParseExpr(s, names, &cfa.Const{T: cfa.IntT}, cfa.LP64)
	})
}

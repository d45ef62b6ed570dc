package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// TestRemoveBody: Config.RemoveBody drops the definitions of the named
// functions in the files of RemoveBodyIn only (CBMC's
// --remove-function-body on the project sources), so a stub elsewhere
// defines the function without a "multiple definition" error, and a
// function without a stub is left without a body.
func TestRemoveBody(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	project := write("lib.c", "int f(void) { return 1; }\nint g(void) { return 3; }\nstatic int s(void) { return 4; }\nint h(void) { return f() + g() + s(); }\n")
	stub := write("stub.c", "int f(void) { return 2; }\n")
	if _, err := Translate(Options{}, stub, project); err == nil {
		t.Fatal("two definitions of f translated without RemoveBody")
	}
	cfg := Options{RemoveBody: map[string]bool{"f": true, "g": true, "s": true}, RemoveBodyIn: map[string]bool{project: true}}
	p, err := Translate(cfg, stub, project)
	if err != nil {
		t.Fatal(err)
	}
	f := p.Func("f")
	if f == nil || filepath.Base(f.Pos.Start.File) != "stub.c" {
		t.Fatalf("f is not the stub's: %+v", f)
	}
	if p.Func("g") != nil {
		t.Fatal("g keeps its body")
	}
	if _, ok := p.Externals["g"]; !ok {
		t.Fatal("g, called and without a body, is not external")
	}
	if p.Func("s") == nil {
		t.Fatal("the static s lost its body (CBMC removes only external names)")
	}
	if p.Func("h") == nil {
		t.Fatal("h lost its body")
	}
}

// TestRemoveStaticBody: a static function is removed by CBMC's name for
// it, __CPROVER_file_local_<file>_<f> (core_http.c: core_http_c), in the
// project files only; calls and addresses of it in its file then go to
// a function the proof defines under that name, or, without one, to a
// function without a body of that name.
func TestRemoveStaticBody(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	project := write("core_http.c", "static int s(void) { return 4; }\nstatic int u(void) { return 5; }\nstatic int k(void) { return 6; }\n"+
		"int (*fp)(void) = u;\nint h(void) { return s() + u() + k() + fp(); }\n")
	stub := write("harness.c", "int __CPROVER_file_local_core_http_c_s(void) { return 7; }\n")
	cfg := Options{RemoveBody: map[string]bool{"__CPROVER_file_local_core_http_c_s": true, "__CPROVER_file_local_core_http_c_u": true, "s": true},
		RemoveBodyIn: map[string]bool{project: true}}
	p, err := Translate(cfg, stub, project)
	if err != nil {
		t.Fatal(err)
	}
	if p.Func("s") != nil || p.Func("u") != nil {
		t.Fatal("a removed static function keeps its body")
	}
	if p.Func("k") == nil {
		t.Fatal("k, not removed, lost its body")
	}
	if _, ok := p.Externals["__CPROVER_file_local_core_http_c_u"]; !ok {
		t.Fatalf("u, removed without a stub, is not the external __CPROVER_file_local_core_http_c_u: %v", p.Externals)
	}
	h := p.Func("h")
	if h == nil {
		t.Fatal("h lost its body")
	}
	var callees []string
	for _, e := range p.Edges {
		if c, ok := e.Op.(*cfa.Call); ok && e.From.Func == h && c.Fn != "" {
			callees = append(callees, c.Fn)
		}
	}
	want := []string{"__CPROVER_file_local_core_http_c_s", "__CPROVER_file_local_core_http_c_u", "k"}
	if strings.Join(callees, " ") != strings.Join(want, " ") {
		t.Fatalf("h calls %v, want %v", callees, want)
	}
	if f := p.Func("__CPROVER_file_local_core_http_c_s"); f == nil || filepath.Base(f.Pos.Start.File) != "harness.c" {
		t.Fatal("the harness's __CPROVER_file_local_core_http_c_s is not defined")
	}
	initRef := false
	for _, e := range p.Edges {
		if a, ok := e.Op.(*cfa.Assign); ok && strings.Contains(a.RHS.String(), "__CPROVER_file_local_core_http_c_u") {
			initRef = true
		}
	}
	if !initRef {
		t.Fatal("the address of the removed u is not CBMC's name")
	}
}

// TestDuplicateLibraryStub: two stub files may both define a C library
// function (aws-c-common's memset overrides); the program translates,
// and a use of the function is an Unsupported edge naming both places.
func TestDuplicateLibraryStub(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.c", "typedef unsigned long size_t;\nvoid *memset(void *s, int c, size_t n) { return s; }\nint fa(void) { return 1; }\n")
	b := write("b.c", "typedef unsigned long size_t;\nvoid *memset(void *s, int c, size_t n) { return 0; }\n")
	h := write("h.c", "typedef unsigned long size_t;\nvoid *memset(void *s, int c, size_t n);\nint fa(void);\nint main(void) { char x[2]; int r = fa(); memset(x, 0, 2); return r; }\n")
	p, err := Translate(Options{}, h, a, b)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range p.Edges {
		if u, ok := e.Op.(*cfa.Unsupported); ok && strings.Contains(u.Construct, "memset defined more than once") && strings.Contains(u.Construct, "b.c") {
			found = true
		}
		if c, ok := e.Op.(*cfa.Call); ok && c.Fn == "memset" {
			t.Fatal("a call of the twice-defined memset is translated")
		}
	}
	if !found {
		t.Fatal("no Unsupported edge for the call of memset")
	}
	if _, err := Translate(Options{}, write("f1.c", "int f(void) { return 1; }\n"), write("f2.c", "int f(void) { return 2; }\n")); err == nil {
		t.Fatal("two definitions of a project function translated")
	}
}

// TestKeepsValues: an operand of a checked-arithmetic builtin is exact
// only when the result type holds every value it may have.
func TestKeepsValues(t *testing.T) {
	s64, u64, s32, u32 := cfa.IntType(64, true), cfa.IntType(64, false), cfa.IntType(32, true), cfa.IntType(32, false)
	for _, tc := range []struct {
		x    cfa.Expr
		t    *cfa.Type
		want bool
	}{
		{cfa.NewConst(u64, -1), s64, false},
		{cfa.NewConst(u64, -1), u64, true},
		{cfa.NewConst(s32, -1), u64, false},
		{cfa.NewConst(s32, -1), s64, true},
		{cfa.NewConst(u64, 1<<40), s32, false},
		{cfa.NewConst(s32, 7), u32, true},
		{&cfa.VarRef{Var: &cfa.Var{Name: "a", T: u32}}, s64, true},
		{&cfa.VarRef{Var: &cfa.Var{Name: "a", T: u32}}, s32, false},
		{&cfa.VarRef{Var: &cfa.Var{Name: "a", T: s32}}, u64, false},
		{&cfa.VarRef{Var: &cfa.Var{Name: "a", T: s32}}, s64, true},
	} {
		if got := keepsValues(tc.x, tc.t); got != tc.want {
			t.Errorf("keepsValues(%s of %s, %s) = %v, want %v", tc.x, tc.x.Type(), tc.t, got, tc.want)
		}
	}
}

package ctypes

import (
	"strings"
	"testing"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/ccparse"
)

// parse runs cc/v4 on src under the data model m through ccparse (pack
// pragmas placed, packed structs scanned).
func parse(t *testing.T, m cfa.DataModel, src string) *ccparse.Unit {
	t.Helper()
	cfg, err := ccparse.Config(m)
	if err != nil {
		t.Skipf("no C compiler configuration: %v", err)
	}
	u, errs := ccparse.ParseUnit(cfg, cfg.Predefined, "t.c", src, nil, cfg.SysIncludePaths, true)
	if len(errs) > 0 || u == nil {
		t.Fatalf("parse: %v", errs)
	}
	return u
}

// declared returns the type of the file-scope object name.
func declared(t *testing.T, u *ccparse.Unit, name string) cc.Type {
	t.Helper()
	for l := u.AST.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil || ed.Declaration == nil {
			continue
		}
		for il := ed.Declaration.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
			if d := il.InitDeclarator.Declarator; d != nil && d.Name() == name {
				return d.Type()
			}
		}
	}
	t.Fatalf("no object %s", name)
	return nil
}

// TestLayouts: Typ lays out structs as gcc does on x86-64 (the sizes and
// offsets gcc 12 prints for these declarations), packed, under #pragma
// pack and with aligned members included, and a bit-field gets the
// integer type of its width.
func TestLayouts(t *testing.T) {
	u := parse(t, cfa.LP64, `
struct plain { char c; int i; short s; } plain;
struct __attribute__((packed)) packed { char c; int i; short s; } packed;
#pragma pack(push, 2)
struct two { char c; int i; } two;
#pragma pack(pop)
struct wide { char c; int i __attribute__((aligned(8))); } wide;
struct bits { unsigned a : 3; unsigned b : 7; int c; } bits;
`)
	tm := NewMap(cfa.LP64)
	tm.AddPacks(u.Packs)
	for _, c := range []struct {
		name    string
		size    int64
		offsets []int64
	}{
		{"plain", 12, []int64{0, 4, 8}},
		{"packed", 7, []int64{0, 1, 5}},
		{"two", 6, []int64{0, 2}},
		{"wide", 16, []int64{0, 8}},
		{"bits", 8, []int64{0, 0, 4}},
	} {
		ty := tm.Typ(declared(t, u, c.name))
		if ty.Kind != cfa.Struct || ty.Size != c.size || len(ty.Fields) != len(c.offsets) {
			t.Errorf("%s: %v of size %d with %d fields, want a struct of size %d with %d", c.name, ty, ty.Size, len(ty.Fields), c.size, len(c.offsets))
			continue
		}
		for i, f := range ty.Fields {
			if f.Offset != c.offsets[i] {
				t.Errorf("%s.%s at offset %d, want %d", c.name, f.Name, f.Offset, c.offsets[i])
			}
		}
	}
	b := tm.Typ(declared(t, u, "bits"))
	if f := b.Fields[1]; f.BitWidth != 7 || f.BitOffset != 3 || f.Type.Bits != 7 || f.Type.Signed {
		t.Errorf("bits.b: width %d at bit %d of type %v, want 7 bits at bit 3 of an unsigned 7-bit type", f.BitWidth, f.BitOffset, f.Type)
	}
	if p := Promoted(b.Fields[1].Type); !cfa.Same(p, cfa.IntT) {
		t.Errorf("a 7-bit unsigned bit-field promotes to %v, want int", p)
	}
	if p := Promoted(cfa.IntType(64, false)); p.Bits != 64 || p.Signed {
		t.Errorf("unsigned long promotes to %v, want itself", p)
	}
}

// TestVolatileLvalue: which of a function's expression statements read
// a volatile-qualified lvalue, where cc/v4's own types say it and where
// only the syntax does (a cast to a pointer to volatile, a member of a
// volatile struct object, a pointer declarator of a volatile typedef).
func TestVolatileLvalue(t *testing.T) {
	u := parse(t, cfa.LP64, `
typedef volatile int reg_t;
struct s { volatile int v; int w; };
volatile struct s vs;
struct s ps;
int *q;
volatile int *p;
reg_t *r;
int *volatile qv;
void f(void) {
	*p;            /* volatile */
	*q;            /* plain */
	ps.v;          /* volatile */
	ps.w;          /* plain */
	vs.w;          /* volatile */
	*(volatile int *)q; /* volatile */
	*(int *)p;     /* plain */
	*r;            /* volatile */
	r;             /* plain */
	qv;            /* volatile */
}
`)
	var fn *cc.FunctionDefinition
	for l := u.AST.TranslationUnit; l != nil; l = l.TranslationUnit {
		if ed := l.ExternalDeclaration; ed != nil && ed.FunctionDefinition != nil {
			fn = ed.FunctionDefinition
		}
	}
	if fn == nil {
		t.Fatal("no function")
	}
	var got []string
	for l := fn.CompoundStatement.BlockItemList; l != nil; l = l.BlockItemList {
		st := l.BlockItem.Statement
		if st == nil || st.ExpressionStatement == nil {
			continue
		}
		e := st.ExpressionStatement.ExpressionList
		if VolatileLvalue(e, 0) {
			got = append(got, "volatile")
		} else {
			got = append(got, "plain")
		}
	}
	want := "volatile plain volatile plain volatile volatile plain volatile plain volatile"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

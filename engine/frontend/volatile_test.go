package frontend

import (
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// TestVolatileReads checks the shape of the translation of volatile
// lvalue reads in each function of a program: how many havocs "volatile"
// it has, that each havocs (a scalar part of) a temporary, and that the
// edge before it is the access storing the lvalue into that temporary
// (or the havoc of another part of it).
func TestVolatileReads(t *testing.T) {
	const src = `
struct S { int a; volatile int b; } s;
struct P { int a; int b; };
volatile struct P vs;
volatile int arr[3];
volatile int v;
typedef volatile unsigned reg_t;
reg_t g;
int plain;

int member(void) { return s.b; }
int plainMember(void) { return s.a; }
int element(int i) { return arr[i]; }
int declared(void) { return v; }                 // Var.Volatile: no havoc
int viaPointer(void) { volatile int *p = &plain; return *p; }
int viaTypedef(void) { reg_t *p = &g; return *p; }
int pointerRead(void) { reg_t *p = &g; return p != 0; }
int structMember(void) { return vs.b; }
int structCopy(void) { struct P t = vs; return t.a; }
int mmio(void) { return *(volatile unsigned *)0x40000000; }
int nonVolatileCast(void) { return *(unsigned *)0x40000000; }
void write(void) { s.b = 1; *(volatile int *)&plain = 2; }
void incr(void) { s.b++; }
int twice(void) { return s.b - s.b; }
`
	want := map[string]int{
		"member": 1, "plainMember": 0, "element": 1, "declared": 0,
		"viaPointer": 1, "viaTypedef": 1, "pointerRead": 0,
		"structMember": 1, "structCopy": 2, "mmio": 1, "nonVolatileCast": 0,
		"write": 0, "incr": 1, "twice": 2,
	}
	p, err := TranslateSources(Config{}, []Source{{Name: "v.c", Content: src}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	for name, n := range want {
		f := p.Func(name)
		if f == nil {
			t.Errorf("no function %s", name)
			continue
		}
		got := 0
		for _, l := range f.Locs {
			for _, e := range l.Out {
				h, ok := e.Op.(*cfa.Havoc)
				if !ok || h.Source != "volatile" {
					continue
				}
				got++
				tmp := baseVar(h.LHS)
				if tmp == nil || !tmp.Temp {
					t.Errorf("%s: %s havocs no temporary", name, h)
					continue
				}
				if len(l.In) != 1 {
					t.Errorf("%s: %s: %d in-edges", name, h, len(l.In))
					continue
				}
				switch prev := l.In[0].Op.(type) {
				case *cfa.Assign:
					if r, ok := prev.LHS.(*cfa.VarRef); !ok || r.Var != tmp || !cfa.IsLvalue(prev.RHS) {
						t.Errorf("%s: %s follows %s, not the access into %s", name, h, prev, tmp.Name)
					}
				case *cfa.Havoc:
					if baseVar(prev.LHS) != tmp {
						t.Errorf("%s: %s follows %s", name, h, prev)
					}
				default:
					t.Errorf("%s: %s follows %s", name, h, prev)
				}
			}
		}
		if got != n {
			t.Errorf("%s: %d volatile havocs, want %d\n%s", name, got, n, p.Text())
		}
	}
}

// baseVar returns the variable at the root of the lvalue e (through
// members and constant indices), or nil.
func baseVar(e cfa.Expr) *cfa.Var {
	for {
		switch x := e.(type) {
		case *cfa.VarRef:
			return x.Var
		case *cfa.Member:
			e = x.X
		case *cfa.Index:
			e = x.X
		default:
			return nil
		}
	}
}

package frontend

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

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
	p, err := TranslateSources(Options{}, []Source{{Name: "v.c", Content: src}})
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

// volatileProgram reads volatile lvalues that the program never writes:
// a volatile member and an object through a pointer to volatile.
const volatileProgram = `extern void abort(void);
void reach_error(void) {}
struct S { int a; volatile int b; } s;
volatile int r;
void member(void) { if (s.b == 7) { reach_error(); abort(); } }
void through_pointer(void) { volatile int *p = &r; if (*p == 7) { reach_error(); abort(); } }
`

// volatileHarness is an environment the program does not contain: a
// thread that stores 7 into both objects while main keeps calling the
// function CHECK.
const volatileHarness = `#include <pthread.h>
struct S { int a; volatile int b; };
extern struct S s;
extern volatile int r;
void member(void);
void through_pointer(void);
static void *writer(void *arg) { (void)arg; s.b = 7; r = 7; return 0; }
int main(void) {
	pthread_t t;
	if (pthread_create(&t, 0, writer, 0) != 0)
		return 2;
	for (long i = 0; i < 4000000000L; i++)
		CHECK();
	return 0;
}
`

// TestVolatileWriterGCC shows with gcc why a read of a volatile member
// or of an object through a pointer to volatile must be nondeterministic
// although the program itself never stores 7 there: another writer (here
// a thread of the linking harness; a device or a signal handler alike)
// makes the compiled program reach the error, so a TRUE would be wrong.
// The front end translates both reads into havocs.
func TestVolatileWriterGCC(t *testing.T) {
	p, err := TranslateSources(Options{}, []Source{{Name: "prog.c", Content: volatileProgram}})
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range []string{"member", "through_pointer"} {
		havocs := 0
		for _, l := range p.Func(fn).Locs {
			for _, e := range l.Out {
				if h, ok := e.Op.(*cfa.Havoc); ok && h.Source == "volatile" {
					havocs++
				}
			}
		}
		if havocs != 1 {
			t.Errorf("%s: %d volatile havocs, want 1", fn, havocs)
		}
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc")
	}
	dir := t.TempDir()
	prog, harness := filepath.Join(dir, "prog.c"), filepath.Join(dir, "harness.c")
	if err := os.WriteFile(prog, []byte(volatileProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(harness, []byte(volatileHarness), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, fn := range []string{"member", "through_pointer"} {
		exe := filepath.Join(dir, fn)
		if out, err := exec.Command(gcc, "-O2", "-pthread", "-DCHECK="+fn, "-o", exe, prog, harness).CombinedOutput(); err != nil {
			t.Fatalf("gcc: %v\n%s", err, out)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		err := exec.CommandContext(ctx, exe).Run()
		cancel()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%s: %v, want the abort after reach_error", fn, err)
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGABRT {
			t.Errorf("%s: %v, want SIGABRT (the error reached)", fn, err)
		}
	}
}

// TestEmptyAsm: an asm statement with an empty template is a no-op (its
// operands keep their values, as gcc runs it); any other template is
// unsupported.
func TestEmptyAsm(t *testing.T) {
	p, err := TranslateSources(Options{}, []Source{{Name: "a.c", Content: `unsigned f(unsigned b) { __asm__ volatile("" : "+r"(b)); __asm__("nop"); return b; }`}})
	if err != nil {
		t.Fatal(err)
	}
	var noop, unsupported int
	for _, e := range p.Func("f").Locs {
		for _, e := range e.Out {
			switch op := e.Op.(type) {
			case *cfa.Noop:
				if op.Label == "empty asm" {
					noop++
				}
			case *cfa.Unsupported:
				unsupported++
			}
		}
	}
	if noop != 1 || unsupported != 1 {
		t.Errorf("%d empty-asm no-ops and %d unsupported edges, want 1 and 1:\n%s", noop, unsupported, p.Text())
	}
}

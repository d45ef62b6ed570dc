package frontend

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// bitFieldStructs are structs with bit-fields, some of which cc/v4 lays
// out otherwise than gcc.
var bitFieldStructs = []string{
	"unsigned a:3; long long e:40;",
	"char c; long long e:40;",
	"unsigned a:3; int b:5; _Bool c; unsigned short d:9; long long e:40; long double f;",
	"long long e:40; char c;",
	"char c; unsigned long long e:33; int x;",
	"int a:4; long long b:60;",
	"char c; long long e:24;",
	"short c; long long e:40;",
	"int x; long long e:33; long long f:33;",
	"long long a; char c;",
	"char c; int e:20;",
	"int e:4; char c;",
	"char a; short b:9; char c;",
	"unsigned a:31; unsigned b:2;",
	"char c; int :0; char d;",
	"_Bool b:1; int x;",
	"char c[3]; int e:9;",
	"char c; unsigned e:30; char d;",
	"short s; char c; int e:17; char d;",
	"int a:3; int b:5; char data[];",
	"char c; int e:20; char data[];",
	"char c; _Alignas(8) int x; int e:3;",
	"int a:3; _Alignas(16) char c;",
}

// TestBitFieldsMatchGCC: a program that folds sizeof, _Alignof and
// offsetof of a struct with bit-fields is unsupported exactly when cc/v4
// folds one of them otherwise than gcc computes it (never a program
// whose layout agrees), under LP64 and ILP32 (gcc -m32, directly or
// under qemu-i386). Before, `struct { char c; long long e:40; }` was 16
// bytes to the verifier and 8 to gcc, so assert(sizeof(struct S) == 8)
// was a FALSE that gcc's program never reaches.
func TestBitFieldsMatchGCC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	for _, m := range []cfa.DataModel{cfa.LP64, cfa.ILP32} {
		t.Run(m.String(), func(t *testing.T) {
			supported := 0
			for k, def := range bitFieldStructs {
				dir := t.TempDir()
				last := def[strings.LastIndex(strings.TrimSuffix(def, ";"), " ")+1 : len(def)-1]
				member := strings.TrimSuffix(strings.Split(last, ":")[0], "[]")
				src := fmt.Sprintf("#include <stddef.h>\nstruct S { %s };\nlong v0 = sizeof(struct S);\nlong v1 = _Alignof(struct S);\nlong v2 = offsetof(struct S, %s);\nstruct S g_S;\n", def, member)
				if strings.Contains(last, ":") {
					src = strings.Replace(src, "long v2 = offsetof(struct S, "+member+");\n", "long v2 = 0;\n", 1) // a bit-field has no offsetof
				}
				prog := filepath.Join(dir, "prog.c")
				main := src + "#include <stdio.h>\nint main(void) { printf(\"v0 %ld\\nv1 %ld\\nv2 %ld\\n\", v0, v1, v2); return 0; }\n"
				if err := os.WriteFile(prog, []byte(main), 0o644); err != nil {
					t.Fatal(err)
				}
				var want map[string]int64
				var ok bool
				if m == cfa.LP64 {
					want, ok = gccValues(t, gcc, prog, nil, nil)
				} else if want, ok = gccValues(t, gcc, prog, []string{"-m32"}, nil); !ok {
					if q, err := exec.LookPath("qemu-i386"); err == nil {
						want, ok = gccValues(t, gcc, prog, []string{"-m32"}, []string{q})
					}
				}
				if !ok && k == 0 {
					t.Skip("no runnable gcc program for this data model here")
				}
				if !ok {
					t.Fatalf("struct %d {%s}: gcc's program did not build or run", k, def)
				}
				p, err := Translate(Options{DataModel: m}, prog)
				if err != nil {
					t.Fatal(err)
				}
				unsupported := ""
				got := map[string]int64{}
				for _, e := range p.Edges {
					switch op := e.Op.(type) {
					case *cfa.Unsupported:
						unsupported = op.Construct
					case *cfa.Assign:
						if r, ok := op.LHS.(*cfa.VarRef); ok && strings.HasPrefix(r.Var.Name, "v") {
							if c, ok := op.RHS.(*cfa.Const); ok {
								got[r.Var.Name] = c.Int64()
							}
						}
					}
				}
				differs := false
				for _, v := range []string{"v0", "v1", "v2"} {
					differs = differs || got[v] != want[v]
				}
				switch {
				case unsupported != "" && !differs:
					t.Errorf("struct %d {%s}: unsupported although its layout is gcc's: %s", k, def, unsupported)
				case unsupported == "" && differs:
					t.Errorf("struct %d {%s}: folded %v, gcc %v", k, def, got, want)
				case unsupported == "":
					supported++
				}
			}
			if supported == 0 {
				t.Errorf("every struct unsupported")
			}
		})
	}
}

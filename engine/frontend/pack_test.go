package frontend

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// packStructs are struct definitions under the forms of #pragma pack gcc
// reads ("Structure-Layout Pragmas" in the GCC manual), with packed and
// aligned attributes, in the main file, in included headers (pshpack
// style, included twice) and through _Pragma in a macro.
const packStructs = `#include <stddef.h>
#pragma pack(1)
struct A { char c; int x; };
#pragma pack()
struct B { char c; int x; };
#pragma pack(push, 2)
struct C { char c; int x; double d; };
#pragma pack(push, 8)
struct D { char c; long double ld; };
#pragma pack(pop)
struct E { char c; double d; };
#pragma pack(pop)
struct F { char c; double d; long long l; };
struct G { char c;
#pragma pack(1)
  int x;
};
struct G2 { char c;
#pragma pack()
  int x; };
#pragma pack(1)
struct I { char c; int x __attribute__((aligned(8))); };
struct __attribute__((aligned(8))) J { char c; int x; };
struct K { char c; _Alignas(8) int x; };
struct L { char c; struct B b; };
#pragma pack(2)
struct M { char c; int x __attribute__((aligned(16))); };
union U { char c[5]; int x; };
struct H { char c; struct __attribute__((aligned(8))) { char d; } s; };
struct Arr { char c; int a[3]; double d[2]; };
struct __attribute__((packed)) PD { char c; int x __attribute__((aligned(8))); };
#pragma pack() /* back to the default */
struct Q { char c; struct A a; union U u; };
#pragma pack(4)
struct R { char c; double d; long long l; };
#pragma pack(16)
struct S { char c; long double d; };
#pragma pack(4)
#pragma pack(push)
#pragma pack(1)
#pragma pack(pop)
struct Pu { char c; double x; };
#pragma pack(push, a, 1)
#pragma pack(push, b, 2)
#pragma pack(push, 8)
#pragma pack(pop, a)
struct Id { char c; double x; };
#pragma pack(4)
#pragma pack(push, 2)
#pragma pack(1)
#pragma pack(push, 8)
#pragma pack(pop)
struct Sv { char c; int x; };
#pragma pack(pop)
struct Sv2 { char c; double x; };
#pragma pack(3)
struct Bad { char c; double x; };
#pragma pack()
#pragma pack
#define ONE 1
#pragma pack(ONE)
struct Ign { char c; double x; };
#pragma pack(push, 0x2)
struct Hex { char c; int x; };
#pragma pack(pop)
typedef int al8 __attribute__((aligned(8)));
#pragma pack(2)
struct TA { char c; al8 x; };
#pragma pack()
struct __attribute__((packed)) PK { char c; int x __attribute__((aligned(8))); };
struct __attribute__((packed)) PA8 { char c; al8 x; };
struct __attribute__((packed)) PC { char c; int x __attribute__((aligned(2))); };
struct __attribute__((packed, aligned(4))) PG { char c; int x; };
struct __attribute__((packed)) PB { char c; _Alignas(8) int x; };
#define PACK_BEGIN _Pragma("pack(push, 1)")
#define PACK_END _Pragma("pack(pop)")
PACK_BEGIN
struct Mac { char c; long long x; };
PACK_END
struct Mac2 { char c; long long x; };
#include "push1.h"
struct Inc { short s; double d; };
#include "pop.h"
struct Inc2 { short s; double d; };
#include "push1.h"
struct Inc3 { char c; int x; struct Inc i; };
#include "pop.h"
typedef struct { char c; int x; } Plain;
`

// packChecks are the values compared: sizeof, _Alignof and offsetof.
var packChecks = []struct{ tag, member string }{
	{"A", "x"}, {"B", "x"}, {"C", "x"}, {"C", "d"}, {"D", "ld"}, {"E", "d"}, {"F", "d"}, {"F", "l"},
	{"G", "x"}, {"G2", "x"}, {"I", "x"}, {"J", "x"}, {"K", "x"}, {"L", "b"}, {"M", "x"},
	{"union U", "x"}, {"H", "s"}, {"Arr", "a"}, {"Arr", "d"}, {"PD", "x"}, {"Q", "a"}, {"Q", "u"},
	{"R", "d"}, {"R", "l"}, {"S", "d"}, {"Pu", "x"}, {"Id", "x"}, {"Sv", "x"}, {"Sv2", "x"},
	{"Bad", "x"}, {"Ign", "x"}, {"Hex", "x"}, {"TA", "x"}, {"PK", "x"}, {"PA8", "x"}, {"PC", "x"},
	{"PG", "x"}, {"PB", "x"}, {"Mac", "x"}, {"Mac2", "x"}, {"Inc", "d"}, {"Inc2", "d"},
	{"Inc3", "x"}, {"Inc3", "i"}, {"Plain", "x"},
}

// packProgram is packStructs with a global per value (v0, v1, …) and a
// main that prints them, one "v<k> <value>" per line, and a global of
// every struct (g_<tag>).
func packProgram() string {
	var b strings.Builder
	b.WriteString("#include <stdio.h>\n")
	b.WriteString(packStructs)
	var names []string
	seen := map[string]bool{}
	for _, c := range packChecks {
		t := packCType(c.tag)
		if !seen[c.tag] {
			seen[c.tag] = true
			fmt.Fprintf(&b, "%s g_%s;\n", t, packIdent(c.tag))
			fmt.Fprintf(&b, "unsigned long v%d = sizeof(%s);\n", len(names), t)
			names = append(names, c.tag+" sizeof")
			fmt.Fprintf(&b, "unsigned long v%d = _Alignof(%s);\n", len(names), t)
			names = append(names, c.tag+" _Alignof")
		}
		fmt.Fprintf(&b, "unsigned long v%d = offsetof(%s, %s);\n", len(names), t, c.member)
		names = append(names, c.tag+" offsetof "+c.member)
	}
	b.WriteString("int main(void) {\n")
	for k := range names {
		fmt.Fprintf(&b, "\tprintf(\"v%d %%lu\\n\", v%d);\n", k, k)
	}
	b.WriteString("\treturn 0;\n}\n")
	return b.String()
}

// packCType is the C type of a check's tag: a struct unless it names a
// union or a typedef.
func packCType(tag string) string {
	if strings.HasPrefix(tag, "union ") || tag == "Plain" {
		return tag
	}
	return "struct " + tag
}

func packIdent(tag string) string { return strings.ReplaceAll(tag, "union ", "u_") }

// writePackFiles writes the program and its headers into dir.
func writePackFiles(t *testing.T, dir string) string {
	t.Helper()
	files := map[string]string{
		"prog.c":  packProgram(),
		"push1.h": "#pragma pack(push, 1)\n",
		"pop.h":   "#pragma pack(pop)\n",
	}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "prog.c")
}

// gccValues compiles prog with gcc (extra flags) and runs it (run is the
// command prefix, nil: directly), returning its values by global name;
// ok false when that cannot be done on this machine.
func gccValues(t *testing.T, gcc, prog string, flags []string, run []string) (map[string]int64, bool) {
	t.Helper()
	bin := filepath.Join(filepath.Dir(prog), "prog"+strings.Join(flags, ""))
	args := append(append([]string{"-w", "-o", bin}, flags...), prog)
	if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
		t.Logf("gcc %s: %v\n%s", strings.Join(flags, " "), err, out)
		return nil, false
	}
	cmd := append(append([]string(nil), run...), bin)
	out, err := exec.Command(cmd[0], cmd[1:]...).Output()
	if err != nil {
		t.Logf("%s: %v", strings.Join(cmd, " "), err)
		return nil, false
	}
	vals := map[string]int64{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		if len(f) != 2 {
			t.Fatalf("gcc's program printed %q", l)
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		vals[f[0]] = n
	}
	return vals, true
}

// TestPragmaPackMatchesGCC compares sizeof, _Alignof and offsetof of the
// structs of packStructs, as the translation folds them and as the type
// map lays the structs out, with what gcc computes, under LP64 and (when
// gcc -m32 programs can run here, directly or under qemu-i386) ILP32.
func TestPragmaPackMatchesGCC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	for _, m := range []cfa.DataModel{cfa.LP64, cfa.ILP32} {
		t.Run(m.String(), func(t *testing.T) {
			dir := t.TempDir()
			prog := writePackFiles(t, dir)
			var want map[string]int64
			var ok bool
			if m == cfa.LP64 {
				if want, ok = gccValues(t, gcc, prog, nil, nil); !ok {
					t.Fatal("gcc's program did not run")
				}
			} else {
				if want, ok = gccValues(t, gcc, prog, []string{"-m32"}, nil); !ok {
					if q, err := exec.LookPath("qemu-i386"); err == nil {
						want, ok = gccValues(t, gcc, prog, []string{"-m32"}, []string{q})
					}
				}
				if !ok {
					t.Skip("no runnable gcc -m32 here")
				}
			}
			p, err := Translate(Options{DataModel: m, IncludeDirs: []string{dir}}, prog, filepath.Join(dir, "push1.h"), filepath.Join(dir, "pop.h"))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range p.Edges {
				if u, ok := e.Op.(*cfa.Unsupported); ok {
					t.Errorf("unsupported: %s", u.Construct)
				}
			}
			// The values the translation folds: the initialisers of v<k>.
			got := map[string]int64{}
			for _, e := range p.Edges {
				a, ok := e.Op.(*cfa.Assign)
				if !ok {
					continue
				}
				if r, ok := a.LHS.(*cfa.VarRef); ok && strings.HasPrefix(r.Var.Name, "v") {
					if c, ok := a.RHS.(*cfa.Const); ok {
						got[r.Var.Name] = c.Int64()
					} else {
						t.Errorf("%s = %s, not a constant", r.Var.Name, a.RHS)
					}
				}
			}
			// The layouts of the type map: the types of g_<tag>.
			types := map[string]*cfa.Type{}
			for _, g := range p.Globals {
				if strings.HasPrefix(g.Name, "g_") {
					types[g.Name[2:]] = g.T
				}
			}
			k := 0
			checked := map[string]bool{}
			for _, c := range packChecks {
				lt := types[packIdent(c.tag)]
				if lt == nil {
					t.Fatalf("no global of %s", c.tag)
				}
				layout := func(what string, v int64) {
					name := "v" + strconv.Itoa(k)
					k++
					w, ok := want[name]
					if !ok {
						t.Fatalf("gcc printed no %s", name)
					}
					if got[name] != w {
						t.Errorf("%s %s: folded %d, gcc %d", c.tag, what, got[name], w)
					}
					if v != w {
						t.Errorf("%s %s: laid out %d, gcc %d", c.tag, what, v, w)
					}
				}
				if !checked[c.tag] {
					checked[c.tag] = true
					layout("sizeof", lt.Size)
					layout("_Alignof", lt.Align)
				}
				path := fieldPath(lt, c.member, 0)
				if len(path) != 1 {
					t.Fatalf("%s has no member %s", c.tag, c.member)
				}
				layout("offsetof "+c.member, lt.Fields[path[0]].Offset)
			}
			t.Logf("%d values agree with gcc", k)
		})
	}
}

// unsupportedLayout is the layout issue of the translation of src (""
// when it has none).
func unsupportedLayout(t *testing.T, src string) string {
	t.Helper()
	p, err := TranslateSources(Options{}, []Source{{Name: "u.c", Content: src}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range p.Edges {
		if u, ok := e.Op.(*cfa.Unsupported); ok {
			return u.Construct
		}
	}
	return ""
}

// TestPragmaPackUnsupported: what the layouts cannot follow makes the
// program unsupported instead of laying a struct out otherwise than gcc.
func TestPragmaPackUnsupported(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"bit-fields", "#pragma pack(2)\nstruct S { char c; int a : 20; int b : 20; } s;\nint main(void) { return sizeof s; }\n", "bit-fields in struct S under #pragma pack"},
		{"bit-fields under a large value", "#pragma pack(16)\nstruct S { char c; int a : 30; } s;\nint main(void) { return s.a; }\n", "bit-fields in struct S under #pragma pack"},
		// junk after the pragma (gcc still applies it): not marked
		{"unplaced", "#pragma pack(1) junk\nstruct S { char c; int x; } s;\nint main(void) { return sizeof s; }\n", "cannot be placed"},
		{"unplaced through a stringized _Pragma", "#define P(x) _Pragma(#x)\nP(pack(push, 2))\nstruct S { char c; int x; } s;\nint main(void) { return sizeof s; }\n", "cannot be placed"},
		{"bit-fields gcc packs otherwise", "struct S { char c; int a : 20; } s;\nint main(void) { return s.a; }\n", "bit-fields that gcc packs otherwise than cc/v4"},
		{"bit-fields after a packed member", "struct __attribute__((packed)) P { char c; int x; };\nstruct S { struct P p; int a : 3; } s;\nint main(void) { return s.a; }\n", "bit-fields in struct S after a member"},
		// a marker where cc/v4 takes no declaration: parsed unmarked
		{"unplaced in a statement", "struct T { char c; int x; } t;\nint main(int argc, char **argv) {\n  if (argc)\n#pragma pack(1)\n    argc = 2;\n  return sizeof t + argc;\n}\n", "cannot be placed"},
		{"array length", "#pragma pack(1)\nstruct S { char c; int x; };\n#pragma pack()\nchar buf[sizeof(struct S)];\nint main(void) { return buf[0]; }\n", "depends on the layout of a packed struct"},
		{"enumerator", "struct __attribute__((packed)) S { char c; int x; };\nenum { N = sizeof(struct S) };\nint main(void) { return N; }\n", "depends on the layout of a packed struct"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := unsupportedLayout(t, c.src); !strings.Contains(got, c.want) {
				t.Errorf("unsupported %q, want one naming %q", got, c.want)
			}
		})
	}
	for _, c := range []struct{ name, src string }{
		// an unplaced pragma does not matter to a struct whose layout no
		// pack value changes
		{"unplaced, layout unchanged", "#pragma pack(1) junk\nstruct S { char c; char d[3]; } s;\nint main(void) { return sizeof s; }\n"},
		{"pack without effect", "#pragma pack(8)\nstruct S { char c; int x; double d; } s;\nint main(void) { char b[sizeof(struct S)]; return sizeof b; }\n"},
		{"bit-fields without pack", "#pragma pack(1)\n#pragma pack()\nstruct S { int a : 20; int b : 12; char c; } s;\nint main(void) { return s.a; }\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := unsupportedLayout(t, c.src); got != "" {
				t.Errorf("unsupported %q", got)
			}
		})
	}
}

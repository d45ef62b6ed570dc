package llvmir

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llir/llvm/ir/types"

	"github.com/reverify/reverify/engine/cfa"
)

var update = flag.Bool("update", false, "rewrite the golden CFA files")

// TestSeedFigure23 translates the LLVM program of seed 000's figure 15b
// and compares its CFA with testdata/seed_fig15.cfa, which has the shape
// of the seed's figure 23: Init assigns x := 10; each basic block is a
// chain of edges from the location of its label (the allocas that are
// only loaded and stored are plain variables, the seed's t_i are the
// registers), an unconditional br is a no-op edge and the conditional
// br two assume edges on t_4.
func TestSeedFigure23(t *testing.T) {
	golden(t, "seed_fig15", "seed_fig15", Options{Unfolded: true})
}

// TestFolded is the same program as translated by default: each value
// read once in its own block is folded into its use, so the edges read
// as the C program of figure 15a (x = decr(x) after the loop test
// x > 0).
func TestFolded(t *testing.T) {
	golden(t, "seed_fig15", "seed_fig15_folded", Options{})
}

func golden(t *testing.T, name, out string, opts Options) {
	src := filepath.Join("testdata", name+".ll")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := TranslateText(opts, src, string(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(); err != nil {
		t.Fatalf("CFA sanity: %v", err)
	}
	got := p.Text()
	path := filepath.Join("testdata", out+".cfa")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("CFA of %s differs from %s:\n%s", src, path, got)
	}
}

// TestUnsupported: what the mapping does not model becomes an
// unsupported edge naming it (a call with the wrong number of
// arguments, an alloca outside the entry block, a constant wider than
// 64 bits, a weak undefined object), and the program still passes the
// CFA sanity check.
func TestUnsupported(t *testing.T) {
	p, err := TranslateText(Options{}, "w.ll", `@x = extern_weak global i32
define i32 @f(i32 %a) {
  ret i32 %a
}
define i32 @main() {
  %1 = call i32 bitcast (i32 (i32)* @f to i32 (i32, i32)*)(i32 1, i32 2)
  br label %loop
loop:
  %p = alloca i32
  store i32 1, i32* %p
  %c = load i32, i32* @x
  %z = add i128 340282366920938463463374607431768211455, 0
  ret i32 %c
}
`)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(); err != nil {
		t.Fatalf("CFA sanity: %v", err)
	}
	text := p.Text()
	for _, want := range []string{
		"unsupported: weak undefined object x, whose address may be null",
		"unsupported: call of f with 2 arguments, which takes 1",
		"unsupported: alloca outside the entry block",
		"a 128-bit constant beyond 64 bits",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
}

// TestEntryTargeted: a branch to the entry block (invalid IR that the
// parser accepts) leaves the entry location without in-edges: the block
// gets a location of its own after a no-op edge.
func TestEntryTargeted(t *testing.T) {
	p, err := TranslateText(Options{}, "e.ll", "define void @main() {\nentry:\n  br label %entry\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(); err != nil {
		t.Fatalf("CFA sanity: %v", err)
	}
}

// TestErrors: what the mapping cannot express is an error naming the
// instruction and its line.
func TestErrors(t *testing.T) {
	_, err := TranslateText(Options{}, "v.ll", `define i32 @main() {
  %v = add <2 x i32> <i32 1, i32 2>, <i32 3, i32 4>
  %a = alloca i32
  %o = atomicrmw add i32* %a, i32 1 seq_cst
  ret i32 0
}
`)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"v.ll:2:1: main: unsupported type <2 x i32> cannot be verified", "v.ll:4:1: main: atomic operation cannot be verified (%o = atomicrmw add i32* %a, i32 1 seq_cst)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}
}

// TestLiteralStructs: two literal struct types of one size and field
// count are different types (cfa.Same compares names, sizes and field
// counts), so a cast between them is kept and a member access reads the
// right offset.
func TestLiteralStructs(t *testing.T) {
	tm := newTypeMap(parseLayout("", cfa.LP64))
	a, err := tm.of(types.NewStruct(types.I8, types.I32))
	if err != nil {
		t.Fatal(err)
	}
	b, err := tm.of(types.NewStruct(types.I32, types.I8))
	if err != nil {
		t.Fatal(err)
	}
	if cfa.Same(a, b) {
		t.Errorf("%s and %s are the same type", a.Name, b.Name)
	}
	if a.Fields[1].Offset != 4 || b.Fields[1].Offset != 4 || a.Size != 8 || b.Size != 8 {
		t.Errorf("layouts: %+v, %+v", a.Fields, b.Fields)
	}
}

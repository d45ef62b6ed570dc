package engine_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/interp"
)

// TestCBMCOverflowAgainstGCC checks the translation of CBMC's
// __CPROVER_overflow_plus/minus/mult (engine/frontend, overflowCheck)
// against gcc's __builtin_{add,sub,mul}_overflow with the result in the
// type of the usual arithmetic conversions of the operands (the type CBMC
// checks in): every pair of boundary values of every integer type, and of
// mixed types, run by gcc and by the concrete interpreter.
func TestCBMCOverflowAgainstGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	type typ struct {
		name string
		vals []string
	}
	sv := func(bits int) []string {
		max := int64(1)<<(bits-1) - 1
		if bits == 64 {
			max = 1<<63 - 1
		}
		root := int64(1) << ((bits - 1) / 2)
		out := []string{"0", "1", "2", "-1", "-2", "3", "-3"}
		for _, v := range []int64{max, max - 1, max / 2, max/2 + 1, root, root - 1, root + 1, max / 3} {
			out = append(out, strconv.FormatInt(v, 10), "-"+strconv.FormatInt(v, 10))
		}
		out = append(out, "-"+strconv.FormatInt(max, 10)+"-1")
		return out
	}
	uv := func(bits int) []string {
		max := uint64(1)<<bits - 1
		if bits == 64 {
			max = ^uint64(0)
		}
		root := uint64(1) << (bits / 2)
		out := []string{"0", "1", "2", "3"}
		for _, v := range []uint64{max, max - 1, max / 2, max/2 + 1, root, root - 1, root + 1, max / 3} {
			out = append(out, strconv.FormatUint(v, 10)+"u")
		}
		return out
	}
	types := []typ{
		{"signed char", sv(8)}, {"unsigned char", uv(8)}, {"short", sv(16)}, {"unsigned short", uv(16)},
		{"int", sv(32)}, {"unsigned", uv(32)}, {"long", sv(64)}, {"unsigned long", uv(64)},
		{"long long", sv(64)}, {"unsigned long long", uv(64)},
	}
	pairs := [][2]typ{}
	for _, ty := range types {
		pairs = append(pairs, [2]typ{ty, ty})
	}
	// mixed types whose conversion keeps every value (gcc's builtins
	// compute with the operands' values, CBMC with the converted ones):
	// unsigned char with int (int), unsigned with long (long)
	pairs = append(pairs, [2]typ{types[1], types[4]}, [2]typ{types[5], types[6]})
	ops := []struct{ cbmc, gcc string }{{"plus", "add"}, {"minus", "sub"}, {"mult", "mul"}}
	// one block per pair of types and operation: the values in arrays,
	// every combination in a loop, gcc's answers printed in order
	block := func(p [2]typ, body string) string {
		return fmt.Sprintf("  { static const %s va[] = {%s}; static const %s vb[] = {%s};\n"+
			"    for (int i = 0; i < %d; i++) for (int j = 0; j < %d; j++) { %s a = va[i]; %s b = vb[j]; %s }\n  }\n",
			p[0].name, strings.Join(p[0].vals, ", "), p[1].name, strings.Join(p[1].vals, ", "),
			len(p[0].vals), len(p[1].vals), p[0].name, p[1].name, body)
	}
	dir := t.TempDir()
	var g strings.Builder
	g.WriteString("#include <stdio.h>\nint main(void) {\n")
	n := 0
	for _, p := range pairs {
		for _, op := range ops {
			g.WriteString(block(p, fmt.Sprintf(`__typeof__(a + b) r; printf("%%d", (int)__builtin_%s_overflow(a, b, &r));`, op.gcc)))
			n += len(p[0].vals) * len(p[1].vals)
		}
	}
	g.WriteString("  return 0;\n}\n")
	want := gccOutput(t, dir, g.String())
	if len(want) != n {
		t.Fatalf("gcc printed %d results for %d cases", len(want), n)
	}
	ones := strings.Count(want, "1")
	if ones < n/10 || ones > n*9/10 {
		t.Fatalf("%d of %d cases overflow: the values do not probe both sides", ones, n)
	}
	// reverify's program: the expected answers in one string, the index of
	// the first disagreement returned
	var r strings.Builder
	fmt.Fprintf(&r, "static const char want[] = \"%s\";\nint main(void) {\n  int k = 0;\n", want)
	for _, p := range pairs {
		for _, op := range ops {
			r.WriteString(block(p, fmt.Sprintf("if (__CPROVER_overflow_%s(a, b) != want[k] - '0') return k + 1; k++;", op.cbmc)))
		}
	}
	r.WriteString("  return 0;\n}\n")
	check := func(label string, prog *cfa.Program) {
		t.Helper()
		tr, err := interp.Run(context.Background(), prog, "main", nil, interp.Options{MaxSteps: 200 * n})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Stop != interp.ReachedExit {
			t.Fatalf("%s: run stopped: %v %s at %v", label, tr.Stop, tr.Reason, tr.Pos)
		}
		if tr.Exit != 0 {
			k := int(tr.Exit) - 1
			for _, p := range pairs {
				for _, op := range ops {
					m := len(p[0].vals) * len(p[1].vals)
					if k < m {
						t.Fatalf("%s: __CPROVER_overflow_%s((%s)%s, (%s)%s) differs from gcc's __builtin_%s_overflow (%c)",
							label, op.cbmc, p[0].name, p[0].vals[k/len(p[1].vals)], p[1].name, p[1].vals[k%len(p[1].vals)], op.gcc, want[tr.Exit-1])
					}
					k -= m
				}
			}
		}
	}
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "ov.c", Content: r.String()}})
	if err != nil {
		t.Fatal(err)
	}
	check("C front end", prog)
	// The same program through clang with CBMC's GNU C prelude
	// (csem.CBMCPreludeGNU) and the LLVM front end: the prelude's
	// statement expressions become LLVM's *.with.overflow intrinsics,
	// which llvmir lowers with cfa.Overflow.
	if _, err := exec.LookPath("clang"); err != nil {
		t.Logf("clang not installed: the LLVM front end is not checked")
	} else {
		src := filepath.Join(dir, "ov.c")
		if err := os.WriteFile(src, []byte(r.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		ir, err := loadClang(t, src)
		if err != nil {
			t.Fatal(err)
		}
		check("LLVM front end", ir)
	}
	t.Logf("%d cases agree with gcc (%d overflow)", n, ones)
}

// gccOutput compiles the C program src with gcc -O0 in dir, runs it and
// returns what it printed: the reference the builtin tests compare the
// interpreter with.
func gccOutput(t *testing.T, dir, src string) string {
	t.Helper()
	gsrc := filepath.Join(dir, "gcc.c")
	if err := os.WriteFile(gsrc, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "a.out")
	if out, err := exec.Command("gcc", "-O0", "-w", "-o", bin, gsrc).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return string(out)
}

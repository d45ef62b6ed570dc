package engine_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/interp"
)

// builtinsProgram computes gcc's bit-counting and checked-arithmetic
// builtins on boundary values; OUT(v) emits each result.
const builtinsProgram = `
static const unsigned long long bits[] = {1, 2, 3, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull, 0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull,
	0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffffffffffull, 0x0123456789abcdefull, 0xf0f0f0f00f0f0f0full};
static const long long svals[] = {0, 1, 2, -1, -2, 3, 0x7fffffff, -0x7fffffff - 1, 0x7ffffffe, 0xffffffff, 0x100000000ll,
	0x7fffffffffffffffll, -0x7fffffffffffffffll - 1, 0x3fffffffffffffffll, 0x4000000000000000ll, 46341, 3037000500ll, -3037000500ll};
#define NB (sizeof bits / sizeof bits[0])
#define NS (sizeof svals / sizeof svals[0])
#define CHECK3(T, A, B) for (int i = 0; i < NS; i++) for (int j = 0; j < NS; j++) { \
	A a = (A)svals[i]; B b = (B)svals[j]; T r; \
	int o = __builtin_add_overflow(a, b, &r); OUT(o); OUT(r); \
	o = __builtin_sub_overflow(a, b, &r); OUT(o); OUT(r); \
	o = __builtin_mul_overflow(a, b, &r); OUT(o); OUT(r); }
int main(void) {
	BEGIN
	for (int i = 0; i < NB; i++) {
		unsigned long long x = bits[i];
		unsigned u = (unsigned)x;
		unsigned long l = (unsigned long)x;
		OUT(__builtin_popcount(u)); OUT(__builtin_popcountl(l)); OUT(__builtin_popcountll(x));
		OUT(__builtin_parity(u)); OUT(__builtin_parityl(l)); OUT(__builtin_parityll(x));
		if (u != 0) { OUT(__builtin_clz(u)); OUT(__builtin_ctz(u)); }
		if (l != 0) { OUT(__builtin_clzl(l)); OUT(__builtin_ctzl(l)); }
		OUT(__builtin_clzll(x)); OUT(__builtin_ctzll(x));
	}
	OUT(__builtin_popcount(0)); OUT(__builtin_parityll(0));
	CHECK3(int, int, int)
	CHECK3(unsigned, unsigned, unsigned)
	CHECK3(long, long, long)
	CHECK3(unsigned long, unsigned long, unsigned long)
	CHECK3(long long, int, long long)
	CHECK3(long, unsigned, int)
	CHECK3(unsigned long long, unsigned, unsigned long long)
	for (int i = 0; i < NS; i++) {
		int r; long lr; unsigned long long ur;
		OUT(__builtin_sadd_overflow((int)svals[i], 0x7fffffff, &r)); OUT(r);
		OUT(__builtin_ssubl_overflow((long)svals[i], 1, &lr)); OUT(lr);
		OUT(__builtin_umulll_overflow((unsigned long long)svals[i], 3, &ur)); OUT(ur);
		OUT(__builtin_add_overflow((long)svals[i], 1, &lr)); OUT(lr);
	}
	END
}
`

// TestBuiltinsAgainstGCC checks the translation of gcc's
// __builtin_popcount/parity/clz/ctz (all widths) and the checked
// arithmetic builtins __builtin_add/sub/mul_overflow (generic and typed;
// engine/frontend, cbmc_builtins.go) against gcc on boundary values: gcc
// prints every result, the concrete interpreter runs the same program
// and compares each with gcc's.
func TestBuiltinsAgainstGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	dir := t.TempDir()
	gprog := "#include <stdio.h>\n#define BEGIN\n#define END return 0;\n#define OUT(v) printf(\"%llu,\", (unsigned long long)(v))\n" + builtinsProgram
	want := strings.Split(strings.TrimSuffix(gccOutput(t, dir, gprog), ","), ",")
	if len(want) < 1000 {
		t.Fatalf("gcc printed %d results", len(want))
	}
	ones := 0
	for i := 0; i < len(want); i++ {
		if want[i] == "1" {
			ones++
		}
	}
	rprog := "static const unsigned long long want[] = {" + strings.Join(want, "ull,") + "ull};\n" +
		"#define BEGIN int k = 0;\n#define END return 0;\n" +
		"#define OUT(v) do { if ((unsigned long long)(v) != want[k]) return k + 1; k++; } while (0)\n" + builtinsProgram
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "builtins.c", Content: rprog}})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := interp.Run(context.Background(), prog, "main", nil, interp.Options{MaxSteps: 400 * len(want)})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Stop != interp.ReachedExit {
		t.Fatalf("run stopped: %v %s at %v", tr.Stop, tr.Reason, tr.Pos)
	}
	if tr.Exit != 0 {
		t.Fatalf("result %d of %d differs from gcc's (%s)", tr.Exit, len(want), want[tr.Exit-1])
	}
	t.Logf("%d results agree with gcc (%d are 1)", len(want), ones)
}

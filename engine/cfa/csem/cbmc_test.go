package csem

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// TestCBMCPreludeCompiles compiles a program in CBMC's dialect (contract
// clauses with non-C syntax inside, a loop invariant with a quantifier,
// the overflow predicates, assume and assert, the memory queries, the
// types and max_malloc_size) with the GNU C prelude force-included, by
// gcc and clang in both data models where they are installed.
func TestCBMCPreludeCompiles(t *testing.T) {
	const prog = `int g;
int div_floor(int a, int b)
__CPROVER_requires(b > 0 && __CPROVER_is_fresh(&g, sizeof g))
__CPROVER_assigns(g)
__CPROVER_ensures(a >= 0 ==> __CPROVER_return_value >= 0)
{
	return a / b;
}
int sum(const int *a, __CPROVER_size_t n)
{
	int s = 0;
	for (__CPROVER_size_t i = 0; i < n; i++)
	__CPROVER_loop_invariant(i <= n && __CPROVER_forall { int k; (0 <= k && k < n) ==> a[k] == a[k] })
	__CPROVER_decreases(n - i)
	{
		if (__CPROVER_overflow_plus(s, a[i]))
			return 0;
		s += a[i];
	}
	return s;
}
int main(void) {
	int a[2] = {1, 2};
	__CPROVER_bool ok = __CPROVER_r_ok(a, sizeof a) && !__CPROVER_overflow_mult(a[0], a[1]);
	__CPROVER_assume(__CPROVER_max_malloc_size > 0);
	__CPROVER_assert(ok && sum(a, 2) == 3, "sum");
	__CPROVER_precondition(div_floor(4, 2) == 2, "div");
	return 0;
}
`
	dir := t.TempDir()
	src := filepath.Join(dir, "p.c")
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	ran := false
	for _, cc := range []string{"gcc", "clang"} {
		if _, err := exec.LookPath(cc); err != nil {
			continue
		}
		for _, m := range []cfa.DataModel{cfa.LP64, cfa.ILP32} {
			h := filepath.Join(dir, "cprover-"+m.String()+".h")
			if err := os.WriteFile(h, []byte(CBMCPreludeGNU(m)), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"-fsyntax-only", "-Werror", "-Wno-unused", "-include", h, src}
			if m == cfa.ILP32 {
				args = append([]string{"-m32"}, args...)
			}
			if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
				t.Errorf("%s %s: %v\n%s", cc, m, err, out)
			}
			ran = true
		}
	}
	if !ran {
		t.Skip("neither gcc nor clang installed")
	}
}

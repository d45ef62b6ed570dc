// Pointers with a symbolic offset into a block of symbolic size (symbolic
// execution, value/symptr.go): p = buf + i with 0 <= i < n stays inside
// malloc(n), and with i <= n the write through q = buf + j may land one
// past the end (j == n), a counterexample confirmed by replay: found by
// the probe of the value analysis's unknown pointer (probeUndecided in
// engine/memsafety) before symbolic execution runs, or by the split.
// memory: sites
// memory: valid-memsafety FALSE "confirmed by SMT and concrete replay"
#include <stdlib.h>
extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n >= 1 && n <= 16);
  char *buf = malloc(n);
  if (!buf)
    return 0;
  unsigned i = __VERIFIER_nondet_uint();
  if (i < n) {
    char *p = buf + i;
    *p = 1; // site: valid-deref TRUE
    char *e = buf + n;
    if (p >= e)
      *buf = 3; // site: valid-deref TRUE
  }
  unsigned j = __VERIFIER_nondet_uint();
  if (j <= n) {
    char *q = buf + j;
    *q = 2; // site: valid-deref FALSE "confirmed by SMT and concrete replay" // violation
  }
  free(buf); // site: valid-free TRUE
  return 0;
}

// Adversarial: a block of unknown size n in [1, 8], assumed readable for
// 2 bytes, then written at offset 3, out of bounds for n <= 3. The value
// analysis cannot decide r_ok nor the access for an unknown size; symbolic
// execution over the same memory model (a block of symbolic size) finds
// n = 2 or 3, confirmed by SMT and replay.
// entry: harness
// memory: valid-memsafety FALSE "out-of-bounds access of 1 bytes by *(p + 3)"
#include <stdlib.h>
unsigned nondet_unsigned(void);
void harness(void) {
  unsigned n = nondet_unsigned();
  __CPROVER_assume(n >= 1 && n <= 8);
  char *p = malloc(n);
  __CPROVER_assume(p != 0);
  __CPROVER_assume(__CPROVER_r_ok(p, 2));
  p[3] = 0; // violation
  free(p);
}

int main(void) { return 0; } // other tests of testdata/verdicts start at main

// Adversarial: the harness assumes __CPROVER_r_ok on fewer bytes than it
// then writes. The assumption holds (the block has 4 bytes), so it must
// not hide the out-of-bounds write: FALSE, confirmed by the SMT check and
// the replay, which both evaluate r_ok.
// entry: harness
// memory: valid-memsafety FALSE "out-of-bounds access of 1 bytes at offset 4"
#include <stdlib.h>
void harness(void) {
  char *p = malloc(4);
  __CPROVER_assume(p != 0);
  __CPROVER_assume(__CPROVER_r_ok(p, 4));
  p[4] = 1; // violation
  free(p);
}

int main(void) { return 0; } // other tests of testdata/verdicts start at main

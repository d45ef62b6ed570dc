// A harness in CBMC's dialect (malloc may fail: CBMC's default): the
// harness forgets the NULL check.
// entry: harness
// memory: valid-memsafety FALSE "NULL pointer dereference"
#include <stddef.h>
#include <stdlib.h>
size_t nondet_size_t(void);
void harness(void) {
  size_t n = nondet_size_t();
  __CPROVER_assume(n > 0 && n <= 8);
  char *p = malloc(n);
  p[0] = 1; // violation
  free(p);
}

int main(void) { return 0; } // other tests of testdata/verdicts start at main

// __CPROVER_r_ok and w_ok guard accesses: in memory mode the value
// analysis knows the block's size and status, so the guarded accesses
// are proved safe, the access after free is guarded by r_ok, which is
// then false, and POINTER_OFFSET and same_object follow p + 2.
// entry: harness
// memory: valid-memsafety TRUE
#include <stdlib.h>
void harness(void) {
  char *p = malloc(8);
  if (p == 0)
    return;
  char *q = p + 2;
  if (__CPROVER_w_ok(q, 6))
    q[5] = 1;
  if (__CPROVER_r_ok(q, 7))
    q[6] = 1; // not reached: only 6 bytes from q
  if (__CPROVER_same_object(p, q) && __CPROVER_POINTER_OFFSET(q) == 2)
    q[-2] = 0;
  else
    q[100] = 0; // not reached
  free(p);
  if (__CPROVER_rw_ok(p, 1))
    p[0] = 0; // not reached: p was freed
}

int main(void) { return 0; } // other tests of testdata/verdicts start at main

// Use after free: the read of p[0] after free(p) is a valid-deref
// violation (memory safety, value analysis with block validity).
// memory: valid-memsafety FALSE "valid-deref: access to heap"
#include <stdlib.h>
int main(void) {
  int *p = malloc(4 * sizeof(int));
  if (!p)
    return 0;
  p[0] = 1;
  free(p);
  return p[0]; // violation
}

// A pointer that leaves its block below offset 0 and comes back is no
// violation (memory safety counts accesses); the access after the round
// trip is in bounds, the one before it is not.
// memory: valid-memsafety FALSE "at offset -8 of"
#include <stdlib.h>
int main(void) {
  long *a = malloc(2 * sizeof(long));
  if (!a)
    return 0;
  long *q = a - 1;
  q++;
  *q = 1; // in bounds: a[0]
  q--;
  long v = *q; // violation: a[-1]
  free(a);
  return (int)v;
}

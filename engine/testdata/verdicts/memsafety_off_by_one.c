// Off-by-one buffer write: p[10] of a 10-byte block.
// memory: valid-memsafety FALSE "out-of-bounds access of 1 bytes at offset 10"
#include <stdlib.h>
int main(void) {
  char *p = malloc(10);
  if (!p)
    return 0;
  for (int i = 0; i <= 10; i++)
    p[i] = 'a'; // violation
  free(p);
  return 0;
}

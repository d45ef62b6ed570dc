// The same program checking malloc's result is safe, also when malloc
// may fail; the failed branch's block is never allocated, not leaked.
// malloc: may-fail
// memory: valid-memsafety TRUE
// memory: valid-memcleanup TRUE
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  if (p == NULL)
    return 1;
  *p = 1;
  free(p);
  return 0;
}

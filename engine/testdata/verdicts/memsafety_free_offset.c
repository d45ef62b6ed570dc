// free of a pointer into the middle of a block, then of a global: both
// invalid frees; the first is the violation.
// memory: valid-memsafety FALSE "valid-free: free of a pointer to offset 1"
#include <stdlib.h>
int main(void) {
  char *p = malloc(8);
  if (!p)
    return 0;
  free(p + 1); // violation
  return 0;
}

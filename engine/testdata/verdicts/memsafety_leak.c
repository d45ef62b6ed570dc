// A block that becomes unreachable while allocated: valid-memtrack (the
// pointer is overwritten, then the temporary holding it dies with main)
// and valid-memcleanup (it is still allocated at the end).
// memory: valid-memsafety FALSE "valid-memtrack"
// memory: valid-memcleanup FALSE "valid-memcleanup: heap"
#include <stdlib.h>
int *keep(int *q) { return q; }
int main(void) {
  int *p = keep(malloc(8));
  p = 0;
  return 0; // violation
}

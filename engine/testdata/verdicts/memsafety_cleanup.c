// A block a global still points to at the end: tracked (valid-memtrack
// holds) but not cleaned up (valid-memcleanup fails).
// memory: valid-memsafety TRUE
// memory: valid-memcleanup FALSE "still allocated at the end of the program"
#include <stdlib.h>
int *g;
int main(void) {
  g = malloc(4);
  if (g)
    *g = 1;
  return 0; // violation
}

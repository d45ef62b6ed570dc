// The address of a freed block may be reused by the next malloc, so
// x == y may hold and x be freed twice (SV-COMP's cmp-freed-ptr expects
// valid-free): never TRUE. The concrete interpreter never reuses
// addresses, so the double free is not confirmed either: UNKNOWN.
// memory: valid-memsafety UNKNOWN "double free"
#include <stdlib.h>
int main(void) {
  int *y = malloc(sizeof(int));
  free(y);
  int *x = malloc(sizeof(int));
  if (x == y)
    free(x);
  free(x);
  return 0;
}

// NULL dereference after a failed malloc (malloc may fail, as CBMC's
// default).
// malloc: may-fail
// memory: valid-memsafety FALSE "NULL pointer dereference"
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  *p = 1; // violation
  free(p);
  return 0;
}

// Double free: valid-free.
// memory: valid-memsafety FALSE "valid-free: double free"
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = malloc(sizeof(int));
  if (!p)
    return 0;
  int x = __VERIFIER_nondet_int();
  free(p);
  if (x > 10)
    free(p); // violation
  return 0;
}

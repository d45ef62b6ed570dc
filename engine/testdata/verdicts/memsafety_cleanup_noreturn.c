// A call of a bodiless function declared noreturn is not the end of the
// program for valid-memcleanup (it may run forever or call free on its
// own): with a block allocated there, neither TRUE nor FALSE holds.
// memory: valid-memcleanup UNKNOWN "hang"
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
_Noreturn void hang(void);
int main(void) {
  int *p = malloc(4);
  if (__VERIFIER_nondet_int())
    hang();
  free(p);
  return 0;
}

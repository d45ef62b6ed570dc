// A function registered with atexit frees the block whether main returns
// or calls exit: nothing is lost or left allocated.
// memory: valid-memsafety TRUE
// memory: valid-memcleanup TRUE
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int *g;
void release(void) {
  free(g);
  g = 0;
}
int main(void) {
  g = malloc(sizeof *g);
  atexit(release);
  if (__VERIFIER_nondet_int())
    exit(1);
  return 0;
}

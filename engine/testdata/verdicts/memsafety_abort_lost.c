// The boundary of memsafety_abort_locals.c: a block whose last named
// pointer is overwritten before abort is lost in the C program; only the
// front end's temporary of malloc's result still holds it, which is no
// pointer of the program, so TRUE is out. (The replay counts the
// temporary too, so no FALSE either.)
// memory: valid-memsafety UNKNOWN "only temporaries or block-scoped locals reach"
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = malloc(sizeof(int));
  if (!p)
    return 0;
  if (__VERIFIER_nondet_int()) {
    p = NULL; // lost
    abort();
  }
  free(p);
  return 0;
}

// A call that does not return leaves no frame: at abort and exit the
// blocks that only locals of live frames reach are still pointed to, no
// valid-memtrack violation (SV-COMP's list-ext; Valgrind: "still
// reachable", not "definitely lost"; TestAbortLocalsValgrind), while
// valid-memcleanup counts them (memsafety_cleanup_abort.c).
// memory: valid-memsafety TRUE
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
static void fail(int *q) {
  int *r = malloc(sizeof(int));
  if (r && *q == 1)
    exit(2); // r: reachable from this frame only
  free(r);
}
int main(void) {
  int *p = malloc(sizeof(int));
  if (!p)
    return 0;
  *p = __VERIFIER_nondet_int();
  if (*p == 0)
    abort(); // p: reachable from main's frame only
  fail(p);
  free(p);
  return 0;
}

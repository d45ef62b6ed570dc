// SV-COMP's valid-memcleanup counts abort and a failed assert as the end
// of the program (cfa.EndsProgram): a block still allocated there is a
// violation, while a call that merely never returns (an infinite loop, a
// function declared noreturn without a body) is no end. The list is
// reachable from a global at the abort, so valid-memtrack (and
// valid-memsafety) hold.
// memory: valid-memsafety TRUE
// memory: valid-memcleanup FALSE "still allocated at the end of the program"
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int h; struct node *n; };
struct node *a;
int main(void) {
  a = malloc(sizeof *a);
  if (!a)
    for (;;) {
    }
  a->h = 1;
  a->n = 0;
  if (__VERIFIER_nondet_int())
    abort(); // violation
  free(a);
  return 0;
}

// The parent link of the last node is never written: malloc leaves it
// indeterminate (SV-COMP reads it as a nondeterministic value), so the
// walk up from that node dereferences an unknown pointer (SV-COMP's
// tree-2, list-ext_flag). The value analysis cannot decide the access;
// probing it (engine/memsafety, probeUndecided) finds an execution
// whose initial heap bytes make it invalid.
// memory: valid-memsafety FALSE "->value, and an execution of the path makes it invalid"
#include <stdlib.h>
struct node {
  struct node *parent;
  int value;
};
extern int __VERIFIER_nondet_int(void);
int main(void) {
  struct node *first = malloc(sizeof *first);
  if (!first)
    return 0;
  first->value = 1;
  struct node *last = first;
  if (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof *n);
    if (!n)
      abort();
    n->value = 2;
    last->parent = n;
    last = n;
  }
  int s = 0;
  for (struct node *n = first; n; n = n->parent)
    s += n->value;
  if (last != first)
    free(last);
  free(first);
  return s;
}

// A singly linked list of nondeterministic length built, traversed and
// freed: list abstraction in memory-safety mode (segments carry the size
// and status of their blocks, engine/analysis/value/smg_mem.go) makes the
// loops converge.
// memory: valid-memsafety TRUE
// memory: valid-memcleanup TRUE
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next; int data; };
int main(void) {
  struct node *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof *n);
    if (!n)
      abort();
    n->data = 1;
    n->next = head;
    head = n;
  }
  int odd = 0;
  for (struct node *p = head; p; p = p->next)
    odd ^= p->data & 1;
  while (head) {
    struct node *n = head->next;
    free(head);
    head = n;
  }
  return odd;
}

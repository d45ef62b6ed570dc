// A doubly linked list of nondeterministic length built at its tail,
// traversed backwards and freed from the head: list abstraction with
// memory metadata (engine/analysis/value/smg_mem.go).
// memory: valid-memsafety TRUE
// memory: valid-memcleanup TRUE
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next, *prev; int data; };
int main(void) {
  struct node *head = NULL, *tail = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof *n);
    if (!n)
      abort();
    n->data = 2;
    n->next = NULL;
    n->prev = tail;
    if (tail)
      tail->next = n;
    else
      head = n;
    tail = n;
  }
  int odd = 0;
  for (struct node *p = tail; p; p = p->prev)
    odd ^= p->data & 1;
  while (head) {
    struct node *n = head->next;
    free(head);
    head = n;
  }
  return odd;
}

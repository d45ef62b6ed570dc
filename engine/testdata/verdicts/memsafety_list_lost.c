// A list of nondeterministic length whose head pointer is overwritten:
// every block of the list becomes unreachable (valid-memtrack).
// memory: valid-memsafety FALSE "valid-memtrack"
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
  head = NULL; // violation when the list was not empty
  return 0;
}

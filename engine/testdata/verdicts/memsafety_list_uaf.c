// The freeing loop of memsafety_list_sll.c reading the next pointer of
// the block it has just freed (valid-deref).
// memory: valid-memsafety FALSE "after it was freed"
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
  while (head) {
    free(head);
    head = head->next; // violation
  }
  return 0;
}

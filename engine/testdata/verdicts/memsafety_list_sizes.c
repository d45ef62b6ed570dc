// A list of big blocks (a node with a payload of 16 ints) preceded by
// small ones: blocks of different sizes are not merged into one segment,
// and the write to the payload, valid only in the big blocks, is refuted
// in a small one.
// memory: valid-memsafety FALSE "out-of-bounds access"
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next; int big; };
struct bignode { struct node n; int payload[16]; };
int main(void) {
  struct node *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(struct bignode));
    if (!n)
      abort();
    n->big = 1;
    n->next = head;
    head = n;
  }
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(struct node));
    if (!n)
      abort();
    n->big = 0;
    n->next = head;
    head = n;
  }
  for (struct node *p = head; p; p = p->next)
    ((struct bignode *)p)->payload[3] = 1; // violation in a small block
  while (head) {
    struct node *n = head->next;
    free(head);
    head = n;
  }
  return 0;
}

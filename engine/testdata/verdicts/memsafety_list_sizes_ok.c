// The list of memsafety_list_sizes.c where only blocks whose flag says
// big get their payload written: the small and the big blocks become two
// segments of one size each (smg_mem.go), so every access is proved in
// bounds.
// memory: valid-memsafety TRUE
// memory: valid-memcleanup TRUE
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
    if (p->big)
      ((struct bignode *)p)->payload[3] = 1;
  while (head) {
    struct node *n = head->next;
    free(head);
    head = n;
  }
  return 0;
}

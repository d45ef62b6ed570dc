// The list of memsafety_list_sll.c freed but for its last block, which
// the head pointer still designates when main returns: the block is lost
// when main's frame ends (valid-memtrack) and still allocated
// (valid-memcleanup).
// memory: valid-memsafety FALSE "valid-memtrack"
// memory: valid-memcleanup FALSE "still allocated at the end of the program"
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
  while (head && head->next) {
    struct node *n = head->next;
    free(head);
    head = n;
  }
  return 0; // violation when the list was not empty
}

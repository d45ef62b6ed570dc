// container_of of a list head that is no node's member (SV-COMP's
// test-0137, gl_seek_max): the pointer arithmetic leaves the head's
// block (offset -8), which memory safety does not count, and the read
// through the pointer is out of bounds. The confirmation's encoding and
// replay let the offset go below 0 (smt.EncodeOptions.WrapPointerArith).
// memory: valid-memsafety FALSE "at offset -8 of"
#include <stdlib.h>
struct list {
  struct list *next;
};
struct node {
  long value;
  struct list link;
};
#define node_of(l) ((struct node *)((char *)(l) - (unsigned long)&((struct node *)0)->link))
int main(void) {
  struct list *head = malloc(sizeof *head);
  if (!head)
    return 0;
  struct node *n = malloc(sizeof *n);
  if (!n) {
    free(head);
    return 0;
  }
  n->value = 1;
  head->next = &n->link;
  n->link.next = head;
  long s = 0;
  struct list *p = head->next;
  for (int i = 0; i < 2; i++) {
    struct node *entry = node_of(p); // the second time, node_of(head)
    s += entry->value;
    p = p->next;
  }
  free(n);
  free(head);
  return (int)s;
}

// Safe programs must be TRUE: bounded loops over malloc'd buffers freed
// at the end, a list built and freed, a local array passed down.
// memory: valid-memsafety TRUE
// memory: valid-memcleanup TRUE
#include <stdlib.h>
#include <string.h>
struct node {
  int v;
  struct node *next;
};
static int sum(const int *b, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += b[i];
  return s;
}
int main(void) {
  int *buf = malloc(16 * sizeof(int));
  if (!buf)
    return 0;
  for (int i = 0; i < 16; i++)
    buf[i] = i;
  memset(buf, 0, 16 * sizeof(int));
  int loc[4] = {1, 2, 3, 4};
  int s = sum(buf, 16) + sum(loc, 4);
  free(buf);
  struct node *head = NULL;
  for (int i = 0; i < 5; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n)
      break;
    n->v = i;
    n->next = head;
    head = n;
  }
  while (head) {
    struct node *t = head->next;
    free(head);
    head = t;
  }
  return s;
}

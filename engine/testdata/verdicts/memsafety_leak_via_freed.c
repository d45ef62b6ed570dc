// A block that only a freed block points to is lost (Valgrind: "definitely
// lost"): the contents of freed memory are no roots of reachability.
// memory: valid-memsafety FALSE "no longer reachable"
#include <stdlib.h>
struct L {
  struct L *next;
  int *d;
};
static struct L *list;
int main(void) {
  struct L *it = malloc(sizeof *it);
  if (!it)
    abort();
  it->d = malloc(8);
  it->next = 0;
  list = it;
  free(list);
  return 0;
}

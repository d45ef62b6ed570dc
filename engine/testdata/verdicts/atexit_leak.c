// The function registered with atexit runs after main returns and frees
// the only block that points to another: that one is lost
// (valid-memtrack; gcc -fsanitize=address: a leak).
// memory: valid-memsafety FALSE "valid-memtrack"
#include <stdlib.h>
int **g;
void drop(void) {
  free(g);
  g = 0;
}
int main(void) {
  g = malloc(sizeof *g);
  *g = malloc(sizeof **g);
  atexit(drop);
  return 0;
}

// The function registered with atexit runs after main returns and frees
// the block main has freed already (gcc -fsanitize=address: "attempting
// double-free").
// memory: valid-memsafety FALSE "valid-free"
#include <stdlib.h>
int *g;
void release(void) {
  free(g); // violation
}
int main(void) {
  g = malloc(sizeof *g);
  atexit(release);
  free(g);
  return 0;
}

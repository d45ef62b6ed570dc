// A write to a byte of a union's character array overwrites a byte of
// the pointer it shares storage with (SV-COMP's test-0158): the value
// analysis no longer knows the pointer, and the encoding shows that the
// free of it is invalid.
// memory: valid-memsafety FALSE "unknown pointer data.p0, and an execution"
#include <stdlib.h>
int main(void) {
  union {
    void *p0;
    struct {
      char c[2];
      void *p1;
    } str;
  } data;
  data.p0 = malloc(37);
  void *ptr = data.p0;
  data.str.c[1] = 8;
  free(data.p0);
  free(ptr);
  return 0;
}

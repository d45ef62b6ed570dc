/* The failing assert() is inside a called function. */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

static int scale(int v) {
  int r = v * 2;
  assert(r != 10);
  return r;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  if (x > 10 && x < 100) {
    y = x - 10;
  }
  assert(y >= 0);
  return scale(y);
}

/* assert() from <assert.h>: glibc expands it to a call of __assert_fail. */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  if (x > 10 && x < 100) {
    y = x - 10;
  }
  assert(y >= 0);
  assert(y != 5);
  return 0;
}

#include <assert.h>
#include "clamp.h"

extern int __VERIFIER_nondet_int(void);
extern int read_sensor(void);

void check_clamp(void) {
  int v = clamp(__VERIFIER_nondet_int());
  assert(v <= LIMIT);
}

void check_scale(void) {
  int k = scale(2);
  assert(k == 6);
}

void check_sensor(void) {
  int s = read_sensor();
  assert(s != 3);
}

int main(void) {
  int c = __VERIFIER_nondet_int();
  if (c == 0)
    check_clamp();
  else if (c == 1)
    check_scale();
  else
    check_sensor();
  return 0;
}

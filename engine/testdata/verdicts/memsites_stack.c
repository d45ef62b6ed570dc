// One memory property per access site: an off-by-one write to a stack
// array is FALSE at its own statement; the other accesses of the stack
// array, of a global array and of a heap block, and the free, are TRUE
// (an index the explicit analysis cannot bound, g[k], by symbolic
// execution under the path's constraint 0 <= k < 4).
// memory: sites
// memory: valid-memsafety FALSE "offset 8 of buf (8 bytes)"
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int g[4];
int main(void) {
  char buf[8];
  int sum = 0;
  for (int i = 0; i < 8; i++)
    buf[i] = 'a'; // site: valid-deref TRUE
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 4)
    g[k] = k; // site: valid-deref TRUE
  g[3] = 1; // site: valid-deref TRUE
  int *p = malloc(4 * sizeof(int));
  if (!p)
    return 0;
  p[3] = sum; // site: valid-deref TRUE
  sum += p[3] + g[0]; // site: valid-deref TRUE
  free(p); // site: valid-free TRUE
  for (int i = 0; i < 8; i++)
    sum += buf[i]; // site: valid-deref TRUE
  if (__VERIFIER_nondet_int())
    for (int i = 0; i <= 8; i++)
      buf[i] = 0; // site: valid-deref FALSE "offset 8 of buf (8 bytes)" // violation
  return sum + g[1]; // site: valid-deref TRUE
}

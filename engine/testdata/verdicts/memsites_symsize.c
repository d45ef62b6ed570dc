// A harness-style block of symbolic size: malloc(n) with n chosen by the
// harness and bounded by an assumption. The value analysis cannot
// decide the bounds (the size is unknown to it); symbolic execution over
// the same memory model proves the writes for i < n and refutes the
// write for i <= n at its own site (n == i), with a replayed
// counterexample.
// memory: sites
// memory: valid-memsafety FALSE "out-of-bounds access of 1 bytes"
#include <stdlib.h>
extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n >= 1 && n <= 8);
  char *buf = malloc(n);
  if (!buf)
    return 0;
  for (unsigned i = 0; i < n; i++)
    buf[i] = 'a'; // site: valid-deref TRUE
  int s = buf[0]; // site: valid-deref TRUE
  if (__VERIFIER_nondet_uint())
    for (unsigned i = 0; i <= n; i++)
      buf[i] = 'b'; // site: valid-deref FALSE "out-of-bounds access of 1 bytes" // violation
  free(buf); // site: valid-free TRUE
  return s;
}

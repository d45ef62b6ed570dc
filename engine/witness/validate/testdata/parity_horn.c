/* Proved by bmc's Horn engine with the invariant that x's low bit is 0
   ((_ extract 0 0) x), which the witness writes as a C mask. */
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }
unsigned int f(unsigned int z) { return z + 2; }
int main(void) {
  unsigned int x = 0;
  while (x < 0x0fffffff) {
    x = f(x);
  }
  __VERIFIER_assert(!(x % 2));
  return 0;
}

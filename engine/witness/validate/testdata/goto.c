/* A goto loop: its head precedes the if statement after the label, where
   the correctness witness puts a location_invariant (x == y). */
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int y = x;
loop:
  if (x > 0) {
    x = x - 1;
    y = y - 1;
    goto loop;
  }
  __VERIFIER_assert(y == 0);
  return 0;
}

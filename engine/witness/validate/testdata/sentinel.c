/* A search that stops at a sentinel: the invariant of the second loop
   needs the sentinel's element (A[15] == 0), which the value analysis
   knows and the witness writes. */
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int A[16];
  int i;
  for (i = 0; i < 15; i++) {
    A[i] = __VERIFIER_nondet_int();
  }
  A[15] = 0;
  for (i = 0; A[i] != 0; i++) {
  }
  __VERIFIER_assert(i <= 15);
  return 0;
}

/* A violation after 512 iterations of a copy loop: its witness has one
   branching waypoint per iteration (BenchmarkFollowLongWitness). */
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }
int main(void) {
  int A[512] = {0};
  int B[512] = {0};
  int i;
  for (i = 0; i < 512; i++) {
    B[i] = A[i];
  }
  __VERIFIER_assert(A[256] != B[256]);
  return 0;
}

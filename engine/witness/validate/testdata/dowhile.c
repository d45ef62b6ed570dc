/* A do ... while loop: its head precedes the body's first statement,
   where the correctness witness puts a location_invariant. */
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }
int main(void) {
  int x = 0;
  int y = 10;
  do {
    x = x + 1;
    y = y - 1;
  } while (x < 10);
  __VERIFIER_assert(y == 0);
  return 0;
}

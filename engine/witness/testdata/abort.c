extern void abort(void);
void reach_error(void) { abort(); }
void assume_abort_if_not(int cond) { if (!cond) { abort(); } }
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  assume_abort_if_not(x >= 0);
  if (x == 0) {
    reach_error();
  }
  return 0;
}

/* init_base.c with init changed: the assertion fails. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int limit = 64;
void init(void) { limit = 100; }
int clamp(int n) { return n > limit ? limit : n; }
int main(void) {
  init();
  int len = clamp(__VERIFIER_nondet_int());
  if (!(len <= 64))
    reach_error();
  return 0;
}

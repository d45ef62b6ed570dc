/* SV-COMP style: reach_error() ends in __assert_fail. */
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "reach_error.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  if (x > 10 && x < 100) {
    y = x - 10;
  }
  if (y < 0) reach_error();
  if (y == 5) reach_error();
  return 0;
}

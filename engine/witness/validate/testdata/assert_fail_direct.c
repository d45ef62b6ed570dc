/* __assert_fail called directly, as an expanded assert() would. */
extern void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function) __attribute__((__noreturn__));
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  if (x > 10 && x < 100) {
    y = x - 10;
  }
  if (y < 0) __assert_fail("y >= 0", "assert_fail_direct.c", 11, "main");
  if (y == 5) __assert_fail("y != 5", "assert_fail_direct.c", 12, "main");
  return 0;
}

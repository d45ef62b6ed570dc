extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "loop.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
    ERROR: {reach_error();abort();}
  }
  return;
}

int inc(int a) { return a + 1; }

int main(void) {
  int n = __VERIFIER_nondet_int();
  unsigned int u;
  u = __VERIFIER_nondet_uint(); /* a comment; with (parens */
  int s = 0;
  for (int i = 0; i < n && i < 5; i++) {
    s = inc(s);
  }
  if (!(u > 100u) || __VERIFIER_nondet_int()) {
    return 0;
  }
  __VERIFIER_assert(s != 3);
  return 0;
}

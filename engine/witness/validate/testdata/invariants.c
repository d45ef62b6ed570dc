extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "invariants.c", 3, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
    ERROR: {reach_error();abort();}
  }
  return;
}

int g;

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  int flag = n > 3;
  int i = 0;
  while (i < 4) {
    i++;
    g = g + 2;
  }
  for (int k = 0; k < 3; k++) {
    if (flag)
      g++;
  }
  __VERIFIER_assert(g >= 8 && g <= 11);
  return 0;
}

extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "calls.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);

int get(void) {
  int v = __VERIFIER_nondet_int();
  return v;
}

int main(void) {
  int a = get();
  char c = __VERIFIER_nondet_char();
  int k = 0;
  do {
    k++;
  } while (k < 2);
  switch (a) {
  case 1: k = 10; break;
  default: k = 20;
  }
  if ((c < 0 ? -c : c) == 5 && k == 10) {
    reach_error();
  }
  return 0;
}

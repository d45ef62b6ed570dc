extern void __VERIFIER_error(void);
extern void __VERIFIER_assume(int);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern long __VERIFIER_nondet_long(void);
extern _Bool __VERIFIER_nondet_bool(void);

int main(void) {
  unsigned char c = __VERIFIER_nondet_uchar();
  long l;
  __VERIFIER_assume(c > 200);
  l = __VERIFIER_nondet_long();
  while (__VERIFIER_nondet_bool()) {
    l = l + 1;
  }
  if (l == -5 && c == 255) __VERIFIER_error();
  return 0;
}

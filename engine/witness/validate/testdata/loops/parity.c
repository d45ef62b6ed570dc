extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = 0;
  unsigned int y = __VERIFIER_nondet_uint();
  while (x < 9) {
    if (y % 2 == 0) {
      x += 2;
    } else {
      x++;
    }
  }
  if (x % 2 != y % 2) {
    reach_error();
  }
  return 0;
}

/* Verification harness for kokke/tiny-bignum-c (bn.c, bn.h), written for
 * reverify's real-history benchmark (diffslice/realhistory_test.go).
 * It is ours, not the library's: main initialises two big numbers from
 * nondeterministic 32-bit values and calls one library function chosen
 * nondeterministically, so that the require()/assert() checks of every
 * function the library has had since its first commit become reachable
 * properties. Only functions present in every revision are called. */
#include "bn.h"

extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  struct bn a, b, c;
  char buf[16];
  bignum_from_int(&a, __VERIFIER_nondet_uint());
  bignum_from_int(&b, __VERIFIER_nondet_uint());
  int k = __VERIFIER_nondet_int();
  switch (__VERIFIER_nondet_int()) {
  case 0: bignum_add(&a, &b, &c); break;
  case 1: bignum_sub(&a, &b, &c); break;
  case 2: bignum_mul(&a, &b, &c); break;
  case 3: if (!bignum_is_zero(&b)) bignum_div(&a, &b, &c); break;
  case 4: if (!bignum_is_zero(&b)) bignum_mod(&a, &b, &c); break;
  case 5: bignum_pow(&a, &b, &c); break;
  case 6: bignum_and(&a, &b, &c); break;
  case 7: bignum_or(&a, &b, &c); break;
  case 8: bignum_xor(&a, &b, &c); break;
  case 9: if (k >= 0) bignum_lshift(&a, &b, k); break;
  case 10: if (k >= 0) bignum_rshift(&a, &b, k); break;
  case 11: bignum_inc(&a); break;
  case 12: bignum_dec(&a); break;
  case 13: (void)bignum_cmp(&a, &b); break;
  case 14: (void)bignum_is_zero(&a); break;
  case 15: (void)bignum_to_int(&a); break;
  case 16: bignum_assign(&c, &a); break;
  case 17: bignum_init(&c); break;
  case 18: if (k > 0 && k <= 16 && k % 8 == 0) bignum_from_string(&c, "0123456789abcdef", k); break;
  case 19: bignum_to_string(&a, buf, (int)sizeof buf); break;
  }
  return 0;
}

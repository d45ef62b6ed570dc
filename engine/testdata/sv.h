/* SV-COMP conventions for the verdict tests. */
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }
#define assert(c) __VERIFIER_assert(c)
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);

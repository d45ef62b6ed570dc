// configs: value value-cegar symex symex-cegar default
// CBMC's bounded existential quantifier __CPROVER_exists { int i; (i >= 0
// && i < H) && B } is evaluated exactly by a loop over [0, H)
// (engine/frontend, lowerExists), as an assertion and as an assumption.
// The adversarial cases: a byte set to 9 at an unknown index below 4
// exists (TRUE) but not always at index 0 (FALSE); an assumed existence
// does not fix which index.
unsigned char nondet_uchar(void);
unsigned nondet_uint(void);

int main(void) {
	unsigned char a[4] = {0, 0, 0, 0};
	unsigned k = nondet_uint();
	__CPROVER_assume(k < 4);
	a[k] = 9;
	__CPROVER_assert(__CPROVER_exists { int i; (i >= 0 && i < 4) && a[i] == 9 }, "some byte is nine"); // want TRUE
	__CPROVER_assert(__CPROVER_exists { int i; (i >= 0 && i < 1) && a[i] == 9 }, "the first byte is nine"); // want FALSE
	unsigned char b[3];
	b[0] = nondet_uchar();
	b[1] = nondet_uchar();
	b[2] = nondet_uchar();
	__CPROVER_assume(__CPROVER_exists { int i; (i >= 0 && i < 3) && b[i] == 5 });
	__CPROVER_assert(b[0] == 5 || b[1] == 5 || b[2] == 5, "assumed"); // want TRUE
	__CPROVER_assert(b[1] == 5, "not which"); // want FALSE
	return 0;
}

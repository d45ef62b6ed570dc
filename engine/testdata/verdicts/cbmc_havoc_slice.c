// configs: value value-cegar symex symex-cegar predicate-cegar bmc default
// __CPROVER_havoc_slice(p, n) (cfa.HavocSlice) gives the n bytes from p
// any value and keeps the rest of p's object: a field of a struct, two
// elements of an array, one byte inside an int (the bytes of the int
// outside it keep theirs); n = 0 writes nothing. The contracts use it for
// __CPROVER_object_upto at a call. The adversarial cases: an old value
// inside the slice asserted after the havoc is FALSE, confirmed by the
// SMT encoding (one input per byte of the slice) and the concrete replay.
struct pair {
	int a;
	int b;
};
int g[4] = {1, 2, 3, 4};
int h = 3;

int nondet_int(void);

int main(void) {
	struct pair s = {1, 2};
	__CPROVER_havoc_slice(&s.b, sizeof(int));
	__CPROVER_assert(s.a == 1, "first field kept"); // want TRUE
	if (nondet_int())
		__CPROVER_assert(s.b == 2, "second field havocked"); // want FALSE
	__CPROVER_havoc_slice(&g[1], 2 * sizeof(int));
	__CPROVER_assert(g[0] == 1 && g[3] == 4, "elements around the slice kept"); // want TRUE
	if (nondet_int())
		__CPROVER_assert(g[2] == 3, "last element of the slice havocked"); // want FALSE
	unsigned w = 0x01020304u;
	__CPROVER_havoc_slice((unsigned char *)&w + 1, 1);
	__CPROVER_assert((w & 0xffu) == 4u && (w >> 16) == 0x0102u, "bytes of the int outside the slice kept"); // want TRUE
	if (nondet_int())
		__CPROVER_assert(w == 0x01020304u, "one byte of the int havocked"); // want FALSE
	__CPROVER_havoc_slice(&h, 0);
	__CPROVER_assert(h == 3, "an empty slice writes nothing"); // want TRUE
	return 0;
}

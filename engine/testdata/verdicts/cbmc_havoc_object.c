// configs: value value-cegar symex symex-cegar default
// __CPROVER_havoc_object(p) (cfa.HavocObject) gives every byte of the
// object p points into any value, whatever p's offset (a struct through
// a pointer to its second field, an array through its second element);
// other objects keep theirs, NULL havocs nothing. The adversarial case:
// the old value asserted after the havoc is FALSE, confirmed by the SMT
// encoding (one input per byte of the object) and the concrete replay.
// A block of non-constant size gets fresh contents in the encoding that
// the replay cannot give back: no TRUE, and the FALSE stays UNKNOWN.
#include <stdlib.h>

struct pair {
	int a;
	int b;
};
int g[2];
int h;

int nondet_int(void);
size_t nondet_size_t(void);

int main(void) {
	struct pair s = {1, 2};
	int keep = 7;
	h = 3;
	__CPROVER_havoc_object(&s.b);
	if (nondet_int())
		__CPROVER_assert(s.a == 1, "first field havocked too"); // want FALSE
	__CPROVER_assert(keep == 7, "other local kept"); // want TRUE
	__CPROVER_assert(h == 3, "global kept"); // want TRUE
	g[0] = 5;
	g[1] = 6;
	__CPROVER_havoc_object(&g[1]);
	if (nondet_int())
		__CPROVER_assert(g[0] == 5, "global array havocked"); // want FALSE
	int *q = malloc(sizeof(int));
	__CPROVER_assume(q != 0);
	*q = 1;
	__CPROVER_havoc_object(q);
	if (nondet_int())
		__CPROVER_assert(*q == 1, "heap block havocked"); // want FALSE
	*q = 4;
	__CPROVER_assert(*q == 4, "written after the havoc"); // want TRUE
	__CPROVER_havoc_object((int *)0);
	__CPROVER_assert(h == 3 && *q == 4, "NULL havocs nothing"); // want TRUE
	size_t n = nondet_size_t();
	__CPROVER_assume(n >= 1 && n <= 8);
	char *buf = malloc(n);
	__CPROVER_assume(buf != 0);
	buf[0] = 'x';
	__CPROVER_havoc_object(buf);
	__CPROVER_assert(buf[0] == 'x', "block of symbolic size"); // want UNKNOWN
	return 0;
}

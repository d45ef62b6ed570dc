// configs: value value-cegar symex-cegar predicate-cegar bmc default
// A floating-point lvalue compared with a constant of its type by == or
// != is a comparison of bit patterns (IEEE 754: each finite value other
// than zero has one encoding; +0 and -0 are equal; engine/frontend's
// floatEqConst), as aws-c-common's hash tables test their load factor
// (max_load_factor == 0.95). The bits here come from an integer input;
// the FALSE is confirmed by the concrete replay, and the gcc-compiled
// program with the adversary's inputs fails it for CASE=1 (the bits of
// 0.95) and holds otherwise (0, -0.0, 0.5 as double and 0.5f as float).
// adversary fails: 1
// adversary holds: 0 2 3 4
#include <assert.h>
#include <string.h>

struct table {
	double factor;
	float ratio;
};

unsigned long nondet_ulong(void);
unsigned nondet_uint(void);
int nondet_int(void);

int main(void) {
	struct table t;
	struct table *p = &t;
	unsigned long u = nondet_ulong();
	unsigned v = nondet_uint();
	memcpy(&t.factor, &u, sizeof u);
	memcpy(&t.ratio, &v, sizeof v);
	if (p->factor == 0.95) {
		assert(u == 0x3FEE666666666666ul); // want TRUE
		assert(p->factor != 0.5);          // want TRUE
	}
	if (p->factor == 0.0)
		assert(u == 0 || u == 0x8000000000000000ul); // want TRUE
	if (p->factor != -0.0)
		assert(u != 0 && u != 0x8000000000000000ul); // want TRUE
	if (p->ratio == 0.5f)
		assert(v == 0x3F000000u); // want TRUE
	if (nondet_int())
		assert(p->factor != 0.95); // want FALSE
	return 0;
}

/* adversary:
#include <stdlib.h>
static unsigned long bits[] = {0, 0x3FEE666666666666ul, 0x8000000000000000ul, 0x3FE0000000000000ul, 0};
unsigned long nondet_ulong(void) { const char *c = getenv("CASE"); return bits[c ? atoi(c) : 0]; }
unsigned nondet_uint(void) { const char *c = getenv("CASE"); return c && atoi(c) == 4 ? 0x3F000000u : 0; }
int nondet_int(void) { return 1; }
*/

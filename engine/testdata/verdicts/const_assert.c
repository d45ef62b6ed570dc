// configs: value predicate-cegar default
// Every assertion the source contains gets a verdict, constant ones
// too: assert.h's expansion (`if (c) ; else __assert_fail(…)`, glibc's
// form below) with a constant c, or a constant part of c (`p || 1`),
// keeps both branches instead of folding the failing one away; so does
// the `c ? (void)0 : __assert_fail(…)` form (assert_q).
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
#define assert(c) ((void)sizeof((c) ? 1 : 0), __extension__({ if (c) ; else __assert_fail(#c, __FILE__, __LINE__, __func__); }))
#define assert_q(c) ((c) ? (void)0 : __assert_fail(#c, __FILE__, __LINE__, __func__))

struct __attribute__((aligned(16))) A { int x; };

int __VERIFIER_nondet_int(void);

int main(void) {
	int x = __VERIFIER_nondet_int();
	assert(sizeof(struct A) == 16); // want TRUE
	assert(1);                      // want TRUE
	assert(sizeof(int) == 4);       // want TRUE
	assert(x == 0 || 1);            // want TRUE
	assert(x ? 1 : 1);              // want TRUE
	assert_q(x != 0 || 1);          // want TRUE
	assert_q(x ? 1 : sizeof(int) == 4); // want TRUE
	assert(x != 5 && 1);            // want FALSE
	assert(sizeof(char) == 2);      // want FALSE
	return 0;
}

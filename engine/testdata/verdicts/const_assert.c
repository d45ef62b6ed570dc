// configs: value predicate-cegar default
// Every assertion the source contains gets a verdict, constant ones
// too: assert.h's expansion (`if (c) ; else __assert_fail(…)`, glibc's
// form below) with a constant c keeps both branches instead of folding
// the failing one away.
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
#define assert(c) ((void)sizeof((c) ? 1 : 0), __extension__({ if (c) ; else __assert_fail(#c, __FILE__, __LINE__, __func__); }))

struct __attribute__((aligned(16))) A { int x; };

int main(void) {
	assert(sizeof(struct A) == 16); // want TRUE
	assert(1);                      // want TRUE
	assert(sizeof(int) == 4);       // want TRUE
	assert(sizeof(char) == 2);      // want FALSE
	return 0;
}

/* A FALSE that exists only under the macros the program was read with
 * (check -D STRICT -D LIMIT=5): the reproducer is compiled with them. */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int main(void)
{
	int x = __VERIFIER_nondet_int();
#ifdef STRICT
	assert(x != LIMIT);
#endif
	return 0;
}

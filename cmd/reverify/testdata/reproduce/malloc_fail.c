/* Checked with --malloc-may-fail: the assertion fails only when the
 * first allocation succeeds and the second fails; the reproducer makes
 * the second call of malloc return NULL. */
#include <assert.h>
#include <stdlib.h>

int main(void)
{
	int *a = malloc(sizeof *a);
	int *b = malloc(sizeof *b);

	assert(a == 0 || b != 0);
	free(a);
	free(b);
	return 0;
}

#include <assert.h>
#include "ring.h"

int ring_sum(const int *xs, size_t n)
{
	long s = 0;
	size_t i;
	for (i = 0; i < n; i++)
		s += xs[i] > 0 ? 1 : 0;
	assert(s <= (long)n);
	return (int)s;
}

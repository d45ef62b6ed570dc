#include <assert.h>
#include "bitalloc.h"

void ba_init(struct balloc *a) {
	bm_init(&a->map);
	a->allocs = 0;
}

/* ba_alloc finds the first run of n free blocks, marks it in use and
 * returns its first block; -1 when n is 0 or above MAX_RUN or no run is
 * free. */
int ba_alloc(struct balloc *a, unsigned int n) {
	if (n == 0 || n > MAX_RUN)
		return -1;
	for (unsigned int start = 0; start + n <= NBLK; start++) {
		unsigned int k = 0;
		while (k < n && !bm_test(&a->map, start + k))
			k++;
		if (k < n)
			continue;
		for (k = 0; k < n; k++)
			bm_set(&a->map, start + k);
		a->allocs++;
		assert(a->map.nset <= NBLK);
		return (int)start;
	}
	return -1;
}

/* ba_free releases the extent [start, start+n): 0, or -1 when the
 * request is malformed. */
int ba_free(struct balloc *a, unsigned int start, unsigned int n) {
	if (n == 0 || n > MAX_RUN || start >= NBLK)
		return -1;
	for (unsigned int k = 0; k < n; k++)
		bm_clear(&a->map, start + k);
	return 0;
}

#include <assert.h>
#include "bitalloc.h"

/* quota_blocks is the number of blocks a fraction frac (Q8.8, 0 to 1)
 * of the device amounts to, rounded to the nearest block. */
unsigned int quota_blocks(fx_t frac) {
	fx_t b = fx_mul(frac, fx_from_int(NBLK));
	int q = fx_round(b);
	assert(q >= 0 && q <= NBLK);
	return (unsigned int)q;
}

/* usage_pct is the share of blocks in use, in percent. */
unsigned int usage_pct(const struct balloc *a) {
	unsigned int pct = bm_count(&a->map) * 100u / NBLK;
	assert(pct <= 100);
	return pct;
}

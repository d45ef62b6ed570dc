/* Harness: three extents of nondeterministic sizes (each 1 + its index or
 * MAX_RUN blocks) are allocated; then
 * one operation picked by the environment runs on the result: free and
 * reallocate the middle extent, seal the bitmap into a superblock and
 * flip one bit of it, compute a quota from an arbitrary fraction, or
 * free an extent a client names itself. */
#include <assert.h>
#include "bitalloc.h"

/* choose returns a value 0..max picked by the environment. */
static unsigned int choose(unsigned int max) {
	unsigned char c = __VERIFIER_nondet_uchar();
	for (unsigned int i = 0; i < max; i++)
		if (c == i)
			return i;
	return max;
}

int main(void) {
	struct balloc a;
	struct superblock sb;
	int got[3];
	unsigned int len[3];
	unsigned int total = 0;
	fx_t avg = 0;

	ba_init(&a);
	for (unsigned int i = 0; i < 3; i++) {
		len[i] = __VERIFIER_nondet_uchar() ? MAX_RUN : 1 + i;
		got[i] = ba_alloc(&a, len[i]);
		assert(got[i] >= 0);                     /* 3 extents of at most 4 fit in 16 */
		total += len[i];
		avg = fx_ewma(avg, fx_from_int((int)bm_count(&a.map)));
	}
	assert(bm_count(&a.map) == total && a.map.nset == total);
	assert(got[0] + (int)len[0] <= got[1]);      /* extents do not overlap */
	assert(avg >= 0 && avg <= fx_from_int(NBLK));

	switch (choose(3)) {
	case 0: {
		/* first fit reuses the hole the middle extent leaves */
		ba_free(&a, (unsigned int)got[1], len[1]);
		int again = ba_alloc(&a, len[1]);
		assert(again == got[1]);
		break;
	}
	case 1: {
		/* the superblock detects any single flipped bit of the map */
		sb_seal(&sb, &a.map);
		assert(sb_check(&sb) == 0);
		unsigned int bit = choose(NBLK - 1);
		sb.map[bit / 8] ^= (unsigned char)(1u << (bit % 8));
		assert(sb_check(&sb) != 0);
		break;
	}
	case 2: {
		/* a quota of frac (0 to 1) of the device */
		fx_t frac = __VERIFIER_nondet_int();
		if (frac < 0 || frac > FX_ONE)
			return 0;
		unsigned int q = quota_blocks(frac);
		assert(usage_pct(&a) <= 100 && q <= NBLK);
		break;
	}
	default: {
		/* a client releases an extent it names itself */
		unsigned int s = __VERIFIER_nondet_uchar();
		unsigned int n = 1 + choose(MAX_RUN - 1);
		if (ba_free(&a, s, n) == 0)
			assert(a.map.nset <= total);
		break;
	}
	}
	return 0;
}

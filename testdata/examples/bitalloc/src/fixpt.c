#include <assert.h>
#include "bitalloc.h"

/* fx_from_int converts a small integer, saturating at +-127. */
fx_t fx_from_int(int x) {
	if (x > 127)
		x = 127;
	if (x < -128)
		x = -128;
	fx_t r = x * FX_ONE;
	assert(r >= FX_MIN && r <= FX_MAX);
	return r;
}

/* fx_mul multiplies, truncating toward zero and saturating. */
fx_t fx_mul(fx_t a, fx_t b) {
	long long p = (long long)a * b / FX_ONE;
	if (p > FX_MAX)
		p = FX_MAX;
	if (p < FX_MIN)
		p = FX_MIN;
	return (fx_t)p;
}

/* fx_round rounds a non-negative value to the nearest integer. */
int fx_round(fx_t x) {
	return (x + FX_ONE / 2) / FX_ONE;
}

/* fx_ewma moves avg a quarter of the way towards sample; the result
 * lies between the two. */
fx_t fx_ewma(fx_t avg, fx_t sample) {
	fx_t r = avg + fx_mul(sample - avg, FX_ALPHA);
	assert((r >= avg && r <= sample) || (r <= avg && r >= sample));
	return r;
}

/* A small example for `reverify check`: a saturating counter and a ring
 * index with three assertions, one of which fails when the counter wraps. */
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

static unsigned char saturating_add(unsigned char a, unsigned char b) {
	unsigned int sum = (unsigned int)a + b;
	return sum > 255 ? 255 : (unsigned char)sum;
}

static unsigned char wrapping_add(unsigned char a, unsigned char b) {
	return (unsigned char)(a + b);
}

static int ring_next(int i, int size) {
	return (i + 1) % size;
}

int main(void) {
	unsigned char a = __VERIFIER_nondet_uchar();
	unsigned char b = __VERIFIER_nondet_uchar();

	unsigned char s = saturating_add(a, b);
	assert(s >= a);              /* holds: saturation never goes down */

	int i = 0;
	for (int k = 0; k < 10; k++)
		i = ring_next(i, 4);
	assert(i >= 0 && i < 4);     /* holds */

	unsigned char w = wrapping_add(a, b);
	assert(w >= a);              /* fails: 200 + 100 wraps to 44 */
	return 0;
}

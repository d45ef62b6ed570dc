#include "ringproto.h"

unsigned char sum8(const unsigned char *p, unsigned int n) {
	unsigned char s = 0;
	for (unsigned int i = 0; i < n; i++)
		s = (unsigned char)(s + p[i]);
	return s;
}

/* The "broken" clamp_len of the pull-request demo: it no longer bounds
 * the length, so frame_encode's assertion (its caller) fails. Replace
 * src/checksum.c with this file to see it. */
unsigned int clamp_len(unsigned int n) {
	return n;
}

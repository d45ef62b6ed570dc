#include "ringproto.h"

unsigned char sum8(const unsigned char *p, unsigned int n) {
	unsigned char s = 0;
	for (unsigned int i = 0; i < n; i++)
		s = (unsigned char)(s + p[i]);
	return s;
}

/* clamp_len bounds a length read from the wire to the payload size. */
unsigned int clamp_len(unsigned int n) {
	return n > FRAME_MAX ? FRAME_MAX : n;
}

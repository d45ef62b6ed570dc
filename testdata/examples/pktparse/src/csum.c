#include <assert.h>
#include "pktparse.h"

/* csum16 is the Internet checksum (RFC 1071) of p[0..n): the complement
 * of the ones' complement sum of the big-endian 16-bit words, an odd last
 * byte padded with a zero byte. */
unsigned int csum16(const unsigned char *p, unsigned int n) {
	unsigned int s = 0;
	for (unsigned int i = 0; i + 1 < n; i += 2)
		s += ((unsigned int)p[i] << 8) | p[i + 1];
	if (n & 1)
		s += (unsigned int)p[n - 1] << 8;
	/* two end-around carries fold any 32-bit sum into 16 bits */
	s = (s & 0xFFFF) + (s >> 16);
	s = (s & 0xFFFF) + (s >> 16);
	assert(s <= 0xFFFF);
	return ~s & 0xFFFF;
}

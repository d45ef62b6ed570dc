#include <assert.h>
#include "pktparse.h"

void cur_init(struct cursor *c, const unsigned char *buf, unsigned int len) {
	assert(len <= PKT_MAX); /* callers pass at most one packet */
	c->buf = buf;
	c->len = len;
	c->pos = 0;
}

unsigned int cur_left(const struct cursor *c) {
	assert(c->pos <= c->len);
	return c->len - c->pos;
}

/* cur_u8 reads one byte: 0, or -1 at the end of the input. */
int cur_u8(struct cursor *c, unsigned char *out) {
	if (c->pos >= c->len)
		return -1;
	assert(c->pos < PKT_MAX); /* reads stay in the packet buffer */
	*out = c->buf[c->pos++];
	return 0;
}

/* cur_bytes copies the next n bytes to dst: 0, or -1 (and nothing read)
 * when fewer are left. */
int cur_bytes(struct cursor *c, unsigned char *dst, unsigned int n) {
	if (n > cur_left(c))
		return -1;
	for (unsigned int i = 0; i < n; i++)
		dst[i] = c->buf[c->pos + i];
	c->pos += n;
	assert(c->pos <= c->len);
	return 0;
}

#include <assert.h>
#include "pktparse.h"

/* hdr_parse reads the fixed header: 0, or -1 when it is truncated, of an
 * unknown version or claims more bytes than arrived. */
int hdr_parse(struct cursor *c, struct pkt_hdr *h) {
	unsigned char total, hi, lo;
	if (cur_u8(c, &h->ver) != 0 || cur_u8(c, &total) != 0)
		return -1;
	if (cur_u8(c, &hi) != 0 || cur_u8(c, &lo) != 0)
		return -1;
	if (h->ver != PKT_VERSION)
		return -1;
	if (total < HDR_LEN || total > c->len)
		return -1;
	h->total = total;
	h->csum = ((unsigned int)hi << 8) | lo;
	assert(h->total <= PKT_MAX);
	return 0;
}

#include <assert.h>
#include "ringproto.h"

/* frame_encode writes f to r; it fails without writing when r has no
 * room for the whole frame. */
int frame_encode(struct ring *r, const struct frame *f) {
	unsigned int len = clamp_len(f->len);
	assert(len <= FRAME_MAX);               /* clamp_len keeps the payload in bounds */
	if (ring_space(r) < len + 3)
		return -1;
	unsigned char hdr[2];
	hdr[0] = f->type;
	hdr[1] = (unsigned char)len;
	unsigned char sum = (unsigned char)(sum8(hdr, 2) + sum8(f->payload, len));
	ring_push(r, hdr[0]);
	ring_push(r, hdr[1]);
	for (unsigned int i = 0; i < len; i++)
		ring_push(r, f->payload[i]);
	ring_push(r, sum);
	return (int)len + 3;
}

/* frame_decode reads one frame from r into f: 0 on success, -1 when r
 * holds no complete frame, -2 on a bad length or checksum. */
int frame_decode(struct ring *r, struct frame *f) {
	unsigned char type, len, sum;
	if (ring_pop(r, &type) != 0 || ring_pop(r, &len) != 0)
		return -1;
	if (len > FRAME_MAX)
		return -2;
	for (unsigned int i = 0; i < len; i++)
		if (ring_pop(r, &f->payload[i]) != 0)
			return -1;
	if (ring_pop(r, &sum) != 0)
		return -1;
	f->type = type;
	f->len = len;
	unsigned char hdr[2];
	hdr[0] = type;
	hdr[1] = len;
	if ((unsigned char)(sum8(hdr, 2) + sum8(f->payload, len)) != sum)
		return -2;
	assert(f->len <= FRAME_MAX);            /* a decoded frame fits its payload */
	return 0;
}

#include <assert.h>
#include "ringproto.h"

void ring_init(struct ring *r) {
	for (unsigned int i = 0; i < RING_CAP; i++)
		r->buf[i] = 0;
	r->head = 0;
	r->tail = 0;
	r->count = 0;
}

unsigned int ring_space(const struct ring *r) {
	return RING_CAP - r->count;
}

int ring_push(struct ring *r, unsigned char b) {
	if (r->count == RING_CAP)
		return -1;
	assert(r->tail < RING_CAP);             /* the write index stays in the buffer */
	r->buf[r->tail] = b;
	r->tail = (r->tail + 1) % RING_CAP;
	r->count++;
	return 0;
}

int ring_pop(struct ring *r, unsigned char *out) {
	if (r->count == 0)
		return -1;
	assert(r->head < RING_CAP);             /* the read index stays in the buffer */
	*out = r->buf[r->head];
	r->head = (r->head + 1) % RING_CAP;
	r->count--;
	return 0;
}

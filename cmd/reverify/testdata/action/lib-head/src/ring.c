#include <assert.h>
#include "ring.h"

/* The slot i places after head; callers keep i below RING_CAP. */
static size_t slot(const struct ring *r, size_t i)
{
	size_t s = (r->head + i) % RING_CAP;
	assert(i < RING_CAP);
	return s;
}

void ring_init(struct ring *r)
{
	r->head = 0;
	r->count = 0;
}

int ring_push(struct ring *r, int v)
{
	if (r->count > RING_CAP)
		return -1;
	r->slots[slot(r, r->count)] = v;
	r->count++;
	return 0;
}

int ring_pop(struct ring *r, int *out)
{
	if (r->count == 0 || r->count > RING_CAP)
		return -1;
	*out = r->slots[slot(r, 0)];
	r->head = (r->head + 1) % RING_CAP;
	r->count--;
	return 0;
}

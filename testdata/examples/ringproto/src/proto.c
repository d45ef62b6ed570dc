#include <assert.h>
#include "ringproto.h"

void stats_init(struct stats *s) {
	s->frames = 0;
	s->bytes = 0;
	s->errors = 0;
}

/* proto_handle answers a PING with an ACK echoing its payload and a DATA
 * frame with an empty ACK; it returns 1 when reply holds a frame. */
int proto_handle(struct stats *s, const struct frame *f, struct frame *reply) {
	s->frames++;
	s->bytes += f->len;
	switch (f->type) {
	case T_PING:
		reply->type = T_ACK;
		reply->len = f->len;
		for (unsigned int i = 0; i < f->len && i < FRAME_MAX; i++)
			reply->payload[i] = f->payload[i];
		assert(reply->len == f->len);   /* an echo keeps the length */
		return 1;
	case T_DATA:
		reply->type = T_ACK;
		reply->len = 0;
		return 1;
	default:
		s->errors++;
		assert(s->errors <= s->frames); /* every error is a counted frame */
		return 0;
	}
}

/* Harness: a nondeterministic frame goes through encode, the ring and
 * decode, then the protocol handler; the assertions state what a caller
 * relies on. */
#include <assert.h>
#include "ringproto.h"

extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
	struct ring r;
	struct frame in, out, reply;
	struct stats st;

	ring_init(&r);
	stats_init(&st);
	/* the peer sends a PING, a DATA or a malformed frame of some length,
	 * possibly longer than the payload */
	unsigned char kind = __VERIFIER_nondet_uchar();
	in.type = kind == 0 ? T_PING : kind == 1 ? T_DATA : 7;
	unsigned char size = __VERIFIER_nondet_uchar();
	in.len = size == 0 ? 0 : size == 1 ? 3 : 9;
	for (unsigned int i = 0; i < FRAME_MAX; i++)
		in.payload[i] = (unsigned char)(0x41 + i);

	int n = frame_encode(&r, &in);
	assert(n == -1 || (n >= 3 && n <= FRAME_MAX + 3)); /* a frame is 3 to 7 bytes */
	if (n < 0)
		return 0;
	assert(r.count == (unsigned int)n);                 /* everything written is stored */

	int rc = frame_decode(&r, &out);
	assert(rc == 0);                                    /* what was encoded decodes */
	assert(r.count == 0);                               /* and is consumed whole */
	assert(out.type == in.type);
	assert(out.len <= in.len);                          /* lengths are only clamped */

	if (proto_handle(&st, &out, &reply)) {
		assert(reply.type == T_ACK);
		assert(reply.len <= FRAME_MAX);                 /* a reply fits the ring */
	}
	assert(st.frames == 1);
	return 0;
}

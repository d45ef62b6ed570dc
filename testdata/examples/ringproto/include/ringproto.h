/* ringproto: a tiny framed protocol over a byte ring buffer.
 * A frame is [type, len, payload[len], sum]; sum is the 8-bit sum of
 * type, len and the payload. */
#ifndef RINGPROTO_H
#define RINGPROTO_H

#define RING_CAP 8
#define FRAME_MAX 4

enum { T_PING = 1, T_DATA = 2, T_ACK = 3 };

struct ring {
	unsigned char buf[RING_CAP];
	unsigned int head;  /* next slot to read */
	unsigned int tail;  /* next slot to write */
	unsigned int count; /* bytes stored */
};

struct frame {
	unsigned char type;
	unsigned char len;
	unsigned char payload[FRAME_MAX];
};

struct stats {
	unsigned int frames;
	unsigned int bytes;
	unsigned int errors;
};

/* ring.c */
void ring_init(struct ring *r);
int ring_push(struct ring *r, unsigned char b);
int ring_pop(struct ring *r, unsigned char *out);
unsigned int ring_space(const struct ring *r);

/* checksum.c */
unsigned char sum8(const unsigned char *p, unsigned int n);
unsigned int clamp_len(unsigned int n);

/* frame.c */
int frame_encode(struct ring *r, const struct frame *f);
int frame_decode(struct ring *r, struct frame *f);

/* proto.c */
void stats_init(struct stats *s);
int proto_handle(struct stats *s, const struct frame *f, struct frame *reply);

#endif

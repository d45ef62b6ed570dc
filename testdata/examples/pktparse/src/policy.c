#include <assert.h>
#include "pktparse.h"

/* pkt_options derives the connection options from the records of p:
 * 0, or -1 when an MSS or window-scale option has the wrong length.
 * Unknown options are skipped. */
int pkt_options(const struct pkt *p, struct conn_opts *o) {
	o->mss = MIN_MSS;
	o->wscale = 0;
	for (unsigned int i = 0; i < p->nopts; i++) {
		const struct tlv *t = &p->opts[i];
		switch (t->type) {
		case OPT_MSS:
			if (t->len != 2)
				return -1;
			o->mss = ((unsigned int)t->val[0] << 8) | t->val[1];
			if (o->mss < MIN_MSS)
				o->mss = MIN_MSS;
			break;
		case OPT_WSCALE:
			if (t->len != 1)
				return -1;
			/* larger shifts are treated as the largest one */
			o->wscale = t->val[0] > 15 ? WSCALE_MAX : t->val[0];
			break;
		default:
			break;
		}
	}
	assert(o->mss >= MIN_MSS);
	assert(o->wscale <= WSCALE_MAX);
	return 0;
}

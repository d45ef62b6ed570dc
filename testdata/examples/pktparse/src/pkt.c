#include <assert.h>
#include "pktparse.h"

/* pkt_parse parses the n bytes received in buf into p. */
int pkt_parse(const unsigned char *buf, unsigned int n, struct pkt *p) {
	struct cursor c;
	cur_init(&c, buf, n);
	if (hdr_parse(&c, &p->hdr) != 0)
		return PKT_EHDR;
	if (csum16(buf, p->hdr.total) != 0)
		return PKT_ESUM;
	c.len = p->hdr.total; /* the options end where the packet does */
	int rc = tlv_parse_all(&c, p);
	if (rc == PKT_OK)
		assert(p->nopts <= TLV_MAX);
	return rc;
}

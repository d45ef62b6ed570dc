/* Harness: a sender builds a packet with a nondeterministic sequence of
 * options (arbitrary MSS, window-scale and payload bytes), checksums it,
 * and the receiver parses the first n bytes that arrived. */
#include <assert.h>
#include "pktparse.h"

/* build_packet fills buf (PKT_MAX bytes) and returns the total it
 * announces; options that do not fit are cut off at PKT_MAX. */
static unsigned int build_packet(unsigned char *buf) {
	unsigned char opt[5];
	unsigned int olen, pos = HDR_LEN;
	unsigned char sel = __VERIFIER_nondet_uchar();
	unsigned int total = sel == 0 ? HDR_LEN : sel == 1 ? 8 : PKT_MAX;

	buf[0] = __VERIFIER_nondet_uchar() ? PKT_VERSION : 2;
	buf[1] = (unsigned char)total;
	buf[2] = 0;
	buf[3] = 0;
	while (pos < PKT_MAX) {
		unsigned char kind = __VERIFIER_nondet_uchar();
		olen = 0;
		if (kind == 0) {
			opt[olen++] = OPT_PAD;
		} else if (kind == 1) {
			opt[olen++] = OPT_MSS;
			opt[olen++] = 2;
			opt[olen++] = __VERIFIER_nondet_uchar();
			opt[olen++] = __VERIFIER_nondet_uchar();
		} else if (kind == 2) {
			opt[olen++] = OPT_WSCALE;
			opt[olen++] = 1;
			opt[olen++] = __VERIFIER_nondet_uchar();
		} else if (kind == 3) {
			opt[olen++] = 7; /* an option this receiver does not know */
			opt[olen++] = 3;
			for (unsigned int i = 0; i < 3; i++)
				opt[olen++] = __VERIFIER_nondet_uchar();
		} else {
			/* end of options: pad the rest with zeros */
			opt[olen++] = OPT_END;
			buf[pos++] = opt[0];
			while (pos < PKT_MAX)
				buf[pos++] = OPT_PAD;
			break;
		}
		for (unsigned int i = 0; i < olen && pos < PKT_MAX; i++)
			buf[pos++] = opt[i];
	}
	unsigned int cs = csum16(buf, total);
	buf[2] = (unsigned char)(cs >> 8);
	buf[3] = (unsigned char)cs;
	return total;
}

int main(void) {
	unsigned char buf[PKT_MAX];
	struct pkt p;
	struct conn_opts o;

	unsigned int total = build_packet(buf);
	unsigned int n = __VERIFIER_nondet_uchar() ? PKT_MAX : 7; /* bytes that arrived */
	int rc = pkt_parse(buf, n, &p);
	assert(rc != PKT_ESUM);                  /* the sender's checksum verifies */
	if (total > n)
		assert(rc == PKT_EHDR);              /* a cut-off packet is refused up front */
	if (rc != PKT_OK)
		return 0;
	assert(buf[0] == PKT_VERSION && p.hdr.total == total);
	for (unsigned int i = 0; i < p.nopts; i++)
		assert(p.opts[i].type != OPT_PAD && p.opts[i].type != OPT_END);
	if (pkt_options(&p, &o) == 0) {
		unsigned long win = 0xFFFFul << o.wscale; /* largest window */
		assert(win <= 0x3FFFC000ul);
	}
	return 0;
}

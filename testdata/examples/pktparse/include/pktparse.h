/* pktparse: a parser for a small framed packet format.
 *
 *   header:  ver(1) total(1) csum(2, big-endian)
 *   options: TLV records type(1) len(1) value(len), up to total bytes;
 *            type OPT_PAD is a single byte, OPT_END ends the list
 *
 * total counts the header and the options; csum is the 16-bit ones'
 * complement checksum of the first total bytes (with csum itself 0 when
 * it is computed), so a packet that arrived intact sums to 0. */
#ifndef PKTPARSE_H
#define PKTPARSE_H

#define PKT_MAX 10      /* largest packet */
#define HDR_LEN 4
#define PKT_VERSION 1
#define TLV_MAX 2       /* option records kept per packet */
#define TLV_VAL_MAX 2   /* bytes of value kept per record */

enum { OPT_PAD = 0, OPT_MSS = 1, OPT_WSCALE = 2, OPT_END = 0xFF };

#define MIN_MSS 536
#define WSCALE_MAX 14   /* RFC 7323 */

enum { PKT_OK = 0, PKT_EHDR = -1, PKT_ESUM = -2, PKT_ETRUNC = -3, PKT_EMANY = -4 };

struct cursor {
	const unsigned char *buf;
	unsigned int len; /* readable bytes */
	unsigned int pos; /* next byte to read */
};

struct pkt_hdr {
	unsigned char ver;
	unsigned int total;
	unsigned int csum;
};

struct tlv {
	unsigned char type;
	unsigned char len;
	unsigned char val[TLV_VAL_MAX];
};

struct pkt {
	struct pkt_hdr hdr;
	struct tlv opts[TLV_MAX];
	unsigned int nopts;
};

struct conn_opts {
	unsigned int mss;
	unsigned int wscale;
};

/* inputs of the verification harness */
extern unsigned char __VERIFIER_nondet_uchar(void);

/* cursor.c */
void cur_init(struct cursor *c, const unsigned char *buf, unsigned int len);
unsigned int cur_left(const struct cursor *c);
int cur_u8(struct cursor *c, unsigned char *out);
int cur_bytes(struct cursor *c, unsigned char *dst, unsigned int n);

/* csum.c */
unsigned int csum16(const unsigned char *p, unsigned int n);

/* hdr.c */
int hdr_parse(struct cursor *c, struct pkt_hdr *h);

/* tlv.c */
int tlv_parse_all(struct cursor *c, struct pkt *p);

/* pkt.c */
int pkt_parse(const unsigned char *buf, unsigned int n, struct pkt *p);

/* policy.c */
int pkt_options(const struct pkt *p, struct conn_opts *o);

#endif

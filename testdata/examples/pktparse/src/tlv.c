#include <assert.h>
#include "pktparse.h"

/* tlv_parse_all reads the option records up to the end of c into p. */
int tlv_parse_all(struct cursor *c, struct pkt *p) {
	p->nopts = 0;
	while (cur_left(c) > 0) {
		unsigned char type, len;
		cur_u8(c, &type);
		if (type == OPT_PAD)
			continue;
		if (type == OPT_END)
			break;
		if (p->nopts == TLV_MAX)
			return PKT_EMANY;
		if (cur_u8(c, &len) != 0)
			return PKT_ETRUNC;
		if (len > cur_left(c))
			return PKT_ETRUNC; /* the value runs past the packet */
		struct tlv *t = &p->opts[p->nopts];
		assert(len <= TLV_VAL_MAX); /* the value fits the record */
		t->type = type;
		t->len = len;
		cur_bytes(c, t->val, len);
		p->nopts++;
	}
	assert(c->pos <= c->len);
	return PKT_OK;
}

#include <assert.h>
#include "kvstore.h"

void stats_init(struct kv_stats *s) {
	s->puts = 0;
	s->replaced = 0;
	s->rejected = 0;
}

/* stats_put records the result of one kv_put. */
void stats_put(struct kv_stats *s, int rc) {
	s->puts++;
	if (rc == 1)
		s->replaced++;
	else if (rc < 0)
		s->rejected++;
	assert(s->replaced + s->rejected <= s->puts);
}

/* kv_used counts the occupied slots. */
unsigned int kv_used(const struct kv_table *t) {
	unsigned int n = 0;
	for (unsigned int i = 0; i < KV_SLOTS; i++)
		if (t->slots[i].used)
			n++;
	return n;
}

/* kv_load_pct is the fill level of the table in percent. */
unsigned int kv_load_pct(const struct kv_table *t) {
	unsigned int pct = t->count * 100u / KV_SLOTS;
	assert(pct <= 100);
	return pct;
}

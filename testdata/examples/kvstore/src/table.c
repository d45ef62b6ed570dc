#include <assert.h>
#include "kvstore.h"

void kv_init(struct kv_table *t) {
	for (unsigned int i = 0; i < KV_SLOTS; i++) {
		t->slots[i].key[0] = '\0';
		t->slots[i].value = 0;
		t->slots[i].used = 0;
	}
	t->count = 0;
	t->probes = 0;
}

/* kv_find returns the slot holding k, or KV_SLOTS when k is absent. */
static unsigned int kv_find(const struct kv_table *t, const char *k) {
	unsigned int idx = kv_hash(k);
	for (unsigned int n = 0; n < KV_SLOTS; n++) {
		assert(idx < KV_SLOTS);
		if (!t->slots[idx].used)
			return KV_SLOTS;
		if (key_eq(t->slots[idx].key, k))
			return idx;
		idx = (idx + 1) & (KV_SLOTS - 1);
	}
	return KV_SLOTS;
}

/* kv_put stores v under k: 0 when k was added, 1 when its value was
 * replaced, -1 when k is empty or too long or the table is full. */
int kv_put(struct kv_table *t, const char *k, int v) {
	unsigned int len = key_len(k, KEY_MAX);
	if (len == 0 || len > KEY_MAX)
		return -1;
	unsigned int idx = kv_find(t, k);
	if (idx < KV_SLOTS) {
		t->slots[idx].value = v;
		return 1;
	}
	if (t->count == KV_SLOTS)
		return -1;
	idx = kv_hash(k);
	for (unsigned int n = 0; n < KV_SLOTS; n++) {
		if (!t->slots[idx].used)
			break;
		t->probes++;
		idx = (idx + 1) & (KV_SLOTS - 1);
	}
	assert(!t->slots[idx].used); /* count < KV_SLOTS leaves a free slot */
	key_copy(t->slots[idx].key, k, len);
	t->slots[idx].value = v;
	t->slots[idx].used = 1;
	t->count++;
	assert(t->count <= KV_SLOTS);
	return 0;
}

/* kv_get copies k's value to *v: 1 when k is present, 0 otherwise. */
int kv_get(const struct kv_table *t, const char *k, int *v) {
	unsigned int idx = kv_find(t, k);
	if (idx == KV_SLOTS)
		return 0;
	assert(t->slots[idx].used);
	*v = t->slots[idx].value;
	return 1;
}

#include <assert.h>
#include "kvstore.h"

/* kv_hash is djb2 over the key, reduced to a slot index. */
unsigned int kv_hash(const char *k) {
	unsigned int h = 5381;
	for (unsigned int i = 0; i < KEY_MAX && k[i] != '\0'; i++)
		h = h * 33u + (unsigned char)k[i];
	unsigned int idx = h & (KV_SLOTS - 1);
	assert(idx < KV_SLOTS);
	return idx;
}

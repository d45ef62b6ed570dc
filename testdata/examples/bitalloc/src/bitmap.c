#include <assert.h>
#include "bitalloc.h"

void bm_init(struct bitmap *m) {
	for (unsigned int b = 0; b < MAP_BYTES; b++)
		m->bits[b] = 0;
	m->nset = 0;
}

int bm_test(const struct bitmap *m, unsigned int i) {
	assert(i < NBLK);
	return (m->bits[i / 8] >> (i % 8)) & 1;
}

/* bm_set marks block i in use; it must be free. */
void bm_set(struct bitmap *m, unsigned int i) {
	assert(i < NBLK);
	assert(!((m->bits[i / 8] >> (i % 8)) & 1)); /* no block is handed out twice */
	m->bits[i / 8] = (unsigned char)(m->bits[i / 8] | (1u << (i % 8)));
	m->nset++;
}

/* bm_clear marks block i free (freeing a free block is harmless). */
void bm_clear(struct bitmap *m, unsigned int i) {
	assert(i < NBLK);
	if ((m->bits[i / 8] >> (i % 8)) & 1) {
		m->bits[i / 8] = (unsigned char)(m->bits[i / 8] & ~(1u << (i % 8)));
		m->nset--;
	}
}

/* bm_count counts the blocks in use, bit by bit. */
unsigned int bm_count(const struct bitmap *m) {
	unsigned int n = 0;
	for (unsigned int b = 0; b < MAP_BYTES; b++)
		for (unsigned int k = 0; k < 8; k++)
			n += (m->bits[b] >> k) & 1u;
	return n;
}

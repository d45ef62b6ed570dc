#include <assert.h>
#include "bitalloc.h"

/* crc8 is CRC-8 with polynomial x^8 + x^2 + x + 1 (0x07), initial 0. */
unsigned char crc8(const unsigned char *p, unsigned int n) {
	unsigned char c = 0;
	for (unsigned int i = 0; i < n; i++) {
		c ^= p[i];
		for (unsigned int b = 0; b < 8; b++)
			c = (c & 0x80) ? (unsigned char)((c << 1) ^ 0x07) : (unsigned char)(c << 1);
	}
	return c;
}

static unsigned char sb_crc(const struct superblock *sb) {
	unsigned char raw[MAP_BYTES + 1];
	for (unsigned int b = 0; b < MAP_BYTES; b++)
		raw[b] = sb->map[b];
	raw[MAP_BYTES] = sb->used;
	return crc8(raw, MAP_BYTES + 1);
}

/* sb_seal stores the bitmap m in sb under its checksum. */
void sb_seal(struct superblock *sb, const struct bitmap *m) {
	for (unsigned int b = 0; b < MAP_BYTES; b++)
		sb->map[b] = m->bits[b];
	assert(m->nset <= NBLK); /* the count fits the byte */
	sb->used = (unsigned char)m->nset;
	sb->crc = sb_crc(sb);
}

/* sb_check is 0 when sb is intact, -1 when its checksum mismatches. */
int sb_check(const struct superblock *sb) {
	return sb_crc(sb) == sb->crc ? 0 : -1;
}

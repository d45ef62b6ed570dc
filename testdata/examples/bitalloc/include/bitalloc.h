/* bitalloc: a block allocator over a bitmap of NBLK blocks (first fit),
 * a superblock that stores the bitmap under a CRC-8, and Q8.8 fixed-point
 * helpers for quotas and a moving average of the fill level. */
#ifndef BITALLOC_H
#define BITALLOC_H

#define NBLK 16             /* blocks on the device */
#define MAP_BYTES (NBLK / 8)
#define MAX_RUN 4           /* largest extent one call allocates */

struct bitmap {
	unsigned char bits[MAP_BYTES];
	unsigned int nset; /* blocks marked in use */
};

struct balloc {
	struct bitmap map;
	unsigned int allocs; /* successful ba_alloc calls */
};

struct superblock {
	unsigned char map[MAP_BYTES];
	unsigned char used;
	unsigned char crc; /* CRC-8 of map and used */
};

/* Q8.8 fixed point */
typedef int fx_t;
#define FX_ONE 256
#define FX_MAX 0x7FFF
#define FX_MIN (-0x8000)
#define FX_ALPHA 64 /* 0.25: weight of a new sample in the average */

/* inputs of the verification harness */
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

/* bitmap.c */
void bm_init(struct bitmap *m);
int bm_test(const struct bitmap *m, unsigned int i);
void bm_set(struct bitmap *m, unsigned int i);
void bm_clear(struct bitmap *m, unsigned int i);
unsigned int bm_count(const struct bitmap *m);

/* alloc.c */
void ba_init(struct balloc *a);
int ba_alloc(struct balloc *a, unsigned int n);
int ba_free(struct balloc *a, unsigned int start, unsigned int n);

/* crc.c */
unsigned char crc8(const unsigned char *p, unsigned int n);
void sb_seal(struct superblock *sb, const struct bitmap *m);
int sb_check(const struct superblock *sb);

/* fixpt.c */
fx_t fx_from_int(int x);
fx_t fx_mul(fx_t a, fx_t b);
int fx_round(fx_t x);
fx_t fx_ewma(fx_t avg, fx_t sample);

/* usage.c */
unsigned int quota_blocks(fx_t frac);
unsigned int usage_pct(const struct balloc *a);

#endif

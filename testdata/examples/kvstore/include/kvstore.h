/* kvstore: a fixed-size hash table of short string keys with linear
 * probing. Keys are NUL-terminated strings of 1 to KEY_MAX-1 characters
 * stored inline in their slot; values are ints. */
#ifndef KVSTORE_H
#define KVSTORE_H

#define KV_SLOTS 4 /* table capacity, a power of two */
#define KEY_MAX 4  /* key buffer size, including the terminating NUL */

struct kv_entry {
	char key[KEY_MAX];
	int value;
	unsigned char used;
};

struct kv_table {
	struct kv_entry slots[KV_SLOTS];
	unsigned int count;  /* slots in use */
	unsigned int probes; /* collisions stepped over by kv_put */
};

struct kv_stats {
	unsigned int puts;
	unsigned int replaced;
	unsigned int rejected;
};

/* inputs of the verification harness */
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

/* keys.c */
unsigned int key_len(const char *k, unsigned int max);
int key_eq(const char *a, const char *b);
void key_copy(char *dst, const char *src, unsigned int len);

/* hash.c */
unsigned int kv_hash(const char *k);

/* table.c */
void kv_init(struct kv_table *t);
int kv_put(struct kv_table *t, const char *k, int v);
int kv_get(const struct kv_table *t, const char *k, int *v);

/* stats.c */
void stats_init(struct kv_stats *s);
void stats_put(struct kv_stats *s, int rc);
unsigned int kv_used(const struct kv_table *t);
unsigned int kv_load_pct(const struct kv_table *t);

#endif

/* Harness: two keys of nondeterministic length and letters (one too long
 * for a slot when its length is KEY_MAX) with arbitrary values go into an
 * empty table; then a loop fills the table with fixed keys. */
#include <assert.h>
#include "kvstore.h"

/* make_key writes a key of 1, 3 or KEY_MAX letters 'a'/'b' into buf,
 * which has room for KEY_MAX characters and a NUL. */
static void make_key(char *buf) {
	unsigned char n = __VERIFIER_nondet_uchar();
	unsigned int len = n == 0 ? 1 : n == 1 ? 3 : KEY_MAX;
	for (unsigned int i = 0; i < KEY_MAX + 1; i++)
		buf[i] = '\0';
	for (unsigned int i = 0; i < len; i++)
		buf[i] = __VERIFIER_nondet_uchar() ? 'b' : 'a';
}

int main(void) {
	struct kv_table t;
	struct kv_stats st;
	char k1[KEY_MAX + 1], k2[KEY_MAX + 1];
	int v1 = __VERIFIER_nondet_int();
	int v2 = __VERIFIER_nondet_int();
	int got = 0;

	kv_init(&t);
	stats_init(&st);
	make_key(k1);
	make_key(k2);

	int rc1 = kv_put(&t, k1, v1);
	stats_put(&st, rc1);
	assert(rc1 != 1);                 /* an empty table has nothing to replace */
	if (rc1 < 0)
		return 0;
	int found = kv_get(&t, k1, &got);
	assert(found);
	assert(got == v1);                /* what was put is what is read */

	int rc2 = kv_put(&t, k2, v2);
	stats_put(&st, rc2);
	if (rc2 < 0)
		return 0;
	int same = key_eq(k1, k2);
	assert(rc2 == (same ? 1 : 0));    /* a second key is added or replaces */
	found = kv_get(&t, k1, &got);
	assert(found && got == (same ? v2 : v1));
	assert(t.count == kv_used(&t));   /* count tracks the occupied slots */

	/* fill up with the one-letter keys "c".."h": the table holds 4 */
	char k[2];
	k[1] = '\0';
	unsigned int added = 0;
	for (unsigned int i = 0; i < 6; i++) {
		k[0] = (char)('c' + i);
		int rc = kv_put(&t, k, (int)i);
		stats_put(&st, rc);
		if (rc == 0)
			added++;
	}
	assert(t.count == KV_SLOTS);
	assert(added == KV_SLOTS - 2 + (unsigned int)same);
	assert(kv_load_pct(&t) == 100);
	assert(st.puts == 8 && st.rejected == 4 - (unsigned int)same);
	return 0;
}

#include <assert.h>
#include "kvstore.h"

/* key_len is strnlen: the length of k, at most max. */
unsigned int key_len(const char *k, unsigned int max) {
	unsigned int n = 0;
	while (n < max && k[n] != '\0')
		n++;
	assert(n <= max);
	return n;
}

/* key_eq compares two keys of at most KEY_MAX bytes. */
int key_eq(const char *a, const char *b) {
	for (unsigned int i = 0; i < KEY_MAX; i++) {
		if (a[i] != b[i])
			return 0;
		if (a[i] == '\0')
			return 1;
	}
	return 1;
}

/* key_copy stores the len characters of src and a NUL into dst, a slot's
 * key buffer of KEY_MAX bytes. */
void key_copy(char *dst, const char *src, unsigned int len) {
	assert(len < KEY_MAX); /* room for the terminator */
	for (unsigned int i = 0; i < len; i++)
		dst[i] = src[i];
	dst[len] = '\0';
}

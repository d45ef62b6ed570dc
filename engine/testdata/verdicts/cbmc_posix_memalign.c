// configs: value value-cegar symex default
// posix_memalign without a body (engine/frontend, posixMemalign): EINVAL
// for an alignment that is not a power of two multiple of sizeof(void *),
// else malloc's block (which may be NULL in the CBMC dialect: ENOMEM,
// *memptr unchanged). The adversarial case: the allocation may fail
// (FALSE, confirmed by the replay), and the block is writable.
#include <stddef.h>

int posix_memalign(void **memptr, size_t alignment, size_t size);
int nondet_int(void);

int main(void) {
	void *p = 0;
	int r = posix_memalign(&p, 16, 8);
	if (r == 0) {
		__CPROVER_assert(p != 0, "allocated"); // want TRUE
		*(char *)p = 1;
		__CPROVER_assert(*(char *)p == 1, "writable"); // want TRUE
	} else {
		__CPROVER_assert(p == 0 && r == 12, "unchanged on failure"); // want TRUE
	}
	if (nondet_int())
		__CPROVER_assert(r == 0, "may fail"); // want FALSE
	void *q = 0;
	__CPROVER_assert(posix_memalign(&q, 12, 8) == 22 && q == 0, "bad alignment"); // want TRUE
	return 0;
}

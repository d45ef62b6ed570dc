// configs: value value-cegar symex-cegar predicate-cegar bmc default
// offsetof with an index that is not a constant (a GCC extension that
// aws-c-common's strings use: offsetof(struct aws_string, bytes[len + 1]))
// and the classic definition it stands for, the address of a member of
// a struct at NULL converted to an integer: an address of no object is
// its integer, the offset; gcc computes both so. The FALSE is confirmed
// by the concrete replay and fails in the gcc-compiled program for
// len = 4 (the adversary's nondet_uint returns CASE).
// symex excludes paths: the value analysis's symbolic mode takes the
// address of a member of a struct at NULL with a symbolic index as an
// unknown integer; the SMT encoding computes it, and rules the error
// paths out.
// adversary fails: 4
// adversary holds: 0 3 5 99 100
#include <stddef.h>
#include <assert.h>

struct str {
	int len;
	unsigned char bytes[1];
};

unsigned nondet_uint(void);

int main(void) {
	unsigned len = nondet_uint();
	if (len >= 100)
		return 0;
	size_t size = offsetof(struct str, bytes[len + 1]);
	assert(size == sizeof(int) + len + 1); // want TRUE
	size_t classic = (size_t)&((struct str *)0)->bytes[len];
	assert(classic == size - 1); // want TRUE
	assert(size != 9); // want FALSE
	return 0;
}

/* adversary:
#include <stdlib.h>
unsigned nondet_uint(void) { const char *c = getenv("CASE"); return c ? (unsigned)atoi(c) : 0; }
*/
